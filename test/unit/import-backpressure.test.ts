/**
 * runImport keeps memory flat when something downstream is slow: a report that
 * cannot be written yet, or a request that holds up the in-order outcomes.
 * The input comes from a counting stdin, so the tests see how far reading got
 * (past the first MiB, which is read ahead to bind the journal to stdin).
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runImport, type ImportDeps, type SupplierCreator } from '../../src/import/index.js';

const dir = mkdtempSync(join(tmpdir(), 'srs-import-bp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
/** ~220 bytes a row: 40,000 rows are ~9 MB, the first MiB ~4,800 rows. */
const PAD = 'x'.repeat(200);

/** A CSV on "stdin", produced 100 rows at a time as it is read; `produced()` says how many so far. */
function countingStdin(rows: number, row: (i: number) => string): { stdin: Readable; produced: () => number } {
  let i = 0;
  const stdin = new Readable({
    read() {
      if (i === 0) this.push('name,country,customerSupplierId\n');
      if (i >= rows) return void this.push(null);
      let chunk = '';
      for (const end = Math.min(rows, i + 100); i < end; i++) chunk += row(i) + '\n';
      this.push(chunk);
    },
  });
  return { stdin, produced: () => i };
}

function deps(stdin: Readable, client?: SupplierCreator): ImportDeps {
  return {
    client: async () => client!,
    stdin,
    stdinIsTTY: false,
    stderrWrite: () => undefined,
    stderrIsTTY: false,
    warn: () => undefined,
    info: () => undefined,
  };
}

describe('back-pressure', () => {
  it('stops reading while a slow request holds up the in-order outcomes, and finishes every row after it', async () => {
    const N = 40_000;
    // Line 2 is valid and its request hangs; every later row is invalid (no request, finished at once).
    const { stdin, produced } = countingStdin(N, (i) => (i === 0 ? `First ${PAD},DEU,F-0` : `Row ${i} ${PAD},XX,R-${i}`));
    let release: (() => void) | undefined;
    const client: SupplierCreator = { createSupplier: () => new Promise((resolve) => (release = () => resolve({ id: 'S-1' }))) };
    const done = runImport({ file: '-', journal: join(dir, 'j1'), quiet: true }, deps(stdin, client));
    await tick(300);
    expect(release).toBeDefined();
    expect(produced()).toBeLessThan(N / 3); // a few thousand held back, not the whole file
    release!();
    const r = await done;
    expect(r.summary).toMatchObject({ created: 1, invalid: N - 1, total: N, complete: true });
  });

  it('stops reading while the --report file cannot take more, and writes every row once it can', async () => {
    const fifo = join(dir, 'report.fifo');
    execFileSync('mkfifo', [fifo]);
    const N = 40_000;
    const { stdin, produced } = countingStdin(N, (i) => `Row ${i} ${PAD},DEU,R-${i}`);
    // The read end is opened (so the import can open the write end) but not read from yet.
    const readEnd = open(fifo, 'r');
    const done = runImport({ file: '-', dryRun: true, report: fifo, quiet: true }, deps(stdin));
    const fd = await readEnd;
    await tick(300); // the pipe (64 KiB) and the report stream's buffer fill up
    expect(produced()).toBeLessThan(N / 3);
    const chunks: Buffer[] = [];
    const reader = createReadStream('', { fd }).on('data', (c) => chunks.push(c as Buffer));
    const r = await done;
    await new Promise<void>((resolve) => reader.on('close', () => resolve()));
    expect(r.summary).toMatchObject({ valid: N, total: N, complete: true });
    const lines = Buffer.concat(chunks).toString('utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(N + 1); // header + one line per row
  });
});
