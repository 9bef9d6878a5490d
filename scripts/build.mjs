// Bundles src/ into dist/ with esbuild: one ESM entry plus lazily loaded chunks
// (each command's run module, the emulator, csv, ...), so start-up loads little.
import { readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';

// Start clean: stale chunks from earlier builds would otherwise ship in npm pack.
rmSync('dist', { recursive: true, force: true });
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
await build({
  // srs: the CLI; scoring and emulator: library entry points for benchmarks and embedding.
  entryPoints: { srs: 'src/index.ts', scoring: 'src/scoring/index.ts', emulator: 'src/emulator/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  sourcemap: 'linked',
  legalComments: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  define: { SRS_VERSION: JSON.stringify(pkg.version) },
  // CommonJS dependencies bundled into ESM need a real require.
  banner: { js: "import { createRequire as __srsCreateRequire } from 'node:module'; const require = __srsCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});

// `srs --version` answers from this file alone, without loading the CLI.
mkdirSync('dist', { recursive: true });
writeFileSync('dist/version.js', `export const VERSION = ${JSON.stringify(pkg.version)};\n`);

// `srs --help` answers from the help the command tree prints, captured here at build time.
const help = spawnSync(process.execPath, ['bin/srs.js', '--help'], { encoding: 'utf8', env: { ...process.env, SRS_NO_HELP_CACHE: '1', NO_COLOR: '1' } });
if (help.status !== 0) throw new Error(`capturing help failed: ${help.stderr}`);
writeFileSync('dist/help.txt', help.stdout);
