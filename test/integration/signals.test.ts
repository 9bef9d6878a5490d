/**
 * Signals and ports (issue 16), with the built srs:
 * - SIGINT exits 130 and SIGTERM 143 in every command: reads, creates and score
 *   calculations waiting on a service that does not answer, the emulator, and an
 *   import (which first stops gracefully: its journal is flushed, the rows in
 *   flight end as unknown, and a second signal quits at once);
 * - `srs emulator start --port N` on a busy port is one line, exit 1.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, useHostileServer, type Handler } from '../support/hostile-server.js';
import { baseEnv, runSrs } from './harness.js';

const KEY = 'signal-test-key-0123456789-SECRET';
const ID = '01h58vrn1sad1y603je9gbpje8';
const hostile = useHostileServer(KEY);
const server = { scenario: (n: string, h: Handler) => hostile.server.scenario(n, h), count: (n: string) => hostile.server.count(n) };

/** Sends `sig` once the scenario has received `requests` requests (srs is then waiting on the service). */
function killWhenWaiting(name: string, sig: NodeJS.Signals, requests = 1) {
  return (kill: (s: NodeJS.Signals) => void) => {
    const t = setInterval(() => {
      if (server.count(name) >= requests) {
        clearInterval(t);
        kill(sig);
      }
    }, 20);
    setTimeout(() => clearInterval(t), 15_000);
  };
}

const COMMANDS: Array<[string, string[]]> = [
  ['ref countries', ['ref', 'countries']],
  ['scorecards ls', ['scorecards', 'ls']],
  ['supplier get', ['supplier', 'get', ID]],
  ['supplier create', ['supplier', 'create', '--name', 'Signal Test AG']],
  ['score calc', ['score', 'calc', ID]],
  ['api GET', ['api', 'GET', '/v1/countries']],
  ['api POST', ['api', 'POST', '/v1/suppliers', '--field', 'name=Api Signal']],
];

