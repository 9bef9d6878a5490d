// Preloaded (node --import) by test/integration/lookup-startup.test.ts: writes to
// SRS_TEST_MODULE_LOG one JSON line per module resolution (url, parent, whether it
// was an ESM import), and at exit the builtins the process loaded.
import module from 'node:module';
import { appendFileSync } from 'node:fs';

const out = process.env.SRS_TEST_MODULE_LOG;
module.registerHooks({
  resolve(specifier, context, next) {
    const r = next(specifier, context);
    appendFileSync(out, JSON.stringify({ url: r.url, parent: context.parentURL ?? null, esm: context.conditions.includes('import') }) + '\n');
    return r;
  },
});
process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
  appendFileSync(out, JSON.stringify({ builtins }) + '\n');
});
