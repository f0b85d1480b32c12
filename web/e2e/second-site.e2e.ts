// The second example site (examples/second-site, Nightwater) holds the demo's guarantees with its
// own theme, web font, pages and links: no serious or critical axe-core violation at 1280 and
// 375 px in the light and dark schemes, one h1, no console error, and no W3C Nu HTML checker
// error, on its home page, an article, a category, the contact page, the page with a route of its
// own and the 404 page.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, type Session, watchedPage } from './browser.ts';
import { isNotFoundStatusNoise, WIDTHS } from './pages.ts';
import { buildAndServe, SECOND_SITE, type ServedSite } from './sites.ts';

/** One page of each kind the second site has, with the file the build writes for it. */
const PAGES = [
  { kind: 'home', path: '/', file: 'index.html', status: 200 },
  {
    kind: 'article',
    path: '/articles/twenty-minute-yoga-nidra',
    file: 'articles/twenty-minute-yoga-nidra.html',
    status: 200,
  },
  { kind: 'category', path: '/yoga-nidra', file: 'yoga-nidra.html', status: 200 },
  { kind: 'subcategory', path: '/sleep/wakeful-nights', file: 'sleep/wakeful-nights.html', status: 200 },
  { kind: 'contact', path: '/info/contact', file: 'info/contact.html', status: 200 },
  { kind: 'routed page', path: '/podcast', file: 'podcast.html', status: 200 },
  { kind: 'not-found', path: '/no/such/page', file: '404.html', status: 404 },
] as const;

const vnuJar = String(createRequire(import.meta.url)('vnu-jar'));

let site: ServedSite;
let session: Session;

beforeAll(async () => {
  site = await buildAndServe(SECOND_SITE);
  session = await launch();
}, 180_000);
afterAll(async () => {
  await session?.close();
  site?.close();
});

describe.each(WIDTHS)('axe at %i px', (width) => {
  describe.each(['light', 'dark'] as const)('in the %s scheme', (scheme) => {
    for (const { kind, path, status } of PAGES) {
      it(`${kind} (${path}) has no serious or critical violations and one h1`, async () => {
        const { page, errors } = await watchedPage(session);
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme: scheme });
        const response = await page.goto(site.url + path, { waitUntil: 'networkidle' });
        expect(response?.status()).toBe(status);
        await page.evaluate(async () => {
          await document.fonts.ready;
        });
        expect(await page.locator('h1').count()).toBe(1);
        const { violations } = await new AxeBuilder({ page }).analyze();
        const serious = violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        expect(serious).toEqual([]);
        expect(errors.filter((e) => !isNotFoundStatusNoise(e))).toEqual([]);
        await page.close();
      });
    }
  });
});

describe('HTML validity (W3C Nu checker)', () => {
  it('finds no error on the second site’s pages', () => {
    const files = PAGES.map(({ file }) => join(site.dist, file));
    for (const file of files) expect(existsSync(file), file).toBe(true);
    const run = spawnSync('java', ['-jar', vnuJar, '--format', 'json', ...files], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(run.error, 'java must be installed (make java)').toBeUndefined();
    const report = JSON.parse(run.stderr) as {
      messages: { type: string; subType?: string; url?: string; lastLine?: number; message: string }[];
    };
    const errors = report.messages
      .filter((m) => m.type === 'error' || (m.type === 'non-document-error' && m.subType !== 'info'))
      .map((m) => `${m.url?.replace(`file:${site.dist}`, '')}:${m.lastLine ?? '?'}: ${m.message}`);
    expect(errors).toEqual([]);
    expect(run.status).toBe(0);
  }, 120_000);

  it('the stylesheet the theme adds is valid CSS for the checker too', () => {
    const run = spawnSync('java', ['-jar', vnuJar, '--css', '--format', 'json', join(SECOND_SITE, 'static/site.css')], {
      encoding: 'utf8',
    });
    const report = JSON.parse(run.stderr) as { messages: { type: string; message: string; lastLine?: number }[] };
    expect(report.messages.filter((m) => m.type === 'error').map((m) => `${m.lastLine}: ${m.message}`)).toEqual([]);
  }, 60_000);
});
