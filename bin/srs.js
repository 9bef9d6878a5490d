#!/usr/bin/env node
// The srs launcher: checks the Node version, enables Node's module compile
// cache, then runs the bundled CLI in dist/.
import module from 'node:module';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(`srs: needs Node.js 22.19 or newer (this is ${process.version}); in a clone, run: source scripts/ensure-node.sh\n`);
  process.exit(1);
}
try {
  module.enableCompileCache?.();
} catch {
  /* read-only cache directory: run without it */
}
const { run } = await import('../dist/srs.js');
await run();
