/**
 * The start-up tricks of a lookup (issue 18: `srs supplier get ID` within 2x `node -e 0`, measured by
 * bench/lookup.bench.mjs) break silently when a dependency or an import changes. This checks what a
 * `supplier get` loads, not how long it takes (timing belongs in bench/):
 * - no builtin through an ESM import (a facade that runs every lazy getter): builtinsWithoutFacade in scripts/build.mjs;
 * - no table code, string-width or Intl object built at load (src/output/table.ts, src/api/paginate.ts);
 * - no node:child_process (commander's, loaded on first spawn) and no node:perf_hooks (src/api/http.ts);
 * - no node:crypto (the key fingerprint of the catalog uses @noble/hashes: src/api/target.ts);
 * - with --no-catalog, no node:sqlite.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startHarness, type Harness } from './harness.js';

interface Loaded {
  resolved: Array<{ url: string; parent: string | null; esm: boolean }>;
  builtins: string[];
}

const HOOK = pathToFileURL(join(ROOT, 'test/support/module-log.mjs')).href;
const OURS = pathToFileURL(ROOT).href + '/';

describe('what a lookup loads', () => {
  let h: Harness;
  let id: string;
  beforeAll(async () => {
    h = await startHarness();
    const created = await h.run(['supplier', 'create', '--name', 'Startup Probe GmbH', '--country', 'DEU', '-o', 'json']);
    expect(created.code).toBe(0);
    id = (JSON.parse(created.stdout) as { id: string }).id;
  });
  afterAll(() => h.close());

  async function lookup(extra: string[]): Promise<Loaded> {
    const log = join(mkdtempSync(join(tmpdir(), 'srs-modlog-')), 'log.ndjson');
    const r = await h.run([...extra, 'supplier', 'get', id, '-o', 'json'], { env: { NODE_OPTIONS: `--import ${HOOK}`, SRS_TEST_MODULE_LOG: log } });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { id: string }).id).toBe(id);
    const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const last = lines.pop() as { builtins: string[] };
    return { resolved: lines as Loaded['resolved'], builtins: last.builtins };
  }

  for (const extra of [[], ['--no-catalog']]) {
    it(`supplier get ${extra.join(' ')}: no builtin facade, no tables, no Intl at load, no child_process or perf_hooks`, async () => {
      const { resolved, builtins } = await lookup(extra);
      const srsFiles = resolved.filter((r) => r.url.startsWith(OURS));
      expect(srsFiles.some((r) => r.url.includes('/dist/chunks/')), 'the log saw the lazily loaded chunks').toBe(true);
      const facades = resolved.filter((r) => r.esm && r.url.startsWith('node:') && r.parent?.startsWith(OURS)).map((r) => `${r.url} from ${r.parent!.slice(OURS.length)}`);
      expect(facades).toEqual([]);
      for (const url of new Set(srsFiles.map((r) => r.url))) {
        const text = readFileSync(fileURLToPath(url), 'utf8');
        const name = url.slice(OURS.length);
        expect(text.includes('node_modules/string-width/'), `${name} bundles string-width`).toBe(false);
        expect(text.includes('node_modules/cli-table3/'), `${name} bundles cli-table3`).toBe(false);
        expect(/^(var|let|const) \w+ = new Intl\./m.test(text), `${name} builds an Intl object at load`).toBe(false);
      }
      expect(builtins).not.toContain('child_process');
      expect(builtins).not.toContain('perf_hooks');
      expect(builtins).not.toContain('crypto');
      if (extra.includes('--no-catalog')) {
        expect(builtins).not.toContain('sqlite');
      } else {
        expect(builtins).toContain('sqlite');
      }
    });
  }
});
