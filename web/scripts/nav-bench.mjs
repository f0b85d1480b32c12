// Time from click to rendered article, client-side navigation versus a full page load, on the
// demo site in Chromium, measured with the performance API (median of N runs), and the bytes each
// navigation fetches.
//
//   node scripts/nav-bench.mjs [--runs 20] [--latency MS] [--down KBIT] [--base URL]
//
// Without --base it builds examples/demo with the release binary (STILLPOINT_BIN, default
// ../target/release/stillpoint; web bundle STILLPOINT_WEB, default ./dist) and serves it on
// 127.0.0.1. --latency/--down emulate a slower network (Chromium's network conditions).
//
// Each run starts on the home page (HTTP cache warm, service worker blocked so the runtime alone is
// measured) and clicks a link to a different article:
// - full load: the click reaches no runtime (stopped in the capture phase), the browser loads the
//   document; rendered = its first contentful paint (the server HTML holds the article);
// - client-side, cold: Save-Data on, so nothing was prefetched; rendered = the first frame after
//   the article's h1 is in the DOM;
// - client-side, prefetched: the pointer rests on the link first (hover prefetch), then clicks.
// Click time is the click event's timeStamp; all times are on the performance timeline.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from './chromium.mjs';

const web = resolve(import.meta.dirname, '..');
const repo = resolve(web, '..');
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    latency: { type: 'string', default: '0' },
    down: { type: 'string', default: '0' },
    base: { type: 'string' },
  },
});
const RUNS = Number(args.runs);
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const BIN = process.env.STILLPOINT_BIN ?? join(repo, 'target/release/stillpoint');

/** Builds and serves the demo; resolves with its base URL and a stop function. */
async function serveDemo() {
  const work = mkdtempSync(join(tmpdir(), 'stillpoint-bench-'));
  const out = join(work, 'dist');
  const built = spawnSync(BIN, ['build', join(repo, 'examples/demo'), '--out', out], {
    encoding: 'utf8',
    env: { ...process.env, STILLPOINT_WEB: process.env.STILLPOINT_WEB ?? join(web, 'dist') },
  });
  if (built.status !== 0) throw new Error(`stillpoint build failed:\n${built.stderr}`);
  const server = spawn(BIN, ['serve', out, '--host', '127.0.0.1', '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise((ok, fail) => {
    let log = '';
    server.stderr.on('data', (chunk) => {
      log += chunk;
      const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) ok(m[1]);
    });
    server.on('exit', (code) => fail(new Error(`stillpoint serve exited (${code}):\n${log}`)));
  });
  return {
    url,
    stop() {
      server.kill('SIGTERM');
      rmSync(work, { recursive: true, force: true });
    },
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** In every document: remember the click's time; in full-load mode, keep the runtime from seeing it. */
const clickProbe = (full) => `
  addEventListener('click', (event) => {
    sessionStorage.setItem('bench:click', String(performance.timeOrigin + event.timeStamp));
    ${full ? 'event.stopPropagation();' : ''}
  }, true);
  performance.setResourceTimingBufferSize(5000);
`;

const SAVE_DATA = `Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => ({ effectiveType: '4g', saveData: true }) });`;

async function newPage(browser, { full, saveData }) {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
  await context.addInitScript(clickProbe(full));
  if (saveData) await context.addInitScript(SAVE_DATA);
  const page = await context.newPage();
  if (Number(args.latency) > 0 || Number(args.down) > 0) {
    const cdp = await context.newCDPSession(page);
    const bytesPerSecond = (Number(args.down) * 1000) / 8;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: Number(args.latency),
      downloadThroughput: bytesPerSecond > 0 ? bytesPerSecond : -1,
      uploadThroughput: -1,
    });
  }
  return { context, page };
}

/**
 * What went over the network for a navigation to `href` since `since` (epoch ms): same-origin
 * requests with their bytes (headers included), leaving out other pages' prefetches.
 */
function fetchedSince(page, since, href) {
  return page.evaluate(
    ([t, target]) => {
      const otherPageData = (url) => {
        const path = new URL(url).pathname;
        return /^\/page-data\/(?!sq\/|app-data)/.test(path) && path !== `/page-data${target}/page-data.json`;
      };
      const entries = performance
        .getEntriesByType('resource')
        .filter((e) => performance.timeOrigin + e.startTime >= t && e.name.startsWith(location.origin));
      const list = entries.map((e) => ({ url: e.name, bytes: e.transferSize }));
      const navigation = performance.getEntriesByType('navigation')[0];
      if (navigation && performance.timeOrigin >= t)
        list.push({ url: navigation.name, bytes: navigation.transferSize });
      return list.filter((r) => r.bytes > 0 && !otherPageData(r.url));
    },
    [since, href],
  );
}

async function waitForHome(page, base) {
  await page.waitForFunction(() => document.body.dataset.template === 'Home');
  if (page.url() !== `${base}/`) throw new Error(`expected the home page, at ${page.url()}`);
}

