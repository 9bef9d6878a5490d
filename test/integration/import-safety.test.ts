/**
 * #15 end to end (the built srs against a real emulator): the journal lock,
 * the journal's target binding (sandbox then emulator), rows that are never
 * merged or dropped, a BOM that lies, the API key echoed by the service kept
 * out of every file, and a report write that fails stopping the run at once.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, scratchDir, runSrs, storedIds, withHarness, type RunResult } from './harness.js';

const scratch = scratchDir('srs-import-safety-');

let n = 0;
function csvFile(rows: number, prefix: string): string {
  const p = join(scratch.path, `${prefix}-${n++}.csv`);
  const lines = ['name,country,customerSupplierId'];
  for (let i = 0; i < rows; i++) lines.push(`${prefix} Supplier ${i},DEU,${prefix}-${i}`);
  writeFileSync(p, lines.join('\n') + '\n');
  return p;
}

const summary = (r: RunResult) => JSON.parse(r.stdout) as Record<string, number | string | boolean>;
const importArgs = (file: string, ...more: string[]) => ['supplier', 'import', file, '-o', 'json', '--quiet', ...more];

describe('the journal lock', () => {
  it('a second import of the same file while the first runs exits 2 naming the holder; every row is stored once', async () => {
    await withHarness({ faults: { latency: 30 } }, async (h) => {
      const N = 300;
      const file = csvFile(N, 'LOCK');
      const first = h.run(importArgs(file, '--concurrency', '4'), { timeoutMs: 120_000 });
      // Wait until the first run holds the lock, then start the second.
      const deadline = Date.now() + 60_000;
      while (!existsSync(file + '.srs-journal.lock') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(existsSync(file + '.srs-journal.lock')).toBe(true);
      const second = await h.run(importArgs(file), { timeoutMs: 60_000 });
      const a = await first;
      expect(second.code, second.stderr).toBe(2);
      expect(second.stderr).toMatch(/journal .*LOCK-\d+\.csv\.srs-journal is in use by process \d+ on /);
      expect(second.stdout).toBe('');
      expect(a.code, a.stderr).toBe(0);
      expect(summary(a)).toMatchObject({ created: N });
      const ids = await storedIds(h, 'LOCK-');
      expect(ids.size).toBe(N);
      expect([...ids.values()].every((c) => c === 1)).toBe(true);
      expect(existsSync(file + '.srs-journal.lock')).toBe(false);
    });
  });
});

describe('the journal target', () => {
  it('a sandbox rehearsal then a run against the emulator: exit 2 with --journal NEW, nothing skipped; with a new journal every row is created there', async () => {
    await withHarness({}, async (h) => {
      const N = 25;
      const file = csvFile(N, 'SBX');
      const rehearsal = await runSrs(['--sandbox', ...importArgs(file)], { ...h.env, SRS_API_KEY: undefined, SRS_BASE_URL: undefined });
      expect(rehearsal.code, rehearsal.stderr).toBe(0);
      expect(summary(rehearsal)).toMatchObject({ created: N });

      const real = await h.run(importArgs(file));
      expect(real.code, real.stderr).toBe(2);
      expect(real.stderr).toContain('belongs to the sandbox');
      expect(real.stderr).toContain('--journal NEW');
      expect(real.stdout).toBe('');
      expect((await storedIds(h, 'SBX-')).size).toBe(0);

      const fresh = await h.run(importArgs(file, '--journal', file + '.emulator-journal'));
      expect(fresh.code, fresh.stderr).toBe(0);
      expect(summary(fresh)).toMatchObject({ created: N, skipped: 0 });
      expect((await storedIds(h, 'SBX-')).size).toBe(N);
    });
  });
});

describe('reading', () => {
  it('mixed CRLF, LF and CR line endings: every row is its own supplier, no id holds a line break', async () => {
    await withHarness({}, async (h) => {
      const file = join(scratch.path, 'mixed.csv');
      writeFileSync(file, 'name,country,customerSupplierId\r\nMixed A,DEU,MIX-1\nMixed B,FRA,MIX-2\rMixed C,ITA,MIX-3\r\nMixed D,ESP,MIX-4\r');
      const r = await h.run(importArgs(file));
      expect(r.code, r.stderr).toBe(0);
      expect(summary(r)).toMatchObject({ created: 4, total: 4, invalid: 0 });
      expect([...(await storedIds(h, 'MIX-')).keys()].sort()).toEqual(['MIX-1', 'MIX-2', 'MIX-3', 'MIX-4']);
    });
  });

  it('a UTF-16LE byte order mark before UTF-8 text: exit 2, nothing sent, no journal', async () => {
    await withHarness({}, async (h) => {
      const file = join(scratch.path, 'liar.csv');
      writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('name,country,customerSupplierId\nBom Ltd,DEU,BOM-1\n', 'utf8')]));
      const r = await h.run(importArgs(file));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('byte order mark');
      expect(existsSync(file + '.srs-journal')).toBe(false);
      expect((await storedIds(h, 'BOM-')).size).toBe(0);
    });
  });

  it('/dev/stdin is read like "-": no journal under /dev, a warning to pass --journal', async () => {
    await withHarness({}, async (h) => {
      const body = 'name,country,customerSupplierId\nPiped A,DEU,PIPE-1\nPiped B,DEU,PIPE-2\n';
      const r = await h.run(importArgs('/dev/stdin'), { input: body });
      expect(r.code, r.stderr).toBe(0);
      expect(summary(r)).toMatchObject({ created: 2 });
      expect(r.stderr).toContain('without --journal');
      expect(existsSync('/dev/stdin.srs-journal')).toBe(false);
    });
  });
});

describe('no secret in any file', () => {
  it('the API key a service echoes in 400 messages is redacted in the report, --failed and the journal', async () => {
    await withHarness({ faults: { echoKeyRate: 0.5 } }, async (h) => {
      const sub = mkdtempSync(join(scratch.path, 'echo-'));
      const file = join(sub, 'echo.csv');
      writeFileSync(file, ['name,country,customerSupplierId', ...Array.from({ length: 40 }, (_, i) => `Echo ${i},DEU,ECHO-${i}`)].join('\n') + '\n');
      const r = await h.run(importArgs(file, '--report', join(sub, 'report.csv'), '--failed', join(sub, 'failed.csv')));
      expect(r.code).toBe(1);
      expect(h.emu.faultStats!().echoedKeys).toBeGreaterThan(0);
      expect(Number(summary(r).failed)).toBe(h.emu.faultStats!().echoedKeys);
      const key = h.env.SRS_API_KEY!;
      const files = readdirSync(sub).filter((f) => statSync(join(sub, f)).isFile());
      expect(files.sort()).toEqual(['echo.csv', 'echo.csv.srs-journal', 'failed.csv', 'report.csv']);
      for (const f of files) expect(readFileSync(join(sub, f), 'utf8').includes(key), f).toBe(false);
      // The message is kept, with the key masked as on stderr.
      expect(readFileSync(join(sub, 'report.csv'), 'utf8')).toContain(`supplier rejected for API key ****${key.slice(-4)}`);
      expect(readFileSync(join(sub, 'echo.csv.srs-journal'), 'utf8')).toContain(`****${key.slice(-4)}`);
    });
  });
});

describe('a write that fails', () => {
  it.runIf(existsSync('/dev/full'))('--report /dev/full (ENOSPC) stops the run before another request leaves, names the file, exits 1; every stored row is in the journal', async () => {
    await withHarness({}, async (h) => {
      const N = 3000;
      const file = csvFile(N, 'FULL');
      const r = await h.run(importArgs(file, '--report', '/dev/full'), { timeoutMs: 120_000 });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('cannot write --report /dev/full (ENOSPC');
      expect(r.stderr).toContain('no request left after the failure');
      const journal = readFileSync(file + '.srs-journal', 'utf8');
      const created = journal.match(/"s":"created"/g)?.length ?? 0;
      const ids = await storedIds(h, 'FULL-');
      // What the emulator stored is exactly what the journal records as created: no request left unrecorded.
      expect(ids.size).toBe(created);
      expect(created).toBeLessThan(N);
      expect(journal).not.toContain('"s":"unknown"');

      // The same command without the failing report picks up and stores every row once.
      const again = await h.run(importArgs(file), { timeoutMs: 120_000 });
      expect(again.code, again.stderr).toBe(0);
      const after = await storedIds(h, 'FULL-');
      expect(after.size).toBe(N);
      expect([...after.values()].every((c) => c === 1)).toBe(true);
    });
  });
});

describe('the sandbox on a full disk', () => {
  it("rows whose create the sandbox's state file could not hold are unknown, exit 1, and the 500 names the state file", async () => {
    const home = join(scratch.path, 'full-disk');
    const env = baseEnv(home);
    const file = csvFile(300, 'FULL');
    // Under `ulimit -f 300` (KiB) the sandbox's state database stops growing part-way: its writes fail (EFBIG), as on a full disk.
    const r = await runSrs(['--sandbox', '--no-catalog', ...importArgs(file, '--concurrency', '4')], env, { fileSizeLimitKb: 300 });
    expect(r.code, r.stderr).toBe(1);
    const s = summary(r);
    expect(s.unknown).toBeGreaterThan(0);
    expect(Number(s.created) + Number(s.unknown)).toBe(Number(s.total));
    // Every create after the disk filled failed: 25 in a row stopped the run (the rest of the file was not sent).
    expect(s.stopReason).toBe('the service is failing');
    expect(Number(s.unknown)).toBeGreaterThanOrEqual(25);
    expect(Number(s.total)).toBeLessThan(300);
    expect(r.stderr).toContain('internal emulator error: its state file cannot be written');
    expect(r.stderr).not.toMatch(/internal emulator error\)|internal emulator error \(the supplier/);
    // Every row the summary calls created is in the sandbox, read back without the limit.
    const created = readFileSync(`${file}.srs-journal`, 'utf8').split('\n').filter((l) => l.includes('"s":"created"')).map((l) => (JSON.parse(l) as { id: string }).id);
    expect(created).toHaveLength(Number(s.created));
    for (const id of [created[0]!, created.at(-1)!]) {
      const got = await runSrs(['--sandbox', '--no-catalog', 'supplier', 'get', id, '-o', 'json'], env);
      expect(got.code, got.stderr).toBe(0);
    }
  });
});

describe('a journal lock that cannot be written', () => {
  it('exit 1 naming the lock, nothing sent, and no empty lock left behind to read as a killed run', async () => {
    await withHarness({}, async (h) => {
      const file = csvFile(5, 'LOCKFULL');
      // `ulimit -f 0`: the lock file is made, its first write fails (EFBIG), as on a full disk.
      const r = await h.run(['--no-catalog', ...importArgs(file)], { fileSizeLimitKb: 0 });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`cannot write the journal lock ${file}.srs-journal.lock (EFBIG)`);
      expect(r.stderr).toContain('Nothing was read or sent.');
      expect(existsSync(`${file}.srs-journal.lock`)).toBe(false);
      expect((await storedIds(h, 'LOCKFULL-')).size).toBe(0);
      // The next run is not refused as "locked by a run that was killed".
      const again = await h.run(['--no-catalog', ...importArgs(file)]);
      expect(again.code, again.stderr).toBe(0);
      expect(summary(again).created).toBe(5);
    });
  });
});

describe('a quote left open in a column that is not a name or id', () => {
  it('the row it ran into is invalid (exit 1) naming the column; the rows it swallowed are not silently lost with exit 0', async () => {
    await withHarness({}, async (h) => {
      const file = join(scratch.path, 'merge.csv');
      writeFileSync(file, 'Supplier Name;Country;Supplier Number;Contact Last Name\r\nMerge A;DEU;MG1;"Weiß\r\nMerge B;FRA;MG2;Dupont\r\nMerge C;ITA;MG3;"Rossi"\r\nMerge D;ESP;MG4;Garcia\r\n');
      const r = await h.run(importArgs(file));
      expect(r.code, r.stderr).toBe(1);
      expect(summary(r)).toMatchObject({ created: 1, invalid: 1 });
      expect(r.stderr).toContain('column "Contact Last Name" runs on over 2 lines');
      expect([...(await storedIds(h, 'MG')).keys()]).toEqual(['MG4']);
    });
  });
});

describe('a dry run rehearses the real run', () => {
  it('refuses the client options the real run refuses (--timeout abc, --retries -1 passed the rehearsal, exit 0)', async () => {
    const file = csvFile(3, 'DRY');
    const env = baseEnv(join(scratch.path, 'dry'));
    for (const flags of [['--timeout', 'abc'], ['--retries', '-1'], ['--retries', '99']]) {
      const r = await runSrs(['--sandbox', ...flags, ...importArgs(file, '--dry-run')], env);
      expect(r.code, `${flags.join(' ')}: ${r.stdout}`).toBe(2);
      expect(r.stderr).toMatch(/--(timeout|retries) must be/);
    }
    // And the base URL, when one is given (a dry run needs none).
    for (const url of ['', 'http://127.0.0.1:9/?q=1', 'ftp://x', 'http://192.0.2.2:9']) {
      const r = await runSrs(['--base-url', url, ...importArgs(file, '--dry-run')], env);
      expect(r.code, `${url}: ${r.stdout}`).toBe(2);
    }
    const offline = await runSrs(importArgs(file, '--dry-run'), env);
    expect(offline.code, offline.stderr).toBe(0);
  });

  it('an output that breaks during a dry run does not point at a journal (a dry run keeps none)', async () => {
    const { spawnSync, spawn } = await import('node:child_process');
    const file = join(scratch.path, 'many-invalid.csv');
    writeFileSync(file, 'name,country\n' + Array.from({ length: 20_000 }, (_, i) => `Inv ${i},DE`).join('\n') + '\n');
    const fifo = join(scratch.path, 'failed.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // A reader that takes 10 bytes and goes: every later write to --failed meets EPIPE.
    const reader = spawn('head', ['-c', '10', fifo], { stdio: 'ignore' });
    const r = await runSrs(['--sandbox', ...importArgs(file, '--dry-run', '--failed', fifo)], baseEnv(join(scratch.path, 'dry2')));
    reader.kill();
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('the dry run sent nothing');
    expect(r.stderr).not.toContain('journal');
  });
});

describe('a dry run with a base URL and a key that cannot be used', () => {
  it('is refused as the real run would be (exit 4), not taken for "no base URL and key" when a journal names a target', async () => {
    await withHarness({}, async (h) => {
      const file = csvFile(3, 'DRYKEY');
      const real = await h.run(importArgs(file));
      expect(real.code, real.stderr).toBe(0);
      const dry = await h.run(importArgs(file, '--dry-run'), { env: { SRS_API_KEY: 'abc' } });
      expect(dry.code, dry.stderr).toBe(4);
      expect(dry.stderr).toContain('too short');
      expect(dry.stderr).not.toContain('no base URL and key');
      // A first rehearsal too (no journal yet), and a profile named for this run that does not exist.
      const fresh = csvFile(3, 'DRYFRESH');
      expect((await h.run(importArgs(fresh, '--dry-run'), { env: { SRS_API_KEY: 'abc' } })).code).toBe(4);
      const noProfile = await h.run(['--profile', 'nosuch', ...importArgs(fresh, '--dry-run')], { env: { SRS_API_KEY: undefined, SRS_BASE_URL: undefined } });
      expect(noProfile.code, noProfile.stderr).toBe(2);
      expect(noProfile.stderr.replace(/\\"/g, '"')).toContain('no profile "nosuch"');
      // Without any base URL or key, a dry run still needs none.
      const bare = await h.run(importArgs(fresh, '--dry-run'), { env: { SRS_API_KEY: undefined, SRS_BASE_URL: undefined } });
      expect(bare.code, bare.stderr).toBe(0);
    });
  });
});

describe('the summary in CSV', () => {
  it('has every field in one order whatever the run (summaries appended run after run line up)', async () => {
    const file = csvFile(2, 'SUMCSV');
    const env = baseEnv(join(scratch.path, 'sumcsv'));
    const header = 'file,dryRun,created,valid,skipped,exists,invalid,failed,unknown,total,elapsedSeconds,rowsPerSecond,complete,stopReason,stoppedAfterLine,journal,report,failedFile,throttled';
    for (const extra of [['--dry-run'], []]) {
      const r = await runSrs(['--sandbox', 'supplier', 'import', file, '-o', 'csv', '--quiet', ...extra], env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split('\n')[0]).toBe(header);
    }
  });
});

describe('a signal while waiting for another import\'s lock', () => {
  it('is the signal (exit 130) with nothing sent, not the "in use" usage error (exit 2) the wait ends in', async () => {
    await withHarness({ faults: { latency: 30 } }, async (h) => {
      // Long enough to hold the lock past the second run's wait (3 s).
      const first = csvFile(1500, 'HOLD');
      const held = h.run(importArgs(first, '--concurrency', '4'), { timeoutMs: 120_000 });
      const deadline = Date.now() + 60_000;
      const holding = () => existsSync(join(h.home, 'data')) && readdirSync(join(h.home, 'data')).some((f) => f.includes('.import-'));
      while (!holding() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(holding()).toBe(true);
      const second = csvFile(5, 'WAIT');
      const t0 = Date.now();
      const r = await h.run(importArgs(second), { onSpawn: (kill) => setTimeout(() => kill('SIGINT'), 400) });
      expect(r.code, r.stderr).toBe(130);
      // The wait itself is not cut short (a few seconds at most): what it ends in is the signal.
      expect(Date.now() - t0).toBeLessThan(8_000);
      expect(r.stderr).toContain('interrupted before the import started: nothing was sent');
      expect((await storedIds(h, 'WAIT-')).size).toBe(0);
      expect((await held).code).toBe(0);
    });
  });
});

describe('rows that moved since the journal was written (an export that gained or lost rows)', () => {
  it('a stdin import resumed with a row added past the first MiB creates no supplier twice: moved rows are found by their cells', async () => {
    await withHarness({}, async (h) => {
      // Rows without a customer id (the catalog cannot tell them apart), 250 bytes each: line 4,101 is past the first MiB.
      const pad = 'x'.repeat(240);
      const rows = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => `Moved Co ${from + k};DEU;${pad}`);
      const head = 'Name;Country;Note';
      const day1 = [head, ...rows(1, 4500)].join('\n') + '\n';
      const day2 = [head, ...rows(1, 4100), 'Moved Co NEW;DEU;' + pad, ...rows(4101, 4800)].join('\n') + '\n';
      const journal = join(scratch.path, 'moved.journal');
      const args = ['supplier', 'import', '-', '--journal', journal, '--map', 'Note=ignore', '-o', 'json', '--quiet', '--no-catalog'];
      const first = await h.run(args, { input: day1, timeoutMs: 120_000 });
      expect(first.code, first.stderr).toBe(0);
      expect(summary(first).created).toBe(4500);
      const report = join(scratch.path, 'moved-report.csv');
      const second = await h.run([...args, '--report', report], { input: day2, timeoutMs: 120_000 });
      const res = await fetch(`${h.emu.url}/_emulator/suppliers`, { headers: { 'x-api-key': h.env.SRS_API_KEY! } });
      const names = new Map<string, number>();
      for (const s of (await res.json()) as Array<{ name: string }>) if (s.name.startsWith('Moved Co ')) names.set(s.name, (names.get(s.name) ?? 0) + 1);
      expect([...names.values()].every((c) => c === 1), JSON.stringify([...names].filter(([, c]) => c > 1))).toBe(true);
      // 4,800 rows once each; the new row at a line that held a created one is unknown, not sent (exit 1).
      expect(names.size).toBe(4800);
      expect(second.code, second.stderr).toBe(1);
      expect(summary(second)).toMatchObject({ created: 300, skipped: 4500, unknown: 1 });
      const text = readFileSync(report, 'utf8');
      expect(text).toMatch(/already created \(journal: as line 4501, which this row held in an earlier run\)/);
    });
  });
});

describe('an outage', () => {
  it('25 creates in a row that the service fails stop the run (exit 1): the rest of the file is not sent into it, and the re-run resumes once the service is back', async () => {
    const file = join(scratch.path, 'outage.csv');
    writeFileSync(file, 'name,country,customer supplier id\n' + Array.from({ length: 300 }, (_, i) => `Outage ${i},FRA,OUT-${i}`).join('\n') + '\n');
    let stopped: RunResult | undefined;
    let env: Record<string, string> = {};
    let port = 0;
    await withHarness({ faults: { failRate: 1 } }, async (h) => {
      env = h.env;
      port = Number(new URL(h.emu.url).port);
      stopped = await h.run(['supplier', 'import', file, '--concurrency', '4', '-o', 'json']);
      const posts = h.requests.filter((l) => l.startsWith('POST /v1/suppliers')).length;
      // At most the 25 plus the requests in flight when the 25th failed (and their retries of a 503 with Retry-After).
      expect(posts).toBeLessThan(100);
    });
    expect(stopped!.code).toBe(1);
    const summary = JSON.parse(stopped!.stdout.slice(0, stopped!.stdout.lastIndexOf('}') + 1)) as { total: number; complete: boolean; stopReason: string; created: number };
    expect(summary.complete).toBe(false);
    expect(summary.stopReason).toBe('the service is failing');
    expect(summary.created).toBe(0);
    expect(summary.total).toBeLessThan(60);
    expect(stopped!.stderr).toMatch(/the service failed 25 creates in a row \(the last, line \d+: HTTP 5\d\d.*\): srs stopped sending rather than send the rest of the file into an outage; run the same command again once the service is back/);
    // The service is back (at the same address, with the same key): the re-run sends the rows never sent, and keeps
    // back those whose outcome is unknown.
    await withHarness({ port, apiKey: env.SRS_API_KEY! }, async () => {
      const again = await runSrs(['supplier', 'import', file, '-o', 'json'], env);
      expect(again.code, again.stderr).toBe(1); // the unknown rows
      expect(again.stderr).not.toContain('in a row');
      const s = JSON.parse(again.stdout) as { created: number; unknown: number; total: number };
      expect(s.total).toBe(300);
      expect(s.created + s.unknown).toBe(300);
      expect(s.created).toBe(300 - summary.total);
    });
  });
});
