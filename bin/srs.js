#!/usr/bin/env node
// The srs launcher: enables Node's module compile cache, then runs the bundled CLI.
import module from 'node:module';

try {
  module.enableCompileCache?.();
} catch {
  /* older Node or read-only cache dir: run without it */
}
const { run } = await import('../dist/srs.js');
await run();
