// One built page of each kind checked by the W3C Nu HTML checker (npm `vnu-jar`, run with the
// machine's Java): no errors allowed. Warnings and notes (such as trailing slashes on void
// elements, which React writes) are reported by the checker but do not fail the test.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { stillpointBin } from './global-setup.ts';
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

/** The checker's errors for `files` (paths shown relative to `root`). */
function vnuErrors(files: string[], root: string): string[] {
  const run = spawnSync('java', ['-jar', vnuJar, '--format', 'json', ...files], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(run.error, 'java must be installed (make java)').toBeUndefined();
  const report = JSON.parse(run.stderr) as { messages: VnuMessage[] };
  return report.messages
    .filter((m) => m.type === 'error' || (m.type === 'non-document-error' && m.subType !== 'info'))
    .map((m) => `${m.url?.replace(`file:${root}`, '')}:${m.lastLine ?? '?'}: ${m.message}`);
}

describe('HTML validity (W3C Nu checker)', () => {
  it('finds no error on the page left at an old URL (an alias)', () => {
    const repo = resolve(import.meta.dirname, '../..');
    const work = mkdtempSync(join(tmpdir(), 'stillpoint-vnu-redirect-'));
    try {
      const site = join(work, 'site');
      cpSync(join(repo, 'crates/cli/tests/fixtures/minimal'), site, { recursive: true });
      const article = join(site, 'articles/body-scan.md');
      const text = readFileSync(article, 'utf8');
      writeFileSync(
        article,
        text.replace('slug: body-scan\n', 'slug: body-scan\naliases: [/2019/05/body-scan.html]\n'),
      );
      const built = spawnSync(stillpointBin(), ['build', site, '--out', join(work, 'dist')], {
        encoding: 'utf8',
        env: { ...process.env, STILLPOINT_WEB: process.env.STILLPOINT_WEB ?? join(repo, 'web/dist') },
      });
      expect(built.status, built.stderr).toBe(0);
      const page = join(work, 'dist/2019/05/body-scan.html');
      expect(readFileSync(page, 'utf8')).toContain('http-equiv="refresh"');
      expect(vnuErrors([page], join(work, 'dist'))).toEqual([]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 120_000);

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