async function measureFull(browser, base, targets) {
  const { context, page } = await newPage(browser, { full: true, saveData: true });
  const times = [];
  const fetched = [];
  await page.goto(`${base}/`, { waitUntil: 'load' });
  for (const { href } of targets) {
    await page.goto(`${base}/`, { waitUntil: 'load' });
    await page.locator(`#sp-page a[href="${href}"]`).first().click();
    await page.waitForURL(base + href, { waitUntil: 'commit' });
    const result = await page.evaluate(
      () =>
        new Promise((resolve) => {
          new PerformanceObserver((list) => {
            const fcp = list.getEntriesByName('first-contentful-paint')[0];
            if (fcp)
              resolve({
                click: Number(sessionStorage.getItem('bench:click')),
                rendered: performance.timeOrigin + fcp.startTime,
              });
          }).observe({ type: 'paint', buffered: true });
        }),
    );
    times.push(result.rendered - result.click);
    await page.waitForLoadState('load');
    await page.waitForFunction(() => document.querySelector('#sp-header button'));
    fetched.push(await fetchedSince(page, result.click, href));
  }
  await context.close();
  return { times, fetched };
}

async function measureClient(browser, base, targets, { prefetch }) {
  const { context, page } = await newPage(browser, { full: false, saveData: !prefetch });
  const times = [];
  const fetched = [];
  await page.goto(`${base}/`, { waitUntil: 'load' });
  await page.waitForFunction(() => document.documentElement.dataset.navigation === 'ready');
  await page.evaluate(() => {
    window.benchMarker = 'same document';
  });
  for (const { href, title } of targets) {
    await waitForHome(page, base);
    const link = page.locator(`#sp-page a[href="${href}"]`).first();
    await link.scrollIntoViewIfNeeded();
    const start = await page.evaluate(() => performance.timeOrigin + performance.now());
    if (prefetch) {
      // The viewport prefetch may have fetched it already; otherwise the hover does.
      const url = `${base}/page-data${href}/page-data.json`;
      const done = () => page.evaluate((u) => performance.getEntriesByName(u).length > 0, url);
      if (!(await done())) {
        await link.hover();
        await page.waitForFunction((u) => performance.getEntriesByName(u).length > 0, url);
      }
    }
    await page.evaluate((expected) => {
      window.benchRendered = new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          if (document.querySelector('#sp-page h1')?.textContent === expected) {
            observer.disconnect();
            requestAnimationFrame(() => resolve(performance.timeOrigin + performance.now()));
          }
        });
        observer.observe(document.getElementById('sp-page'), { childList: true, subtree: true, characterData: true });
      });
    }, title);
    await link.click();
    const rendered = await page.evaluate(() => window.benchRendered);
    const click = await page.evaluate(() => Number(sessionStorage.getItem('bench:click')));
    if ((await page.evaluate(() => window.benchMarker)) !== 'same document') {
      throw new Error(`the navigation to ${href} loaded a document`);
    }
    times.push(rendered - click);
    // Everything the navigation fetched, including the hover prefetch just before the click.
    fetched.push(await fetchedSince(page, start, href));
    await page.goBack();
  }
  await context.close();
  return { times, fetched };
}

async function gzipBytes(urls) {
  let total = 0;
  for (const url of urls) total += gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer()), { level: 6 }).length;
  return total;
}

const demo = args.base ? { url: args.base, stop() {} } : await serveDemo();
const base = demo.url;
const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
try {
  const probe = await browser.newPage();
  await probe.goto(`${base}/`);
  const hrefs = await probe.$$eval('#sp-page a[href^="/articles/"]', (as) => [
    ...new Set(as.map((a) => a.getAttribute('href'))),
  ]);
  await probe.close();
  if (hrefs.length < RUNS)
    throw new Error(`the home page links ${hrefs.length} articles; --runs ${RUNS} needs as many`);
  const targets = [];
  for (const href of hrefs.slice(0, RUNS)) {
    const data = await (await fetch(`${base}/page-data${href}/page-data.json`)).json();
    targets.push({ href, title: data.result.pageContext.title });
  }

  const results = {
    'full page load': await measureFull(browser, base, targets),
    'client-side, cold': await measureClient(browser, base, targets, { prefetch: false }),
    'client-side, prefetched on hover': await measureClient(browser, base, targets, { prefetch: true }),
  };
  const network =
    Number(args.latency) || Number(args.down)
      ? `latency ${args.latency} ms, down ${args.down || '∞'} kbit/s`
      : 'loopback, no throttling';
  console.log(`Click → rendered article, ${RUNS} articles from the home page, Chromium, ${network}`);
  console.log(
    'mode'.padEnd(34),
    'median ms'.padStart(10),
    'min'.padStart(7),
    'max'.padStart(7),
    'bytes/nav'.padStart(10),
    'gzip'.padStart(8),
    'requests'.padStart(9),
  );
  for (const [mode, { times, fetched }] of Object.entries(results)) {
    const bytes = median(fetched.map((list) => list.reduce((sum, r) => sum + r.bytes, 0)));
    const requests = median(fetched.map((list) => list.length));
    // The same files gzip-compressed (the server sends them as they are on disk).
    const typical = fetched[Math.floor(fetched.length / 2)] ?? [];
    const gz = await gzipBytes(typical.map((r) => r.url));
    console.log(
      mode.padEnd(34),
      median(times).toFixed(1).padStart(10),
      Math.min(...times)
        .toFixed(1)
        .padStart(7),
      Math.max(...times)
        .toFixed(1)
        .padStart(7),
      String(bytes).padStart(10),
      String(gz).padStart(8),
      String(requests).padStart(9),
    );
  }
  const firstClient = results['client-side, cold'].fetched[0] ?? [];
  console.log('first cold client-side navigation fetched:', firstClient.map((r) => new URL(r.url).pathname).join(', '));
  const laterClient = results['client-side, cold'].fetched[1] ?? [];
  console.log('a later one fetched:', laterClient.map((r) => new URL(r.url).pathname).join(', '));
} finally {
  await browser.close();
  demo.stop();
}