describe.each([
  ['SIGINT', 130],
  ['SIGTERM', 143],
  // The terminal closed: handled like SIGTERM (Node's default ended a create in flight without a record).
  ['SIGHUP', 129],
] as const)('%s exits %i', (sig, code) => {
  it.each(COMMANDS)('%s, waiting on a service that does not answer', async (name, args) => {
    const scenario = `stall-${sig}-${name.replace(' ', '-')}`;
    const base = server.scenario(scenario, () => {
      /* never answers */
    });
    const r = await runSrs([...args, '-o', 'json'], { ...hostile.env, SRS_BASE_URL: base }, { onSpawn: killWhenWaiting(scenario, sig) });
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(code);
    expect(r.stdout).toBe('');
    // A create in flight (supplier create, api POST) may have taken effect: said, never an exit with nothing said.
    if (name === 'supplier create' || name === 'api POST') expect(r.stderr).toContain('outcome unknown');
  });

  it('srs emulator start', async () => {
    const child = spawn(process.execPath, [join(import.meta.dirname, '../../bin/srs.js'), 'emulator', 'start', '--port', '0', '-o', 'json'], { env: baseEnv(mkdtempSync(join(tmpdir(), 'srs-emu-sig-'))), stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.kill(sig);
    const exit = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(exit).toBe(code);
  });
});

describe('an import stopped by a signal keeps its journal guarantees', () => {
  function csv(dir: string, n: number): string {
    const file = join(dir, 'suppliers.csv');
    writeFileSync(file, 'name,countryIso3Code,customerSupplierId\n' + Array.from({ length: n }, (_, i) => `Sig Supplier ${i},DEU,SIG-${i}`).join('\n') + '\n');
    return file;
  }
  const journalLines = (file: string) =>
    readFileSync(file + '.srs-journal', 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { l: number; s: string });

  it('SIGTERM: stops reading, the requests in flight time out and are unknown, the journal has them, exit 143', async () => {
    const base = server.scenario('import-stall', () => {
      /* never answers */
    });
    const dir = mkdtempSync(join(tmpdir(), 'srs-sig-import-'));
    const file = csv(dir, 50);
    const r = await runSrs(['supplier', 'import', file, '--concurrency', '4', '--timeout', '1s', '--retries', '0', '-o', 'json', '--quiet'], { ...hostile.env, SRS_BASE_URL: base }, { onSpawn: killWhenWaiting('import-stall', 'SIGTERM', 4) });
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toContain('SIGTERM: stopping');
    expect(r.stderr).toContain('terminated after line');
    const summary = JSON.parse(r.stdout) as { unknown: number; created: number; complete: boolean };
    expect(summary).toMatchObject({ complete: false, created: 0, unknown: 4 });
    const lines = journalLines(file);
    expect(lines.filter((l) => l.s === 'sent')).toHaveLength(4);
    expect(lines.filter((l) => l.s === 'unknown')).toHaveLength(4);
  });

  it('interrupted while reading stdin (no journal): never advised to run the same command again, which would duplicate rows', async () => {
    const base = server.scenario('import-stall-stdin', () => {
      /* never answers */
    });
    const input = 'name,countryIso3Code\n' + Array.from({ length: 50 }, (_, i) => `Piped Supplier ${i},DEU`).join('\n') + '\n';
    const r = await runSrs(['supplier', 'import', '-', '--concurrency', '4', '--timeout', '1s', '--retries', '0', '-o', 'json', '--quiet'], { ...hostile.env, SRS_BASE_URL: base }, { input, onSpawn: killWhenWaiting('import-stall-stdin', 'SIGTERM', 4) });
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toMatch(/terminated after line \d+: there is no journal \(the input came from a pipe\), so running it again would send every row again/);
    expect(r.stderr).not.toContain('run the same command again');
  });

  it('a second signal while importing from stdin (no journal) never advises a re-run, which would duplicate rows', async () => {
    const base = server.scenario('import-stall-stdin2', () => {
      /* never answers */
    });
    const input = 'name,countryIso3Code\n' + Array.from({ length: 50 }, (_, i) => `Piped Twice ${i},DEU`).join('\n') + '\n';
    const r = await runSrs(['supplier', 'import', '-', '--concurrency', '4', '--timeout', '20s', '-o', 'json', '--quiet'], { ...hostile.env, SRS_BASE_URL: base }, {
      input,
      onSpawn: (kill) => {
        killWhenWaiting('import-stall-stdin2', 'SIGINT', 4)((s) => {
          kill(s);
          setTimeout(() => kill('SIGINT'), 300);
        });
      },
    });
    expect(r.code, r.stderr).toBe(130);
    const last = JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!) as { error: { message: string } };
    expect(last.error.message).toContain('there is no journal (the input came from a pipe), so running it again would send every row again and create duplicates');
    expect(last.error.message).not.toContain('run the same command again');
  });

  it('a signal after every row was read names no line ("after line undefined") and, from a pipe, advises nothing to continue', async () => {
    const base = server.scenario('import-slow-all', (_q, res, n) => {
      setTimeout(() => json(res, 201, { id: `01h57nhc4sapk2v8c7tqslw${String(n).padStart(3, '0')}`, name: 'Slow', countryIso3Code: null, website: null, status: 'current', customerSupplierId: null }), 800);
    });
    const input = 'name,countryIso3Code\nSlow A,DEU\nSlow B,DEU\nSlow C,DEU\n';
    const r = await runSrs(['supplier', 'import', '-', '--concurrency', '4', '-o', 'json', '--quiet'], { ...hostile.env, SRS_BASE_URL: base }, { input, onSpawn: killWhenWaiting('import-slow-all', 'SIGTERM', 3) });
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).not.toContain('undefined');
    expect(r.stderr).toContain('terminated after every row was read and sent (3 created)');
    expect(r.stderr).not.toContain('continue with the rows');
  });

  it('the quit at a second SIGINT is one line of text unless JSON was chosen, as every error (it was JSON whenever stderr was a pipe)', async () => {
    const base = server.scenario('import-stall3', () => {
      /* never answers */
    });
    const dir = mkdtempSync(join(tmpdir(), 'srs-sig-import-text-'));
    const r = await runSrs(['supplier', 'import', csv(dir, 20), '--concurrency', '2', '--timeout', '20s', '-o', 'table', '--quiet', '--no-catalog'], { ...hostile.env, SRS_BASE_URL: base }, {
      onSpawn: (kill) => {
        killWhenWaiting('import-stall3', 'SIGINT', 2)((s) => {
          kill(s);
          setTimeout(() => kill('SIGINT'), 300);
        });
      },
    });
    expect(r.code, r.stderr).toBe(130);
    const last = r.stderr.trimEnd().split('\n').at(-1)!;
    expect(last).toMatch(/^srs: SIGINT: quit at once: rows in flight have an unknown outcome/);
    expect(r.stderr).not.toContain('{"error"');
  });

  it('a second SIGINT quits at once with 130; every request sent is in the journal', async () => {
    const base = server.scenario('import-stall2', () => {
      /* never answers */
    });
    const dir = mkdtempSync(join(tmpdir(), 'srs-sig-import-'));
    const file = csv(dir, 50);
    const t0 = performance.now();
    const report = join(dir, 'report.csv');
    const r = await runSrs(['supplier', 'import', file, '--concurrency', '4', '--timeout', '20s', '--report', report, '-o', 'json', '--quiet'], { ...hostile.env, SRS_BASE_URL: base }, {
      onSpawn: (kill) => {
        killWhenWaiting('import-stall2', 'SIGINT', 4)((s) => {
          kill(s);
          setTimeout(() => kill('SIGINT'), 300);
        });
      },
    });
    expect(r.code, r.stderr).toBe(130);
    expect(performance.now() - t0).toBeLessThan(10_000);
    // Off a terminal, the quit is the one-line JSON error every other error is, and names the incomplete report.
    const last = JSON.parse(r.stderr.trimEnd().split('\n').at(-1)!) as { error: { code: string; message: string; exitCode: number } };
    expect(last.error).toMatchObject({ code: 'interrupted', exitCode: 130 });
    expect(last.error.message).toContain(`SIGINT: quit at once: rows in flight have an unknown outcome, and --report ${report} is incomplete`);
    expect(journalLines(file).filter((l) => l.s === 'sent')).toHaveLength(4);
    // Its last outcomes never reached the supplier catalog: another import on this target is refused until this one
    // runs again and its journal repairs the catalog (the exit had released the lock, and an overlapping import
    // created suppliers twice).
    const other = mkdtempSync(join(tmpdir(), 'srs-sig-import-other-'));
    const next = await runSrs(['supplier', 'import', csv(other, 5), '-o', 'json', '--quiet'], { ...hostile.env, SRS_BASE_URL: base });
    expect(next.code, next.stderr).toBe(2);
    expect(next.stderr).toMatch(/run it again first/);
    // And the catalog's listings say they may be missing what it created (they read as "not there", exit 0).
    for (const args of [['supplier', 'ls'], ['supplier', 'find', 'SIG-1']]) {
      const listed = await runSrs([...args, '-o', 'json'], { ...hostile.env, SRS_BASE_URL: base });
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stderr).toMatch(/ended without writing its last outcomes to this catalog: suppliers it created may be missing below/);
    }
    // get --customer-id says it too (it answered "no supplier with customerSupplierId" as if that were known).
    const got = await runSrs(['supplier', 'get', '--customer-id', 'SIG-1', '-o', 'json'], { ...hostile.env, SRS_BASE_URL: base });
    expect(got.stderr).toMatch(/ended without writing its last outcomes to this catalog/);
  });
});

