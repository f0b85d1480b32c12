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

/**
 * Where a rendered page is encoded: the largest page so far at three bytes per UTF-16 unit (the
 * most UTF-8 needs), so a page is encoded in one pass, without first counting its bytes.
 */
let scratch = Buffer.allocUnsafeSlow(1 << 20);

/**
 * The bytes the worker writes for an answer: its JSON line, then a rendered page's HTML as it is.
 * A page's HTML is a long two-byte string (a page names its topics with emoji), so it is
 * converted once, straight to UTF-8: counting its bytes first and then writing the line and the
 * HTML as one string walked it three times, flattening it twice.
 */
export function encodeAnswer(answer: WorkerAnswer): Buffer {
  if (answer.type !== 'rendered') return Buffer.from(`${JSON.stringify(answer)}\n`);
  const { html } = answer;
  if (scratch.length < html.length * 3) scratch = Buffer.allocUnsafeSlow(html.length * 3);
  const bytes = scratch.write(html, 0, 'utf8');
  const line: WorkerResponse = { id: answer.id, type: 'rendered', bytes };
  const head = `${JSON.stringify(line)}\n`;
  const written = Buffer.allocUnsafe(head.length + bytes);
  written.write(head, 0, 'latin1');
  scratch.copy(written, head.length, 0, bytes);
  return written;
}
