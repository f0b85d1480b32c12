// `stillpoint serve DIR` on a free loopback port, for the scripts that measure or photograph a
// built site (lighthouse.mjs, theme-screenshots.mjs). Resolves with its base URL once it listens.
import { spawn } from 'node:child_process';

/** @returns {Promise<{url: string, server: import('node:child_process').ChildProcess}>} */
export function serve(bin, dir) {
  const server = spawn(bin, ['serve', dir, '--host', '127.0.0.1', '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((ok, fail) => {
    let log = '';
    const timer = setTimeout(() => fail(new Error(`stillpoint serve did not start:\n${log}`)), 20_000);
    server.stderr.on('data', (chunk) => {
      log += chunk;
      const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        ok({ url: m[1], server });
      }
    });
    server.on('exit', (code) => fail(new Error(`stillpoint serve exited (${code}):\n${log}`)));
  });
}
