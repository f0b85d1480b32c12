#!/usr/bin/env node
// `npm create stillpoint [DIR] [-- --title TITLE --id ID]`: `stillpoint new DIR …`, DIR
// defaulting to my-site, through the stillpoint package's own launcher.
'use strict';

const { spawnSync } = require('node:child_process');

const args = process.argv.slice(2);
const OPTIONS_WITH_VALUES = new Set(['--title', '--id']);
let dir;
for (let i = 0; i < args.length; i++) {
  if (OPTIONS_WITH_VALUES.has(args[i])) i++;
  else if (!args[i].startsWith('-')) {
    dir = args[i];
    break;
  }
}
if (dir === undefined) {
  dir = 'my-site';
  args.unshift(dir);
}

const launcher = require.resolve('stillpoint/bin/stillpoint.js');
const result = spawnSync(process.execPath, [launcher, 'new', ...args], { stdio: 'inherit' });
if (result.error) {
  process.stderr.write(`create-stillpoint: cannot run ${launcher}: ${result.error.message}\n`);
  process.exit(1);
}
if (result.status !== 0) process.exit(result.status ?? 1);
if (args.includes('--help') || args.includes('-h')) process.exit(0);

// `stillpoint new` has printed check, build and serve; without a global install they need npx.
const cd = /^[\w./-]+$/.test(dir) ? dir : JSON.stringify(dir);
process.stdout.write(`
Those run as \`npx stillpoint …\`. To preview the site while you edit it (rebuilt on every save):
  cd ${cd}
  npx stillpoint dev .
`);
