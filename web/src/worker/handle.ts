// One request line in, one answer out, and the answer as written. Kept apart from worker.ts (the
// stdin/stdout plumbing) so the tests can drive it without a process.
import { renderPage, renderSlices } from '../entry-server';
import type { WorkerAnswer, WorkerRequest, WorkerResponse } from '../protocol';

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Answers one JSON line; null for a blank line. Never throws. */
export function handleLine(line: string): WorkerAnswer | null {
  if (line.trim() === '') return null;
  let request: WorkerRequest;
  try {
    request = JSON.parse(line) as WorkerRequest;
  } catch (error) {
    return { id: -1, type: 'error', message: `invalid request (not JSON): ${describe(error)}` };
  }
  const id = typeof request?.id === 'number' ? request.id : -1;
  try {
    switch (request.type) {
      case 'render':
        return { id, type: 'rendered', html: renderPage(request.template, request.props) };
      case 'slices':
        return { id, type: 'slices', ...renderSlices(request.site) };
      default:
        return {
          id,
          type: 'error',
          message: `unknown request type ${JSON.stringify((request as { type?: unknown }).type)}`,
        };
    }
  } catch (error) {
    const what =
      request.type === 'render' ? `template ${request.template} (page ${request.props?.path ?? '?'})` : 'slices';
    console.error(`render of ${what} failed:`, error);
    return { id, type: 'error', message: `render of ${what} failed: ${describe(error)}` };
  }
}

/** The text the worker writes for an answer: its JSON line, then a rendered page's HTML as it is. */
export function encodeAnswer(answer: WorkerAnswer): string {
  if (answer.type !== 'rendered') return `${JSON.stringify(answer)}\n`;
  const line: WorkerResponse = { id: answer.id, type: 'rendered', bytes: Buffer.byteLength(answer.html) };
  return `${JSON.stringify(line)}\n${answer.html}`;
}
