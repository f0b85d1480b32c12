// The example sites beyond the demo that global-setup serves: each test file that needs one builds
// it into its own temporary directory with the binary under test and serves it on a free port.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve, stillpointBin } from './global-setup.ts';

export const repo = resolve(import.meta.dirname, '../..');

/** `examples/second-site`: Nightwater, with its own id, copy, pages, links and theme. */
export const SECOND_SITE = join(repo, 'examples/second-site');

export type ServedSite = { readonly url: string; readonly dist: string; close(): void };

/** Builds the site in `dir` (failing with the build's report) and serves the result. */
export async function buildAndServe(dir: string): Promise<ServedSite> {
  const work = mkdtempSync(join(tmpdir(), 'stillpoint-e2e-site-'));
  const dist = join(work, 'dist');
  const built = spawnSync(stillpointBin(), ['build', dir, '--out', dist], {
    encoding: 'utf8',
    env: { ...process.env, STILLPOINT_WEB: process.env.STILLPOINT_WEB ?? join(repo, 'web/dist') },
  });
  if (built.status !== 0) {
    rmSync(work, { recursive: true, force: true });
    throw new Error(`stillpoint build ${dir} failed:\n${built.stderr}`);
  }
  const { url, server } = await serve(dist);
  return {
    url,
    dist,
    close() {
      server.kill('SIGTERM');
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** The `[theme]` of a site's stillpoint.toml, as written (only what the theme tests compare). */
export type ThemeConfig = {
  readonly headingFont?: string;
  readonly bodyFont?: string;
  readonly radius?: string;
  readonly contentWidth?: string;
  readonly light: Readonly<Record<string, string>>;
  readonly dark: Readonly<Record<string, string>>;
  readonly fonts: readonly Readonly<Record<string, string>>[];
};

/**
 * Reads the `[theme]`, `[theme.light]`, `[theme.dark]` and `[[theme.fonts]]` tables of a
 * stillpoint.toml: the string keys only, which is all a theme has. A small reader rather than a
 * TOML dependency; the engine itself validates the file.
 */
export function readTheme(siteDir: string): ThemeConfig {
  const text = readFileSync(join(siteDir, 'stillpoint.toml'), 'utf8');
  const tables = new Map<string, Record<string, string>[]>();
  let current: Record<string, string> | null = null;
  for (const line of text.split('\n')) {
    const header = /^\s*(\[\[?)\s*([\w.]+)\s*\]\]?\s*(#.*)?$/.exec(line);
    if (header) {
      const name = header[2] ?? '';
      const list = tables.get(name) ?? [];
      if (header[1] === '[' && list.length > 0) {
        current = list[0] ?? null;
      } else {
        current = {};
        list.push(current);
      }
      tables.set(name, list);
      continue;
    }
    const pair = /^\s*(\w+)\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(line);
    if (pair && current) current[pair[1] ?? ''] = (pair[2] ?? '').replace(/\\(["\\])/g, '$1');
  }
  const theme = tables.get('theme')?.[0] ?? {};
  return {
    headingFont: theme.heading_font,
    bodyFont: theme.body_font,
    radius: theme.radius,
    contentWidth: theme.content_width,
    light: tables.get('theme.light')?.[0] ?? {},
    dark: tables.get('theme.dark')?.[0] ?? {},
    fonts: tables.get('theme.fonts') ?? [],
  };
}
