/**
 * Reading never merges or drops rows (#15 item 6), through runImport with an
 * in-process client: records end at CRLF, LF or CR (mixed too); a row whose
 * cell count differs from the header's is invalid on its own; names and ids
 * never hold a line break; a BOM that disagrees with the bytes after it stops
 * the run before anything is sent; FIFOs are read like stdin (no journal next
 * to them) and no journal is ever created under /dev.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runImport, type ImportDeps, type RowOutcome } from '../../src/import/index.js';

const dir = mkdtempSync(join(tmpdir(), 'srs-import-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (content: string | Buffer) => {
  const p = join(dir, `f${n++}.csv`);
  writeFileSync(p, content);
  return p;
};

function harness() {
  const sent: string[] = [];
  const rows: RowOutcome[] = [];
  const warnings: string[] = [];
  let clients = 0;
  const deps: ImportDeps = {
    client: async () => {
      clients++;
      return {
        createSupplier: async (b) => {
          sent.push(`${b.name}|${b.customerSupplierId ?? ''}`);
          return { id: `id-${sent.length}` };
        },
      };
    },
    stderrWrite: () => undefined,
    stderrIsTTY: false,
    warn: (m) => void warnings.push(m),
    info: () => undefined,
    onRow: (o) => void rows.push(o),
  };
  return { deps, sent, rows, warnings, clients: () => clients };
}

describe('records and cells', () => {
  it('ends a record at CRLF, LF or CR, mixed in one file, with the right line numbers', async () => {
    const h = harness();
    const p = file('name,country,customerSupplierId\r\nA,DEU,A-1\nB,DEU,B-1\rC,DEU,C-1\r\n\nD,DEU,D-1\r');
    const r = await runImport({ file: p, quiet: true }, h.deps);
    expect(r.summary).toMatchObject({ created: 4, total: 4, invalid: 0 });
    expect(h.sent).toEqual(['A|A-1', 'B|B-1', 'C|C-1', 'D|D-1']);
    expect(h.rows.map((x) => x.line)).toEqual([2, 3, 4, 6]);
  });

  it('a row with more or fewer cells than the header is invalid on its own (report and --failed), its neighbours are imported', async () => {
    const h = harness();
    const p = file('name,country,customerSupplierId\nA,DEU,A-1\nAcme, Inc,DEU,B-1\nC,DEU\nD,DEU,D-1\nE,DEU,E-1,,\n');
    const report = join(dir, `r${n}.csv`);
    const failed = join(dir, `x${n}.csv`);
    const r = await runImport({ file: p, quiet: true, report, failed }, h.deps);
    expect(r.summary).toMatchObject({ created: 3, invalid: 2, total: 5 });
    expect(h.sent).toEqual(['A|A-1', 'D|D-1', 'E|E-1']);
    const bad = h.rows.filter((x) => x.state === 'invalid');
    expect(bad.map((x) => [x.line, x.message])).toEqual([
      [3, 'line 3 has 4 cells, the header has 3: not imported (an unquoted value holding the delimiter?)'],
      [4, 'line 4 has 2 cells, the header has 3: not imported (a cut-off row?)'],
    ]);
    expect(readFileSync(report, 'utf8')).toContain('3,invalid,,DEU,row,"line 3 has 4 cells, the header has 3');
    // As read: the short row stays short (padded, it would import cleanly as it stands).
    expect(readFileSync(failed, 'utf8')).toBe('name,country,customerSupplierId\nAcme, Inc,DEU,B-1\nC,DEU\n');
  });

  it('trailing columns without a header (Excel\'s "Name;Country;;") may be missing from a row; a cell under a header may not', async () => {
    const h = harness();
    const p = file('name;country;customerSupplierId;;\r\nA;DEU;A-1\r\nB;DEU;B-1;;\r\nC;DEU;C-1;\r\nD;DEU\r\n');
    const r = await runImport({ file: p, quiet: true }, h.deps);
    expect(r.summary).toMatchObject({ created: 3, invalid: 1, total: 4 });
    expect(h.sent).toEqual(['A|A-1', 'B|B-1', 'C|C-1']);
    expect(h.rows.find((x) => x.line === 5)!.message).toBe('line 5 has 2 cells, the header has 5: not imported (a cut-off row?)');
  });

  it('a name or id holding a line break (a quoted cell) is invalid, never stored', async () => {
    const h = harness();
    const p = file('name,country,customerSupplierId\n"Acme\nCorp",DEU,A-1\nB,DEU,"B\r\n1"\nC,DEU,C-1\n');
    const r = await runImport({ file: p, quiet: true }, h.deps);
    expect(r.summary).toMatchObject({ created: 1, invalid: 2 });
    expect(h.sent).toEqual(['C|C-1']);
    expect(h.rows.filter((x) => x.state === 'invalid').map((x) => [x.line, x.field])).toEqual([
      [2, 'name'],
      [4, 'customerSupplierId'],
    ]);
    expect(h.rows.find((x) => x.line === 2)!.message).toContain('contains a line break');
  });
});

describe('byte order marks', () => {
  const text = 'name,country,customerSupplierId\nZürich AG,CHE,Z-1\n';
  it('a UTF-16LE BOM before UTF-8 text stops with exit 2 before anything is sent', async () => {
    const h = harness();
    const p = file(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf8')]));
    const err = await runImport({ file: p, quiet: true }, h.deps).catch((e: unknown) => e);
    expect(err).toMatchObject({ exitCode: 2, message: expect.stringContaining('starts with a UTF-16LE byte order mark, but the bytes after it are not UTF-16LE (they read as utf-8)') });
    expect(h.clients()).toBe(0);
    expect(existsSync(p + '.srs-journal')).toBe(false);
  });

  it('a UTF-8 BOM before Windows-1252 bytes, and a UTF-16BE BOM before UTF-8, stop too; a true BOM reads', async () => {
    for (const bytes of [
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'latin1')]),
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf8')]),
    ]) {
      const h = harness();
      await expect(runImport({ file: file(bytes), quiet: true }, h.deps)).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('byte order mark') });
      expect(h.sent).toEqual([]);
    }
    const h = harness();
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect((await runImport({ file: file(utf16), quiet: true }, h.deps)).summary.created).toBe(1);
    expect(h.sent).toEqual(['Zürich AG|Z-1']);
  });
});

describe('inputs that are not regular files', () => {
  const hasMkfifo = spawnSync('mkfifo', ['--version']).status === 0;
  it.runIf(hasMkfifo)('reads a FIFO like stdin: no journal next to it without --journal, and with one it resumes', async () => {
    const fifo = join(dir, `pipe${n++}`);
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const feed = () => spawn('sh', ['-c', `printf 'name,country,customerSupplierId\\nA,DEU,A-1\\nB,DEU,B-1\\n' > '${fifo}'`]);
    feed();
    const h = harness();
    const r = await runImport({ file: fifo, quiet: true }, h.deps);
    expect(r.summary).toMatchObject({ created: 2 });
    expect(r.summary.journal).toBeUndefined();
    expect(existsSync(fifo + '.srs-journal')).toBe(false);
    expect(h.warnings.join('\n')).toContain('not a regular file: read once, like stdin');

    const journal = join(dir, `fifo${n}.journal`);
    feed();
    expect((await runImport({ file: fifo, journal, quiet: true }, harness().deps)).summary.created).toBe(2);
    feed();
    expect((await runImport({ file: fifo, journal, quiet: true }, harness().deps)).summary).toMatchObject({ created: 0, skipped: 2 });
  });

  it('never creates a journal under /dev', async () => {
    const h = harness();
    const p = file('name\nA\n');
    await expect(runImport({ file: p, journal: '/dev/stdin.srs-journal', quiet: true }, h.deps)).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('cannot live under /dev') });
    expect(existsSync('/dev/stdin.srs-journal')).toBe(false);
    expect(h.clients()).toBe(0);
  });
});

describe('what the import writes to files', () => {
  it('--failed guards formula cells like the report (unless --csv-raw), and every file is redacted', async () => {
    const secret = 'sk-live-0123456789abcdef';
    const redact = (s: string) => s.split(secret).join('****cdef');
    const p = file(`name,country,customerSupplierId\n=HYPERLINK("x"),XX,F-1\nKey ${secret},XX,F-2\n`);
    const failed = join(dir, `guard${n}.csv`);
    const report = join(dir, `guard-report${n}.csv`);
    const h = harness();
    await runImport({ file: p, quiet: true, failed, report }, { ...h.deps, redact });
    expect(readFileSync(failed, 'utf8')).toBe(`name,country,customerSupplierId\n"'=HYPERLINK(""x"")",XX,F-1\nKey ****cdef,XX,F-2\n`);
    expect(readFileSync(report, 'utf8')).not.toContain(secret);
    const raw = join(dir, `raw${n}.csv`);
    await runImport({ file: p, quiet: true, failed: raw, csvRaw: true, dryRun: true }, { ...harness().deps, redact });
    expect(readFileSync(raw, 'utf8')).toBe(`name,country,customerSupplierId\n"=HYPERLINK(""x"")",XX,F-1\nKey ****cdef,XX,F-2\n`);
  });

  it('--failed of a CRLF file quotes a cell holding a lone line break: it reads back as the same rows (it split into two, the second valid)', async () => {
    const p = file('name;country;customerSupplierId\r\n"Zeilen 11\nUmbruch";XX;V-11\r\n"Mac\rline";XX;V-12\r\nGood;DEU;V-13\r\n');
    const failed = join(dir, `breaks${n}.csv`);
    await runImport({ file: p, quiet: true, failed, dryRun: true }, harness().deps);
    const text = readFileSync(failed, 'utf8');
    expect(text).toBe('name;country;customerSupplierId\r\n"Zeilen 11\nUmbruch";XX;V-11\r\n"Mac\rline";XX;V-12\r\n');
    // Read back, the same two rows and nothing valid.
    const h = harness();
    await runImport({ file: failed, quiet: true, dryRun: true }, h.deps);
    expect(h.rows.map((r) => r.state)).toEqual(['invalid', 'invalid']);
  });

  it('importing a --failed file back with the formula guard still in a cell warns once, naming the line', async () => {
    const warnings: string[] = [];
    const h = harness();
    const p = file(`name,country,customerSupplierId\n'@Home Furnishings,DEU,G-1\n'+Plus Logistik,DEU,G-2\nPlain,DEU,G-3\n`);
    await runImport({ file: p, quiet: true }, { ...h.deps, warn: (m: string) => warnings.push(m) });
    expect(warnings.filter((w) => w.includes('formula guard'))).toEqual([expect.stringMatching(/^line 2: a name or customerSupplierId starts with ' before/)]);
  });
});
