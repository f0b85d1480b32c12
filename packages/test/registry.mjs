// node registry.mjs DIR: a read-only npm registry on 127.0.0.1 serving the tarballs in DIR, so
// that the install test runs `npm install stillpoint` as a user would, with no network. Prints
// its URL on the first line of stdout. Any package it has no tarball for is a 404, as the public
// registry answers for a platform package that is not published.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const dir = path.resolve(process.argv[2]);
const packuments = new Map();
const files = new Map();

function load(base) {
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.tgz'))) {
    const full = path.join(dir, file);
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', full, 'package/package.json'], { encoding: 'utf8' }));
    const bytes = fs.readFileSync(full);
    files.set(file, bytes);
    const { name, version } = manifest;
    const doc = packuments.get(name) ?? { name, 'dist-tags': {}, versions: {} };
    doc['dist-tags'].latest = version;
    doc.versions[version] = {
      ...manifest,
      _id: `${name}@${version}`,
      dist: {
        tarball: `${base}/-/${file}`,
        shasum: crypto.createHash('sha1').update(bytes).digest('hex'),
        integrity: `sha512-${crypto.createHash('sha512').update(bytes).digest('base64')}`,
      },
    };
    packuments.set(name, doc);
  }
}

const server = http.createServer((req, res) => {
  const url = decodeURIComponent(req.url.split('?')[0]);
  const tarball = url.startsWith('/-/') && files.get(url.slice(3));
  const doc = packuments.get(url.slice(1));
  if (tarball) {
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarball);
  } else if (doc) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
  } else {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
  }
  console.error(`${req.method} ${url} ${res.statusCode}`);
});
server.listen(0, '127.0.0.1', () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  load(base);
  console.log(base);
});
