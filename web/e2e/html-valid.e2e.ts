// One built page of each kind checked by the W3C Nu HTML checker (npm `vnu-jar`, run with the
// machine's Java): no errors allowed. Warnings and notes (such as trailing slashes on void
// elements, which React writes) are reported by the checker but do not fail the test.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { PAGE_KINDS, SERVER_ERROR } from './pages.ts';

const dist = inject('distDir');
const vnuJar = String(createRequire(import.meta.url)('vnu-jar'));

type VnuMessage = { type: string; subType?: string; url?: string; lastLine?: number; message: string };

/** The built file for a site path: `/` → `index.html`, `/a/b` → `a/b.html`; the error pages are files of their own. */
function fileFor(path: string, kind: string): string {
  if (kind === 'not-found') return join(dist, '404.html');
  if (path.endsWith('.html')) return join(dist, path);
  return path === '/' ? join(dist, 'index.html') : join(dist, `${path}.html`);
}

describe('HTML validity (W3C Nu checker)', () => {
  it('finds no error on one page of each kind', () => {
    const files = [...PAGE_KINDS, SERVER_ERROR].map(({ path, kind }) => fileFor(path, kind));
    for (const file of files) expect(existsSync(file), file).toBe(true);

    const run = spawnSync('java', ['-jar', vnuJar, '--format', 'json', ...files], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(run.error, 'java must be installed (make java)').toBeUndefined();
    const report = JSON.parse(run.stderr) as { messages: VnuMessage[] };
    const errors = report.messages
      .filter((m) => m.type === 'error' || (m.type === 'non-document-error' && m.subType !== 'info'))
      .map((m) => `${m.url?.replace(`file:${dist}`, '')}:${m.lastLine ?? '?'}: ${m.message}`);
    expect(errors).toEqual([]);
    // The checker saw every file (a file it could not read would be a non-document error above).
    expect(run.status).toBe(0);
  }, 120_000);
});
