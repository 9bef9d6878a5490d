// Bundles src/ into dist/ with esbuild: one ESM entry plus lazily loaded chunks
// (each command's run module, the emulator, csv, ...), so start-up loads little.
import { readFileSync, readdirSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
// Start clean: stale chunks from earlier builds would otherwise ship in npm pack.
rmSync('dist', { recursive: true, force: true });
// undici's client-h2.js loads node:http2 (and node:tls, node:crypto) when it loads;
// scripts/lazy-http2.cjs defers that to the first HTTP/2 connection. Its constants
// must be node:http2's own, and client-h2.js must use no other part of it.
const lazyHttp2 = {
  name: 'lazy-http2',
  setup(b) {
    b.onResolve({ filter: /^node:http2$/ }, (args) =>
      /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h2\.js$/.test(args.importer) ? { path: fileURLToPath(new URL('./lazy-http2.cjs', import.meta.url)) } : undefined,
    );
  },
};
{
  const shim = require('./lazy-http2.cjs');
  const real = require('node:http2').constants;
  for (const [k, v] of Object.entries(shim.constants)) {
    if (real[k] !== v) throw new Error(`scripts/lazy-http2.cjs: ${k} is ${JSON.stringify(v)}, node:http2 says ${JSON.stringify(real[k])}`);
  }
  const h2 = readFileSync(require.resolve('undici/lib/dispatcher/client-h2.js'), 'utf8');
  const used = new Set([...h2.matchAll(/\bhttp2\.(\w+)/g)].map((m) => m[1]));
  // The destructuring `const { constants: { ... } } = http2`: if undici rewrites it, this check must be rewritten too.
  const destructuring = /const \{\s*constants: \{([^}]*)\}\s*\} = http2/.exec(h2);
  if (!destructuring) throw new Error("undici's client-h2.js no longer reads http2.constants the way scripts/lazy-http2.cjs expects: check it");
  const constants = new Set([...destructuring[1].matchAll(/\b(HTTP2_\w+|NGHTTP2_\w+)\b/g)].map((m) => m[1]));
  if (constants.size === 0) throw new Error("found no http2.constants in undici's client-h2.js: check scripts/lazy-http2.cjs");
  for (const k of used) if (k !== 'connect') throw new Error(`undici's client-h2.js uses http2.${k}: extend scripts/lazy-http2.cjs`);
  for (const k of constants) if (!(k in shim.constants)) throw new Error(`undici's client-h2.js reads http2.constants.${k}: add it to scripts/lazy-http2.cjs`);
}
// undici carries three HTTP/1 parsers as base64 WebAssembly (~80 KB of source each) that
// srs only uses as fallbacks: llhttp without SIMD (for CPUs without it, or
// UNDICI_NO_WASM_SIMD=1) and milo (UNDICI_USE_MILO=1). Bundled, every networked command
// reads and loads them from the undici chunk (a third of it, ~2 ms); left out, undici
// requires them from node_modules/undici (a dependency) on the rare run that needs one.
// They must stay leaf modules (data only), or they would load a second copy of undici.
const UNDICI_FALLBACK_PARSERS = ['lib/llhttp/llhttp-wasm.js', 'lib/milo/simd.js', 'lib/milo/no-simd.js'];
{
  for (const f of UNDICI_FALLBACK_PARSERS) {
    const text = readFileSync(require.resolve(`undici/${f}`), 'utf8');
    const requires = [...text.matchAll(/require\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]).filter((r) => !r.startsWith('node:'));
    if (requires.length) throw new Error(`undici/${f} now requires ${requires.join(', ')}: it can no longer be left out of the bundle (see undiciFallbackParsers in scripts/build.mjs)`);
  }
}
const undiciFallbackParsers = {
  name: 'undici-fallback-parsers',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/(llhttp\/llhttp-wasm|milo\/(simd|no-simd))\.js$/ }, (args) => {
      if (!/[\\/]undici[\\/]lib[\\/]dispatcher$/.test(args.resolveDir)) return undefined;
      return { path: `undici/lib/${args.path.slice(3)}`, external: true };
    });
  },
};
// zod's namespace re-exports its error messages in 64 languages (z.locales, ~360 KB
// of the bundle); srs uses the English ones zod sets itself. Only `en` is kept: the
// contract chunk went from 767 to 403 KB, and loading it alone from 44 to 33 ms.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)$/.test(args.resolveDir) ? { path: join(args.resolveDir, '../locales/index.js'), namespace: 'zod-locales' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({ contents: 'export { default as en } from "./en.js";\n', resolveDir: dirname(args.path), loader: 'js' }));
  },
};
// Rules for the modules that use zod, checked here because breaking them fails nothing else:
// - zod/mini, not zod's classic API: the same schemas and checks, but classic's methods
//   (.optional(), .min(), ...) keep all of zod in the bundle. The zod chunk every networked
//   command loads was 767 KB with classic and all locales, 211 KB with classic and
//   English, and is 130 KB with zod/mini;
// - imported as a namespace (import * as z), so that esbuild keeps only the z.x used;
// - no locale but English (zodEnglishOnly leaves the others out).
let zodImporters = 0;
for (const file of readdirSync('src', { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.ts')) continue;
  const text = readFileSync(join('src', file), 'utf8');
  // Every mention of a zod module (static, dynamic or re-export) must be one of these imports.
  const mentions = [...text.matchAll(/['"]zod(?:\/[^'"]*)?['"]/g)].length;
  const imports = [...text.matchAll(/^import\s+(type\s+)?([^;]+?)\s+from\s+'(zod[^']*)';/gm)];
  if (mentions !== imports.length) throw new Error(`src/${file}: import zod only as "import * as z from 'zod/mini'" (see scripts/build.mjs)`);
  for (const [, , what, from] of imports) {
    if (from !== 'zod/mini') throw new Error(`src/${file}: import zod as "import * as z from 'zod/mini'", not from '${from}' (see scripts/build.mjs)`);
    if (!/^\*\s+as\s+z$/.test(what)) throw new Error(`src/${file}: import zod as "import * as z from 'zod/mini'" (see scripts/build.mjs)`);
  }
  if (imports.length) zodImporters++;
  if (imports.length && /\blocales\.(?!en\b)\w+/.test(text)) throw new Error(`src/${file} uses zod's locales, which the build leaves out but for English: see zodEnglishOnly in scripts/build.mjs`);
}
// The contract alone imports zod: finding no import at all means the check above looked at nothing.
if (zodImporters === 0) throw new Error('scripts/build.mjs found no zod import in src/: its check of them needs fixing');
// Node's ESM loader turns `import { x } from 'node:fs'` into a facade module that copies every
// export of the builtin, reading each property: that runs the builtin's lazy getters (fs.promises,
// fs.ReadStream, crypto.webcrypto, ...), which load further internals. process.getBuiltinModule()
// hands over the builtin itself. So every static import of a builtin from ESM code is bound here
// to a module that reads only the names it imports (unused ones are dropped as pure). A dynamic
// import needs the whole namespace: those stay Node's (they are off the lookup path).
// Measured: importing fs, crypto, os, path, http and net took 31-42 ms through ESM and 9 ms through
// getBuiltinModule (a script importing them one way or the other, 5 runs each, load average ~3.5),
// and the median `srs supplier get -o json` from 164 to 100 ms (11 alternating pairs with
// `node -e 0` before and after, load ~3.6 and ~2.2). CommonJS require()s never had a facade. test/integration/lookup-startup.test.ts checks that a lookup
// loads no builtin through an ESM facade.
// Commander imports node:child_process when it loads (4% of the samples of a `srs supplier get`:
// loading the module), for executable subcommands, which srs has none of. It gets a default export
// that loads the module on the first spawn; commander must use nothing of it but spawn.
const COMMANDER_COMMAND = /[\\/]commander[\\/]lib[\\/]command\.js$/;
{
  const text = readFileSync('node_modules/commander/lib/command.js', 'utf8');
  if (!/^import childProcess from 'node:child_process';$/m.test(text)) throw new Error("commander/lib/command.js no longer imports node:child_process as scripts/build.mjs expects (see COMMANDER_COMMAND): check it");
  const used = new Set([...text.matchAll(/\bchildProcess\.(\w+)/g)].map((m) => m[1]));
  for (const k of used) if (k !== 'spawn') throw new Error(`commander/lib/command.js uses childProcess.${k}: extend the lazy node:child_process in scripts/build.mjs`);
  if (!used.has('spawn')) throw new Error('commander/lib/command.js no longer uses childProcess.spawn: check the lazy node:child_process in scripts/build.mjs');
}
const BUILTIN_NAMESPACE = 'srs-builtin';
const builtinsWithoutFacade = {
  name: 'builtins-without-facade',
  setup(b) {
    b.onResolve({ filter: /^node:[a-z0-9_/]+$/ }, (args) => {
      if (args.kind !== 'import-statement') return undefined;
      if (args.path === 'node:child_process' && COMMANDER_COMMAND.test(args.importer)) return { path: args.path, namespace: 'srs-lazy-child-process' };
      return { path: args.path, namespace: BUILTIN_NAMESPACE };
    });
    b.onLoad({ filter: /.*/, namespace: 'srs-lazy-child-process' }, () => ({
      contents: "export default { spawn: (...a) => process.getBuiltinModule('node:child_process').spawn(...a) };\n",
      loader: 'js',
    }));
    b.onLoad({ filter: /.*/, namespace: BUILTIN_NAMESPACE }, (args) => {
      // The names the build's Node exports; an import of any other name fails the build.
      const names = Object.keys(require(args.path)).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k) && k !== 'default');
      const lines = [`const m = process.getBuiltinModule(${JSON.stringify(args.path)});`, 'const pick = (k) => m[k];', 'export default m;'];
      for (const k of names) lines.push(`export const ${k} = /* @__PURE__ */ pick(${JSON.stringify(k)});`);
      return { contents: lines.join('\n') + '\n', loader: 'js' };
    });
  },
};
// conf writes its file with atomically, which loads when-exit to purge its temporary files on exit; when-exit does
// that by hooking SIGINT, SIGTERM, SIGHUP, ... with once-handlers that re-raise the signal. srs has its own handlers
// (src/util/signals.ts): the re-raised signal reached them as a second Ctrl-C, so any command that read a stored
// profile (every logged-in user's import) quit at once on the first Ctrl-C, without its graceful stop (no summary,
// the rows in flight unknown). srs's handlers end the process with process.exit, which fires 'exit': hooking that
// alone keeps atomically's purge. test/integration/import.test.ts ("... a stored profile ...") fails if this stops
// applying; the check below fails the build if atomically starts using when-exit otherwise.
const WHEN_EXIT_IMPORTER = /[\\/]atomically[\\/]dist[\\/]utils[\\/]temp\.js$/;
{
  // atomically's exports hide this file from require.resolve: read it where npm installs it (conf's dependency).
  const text = readFileSync('node_modules/atomically/dist/utils/temp.js', 'utf8');
  const uses = [...text.matchAll(/\bwhenExit\b[^;\n]*/g)].map((m) => m[0].trim());
  if (!uses.includes("whenExit from 'when-exit'") || uses.length !== 2 || !/^whenExit\(Temp\.purgeSyncAll\)/.test(uses[1])) {
    throw new Error(`atomically's utils/temp.js no longer uses when-exit as scripts/build.mjs expects (whenExitOnExitOnly): ${JSON.stringify(uses)}`);
  }
}
const whenExitOnExitOnly = {
  name: 'when-exit-on-exit-only',
  setup(b) {
    b.onResolve({ filter: /^when-exit$/ }, (args) => {
      if (!WHEN_EXIT_IMPORTER.test(args.importer)) throw new Error(`${args.importer} imports when-exit: check whenExitOnExitOnly in scripts/build.mjs`);
      return { path: 'when-exit', namespace: 'srs-when-exit' };
    });
    b.onLoad({ filter: /.*/, namespace: 'srs-when-exit' }, () => ({
      contents: "export default function whenExit(callback) { process.once('exit', () => callback()); return () => undefined; }\n",
      loader: 'js',
    }));
  },
};
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
  // (process.getBuiltinModule, not an import of node:module: see builtinsWithoutFacade.)
  banner: { js: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);" },
  logLevel: 'warning',
  plugins: [lazyHttp2, zodEnglishOnly, undiciFallbackParsers, builtinsWithoutFacade, whenExitOnExitOnly],
});

// `srs --version` answers from this file alone, without loading the CLI.
mkdirSync('dist', { recursive: true });
writeFileSync('dist/version.js', `export const VERSION = ${JSON.stringify(pkg.version)};\n`);

// `srs --help` answers from the help the command tree prints, captured here at build time.
const help = spawnSync(process.execPath, ['bin/srs.js', '--help'], { encoding: 'utf8', env: { ...process.env, SRS_NO_HELP_CACHE: '1', NO_COLOR: '1' } });
if (help.status !== 0) throw new Error(`capturing help failed: ${help.stderr}`);
writeFileSync('dist/help.txt', help.stdout);
