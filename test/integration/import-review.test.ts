/**
 * Issue 15, attack review: advice the import gives must work when followed,
 * and a journal must not be refused (or turn rows unknown) when nothing in it
 * could make a row be skipped; the emulator's admin route lists what was
 * stored. The built srs against a real emulator.
 */
import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import iconv from 'iconv-lite';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { scratchDir, baseEnv, runSrs, storedIds, withHarness, type RunResult } from './harness.js';

const scratch = scratchDir('srs-import-review-');

let n = 0;
function file(name: string, content: string | Buffer): string {
  const p = join(scratch.path, `${n++}-${name}`);
  writeFileSync(p, content);
  return p;
}

/** A loopback port nothing listens on (a mistyped base URL). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

const summary = (r: RunResult) => JSON.parse(r.stdout) as Record<string, number | string | boolean>;
const importArgs = (f: string, ...more: string[]) => ['supplier', 'import', f, '-o', 'json', '--quiet', ...more];

describe('a small UTF-8 file with one byte that is not UTF-8 (inside the sample the encoding is detected from)', () => {
  it('is read as UTF-8 and refused before anything is sent, naming the line: never decoded as Windows-1252 (which stored MÃ¼ller, exit 0)', async () => {
    await withHarness({}, async (h) => {
      const f = file('z.csv', Buffer.concat([Buffer.from('name,countryIso3Code,customerSupplierId\nMüller GmbH,DEU,Z1\nGroßhandel AG,DEU,Z2\nBad '), Buffer.from([0xff]), Buffer.from(',DEU,Z3\n')]));
      const r = await h.run(importArgs(f));
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain('line 4 is not valid UTF-8 (byte 0xFF');
      expect((await storedIds(h, 'Z')).size).toBe(0);
    });
  });
});

describe('a UTF-8 file with one byte that is not UTF-8 (after the first MiB)', () => {
  it('names the line and says to fix it; --encoding windows-1252 is refused (exit 2, both encodings); the fixed file resumes and creates every row once, names intact', async () => {
    await withHarness({}, async (h) => {
      const N = 5000;
      const BAD = 4802; // line of the bad byte (row i is on line i + 2)
      const pad = 'x'.repeat(200);
      const rowsOf = (bad: boolean) => {
        const parts: Buffer[] = [Buffer.from('name,country,customerSupplierId\n')];
        for (let i = 0; i < N; i++) {
          if (bad && i + 2 === BAD) parts.push(Buffer.from('Gro'), Buffer.from([0xdf]), Buffer.from(`handel ${i} ${pad},DEU,BIG-${i}\n`));
          else parts.push(Buffer.from(`Großhandel ${i} ${pad},DEU,BIG-${i}\n`));
        }
        return Buffer.concat(parts);
      };
      const f = file('big.csv', rowsOf(true));
      const first = await h.run(importArgs(f), { timeoutMs: 120_000 });
      expect(first.code, first.stderr).toBe(1);
      expect(first.stderr).toMatch(new RegExp(`line ${BAD} is not valid UTF-8 \\(byte 0xDF at byte offset \\d+\\), though the lines before it are UTF-8`));
      expect(first.stderr).toContain(`fix line ${BAD}`);
      expect(first.stderr).not.toContain('--encoding windows-1252');
      const created = (summary(first).created as number);
      expect(created).toBeGreaterThan(4000);
      expect(created).toBeLessThan(BAD - 1);

      // The advice the old message gave: refused before anything is sent, naming both encodings.
      const wrong = await h.run(importArgs(f, '--encoding', 'windows-1252'), { timeoutMs: 60_000 });
      expect(wrong.code, wrong.stderr).toBe(2);
      expect(wrong.stderr).toMatch(/read as utf-8, and this run reads it as windows-1252/);
      expect((await storedIds(h, 'BIG-')).size).toBe(created);

      // The advice the message gives now: fix that line, run the same command again.
      writeFileSync(f, rowsOf(false));
      const fixed = await h.run(importArgs(f), { timeoutMs: 120_000 });
      expect(fixed.code, fixed.stderr).toBe(0);
      expect(summary(fixed)).toMatchObject({ created: N - created, skipped: created, unknown: 0 });
      const ids = await storedIds(h, 'BIG-');
      expect(ids.size).toBe(N);
      expect([...ids.values()].every((c) => c === 1)).toBe(true);
      const res = await fetch(`${h.emu.url}/_emulator/suppliers`, { headers: { 'x-api-key': h.env.SRS_API_KEY! } });
      const names = ((await res.json()) as Array<{ name: string; customerSupplierId: string | null }>).filter((s) => s.customerSupplierId?.startsWith('BIG-'));
      expect(names.every((s) => s.name.startsWith('Großhandel '))).toBe(true);
    });
  });
});

describe('a file that is plain ASCII for its first MiB, then Windows-1252', () => {
  it('suggests --encoding windows-1252, and following it continues the same journal: the rows before are skipped, the rest created with their accents', async () => {
    await withHarness({}, async (h) => {
      const N = 5000;
      const FROM = 4802; // the first line with a Windows-1252 byte
      const pad = 'x'.repeat(200);
      const parts: Buffer[] = [Buffer.from('name,country,customerSupplierId\n')];
      for (let i = 0; i < N; i++) parts.push(i + 2 >= FROM ? iconv.encode(`Müller ${i} ${pad},DEU,ANSI-${i}\n`, 'windows-1252') : Buffer.from(`Plain ${i} ${pad},DEU,ANSI-${i}\n`));
      const f = file('ansi.csv', Buffer.concat(parts));
      const first = await h.run(importArgs(f), { timeoutMs: 120_000 });
      expect(first.code, first.stderr).toBe(1);
      expect(first.stderr).toContain(`line ${FROM} is not valid UTF-8 (byte 0xFC`);
      expect(first.stderr).toContain('pass it, e.g. --encoding windows-1252');
      const created = summary(first).created as number;
      const again = await h.run(importArgs(f, '--encoding', 'windows-1252'), { timeoutMs: 120_000 });
      expect(again.code, again.stderr).toBe(0);
      expect(summary(again)).toMatchObject({ created: N - created, skipped: created, unknown: 0 });
      const res = await fetch(`${h.emu.url}/_emulator/suppliers`, { headers: { 'x-api-key': h.env.SRS_API_KEY! } });
      const stored = ((await res.json()) as Array<{ name: string; customerSupplierId: string | null }>).filter((s) => s.customerSupplierId?.startsWith('ANSI-'));
      expect(stored.length).toBe(N);
      expect(stored.find((s) => s.customerSupplierId === `ANSI-${N - 1}`)!.name).toBe(`Müller ${N - 1} ${pad}`);
    });
  });
});

describe('a quote left open part-way through a file', () => {
  const rows = (n: number, broken?: number) => {
    const lines = ['name,country,customerSupplierId'];
    for (let i = 0; i < n; i++) lines.push(i + 2 === broken ? `"Late ${i},DEU,LATE-${i}` : `Late ${i},DEU,LATE-${i}`);
    return lines.join('\n') + '\n';
  };

  it('"fix the file from line 502 on and run the same command again" works: the rows before it are skipped, the rest created, each once', async () => {
    await withHarness({}, async (h) => {
      const f = file('late.csv', rows(1000, 502));
      const failed = join(scratch.path, `${n++}-late-failed.csv`);
      const first = await h.run(importArgs(f, '--failed', failed), { timeoutMs: 60_000 });
      expect(first.code, first.stderr).toBe(1);
      expect(summary(first)).toMatchObject({ created: 500 });
      expect(first.stderr).toContain('the rows before line 502 were processed; fix the file from line 502 on and run the same command again');
      writeFileSync(f, rows(1000));
      const again = await h.run(importArgs(f, '--failed', failed), { timeoutMs: 60_000 });
      expect(again.code, again.stderr).toBe(0);
      expect(summary(again)).toMatchObject({ created: 500, skipped: 500, unknown: 0 });
      const ids = await storedIds(h, 'LATE-');
      expect(ids.size).toBe(1000);
      expect([...ids.values()].every((c) => c === 1)).toBe(true);
      // Once resumed past the stop, the journal is bound to the fixed file: an edit anywhere is refused again.
      writeFileSync(f, rows(1000).replace('Late 10,', 'Late ten,'));
      const edited = await h.run(importArgs(f), { timeoutMs: 60_000 });
      expect(edited.code, edited.stderr).toBe(2);
      expect(edited.stderr).toContain('belongs to another file');
    });
  });

  it('run again without fixing the file, it stops at the same quote every time (it said "complete", exit 0, rows after it never read)', async () => {
    await withHarness({}, async (h) => {
      const f = file('unfixed.csv', rows(200, 52));
      const first = await h.run(importArgs(f), { timeoutMs: 60_000 });
      expect(first.code, first.stderr).toBe(1);
      for (const extra of [[], [], ['--dry-run']]) {
        const again = await h.run(importArgs(f, ...extra), { timeoutMs: 60_000 });
        expect(again.code, again.stdout).not.toBe(0);
        expect(again.stderr).toContain('the quoted field starting at line 52 is never closed');
        expect(again.stdout).not.toContain('"complete": true');
      }
      expect((await storedIds(h, 'LATE-')).size).toBe(50);
    });
  });

  it('from stdin (a journal that cannot check the bytes again) the advice is a new file from that line on, not a re-run', async () => {
    await withHarness({}, async (h) => {
      const journal = join(scratch.path, `${n++}-stdin.journal`);
      const r = await h.run(['supplier', 'import', '-', '--journal', journal, '-o', 'json', '--quiet'], { input: rows(100, 52), timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('the rows before line 52 were processed; the journal');
      expect(r.stderr).toContain('put the header and lines 52 to the end in a new file, fix it, and import that');
      expect(r.stderr).not.toContain('run the same command again');
    });
  });

  it('a file changed before the line where the run stopped is still refused (exit 2, nothing sent)', async () => {
    await withHarness({}, async (h) => {
      const f = file('late2.csv', rows(600, 302));
      const first = await h.run(importArgs(f), { timeoutMs: 60_000 });
      expect(first.code, first.stderr).toBe(1);
      // Fixed, but a line was also inserted above: the rows after it moved, so the journal cannot vouch for them.
      writeFileSync(f, rows(600).replace('Late 5,DEU,LATE-5\n', 'Late 5,DEU,LATE-5\nInserted,DEU,LATE-X\n'));
      const again = await h.run(importArgs(f), { timeoutMs: 60_000 });
      expect(again.code, again.stderr).toBe(2);
      expect(again.stderr).toContain('belongs to another file');
      expect((await storedIds(h, 'LATE-')).size).toBe(300);
    });
  });
});

describe('--concurrency above --max-concurrency', () => {
  it('is exit 2 before anything is read or sent (the pin won silently, past the ceiling)', async () => {
    await withHarness({}, async (h) => {
      const f = file('pin.csv', 'name,country,customerSupplierId\nPin Co,DEU,PIN-1\n');
      const sent = h.requests.length;
      const r = await h.run(importArgs(f, '--concurrency', '20', '--max-concurrency', '10'));
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--concurrency 20 is above --max-concurrency 10/);
      expect(h.requests.length).toBe(sent);
      // A ceiling given equal to its default is given all the same (Commander's default used to hide it).
      const atDefault = await h.run(importArgs(f, '--concurrency', '100', '--max-concurrency', '64'));
      expect(atDefault.code).toBe(2);
      expect(atDefault.stderr).toMatch(/--concurrency 100 is above --max-concurrency 64/);
      expect(h.requests.length).toBe(sent);
      const ok = await h.run(importArgs(f, '--concurrency', '10', '--max-concurrency', '10'));
      expect(ok.code, ok.stderr).toBe(0);
      // --concurrency alone goes up to 256, whatever the default ceiling of the adaptive limit (64).
      const alone = await h.run(importArgs(f, '--concurrency', '128', '--dry-run'));
      expect(alone.code, alone.stderr).toBe(0);
    });
  });
});

describe('a journal that records only failed rows', () => {
  it('a mistyped base URL (every row refused), then the right one: rebound with a note, every row created once', async () => {
    await withHarness({}, async (h) => {
      const rows = ['name,country,customerSupplierId'];
      for (let i = 0; i < 5; i++) rows.push(`Typo ${i},DEU,TYPO-${i}`);
      const f = file('typo.csv', rows.join('\n') + '\n');
      const wrong = await h.run(importArgs(f, '--max-concurrency', '1'), { env: { SRS_BASE_URL: `http://127.0.0.1:${await closedPort()}` }, timeoutMs: 60_000 });
      expect(wrong.code, wrong.stderr).toBe(1);
      expect(summary(wrong)).toMatchObject({ created: 0, failed: 5, unknown: 0 });

      const right = await h.run(['supplier', 'import', f, '-o', 'json'], { timeoutMs: 60_000 });
      expect(right.code, right.stderr).toBe(0);
      expect(summary(right)).toMatchObject({ created: 5, failed: 0, unknown: 0 });
      expect(right.stderr).toMatch(/records no row created or in doubt: bound to /);
      const ids = await storedIds(h, 'TYPO-');
      expect(ids.size).toBe(5);
      expect([...ids.values()].every((c) => c === 1)).toBe(true);
    });
  });
});

describe('srs emulator start --admin with a --state file shared by two emulators', () => {
  it('each lists every supplier in the file, whichever emulator created it', async () => {
    const statePath = join(scratch.path, `${n++}-shared-state.db`);
    const apiKey = `test-key-${Math.random().toString(36).slice(2)}-SECRET`;
    const a = await startEmulator({ port: 0, apiKey, admin: true, statePath });
    const b = await startEmulator({ port: 0, apiKey, admin: true, statePath });
    try {
      const home = mkdtempSync(join(scratch.path, 'home-'));
      for (const [emu, cid] of [[a, 'SHARED-A'], [b, 'SHARED-B']] as const) {
        const r = await runSrs(['supplier', 'create', '--name', `Shared ${cid}`, '--country', 'DEU', '--customer-id', cid, '-o', 'json'], {
          ...baseEnv(home),
          SRS_BASE_URL: emu.url,
          SRS_API_KEY: apiKey,
        });
        expect(r.code, r.stderr).toBe(0);
      }
      for (const emu of [a, b]) {
        const res = await fetch(`${emu.url}/_emulator/suppliers`, { headers: { 'x-api-key': apiKey } });
        const all = (await res.json()) as Array<{ customerSupplierId: string | null }>;
        expect(all.filter((s) => s.customerSupplierId?.startsWith('SHARED-')).map((s) => s.customerSupplierId).sort()).toEqual(['SHARED-A', 'SHARED-B']);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('a journal that records no row sent (every row was invalid)', () => {
  it('is taken over by the fixed file: the re-run creates the rows, each once', async () => {
    await withHarness({}, async (h) => {
      const f = file('allbad.csv', Buffer.from('Name;Country;Supplier No\nAllbad One;DE;AB-1\nAllbad Two;FR;AB-2\n'));
      const first = await h.run(importArgs(f));
      expect(first.code, first.stderr).toBe(1);
      expect(summary(first)).toMatchObject({ invalid: 2, created: 0 });
      writeFileSync(f, 'Name;Country;Supplier No\nAllbad One;DEU;AB-1\nAllbad Two;FRA;AB-2\n');
      const again = await h.run(['supplier', 'import', f, '-o', 'json']);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain('records no row sent');
      expect(summary(again)).toMatchObject({ created: 2, invalid: 0 });
      expect([...(await storedIds(h, 'AB-')).values()]).toEqual([1, 1]);
    });
  });
});

describe('a re-run through a symbolic link to the file', () => {
  it('finds the file\'s journal: rows without a customerSupplierId are skipped, not created again (they were, exit 0)', async () => {
    await withHarness({ admin: true }, async (h) => {
      const f = file('noid.csv', 'name,country\nNoId Alpha,USA\nNoId Beta,USA\n');
      const link = join(scratch.path, 'noid-link.csv');
      symlinkSync(f, link);
      const first = await h.run(importArgs(f));
      expect(first.code, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({ created: 2 });
      const again = await h.run(importArgs(link));
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, skipped: 2 });
      expect(existsSync(`${link}.srs-journal`)).toBe(false);
      const res = await fetch(`${h.emu.url}/_emulator/suppliers`, { headers: { 'x-api-key': h.env.SRS_API_KEY! } });
      const stored = ((await res.json()) as Array<{ name: string }>).filter((s) => s.name.startsWith('NoId '));
      expect(stored).toHaveLength(2);
    });
  });
});

describe('a --failed file of rows without a customerSupplierId', () => {
  it('says to import it or re-run the input, not both (both created those rows twice)', async () => {
    const f = file('fix.csv', 'name,country\nFix Alpha Ltd,DEU\nFix Beta Ltd,DEU\n');
    const failed = join(scratch.path, 'fix.failed.csv');
    const r = await runSrs(importArgs(f, '--failed', failed, '--retries', '0'), { ...baseEnv(join(scratch.path, 'home-fix')), SRS_BASE_URL: `http://127.0.0.1:${await closedPort()}`, SRS_API_KEY: 'fix-key-0123456789' });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ failed: 2, created: 0 });
    expect(r.stderr).toContain(`${failed} holds 2 rows without a customerSupplierId that failed to send: import ${failed}, or run ${f} again, not both`);
  });
});

describe('exports joined one after another (cat jan.csv feb.csv), each with its header and BOM', () => {
  it('the repeated header is an invalid row naming why, never a supplier named "Name"', async () => {
    await withHarness({}, async (h) => {
      const part = (rows: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`Name;Vendor ID\r\n${rows}`)]);
      const f = file('joined.csv', Buffer.concat([part('Jan Co;JOIN-1\r\n'), part('Feb Co;JOIN-2\r\n')]));
      const r = await h.run(importArgs(f));
      expect(r.code).toBe(1);
      expect(summary(r)).toMatchObject({ created: 2, invalid: 1 });
      expect([...(await storedIds(h, 'JOIN-')).keys()].sort()).toEqual(['JOIN-1', 'JOIN-2']);
      expect((await storedIds(h, 'Vendor')).size).toBe(0);
      expect(r.stderr).toContain('line 3: invalid [Vendor ID]: the row repeats the header');
    });
  });
});

describe('the --failed file of a row with an Excel text id (="00042")', () => {
  it('keeps the idiom as the file had it, so the fixed file imports 00042, not the guarded \'="00042"', async () => {
    await withHarness({}, async (h) => {
      const f = file('textid.csv', 'Name;Country;Vendor No\r\nAlpha GmbH;XX;="TXT00042"\r\n');
      const failed = join(scratch.path, 'textid-failed.csv');
      const first = await h.run(importArgs(f, '--failed', failed));
      expect(first.code).toBe(1);
      const text = (await import('node:fs')).readFileSync(failed, 'utf8');
      // CSV-quoted, the cell reads back as ="TXT00042" (no guard ' before it).
      expect(text).toContain(';"=""TXT00042"""');
      writeFileSync(failed, text.replace(';XX;', ';DEU;'));
      const again = await h.run(importArgs(failed));
      expect(again.code, again.stderr).toBe(0);
      expect([...(await storedIds(h, 'TXT')).keys()]).toEqual(['TXT00042']);
    });
  });
});

describe('a journal of an srs that read --encoding latin1 as ISO-8859-1', () => {
  it('resumes under the windows-1252 reading (rows read alike are skipped, never sent twice)', async () => {
    await withHarness({}, async (h) => {
      const f = file('lat.csv', Buffer.from('name;country;Vendor No\nM\xfcller GmbH;DEU;LAT-1\nGro\xdfhandel AG;DEU;LAT-2\n', 'latin1'));
      const first = await h.run(importArgs(f, '--encoding', 'latin1'));
      expect(first.code, first.stderr).toBe(0);
      const journal = `${f}.srs-journal`;
      const { readFileSync } = await import('node:fs');
      const text = readFileSync(journal, 'utf8');
      expect(text).toContain('"enc":"windows-1252"');
      writeFileSync(journal, text.replace('"enc":"windows-1252"', '"enc":"latin1"'));
      const again = await h.run(importArgs(f, '--encoding', 'latin1'));
      expect(again.code, again.stderr).toBe(0);
      expect(summary(again)).toMatchObject({ created: 0, skipped: 2 });
      expect([...(await storedIds(h, 'LAT-')).values()]).toEqual([1, 1]);
    });
  });
});
