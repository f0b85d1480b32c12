#!/usr/bin/env node
// Runs the native `stillpoint` executable from the platform package that npm installed
// beside this one (an optional dependency chosen by its `os`, `cpu` and `libc` fields).
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const PACKAGES = {
  'linux x64': 'stillpoint-linux-x64-gnu',
  'linux arm64': 'stillpoint-linux-arm64-gnu',
  'darwin x64': 'stillpoint-darwin-x64',
  'darwin arm64': 'stillpoint-darwin-arm64',
  'win32 x64': 'stillpoint-win32-x64-msvc',
};

function fail(message) {
  process.stderr.write(`stillpoint: ${message}\n`);
  process.exit(1);
}

function isMusl() {
  // The same test as detect-libc: ldd names its C library; Node's own report is the fallback.
  try {
    const ldd = fs.readFileSync('/usr/bin/ldd', 'latin1');
    if (ldd.includes('musl')) return true;
    if (ldd.includes('GNU C Library')) return false;
  } catch {}
  try {
    return !process.report.getReport().header.glibcVersionRuntime;
  } catch {
    return false;
  }
}

function binaryPath() {
  if (process.env.STILLPOINT_BINARY) return process.env.STILLPOINT_BINARY;
  const platform = `${process.platform} ${process.arch}`;
  const pkg = PACKAGES[platform];
  const supported = 'Linux x64 and arm64 (glibc), macOS x64 and arm64, Windows x64';
  if (!pkg) {
    fail(`there is no prebuilt executable for ${platform}. Supported: ${supported}.
Elsewhere, build it from source with Rust and point STILLPOINT_BINARY at it.`);
  }
  if (process.platform === 'linux' && isMusl()) {
    fail(`Linux with musl libc (Alpine, for example) is not supported: the executables are built
for glibc. Use a glibc-based system or image (Debian, Ubuntu, Fedora; node:20-bookworm-slim
rather than node:20-alpine), or build Stillpoint from source and set STILLPOINT_BINARY.`);
  }
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    fail(`the package ${pkg}, which holds the executable for ${platform}, is not installed.
npm installs it as an optional dependency of stillpoint; it is missing when:
  - optional dependencies were left out: npm install --no-optional or --omit=optional,
    omit=optional in .npmrc, NPM_CONFIG_OMIT=optional, yarn --ignore-optional;
  - the lockfile or node_modules was made on another OS or CPU: npm can leave the other
    platforms' packages out of a package-lock.json (npm/cli#4828), and a node_modules
    copied from another machine holds that machine's package.
Reinstall on this machine with optional dependencies: npm install --include=optional
(if it is still missing: rm -rf node_modules package-lock.json && npm install).`);
  }
  return path.join(dir, 'bin', process.platform === 'win32' ? 'stillpoint.exe' : 'stillpoint');
}

const binary = binaryPath();
// The render workers should run on the Node that runs this script, not whichever `node` is on PATH.
const env = { ...process.env };
if (!env.STILLPOINT_NODE) env.STILLPOINT_NODE = process.execPath;

const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit', env });

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const forward = (signal) => {
  // On Windows the console already sends Ctrl-C to the child, and kill() would end it abruptly.
  if (process.platform !== 'win32') child.kill(signal);
};
for (const signal of SIGNALS) process.on(signal, forward);

child.on('error', (err) => {
  fail(`cannot run ${binary}: ${err.message}`);
});

child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, so whoever waits on us sees what the child saw.
    for (const s of SIGNALS) process.removeListener(s, forward);
    process.exitCode = 128 + (os.constants.signals[signal] ?? 0);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
