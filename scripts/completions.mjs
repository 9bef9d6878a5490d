// Regenerates the committed shell completion scripts and the man page from the
// BUILT CLI's command tree (run `npm run build` first):
//   completions/srs.bash, completions/_srs (zsh), completions/srs.fish, man/srs.1
// `node scripts/completions.mjs --check` only reports files that are out of date (exit 1).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin/srs.js');
if (!existsSync(join(root, 'dist/srs.js'))) {
  console.error('dist/ is missing: run "npm run build" first');
  process.exit(2);
}

const outputs = [
  ['completions/srs.bash', ['completion', 'bash']],
  ['completions/_srs', ['completion', 'zsh']],
  ['completions/srs.fish', ['completion', 'fish']],
  ['man/srs.1', ['completion', '--man']],
];

const check = process.argv.includes('--check');
let stale = 0;
for (const [file, args] of outputs) {
  // A clean environment: nothing the user configured may leak into generated files.
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: root, NO_COLOR: '1' } });
  if (r.status !== 0) {
    console.error(`srs ${args.join(' ')} failed (exit ${r.status}): ${r.stderr}`);
    process.exit(1);
  }
  const path = join(root, file);
  const old = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  if (old === r.stdout) continue;
  stale++;
  if (check) {
    console.error(`${file} is out of date`);
    continue;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, r.stdout);
  renameSync(`${path}.tmp`, path);
  console.log(`wrote ${file}`);
}
if (check && stale) {
  console.error('run: npm run build && node scripts/completions.mjs');
  process.exit(1);
}
if (!stale) console.log('completions and man page are up to date');
