#!/usr/bin/env node
// The srs launcher: checks the Node version, enables Node's module compile
// cache, then runs the bundled CLI in dist/.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(`srs: needs Node.js 22.19 or newer (this is ${process.version}); in a clone, run: source scripts/ensure-node.sh\n`);
  process.exit(1);
}
try {
  // process.getBuiltinModule, not `import module from 'node:module'`: an ESM import of a builtin
  // builds a facade of all its exports (see builtinsWithoutFacade in scripts/build.mjs).
  process.getBuiltinModule('node:module').enableCompileCache?.();
} catch {
  /* read-only cache directory: run without it */
}
const args = process.argv.slice(2);
// The fast paths below write to stdout before the CLI (and its handler of stdout errors) loads: a reader that
// stops early is not an error, any other failure (a full disk) is one line and exit 1, never a stack trace.
// (The CLI has its own: src/index.ts.)
const fastPathStdoutError = (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  process.stderr.write(`srs: cannot write the output to stdout: ${e.message.replace(/, write$/, '')}\n`);
  process.exit(1);
};
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // The fast path people and scripts hit most: no CLI, no Commander.
  const { VERSION } = await import('../dist/version.js');
  process.stdout.on('error', fastPathStdoutError);
  process.stdout.write(`${VERSION}\n`);
} else if ((args.length === 0 || (args.length === 1 && (args[0] === '--help' || args[0] === '-h'))) && !process.env.SRS_NO_HELP_CACHE) {
  // The root help, generated from the command tree at build time (npm run build).
  const { readFileSync } = await import('node:fs');
  process.stdout.on('error', fastPathStdoutError);
  process.stdout.write(readFileSync(new URL('../dist/help.txt', import.meta.url), 'utf8'));
} else {
  const { run } = await import('../dist/srs.js');
  await run();
}
