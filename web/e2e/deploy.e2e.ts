// Deploy, then browse the bucket: `stillpoint deploy` publishes the demo build to a real S3
// server (moto, installed by `make s3-server`), and Chromium loads the home page and an article
// from the bucket's HTTP endpoint through a static-hosting front (`/x` → `/bucket/x.html`),
// the way a CDN or a bucket website serves it.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launch, type Session, watchedPage } from './browser.ts';
import { stillpointBin } from './global-setup.ts';

const motoServer = process.env.STILLPOINT_MOTO_SERVER;
if (!motoServer && process.env.CI === 'true') {
  throw new Error('STILLPOINT_MOTO_SERVER is not set under CI=true: run `make e2e`');
}
if (!motoServer) {
  console.warn('\n*** SKIPPED deploy.e2e.ts: set STILLPOINT_MOTO_SERVER (`make s3-server`) ***\n');
}

const BUCKET = 'stillpoint-site';

function freePort(): Promise<number> {
  return new Promise((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => ok(port));
    });
  });
}

async function waitFor(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** The object key a static host serves for a URL path. */
function keyFor(path: string): string {
  const p = decodeURIComponent(path.split('?')[0] ?? '/');
  const last = p.split('/').pop() ?? '';
  if (p.endsWith('/')) return `${p}index.html`;
  return last.includes('.') ? p : `${p}.html`;
}

/** Serves `GET /x` from `${s3}/${BUCKET}/…`, passing the stored headers through; 404.html otherwise. */
function front(s3: string): Promise<Server> {
  const server = createServer((req, res) => {
    const forward = (key: string, notFound: boolean) => {
      const up = request(`${s3}/${BUCKET}${key}`, { method: req.method }, (r) => {
        if (r.statusCode === 404 && !notFound) {
          r.resume();
          forward('/404.html', true);
          return;
        }
        const headers: Record<string, string> = {};
        for (const h of ['content-type', 'cache-control', 'content-encoding', 'etag', 'content-length']) {
          const v = r.headers[h];
          if (typeof v === 'string') headers[h] = v;
        }
        res.writeHead(notFound ? 404 : (r.statusCode ?? 502), headers);
        r.pipe(res);
      });
      up.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      up.end();
    };
    forward(keyFor(req.url ?? '/'), false);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

describe.skipIf(!motoServer)('deploy', () => {
  let moto: ChildProcess;
  let web: Server;
  let base: string;
  let session: Session;

  beforeAll(async () => {
    const port = await freePort();
    const s3 = `http://127.0.0.1:${port}`;
    moto = spawn(motoServer as string, ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
    await waitFor(s3);
    const made = await fetch(`${s3}/${BUCKET}`, { method: 'PUT' });
    expect(made.status).toBe(200);
    // Public read, as a bucket that hosts a website is set up (docs/deploy.md).
    const policy = {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: `arn:aws:s3:::${BUCKET}/*` }],
    };
    const public_ = await fetch(`${s3}/${BUCKET}?policy`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(policy),
    });
    expect(public_.status).toBe(200);
    const env = {
      ...process.env,
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_REGION: 'us-east-1',
      AWS_ENDPOINT_URL: s3,
    };
    const deployed = spawnSync(stillpointBin(), ['deploy', inject('distDir')], { encoding: 'utf8', env });
    expect(deployed.stderr).toBe('');
    expect(deployed.status).toBe(0);
    expect(deployed.stdout).toMatch(
      /^Deploying site \S+ to s3:\/\/stillpoint-site at [^\n]+\nDeployed to s3:\/\/stillpoint-site: uploaded \d+ files/,
    );
    web = await front(s3);
    base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    session = await launch();
  });
  afterAll(async () => {
    await session?.close();
    web?.close();
    moto?.kill('SIGTERM');
  });

  const pages: [string, string][] = [
    ['/', 'Guided Meditations for a Calmer You | Stillpoint'],
    ['/articles/box-breathing-step-by-step', 'Box Breathing: A Step-by-Step Guide for Stressful Moments | Stillpoint'],
  ];
  for (const [path, title] of pages) {
    it(`loads ${path} from the bucket with no console errors`, async () => {
      const { page, errors } = await watchedPage(session);
      const response = await page.goto(base + path, { waitUntil: 'networkidle' });
      expect(response?.status()).toBe(200);
      expect(response?.headers()['cache-control']).toBe('public, max-age=0, must-revalidate');
      expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8');
      expect(await page.title()).toBe(title);
      await expect.poll(() => page.locator('h1').count()).toBe(1);
      await page.locator('#sp-header button').first().waitFor();
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it('serves hashed assets as immutable', async () => {
    const { page } = await watchedPage(session);
    const response = await page.goto(base, { waitUntil: 'domcontentloaded' });
    const html = (await response?.text()) ?? '';
    const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
    expect(asset).toBeDefined();
    const r = await fetch(base + asset);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(r.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    await page.close();
  });
});
