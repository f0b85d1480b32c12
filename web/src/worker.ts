// The Node SSR worker. Protocol (src/protocol.ts): print `{"type":"ready"}`, then answer each JSON
// line on stdin with exactly one JSON line on stdout, in order. stdout carries nothing else; logs go
// to stderr. The process ends when stdin closes.
import { createInterface } from 'node:readline';
import type { WorkerResponse } from './protocol';
import { handleLine } from './worker/handle';

// Anything a component or library prints must not corrupt the protocol stream.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

function send(response: WorkerResponse): void {
  process.stdout.write(`${JSON.stringify(response)}\n`);
}

send({ type: 'ready' });

const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
lines.on('line', (line) => {
  const response = handleLine(line);
  if (response) send(response);
});
