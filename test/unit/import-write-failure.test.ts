/**
 * A report write that fails stops the run before another request leaves
 * (#15 item 8), here with a real EPIPE: --report is a FIFO whose reader goes
 * away after a few bytes. (ENOSPC through /dev/full is tested end to end in
 * test/integration/import-safety.test.ts.)
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runImport } from '../../src/import/index.js';

const dir = mkdtempSync(join(tmpdir(), 'srs-import-wfail-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hasMkfifo = spawnSync('mkfifo', ['--version']).status === 0;

describe('a --report that cannot be written', () => {
  it.runIf(hasMkfifo)('EPIPE: exit 1 naming the file and the reason; every request sent is journaled as created, and none left after', async () => {
    const N = 20_000;
    const file = join(dir, 'in.csv');
    writeFileSync(file, ['name,country,customerSupplierId', ...Array.from({ length: N }, (_, i) => `P ${i},DEU,P-${i}`)].join('\n') + '\n');
    const fifo = join(dir, 'report.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // The reader takes 100 bytes and goes away: later writes to the FIFO fail with EPIPE.
    const reader = spawn('sh', ['-c', `head -c 100 '${fifo}' > /dev/null`]);
    let calls = 0;
    const err = await runImport(
      { file, report: fifo, quiet: true, concurrency: 4 },
      {
        client: async () => ({
          createSupplier: async (b) => {
            calls++;
            await new Promise((r) => setTimeout(r, 1));
            return { id: `id-${b.customerSupplierId}` };
          },
        }),
        stderrWrite: () => undefined,
        stderrIsTTY: false,
        warn: () => undefined,
        info: () => undefined,
      },
    ).catch((e: unknown) => e);
    reader.kill();
    expect(err).toMatchObject({ exitCode: 1, message: expect.stringMatching(/^cannot write --report .*report\.fifo \(EPIPE: .*no request left after the failure/) });
    const journal = readFileSync(file + '.srs-journal', 'utf8');
    const created = journal.match(/"s":"created"/g)?.length ?? 0;
    expect(created).toBe(calls);
    expect(calls).toBeLessThan(N);
    expect(journal).not.toContain('"s":"unknown"');
  });
});
