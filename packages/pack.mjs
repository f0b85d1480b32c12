#!/usr/bin/env node
// node packages/pack.mjs --version X.Y.Z --binary PATH --target TRIPLE --out DIR
//
// Stages a copy of the npm packages under DIR, stamps one version on all of them and on their
// references to each other, puts the executable into the platform package for TRIPLE and packs
// `stillpoint`, `create-stillpoint` and that platform package into DIR.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));

function fail(message) {
  console.error(`pack.mjs: ${message}`);
  process.exit(1);
}

let opts;
try {
  ({ values: opts } = parseArgs({
    options: {
      version: { type: 'string' },
      binary: { type: 'string' },
      target: { type: 'string' },
      out: { type: 'string' },
    },
  }));
} catch (err) {
  fail(err.message);
}
for (const name of ['version', 'binary', 'target', 'out']) {
  if (!opts[name]) fail(`--${name} is required (--version X.Y.Z --binary PATH --target TRIPLE --out DIR)`);
}

// semver.org's regular expression.
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
const version = opts.version;
if (!SEMVER.test(version)) fail(`--version ${version} is not a semver version like 1.2.3 or 1.2.3-rc.1`);

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const writeJson = (file, value) => fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

// The platform packages are the folders whose package.json names a Rust target.
const platforms = new Map();
for (const dir of fs.readdirSync(here)) {
  const file = path.join(here, dir, 'package.json');
  if (!fs.existsSync(file)) continue;
  const target = readJson(file).stillpoint?.target;
  if (target) platforms.set(target, dir);
}
const platformDir = platforms.get(opts.target);
if (!platformDir) {
  fail(`unknown --target ${opts.target}; known targets: ${[...platforms.keys()].join(', ')}`);
}

const binary = path.resolve(opts.binary);
if (!fs.statSync(binary, { throwIfNoEntry: false })?.isFile()) fail(`--binary ${binary}: no such file`);
checkExecutable(binary, opts.target);

const out = path.resolve(opts.out);
const staging = path.join(out, 'staging');
fs.rmSync(staging, { recursive: true, force: true });
fs.mkdirSync(staging, { recursive: true });

const names = ['stillpoint', 'create-stillpoint', ...platforms.values()];
for (const name of names) {
  const dest = path.join(staging, name);
  fs.cpSync(path.join(here, name), dest, {
    recursive: true,
    // An executable left in a source folder by hand must not slip into another version's package.
    filter: (src) => path.relative(path.join(here, name), src) !== 'bin' || name === 'stillpoint',
  });
  const file = path.join(dest, 'package.json');
  const pkg = readJson(file);
  pkg.version = version;
  for (const deps of [pkg.dependencies, pkg.optionalDependencies]) {
    for (const dep of Object.keys(deps ?? {})) {
      if (names.includes(dep)) deps[dep] = version;
    }
  }
  writeJson(file, pkg);
}

const exe = opts.target.includes('windows') ? 'stillpoint.exe' : 'stillpoint';
const binDir = path.join(staging, platformDir, 'bin');
fs.mkdirSync(binDir, { recursive: true });
fs.copyFileSync(binary, path.join(binDir, exe));
fs.chmodSync(path.join(binDir, exe), 0o755);

for (const name of ['stillpoint', 'create-stillpoint', platformDir]) {
  const json = execFileSync('npm', ['pack', '--json', '--pack-destination', out], {
    cwd: path.join(staging, name),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    // npm is npm.cmd on Windows, which Node only spawns through a shell.
    shell: process.platform === 'win32',
  });
  console.log(path.join(out, JSON.parse(json)[0].filename));
}

// Refuses an executable built for another platform: its header names the format and the CPU.
function checkExecutable(file, target) {
  const head = Buffer.alloc(4096);
  const fd = fs.openSync(file, 'r');
  fs.readSync(fd, head, 0, head.length, 0);
  fs.closeSync(fd);
  const arm = target.startsWith('aarch64');
  let ok;
  if (target.includes('linux')) {
    // ELF, 64-bit, e_machine 0x3e (x86-64) or 0xb7 (AArch64).
    ok = head.readUInt32BE(0) === 0x7f454c46 && head[4] === 2 && head.readUInt16LE(18) === (arm ? 0xb7 : 0x3e);
  } else if (target.includes('darwin')) {
    // Mach-O 64-bit, cputype CPU_TYPE_ARM64 or CPU_TYPE_X86_64.
    ok = head.readUInt32LE(0) === 0xfeedfacf && head.readUInt32LE(4) === (arm ? 0x0100000c : 0x01000007);
  } else {
    // PE: "MZ", then at the offset in 0x3c "PE\0\0" and the machine 0x8664 (x64).
    const pe = head.readUInt32LE(0x3c);
    ok = head.toString('latin1', 0, 2) === 'MZ' && pe < 4090 && head.readUInt32BE(pe) === 0x50450000 && head.readUInt16LE(pe + 4) === 0x8664;
  }
  if (!ok) fail(`--binary ${file} is not an executable for ${target}`);
}