describe('srs emulator start on a busy port', () => {
  let busy: Server;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await new Promise((r) => busy.close(r));
  });

  it('is one line and exit 1', async () => {
    const port = (busy.address() as { port: number }).port;
    const r = await runSrs(['emulator', 'start', '--port', String(port), '-o', 'table'], baseEnv(mkdtempSync(join(tmpdir(), 'srs-port-'))));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`srs: port ${port} is in use: choose another or --port 0\n`);
    expect(r.stdout).toBe('');
  });
});

describe('supplier create stopped while no attempt is in flight', () => {
  it('waiting out a 429 (Retry-After 30): not created, nothing recorded, no request after the signal; the next create is sent', async () => {
    const scenario = 'create-429-wait';
    const base = server.scenario(scenario, (_q, res) => json(res, 429, { message: 'slow down' }, { 'retry-after': '30' }));
    const env = { ...hostile.env, SRS_BASE_URL: base };
    const r = await runSrs(['supplier', 'create', '--name', 'Wait Out GmbH', '--customer-id', 'W429-1', '-o', 'json'], env, { onSpawn: killWhenWaiting(scenario, 'SIGTERM') });
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toContain('terminated while waiting to send the request again');
    expect(r.stderr).toContain('the supplier was not created');
    expect(r.stderr).not.toContain('outcome unknown');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.count(scenario)).toBe(1);
    // Nothing recorded as unknown: the same create is sent next time (it was refused as "an earlier create ... unknown").
    const listed = await runSrs(['supplier', 'ls', '--state', 'unknown', '-o', 'json'], env);
    expect(JSON.parse(listed.stdout)).toEqual([]);
    const ok = server.scenario('create-429-then-201', (_q, res) => json(res, 201, { id: '01h57nhc4sapk2v8c7tqw4290a', name: 'Wait Out GmbH', countryIso3Code: null, website: null, status: 'current', customerSupplierId: 'W429-1' }));
    const again = await runSrs(['supplier', 'create', '--name', 'Wait Out GmbH', '--customer-id', 'W429-1', '-o', 'json'], { ...env, SRS_BASE_URL: ok });
    expect(again.code, again.stderr).toBe(0);
  });

  it('api POST waiting out a 429: not sent, not "outcome unknown"', async () => {
    const scenario = 'api-429-wait';
    const base = server.scenario(scenario, (_q, res) => json(res, 429, { message: 'slow down' }, { 'retry-after': '30' }));
    const r = await runSrs(['api', 'POST', '/v1/suppliers', '--field', 'name=Api Wait'], { ...hostile.env, SRS_BASE_URL: base }, { onSpawn: killWhenWaiting(scenario, 'SIGTERM') });
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toContain('terminated while waiting to send the request again');
    expect(r.stderr).not.toContain('outcome unknown');
  });
});

