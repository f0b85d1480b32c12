// The Node SSR worker. Protocol (src/protocol.ts): print `{"type":"ready"}`, then answer each JSON
// line on stdin, in order, with one JSON line on stdout (followed by the HTML of a rendered page).
// stdout carries nothing else; logs go to stderr. The process ends when stdin closes.
import { encodeAnswer, handleLine } from './worker/handle';

// Anything a component or library prints must not corrupt the protocol stream.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

function answer(line: string): void {
  const response = handleLine(line);
  if (response) process.stdout.write(encodeAnswer(response));
}

process.stdout.write(`${JSON.stringify({ type: 'ready' })}\n`);

// Lines are cut from the raw chunks: the builder writes ASCII, which decodes to the one-byte
// strings V8 parses fastest (readline would add a decoder and a regular expression per chunk).
let partial: Buffer[] = [];
process.stdin.on('data', (chunk: Buffer) => {
  let start = 0;
  for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
    const piece = chunk.subarray(start, end);
    const line = partial.length === 0 ? piece : Buffer.concat([...partial, piece]);
    partial = [];
    answer(line.toString('utf8'));
    start = end + 1;
  }
  if (start < chunk.length) partial.push(chunk.subarray(start));
});
process.stdin.on('end', () => {
  if (partial.length > 0) answer(Buffer.concat(partial).toString('utf8'));
});
