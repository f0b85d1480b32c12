// Builds the demo site with the release binary into a temporary directory and serves it with
// `stillpoint serve` on a free loopback port for the whole e2e run.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    distDir: string;
  }
}

const repo = resolve(import.meta.dirname, '../..');

export function stillpointBin(): string {
  return process.env.STILLPOINT_BIN ?? join(repo, 'target/release/stillpoint');
}

/**
 * Stops a `stillpoint serve` or `dev` with SIGINT and waits until it has exited: `dev` saves its
 * build cache into the site as it stops, so the site may be removed only after that.
 */
export async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  child.kill('SIGINT');
  await exited;
}

/** Starts `stillpoint serve DIR` on a free port; resolves with its base URL once it listens. */
export function serve(dir: string): Promise<{ url: string; server: ChildProcess }> {
  const server = spawn(stillpointBin(), ['serve', dir, '--host', '127.0.0.1', '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((ok, fail) => {
    let log = '';
    const timer = setTimeout(() => fail(new Error(`stillpoint serve did not start:\n${log}`)), 20_000);
    server.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m?.[1]) {
        clearTimeout(timer);
        ok({ url: m[1], server });
      }
    });
    server.on('exit', (code) => fail(new Error(`stillpoint serve exited (${code}):\n${log}`)));
  });
}

export default async function setup(project: TestProject): Promise<() => void> {
  const work = mkdtempSync(join(tmpdir(), 'stillpoint-e2e-'));
  const dist = join(work, 'dist');
  const built = spawnSync(stillpointBin(), ['build', join(repo, 'examples/demo'), '--out', dist], {
    encoding: 'utf8',
    // The image cache the Rust tests share (entries are named by content): after them, the demo's
    // photographs are already processed.
    env: {
      ...process.env,
      STILLPOINT_WEB: process.env.STILLPOINT_WEB ?? join(repo, 'web/dist'),
      STILLPOINT_IMAGE_CACHE: process.env.STILLPOINT_IMAGE_CACHE ?? join(repo, 'target/test-image-cache'),
    },
  });
  if (built.status !== 0) {
    throw new Error(`stillpoint build failed:\n${built.stderr}`);
  }
  const { url, server } = await serve(dist);
  project.provide('baseURL', url);
  project.provide('distDir', dist);
  return () => {
    server.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  };
}