describe('supplier create killed with SIGKILL in flight (no handler runs)', () => {
  it('its attempt was recorded before the request left: the next create and an import of the same id are refused as unknown', async () => {
    const scenario = 'create-kill9';
    const base = server.scenario(scenario, () => {
      /* the request arrived (it may be stored); the answer never comes */
    });
    const env = { ...hostile.env, SRS_BASE_URL: base };
    const killed = await runSrs(['supplier', 'create', '--name', 'Kill Nine GmbH', '--customer-id', 'K9-1', '-o', 'json'], env, { onSpawn: killWhenWaiting(scenario, 'SIGKILL') });
    expect(killed.signal).toBe('SIGKILL');
    const again = await runSrs(['supplier', 'create', '--name', 'Kill Nine GmbH', '--customer-id', 'K9-1', '-o', 'json'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/"code":"outcome_unknown"/);
    const dir = mkdtempSync(join(tmpdir(), 'srs-k9-'));
    const file = join(dir, 'k9.csv');
    writeFileSync(file, 'name,countryIso3Code,customerSupplierId\nKill Nine GmbH,DEU,K9-1\n');
    const imp = await runSrs(['supplier', 'import', file, '-o', 'json', '--quiet'], env);
    expect(JSON.parse(imp.stdout)).toMatchObject({ created: 0, unknown: 1 });
    // One request only: the killed one. Nothing was sent again.
    expect(server.count(scenario)).toBe(1);
    const listed = await runSrs(['supplier', 'ls', '--state', 'unknown', '-o', 'json'], env);
    expect((JSON.parse(listed.stdout) as Array<{ customerSupplierId: string }>).map((e) => e.customerSupplierId)).toEqual(['K9-1']);
  });
});

describe('emulator start --state FILE made earlier', () => {
  it('prints the seed in use and warns that the file keeps its own seed and supplier count', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'srs-emu-state-'));
    const state = join(dir, 'state.db');
    const start = async (args: string[]) => {
      const child = spawn(process.execPath, [join(import.meta.dirname, '../../bin/srs.js'), 'emulator', 'start', '--port', '0', '--state', state, '-o', 'json', ...args], { env: baseEnv(dir), stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const line = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString())));
      child.kill('SIGTERM');
      await new Promise((r) => child.on('close', r));
      return { info: JSON.parse(line.split('\n')[0]!) as { seed: number }, err };
    };
    expect((await start(['--suppliers', '5'])).info.seed).toBe(1);
    const again = await start(['--suppliers', '40', '--seed', '7']);
    expect(again.info.seed).toBe(1);
    expect(again.err).toMatch(/--state .*state\.db was made with seed 1 and 5 suppliers: those are in use/);
  });
});
