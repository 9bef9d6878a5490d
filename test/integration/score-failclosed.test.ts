/**
 * The score commands fail closed for a new user's ordinary mistakes (issues
 * 17 and 19, the reviewer's findings): ids checked for shape in calc, explain
 * and report before anything is sent; a mistyped bundle path is not a supplier
 * id; a supplier the service does not know is `unknown` and never a clean
 * exit 0; output paths checked before any request; recompute's tables fit 80
 * columns on a real pseudo-terminal; --fields checked for check, explain and
 * recompute; --verify says its verdict before any value reads as agreeing;
 * counted words in the plural. Each runs the built srs against the emulator.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import displayWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from '../../src/emulator/index.js';
import { onTerminal, pty } from '../support/terminal.js';
import { runSrs, startWithBundle, type Harness } from './harness.js';

let h: Harness;
let offline: Record<string, string>;
let bundle: string;
const fx = fixtures();
const [a, b, c] = fx.suppliers.map((s) => s.id);
/** Well-formed, but no supplier of the emulator. */
const STRANGER = '01zzzzzzzzzzzzzzzzzzzzzzzz';
/** stderr with JSON-escaped quotes undone (errors are one JSON line when stderr is not a terminal). */
const err = (r: { stderr: string }) => r.stderr.replace(/\\"/g, '"');

beforeAll(async () => {
  ({ h, offline, bundle } = await startWithBundle([a!, b!, c!]));
});
afterAll(async () => {
  await h?.close();
});

/** Runs srs and checks that it sent nothing to the emulator. */
async function sendsNothing(args: string[]) {
  const before = h.requests.length;
  const r = await h.run(args);
  expect(h.requests.slice(before), `${args.join(' ')} sent requests`).toEqual([]);
  return r;
}

describe('1. ids are checked before anything is sent; unknown suppliers are never a clean exit 0', () => {
  it('calc, explain and report refuse a malformed id with exit 2 naming it', async () => {
    const calc = await sendsNothing(['score', 'calc', 'typo']);
    expect(calc.code).toBe(2);
    expect(err(calc)).toMatch(/1 supplier id is not a 26-character lowercase ULID: "typo" \(argument 1: 4 characters, not 26\)/);
    const two = await sendsNothing(['score', 'calc', a!, 'typo', 'NOPE']);
    expect(two.code).toBe(2);
    expect(err(two)).toMatch(/2 supplier ids are not 26-character lowercase ULIDs: "typo" .*, "NOPE"/);
    const explain = await sendsNothing(['score', 'explain', 'typo']);
    expect(explain.code).toBe(2);
    expect(err(explain)).toMatch(/supplier id "typo" is not a 26-character lowercase ULID/);
    const report = await sendsNothing(['score', 'report', a!, a!.toUpperCase(), '--html', join(h.home, 'never.html')]);
    expect(report.code).toBe(2);
    expect(err(report)).toContain(a!.toUpperCase());
    expect(existsSync(join(h.home, 'never.html'))).toBe(false);
  });

  it('report: a mistyped bundle path is "no such bundle file or supplier id", exit 2, nothing written or sent', async () => {
    const out = join(h.home, 'x.html');
    const r = await sendsNothing(['score', 'report', join(h.home, 'evidnce.jsonl'), '--html', out]);
    expect(r.code).toBe(2);
    expect(err(r)).toContain(`no such bundle file or supplier id: "${join(h.home, 'evidnce.jsonl')}"`);
    expect(existsSync(out)).toBe(false);
  });

  it('calc prints the others, marks the unknown one (tables) or leaves it out (JSON: it read as "no data") and exits 1 with a one-line summary', async () => {
    const json = await h.run(['score', 'calc', a!, STRANGER, '-o', 'json']);
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as Array<{ supplierId: string }>).map((x) => x.supplierId)).toEqual([a]);
    for (const [extra, printed] of [[['--query', '[].supplierId'], [a]], [['--fields', 'supplierId'], [{ supplierId: a }]]] as const) {
      const q = await h.run(['score', 'calc', a!, STRANGER, '-o', 'json', ...extra]);
      expect(q.code).toBe(1);
      expect(JSON.parse(q.stdout)).toEqual(printed);
    }
    expect(json.stderr).toContain(`UNKNOWN ${STRANGER}: the service does not know supplier ${STRANGER}`);
    expect(err(json)).toMatch(/1 of 2 suppliers is unknown to the service; the results of the others were printed/);
    const table = await h.run(['score', 'calc', a!, STRANGER, '-o', 'table']);
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(new RegExp(`^${STRANGER}\\s+—\\s+unknown`, 'm'));
    expect(table.stdout).toContain(a);
    // Piped NDJSON (the pass-through path) and --save fail the same way; the bundle still records why.
    const nd = await h.run(['score', 'calc', STRANGER, b!, '-o', 'ndjson']);
    expect(nd.code).toBe(1);
    expect(nd.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { supplierId: string }).supplierId)).toEqual([b]);
    const saved = join(h.home, 'with-unknown.jsonl');
    const save = await h.run(['score', 'calc', a!, STRANGER, '--save', saved, '-o', 'json']);
    expect(save.code).toBe(1);
    expect((JSON.parse(save.stdout) as Array<{ supplierId: string }>).map((x) => x.supplierId)).toEqual([a]);
    expect(err(save)).toContain(`the bundle ${saved} records why`);
    expect(readFileSync(saved, 'utf8')).toContain(`"t":"error","supplierId":"${STRANGER}","code":"not_found"`);
    // Known suppliers only: exit 0 as before.
    expect((await h.run(['score', 'calc', a!, b!, '-o', 'json'])).code).toBe(0);
  });

  it('explain and report of a supplier the service does not know are exit 1 "unknown"; no report is written', async () => {
    const explain = await h.run(['score', 'explain', STRANGER]);
    expect(explain.code).toBe(1);
    expect(err(explain)).toMatch(/unknown: the service does not know supplier 01z+ .*nothing was explained/);
    expect(explain.stdout).toBe('');
    const out = join(h.home, 'z.html');
    const report = await h.run(['score', 'report', STRANGER, '--html', out]);
    expect(report.code).toBe(1);
    expect(report.stderr).toContain(`UNKNOWN ${STRANGER}`);
    expect(err(report)).toMatch(/1 of 1 supplier is unknown; no report was written/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('2. output paths are checked before anything is sent (exit 2 naming the option)', () => {
  it('--save and --html: a missing directory, or a directory instead of a file', async () => {
    const dir = join(h.home, 'a-dir');
    mkdirSync(dir, { recursive: true });
    const cases: Array<[string[], RegExp]> = [
      [['score', 'calc', a!, '--save', '/nonexistent/x.jsonl'], /--save \/nonexistent\/x\.jsonl: its directory \/nonexistent does not exist/],
      [['score', 'calc', a!, '--save', dir], /--save .*a-dir: .*a-dir is a directory; name a file/],
      [['score', 'report', bundle, '--html', '/nonexistent/dir/x.html'], /--html \/nonexistent\/dir\/x\.html: its directory \/nonexistent\/dir does not exist/],
      [['score', 'report', a!, '--html', dir], /--html .*a-dir: .*a-dir is a directory/],
      [['score', 'check', a!, '--min', '0', '--junit', '/nonexistent/r.xml'], /--junit \/nonexistent\/r\.xml: its directory \/nonexistent does not exist/],
    ];
    for (const [args, message] of cases) {
      const r = await sendsNothing(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(err(r)).toMatch(message);
      expect(r.stderr).not.toMatch(/unexpected error/);
    }
    // Nothing was written into the directory given as --save or --html.
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('3. recompute, check and explain at 80 columns on a real pseudo-terminal', () => {
  pty.it('every line fits, every supplier id and value path is whole (util-linux script)', async () => {
    // Exit codes vary (check fails on the stranger): the screen is what is checked.
    const run = async (args: string[]): Promise<string> => (await onTerminal(args, { ...h.env, NO_COLOR: '1', TERM: 'xterm' }, { cols: 80 })).out;
    const recompute = await run(['score', 'recompute', bundle]);
    const table = recompute.split('\n').filter((l) => !/^(hid |recomputed )/.test(l));
    expect(table[0], recompute).toMatch(/^VALUE\s+REPORTED\s+RECOMPUTED\s+DELTA\s+OK$/);
    for (const line of table) expect(displayWidth(line), `${line}\n${recompute}`).toBeLessThanOrEqual(80);
    for (const id of [a, b, c]) expect(table, recompute).toContain(`SUPPLIER ${id}`);
    expect(recompute).not.toContain('…');
    const paths = (JSON.parse((await runSrs(['score', 'recompute', bundle, '-o', 'json'], offline)).stdout) as Array<{ path: string }>).map((r) => r.path);
    for (const p of paths) expect(recompute).toMatch(new RegExp(`^${p.replace('.', '\\.')}\\s`, 'm'));

    const check = await run(['score', 'check', a!, b!, STRANGER, '--min', '0']);
    const rows = check.split('\n').slice(0, check.split('\n').findIndex((l) => /^(FAIL|UNKNOWN) /.test(l)));
    expect(rows[0], check).toMatch(/^SUPPLIER\s+STATUS/);
    for (const line of rows) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    for (const id of [a, b, STRANGER]) expect(rows.some((l) => l.startsWith(`${id}  `)), check).toBe(true);
    // The last line counts an unknown supplier as unknown, not as failed.
    expect(check).toMatch(/could not be evaluated \(unknown\), of 3 suppliers checked: the score check did not pass/);
    expect(check).not.toMatch(/\d+ failed, of/);

    const explain = await run(['score', 'explain', a!]);
    for (const line of explain.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    expect(explain).toContain(a);
  });
});

describe('filtered scores say so', () => {
  it('score report with --policy-parameter states the filter in the report; explain says it on stderr', async () => {
    const param = fx.policyParameters[0]!;
    const html = join(h.home, 'filtered.html');
    const r = await h.run(['score', 'report', a!, b!, '--policy-parameter', param.id, '--html', html]);
    // The seeded emulator's values agree with the model: the report verifies, exit 0.
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(html, 'utf8');
    expect(text).toContain('<strong>Filtered:</strong> only policy parameter');
    expect(text).toContain(param.id);
    const plain = join(h.home, 'unfiltered.html');
    await h.run(['score', 'report', a!, b!, '--html', plain]);
    expect(readFileSync(plain, 'utf8')).not.toContain('Filtered:');
    const x = await h.run(['score', 'explain', a!, '--policy-parameter', param.id, '-o', 'json']);
    expect(x.stderr).toMatch(/filtered: only policy parameter .*; scores and "no data" below are of this filter only/);
  });
});

describe('4. --fields is checked for check, recompute and explain', () => {
  it('a typo is exit 2 with "did you mean", before anything is sent', async () => {
    const check = await sendsNothing(['score', 'check', a!, '--min', '0', '--fields', 'supplierId,stauts']);
    expect(check.code).toBe(2);
    expect(err(check)).toContain('--fields: a check result has no field "stauts" (did you mean status?)');
    const recompute = await runSrs(['score', 'recompute', bundle, '--fields', 'path,recomputd'], offline);
    expect(recompute.code).toBe(2);
    expect(err(recompute)).toContain('did you mean recomputed?');
    const explain = await sendsNothing(['score', 'explain', a!, '-o', 'json', '--fields', 'score.vaule']);
    expect(explain.code).toBe(2);
    expect(err(explain)).toContain('did you mean score.value?');
    // -o json prints results as sent: a column of the CSV rows (label) printed nothing there, exit 0.
    const label = await sendsNothing(['score', 'calc', a!, '-o', 'json', '--fields', 'supplierId,label']);
    expect(label.code).toBe(2);
    expect(err(label)).toContain('--fields: a score result has no field "label"');
    // --fields selects from the rows per parameter in every format (JSON applied them to the explanation: {}).
    const rows = await h.run(['score', 'explain', a!, '-o', 'json', '--fields', 'name,riskLevel']);
    const csvRows = await h.run(['score', 'explain', a!, '-o', 'csv', '--fields', 'name,riskLevel']);
    expect(rows.code, rows.stderr).toBe(0);
    const parsed = JSON.parse(rows.stdout) as Array<{ name: string; riskLevel: string | null }>;
    expect(parsed.length).toBeGreaterThan(0);
    expect(parsed.map((r) => `${r.name},${r.riskLevel ?? ''}`)).toEqual(csvRows.stdout.trim().split('\n').slice(1).map((l) => l.replace(/^"(.*)"(,.*)$/, '$1$2')));
    const ok = await runSrs(['score', 'recompute', bundle, '-o', 'csv', '--fields', 'supplierId,path,ok'], offline);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout.split('\n')[0]).toBe('supplierId,path,ok');
  });
});

describe('5. recompute --verify: the verdict before anything reads as agreeing', () => {
  const lines = () => readFileSync(bundle, 'utf8').trimEnd().split('\n');
  const verify = (path: string, input?: string) => runSrs(['score', 'recompute', path, '--verify', '-o', 'json'], offline, input === undefined ? {} : { input });

  it('(a) a bundle cut short: exit 3 "bundle altered", nothing recomputed, no "agree"', async () => {
    const cut = join(h.home, 'cut.jsonl');
    writeFileSync(cut, lines().slice(0, -1).join('\n') + '\n');
    const r = await verify(cut);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/bundle altered: its last line is not the end record.*nothing was recomputed/);
    expect(r.stderr).not.toMatch(/agree/);
    // From stdin the digest is only known at the end: the summary then says NOT VERIFIED before the verdict.
    const piped = await verify('-', lines().slice(0, -1).join('\n') + '\n');
    expect(piped.code).toBe(3);
    expect(piped.stderr).toMatch(/^NOT VERIFIED: recomputed 3 suppliers .*the evidence does not verify \(bundle altered; below\)\n.*bundle altered: no end record/m);
  });

  it('(b) content after the end record is "bundle altered" (exit 3), from a file or stdin', async () => {
    const extra = JSON.stringify({ t: 'error', supplierId: STRANGER, code: 'not_found', message: 'added' });
    const appended = join(h.home, 'appended.jsonl');
    writeFileSync(appended, [...lines(), extra].join('\n') + '\n');
    const r = await verify(appended);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/bundle altered: .*something was added after the end record/);
    expect(r.stderr).not.toMatch(/agree/);
    const piped = await verify('-', [...lines(), extra].join('\n') + '\n');
    expect(piped.code).toBe(3);
    expect(piped.stderr).toMatch(/bundle altered: content was added after the end record \(line \d+\)/);
    expect(piped.stderr).not.toMatch(/an end record before the last line/);
  });

  it('(c) another modelVersion (digest re-forged): exit 3 before any "agree"', async () => {
    const { createHash } = await import('node:crypto');
    const recs = lines();
    recs[0] = recs[0]!.replace(/"modelVersion":"[^"]*"/, '"modelVersion":"0.9.0"');
    const body = recs.slice(0, -1).map((l) => l + '\n').join('');
    const end = JSON.parse(recs.at(-1)!) as { digest: { value: string } };
    end.digest.value = createHash('sha256').update(body).digest('hex');
    const path = join(h.home, 'model.jsonl');
    writeFileSync(path, body + JSON.stringify(end) + '\n');
    const r = await verify(path);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/model version differs: the bundle was computed with model 0\.9\.0.*nothing was recomputed/);
    expect(r.stderr).not.toMatch(/agree/);
    const ok = await verify(bundle);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toMatch(/^verified: recomputed 3 suppliers/m);
  });

  it('(e) a result line repeated, counted and re-digested: "conflicting entries", not "bundle altered"', async () => {
    const { createHash } = await import('node:crypto');
    const recs = lines();
    const k = recs.findIndex((l) => l.startsWith('{"t":"result"'));
    recs.splice(k + 1, 0, recs[k]!);
    const body = recs.slice(0, -1).map((l) => l + '\n').join('');
    const end = JSON.parse(recs.at(-1)!) as { suppliers: number; digest: { value: string } };
    end.suppliers += 1;
    end.digest.value = createHash('sha256').update(body).digest('hex');
    const path = join(h.home, 'repeated.jsonl');
    writeFileSync(path, body + JSON.stringify(end) + '\n');
    const r = await verify(path);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/"message":"conflicting entries: supplier \w+ is listed more than once/);
    expect(r.stderr).not.toMatch(/bundle altered/);
  });

  it('(d) a value 1e-7 off (digest re-forged): the table shows the digits that make the two numbers differ', async () => {
    const { createHash } = await import('node:crypto');
    const recs = lines();
    const k = recs.findIndex((l) => l.startsWith('{"t":"result"') && /"score":\{"value":-?\d/.test(l));
    const rec = JSON.parse(recs[k]!) as { item: { score: { value: number } } };
    rec.item.score.value += 1e-7;
    recs[k] = JSON.stringify(rec);
    const body = recs.slice(0, -1).map((l) => l + '\n').join('');
    const end = JSON.parse(recs.at(-1)!) as { digest: { value: string } };
    end.digest.value = createHash('sha256').update(body).digest('hex');
    const path = join(h.home, 'nudged.jsonl');
    writeFileSync(path, body + JSON.stringify(end) + '\n');
    const r = await runSrs(['score', 'recompute', path, '--verify', '--only-differences', '-o', 'table'], { ...offline, COLUMNS: '80' });
    expect(r.code).toBe(3);
    const row = r.stdout.split('\n').find((l) => /\bNO\s*$/.test(l));
    expect(row, r.stdout).toBeDefined();
    const [reported, recomputed] = row!.trim().split(/\s+/).slice(-4, -2);
    expect(reported).not.toBe(recomputed);
    expect(reported, row).toMatch(/\.\d{5,}$/);
  });
});

describe('6. counted words', () => {
  it('report and check say "2 suppliers" and "1 supplier id is", never "(s)"', async () => {
    const out = join(h.home, 'r.html');
    const report = await h.run(['score', 'report', a!, b!, '--html', out]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stderr).toContain('(2 suppliers as of');
    const check = await sendsNothing(['score', 'check', 'typo', '--min', '0']);
    expect(err(check)).toContain('1 supplier id is not a 26-character lowercase ULID');
    for (const r of [report, check]) expect(r.stderr).not.toContain('(s)');
  });
});

describe('7. an option given twice with different values is refused, never the last one taken', () => {
  it('--ids-file, --max-risk, --baseline and conflicting --min-parameter minimums: exit 2, nothing sent', async () => {
    const one = join(h.home, 'one.txt');
    const two = join(h.home, 'two.txt');
    writeFileSync(one, `${STRANGER}\n`);
    writeFileSync(two, `${a}\n`);
    // A stranger in the first file, a known supplier in the second: taking the last file passed the gate.
    let r = await sendsNothing(['score', 'check', '--ids-file', one, '--ids-file', two, '--min', '-3']);
    expect(r.code).toBe(2);
    expect(err(r)).toMatch(/--ids-file .*given twice/);
    r = await sendsNothing(['score', 'check', a!, '--max-risk', 'Low', '--max-risk', 'High']);
    expect(r.code).toBe(2);
    expect(err(r)).toMatch(/--max-risk .*given twice/);
    r = await sendsNothing(['score', 'check', '--from', bundle, '--baseline', bundle, '--baseline', one, '--max-drop', '0']);
    expect(r.code).toBe(2);
    r = await sendsNothing(['score', 'check', a!, '--min-parameter', 'p1=2', '--min-parameter', 'p1=-3']);
    expect(r.code).toBe(2);
    expect(err(r)).toMatch(/--min-parameter p1 is given twice, with 2 and -3/);
  });
  it('the same value twice is harmless, and repeatable options still repeat', async () => {
    const r = await h.run(['score', 'check', '--from', bundle, '--from', bundle, '--min', '-3', '--allow-no-data', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(3);
  });
});

describe('round 6. an option whose value was left out does not take the next option as its value', () => {
  it('import --report --dry-run, create --customer-id --allow-existing, check --junit --allow-no-data: exit 2, nothing sent or written', async () => {
    const csv = join(h.home, 'swallow.csv');
    writeFileSync(csv, 'name,country,customerSupplierId\nSwallow A,USA,SW-1\n');
    const cases: Array<[string[], string]> = [
      [['supplier', 'import', csv, '--report', '--dry-run'], '--dry-run is an option: --report needs a value before it'],
      [['supplier', 'create', '--name', 'Flag Co', '--customer-id', '--allow-existing'], '--allow-existing is an option: --customer-id needs a value before it'],
      [['supplier', 'create', '--name', '--country', 'USA'], '--country is an option: --name needs a value before it'],
      [['score', 'check', a!, '--min', '-1', '--junit', '--allow-no-data'], '--allow-no-data is an option: --junit needs a value before it'],
      [['--profile', '-o', 'json', 'ref', 'countries'], '-o is an option: --profile needs a value before it'],
    ];
    for (const [args, message] of cases) {
      const r = await sendsNothing(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(err(r)).toContain(message);
    }
    // (srs runs in the test's working directory: no file named after an option was written there.)
    expect(existsSync('--dry-run')).toBe(false);
    expect(existsSync('--allow-no-data')).toBe(false);
    // A negative number is a value, not an option.
    expect((await h.run(['score', 'check', a!, '--min', '-3', '-o', 'json'])).code).toBe(0);
  });
});

describe('8. a baseline from another service, and credentials in a shared report', () => {
  it('a baseline saved against another base URL is refused (exit 2), nothing sent; one of no overlap is warned about', async () => {
    const saved = JSON.parse(readFileSync(bundle, 'utf8').split('\n')[0]!) as { service: { baseUrl: string; account?: string } };
    expect(saved.service.baseUrl).toBe(h.emu.url);
    // The key's fingerprint, never the key.
    expect(saved.service.account).toMatch(/^[0-9a-f]{12}$/);
    expect(readFileSync(bundle, 'utf8')).not.toContain(h.env.SRS_API_KEY);
    const other = { env: { SRS_BASE_URL: h.emu.url.replace('127.0.0.1', 'localhost') } };
    const before = h.requests.length;
    const r = await h.run(['score', 'check', a!, '--baseline', bundle, '--max-drop', '0.1'], other);
    expect(r.code).toBe(2);
    expect(err(r)).toMatch(/was calculated against http:\/\/127\.0\.0\.1:\d+, this run's scores come from http:\/\/localhost:\d+/);
    expect(h.requests.length).toBe(before);
    const d = fx.suppliers[5]!.id;
    const n = await h.run(['score', 'check', d, '--baseline', bundle, '--max-drop', '0.1', '--allow-no-data']);
    expect(n.stderr).toMatch(/no supplier of this run is in the baseline .*--max-drop compared nothing/);
  });
  it('score report names the service without the credentials of its URL (a URL with a query is refused before anything is sent)', async () => {
    const html = join(h.home, 'cred.html');
    const queried = await h.run(['score', 'report', a!, '--html', html], { env: { SRS_BASE_URL: `${h.emu.url}/?token=t0ken` } });
    expect(queried.code).toBe(2);
    expect(queried.stderr).not.toContain('t0ken');
    const url = h.emu.url.replace('http://', 'http://proxyuser:s3cretpass@') + '/';
    const r = await h.run(['score', 'report', a!, '--html', html], { env: { SRS_BASE_URL: url } });
    expect(r.code).toBe(0);
    const text = readFileSync(html, 'utf8');
    expect(text).toContain(`the service at ${h.emu.url}`);
    expect(text).not.toMatch(/s3cretpass|proxyuser|t0ken/);
  });
});

describe('9. scorecards ls --supplier: a typo is not "no scorecards apply"', () => {
  it('a malformed id is exit 2 with nothing sent; an unknown one exit 1; a known one lists', async () => {
    const bad = await sendsNothing(['scorecards', 'ls', '--supplier', 'bad', '-o', 'json']);
    expect(bad.code).toBe(2);
    expect(err(bad)).toMatch(/--supplier "bad" is not a 26-character lowercase ULID/);
    const unknown = await h.run(['scorecards', 'ls', '--supplier', STRANGER, '-o', 'json']);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(err(unknown)).toMatch(/does not know supplier 01zzzzzzzzzzzzzzzzzzzzzzzz/);
    const known = await h.run(['scorecards', 'ls', '--supplier', a!, '-o', 'json']);
    expect(known.code).toBe(0);
    expect((JSON.parse(known.stdout) as unknown[]).length).toBeGreaterThan(0);
  });
});

describe('10. filter ids: a typo is not a run that evaluated nothing', () => {
  it('a malformed --policy-parameter or --data-source is exit 2 with nothing sent; check refuses one the service does not have', async () => {
    const bad = await sendsNothing(['score', 'calc', a!, '--policy-parameter', 'nonsense']);
    expect(bad.code).toBe(2);
    expect(err(bad)).toMatch(/--policy-parameter "nonsense" is not a 26-character lowercase ULID/);
    expect((await sendsNothing(['score', 'check', a!, '--data-source', 'x', '--min', '0'])).code).toBe(2);
    const source = fx.dataSources[0]!.id;
    const typo = source.slice(0, -1) + (source.endsWith('z') ? 'y' : 'z');
    const r = await h.run(['score', 'check', a!, '--data-source', typo, '--min', '2.9', '--allow-no-data']);
    expect(r.code).toBe(2);
    expect(err(r)).toMatch(new RegExp(`--data-source "${typo}" is no data source of the service \\(did you mean ${source}\\?\\)`));
    const p = await h.run(['score', 'check', a!, '--policy-parameter', '01zzzzzzzzzzzzzzzzzzzzzzzz', '--min', '0', '--allow-no-data']);
    expect(p.code).toBe(2);
    expect(err(p)).toMatch(/--policy-parameter "01zzzzzzzzzzzzzzzzzzzzzzzz" is in no scorecard of the service/);
  });

  it('--min-parameter for a parameter the run\'s own --policy-parameter filter leaves out is exit 2 with nothing sent, also with --allow-no-data', async () => {
    const [kept, other] = fx.policyParameters.map((p) => p.id);
    expect(other).toBeDefined();
    const r = await sendsNothing(['score', 'check', a!, '--policy-parameter', kept!, '--min-parameter', `${other}=0`, '--allow-no-data']);
    expect(r.code).toBe(2);
    expect(err(r)).toMatch(new RegExp(`--min-parameter ${other} is not among the --policy-parameter filters of this run \\(${kept}\\)`));
    // Named by the filter, it is checked as before.
    const ok = await h.run(['score', 'check', a!, '--policy-parameter', kept!, '--min-parameter', `${kept}=-3`, '--allow-no-data']);
    expect(ok.code).toBe(0);
  });
});

describe('11. stdin and ids files a user can get wrong', () => {
  it('two options on stdin are refused; a bundle given as an ids file is named as such, in one short line per id', async () => {
    const both = await sendsNothing(['score', 'check', '--from', '-', '--baseline', '-', '--max-drop', '0']);
    expect(both.code).toBe(2);
    expect(err(both)).toMatch(/--from and --baseline both read stdin/);
    const before = h.requests.length;
    const r = await h.run(['score', 'check', '--ids-file', '-', '--min', '0'], { input: readFileSync(bundle, 'utf8') });
    expect(h.requests.length).toBe(before);
    expect(r.code).toBe(2);
    expect(err(r)).toMatch(/stdin is an evidence bundle, not a list of ids: give it with --from/);
    expect(r.stderr.length).toBeLessThan(1200);
  });
});

describe('12. evidence that records unknown suppliers, and a check that cannot evaluate, still report where CI looks', () => {
  it('score report of a bundle recording an unknown supplier writes no report (exit 1), as the online path', async () => {
    const saved = join(h.home, 'with-unknown.jsonl');
    const calc = await h.run(['score', 'calc', a!, STRANGER, '--save', saved, '-o', 'json']);
    expect(calc.code).toBe(1);
    const html = join(h.home, 'with-unknown.html');
    const r = await runSrs(['score', 'report', saved, '--html', html], offline);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`UNKNOWN ${STRANGER}`));
    expect(err(r)).toMatch(/1 of 2 suppliers in the bundle has no result \(recorded as unknown\); no report was written/);
    expect(existsSync(html)).toBe(false);
  });

  it('check --from of a bundle that does not verify replaces the JUnit file and writes a summary and an annotation', async () => {
    const junit = join(h.home, 'gate.xml');
    const summary = join(h.home, 'summary.md');
    const ok = await runSrs(['score', 'check', '--from', bundle, '--min', '-3', '--allow-no-data', '--junit', junit], offline);
    expect(ok.code).toBe(0);
    expect(readFileSync(junit, 'utf8')).toMatch(/errors="0"/);
    const recs = readFileSync(bundle, 'utf8').trimEnd().split('\n');
    const cut = join(h.home, 'gate-cut.jsonl');
    writeFileSync(cut, recs.slice(0, -1).join('\n') + '\n');
    const r = await runSrs(['score', 'check', '--from', cut, '--min', '-3', '--allow-no-data', '--junit', junit], { ...offline, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
    expect(r.code).toBe(3);
    expect(readFileSync(junit, 'utf8')).toMatch(/tests="1" failures="0" errors="1"[\s\S]*<error message="[^"]*bundle altered/);
    expect(readFileSync(summary, 'utf8')).toMatch(/### srs score check: not evaluated\n\n.*bundle altered/);
    expect(r.stderr).toMatch(/^::error title=srs score check::.*bundle altered/m);
  });

  it('a usage error found once the check has started (an unknown --min-parameter) reaches JUnit, the step summary and an annotation alike', async () => {
    const junit = join(h.home, 'gate-usage.xml');
    const summary = join(h.home, 'summary-usage.md');
    const r = await h.run(['score', 'check', a!, '--min-parameter', '01fcprzw40d1df5n5dt7fc57nx=0', '--junit', junit], { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(2);
    expect(readFileSync(junit, 'utf8')).toMatch(/<error message="[^"]*--min-parameter/);
    expect(readFileSync(summary, 'utf8')).toMatch(/### srs score check: not evaluated\n\n.*--min-parameter/);
    expect(r.stderr).toMatch(/^::error title=srs score check::.*--min-parameter/m);
  });

  it('the SCORE column shows the digits that make the verdict beside --min visibly right', async () => {
    const scored = readFileSync(bundle, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{"t":"result"'))
      .map((l) => JSON.parse(l) as { item: { supplierId: string; score: { value?: number | null } } })
      .find((x) => typeof x.item.score.value === 'number')!.item;
    // A minimum just above the score: two decimals would show the score as equal to it, or above.
    const min = (Math.round(scored.score.value! * 100) / 100 + 0.0004).toFixed(4);
    const r = await runSrs(['score', 'check', '--from', bundle, '--min', min, '--allow-no-data', '-o', 'table'], { ...offline, COLUMNS: '200' });
    const line = r.stdout.split('\n').find((l) => l.includes(scored.supplierId));
    expect(line, r.stdout).toBeDefined();
    const shown = line!.trim().split(/\s+/)[2]!;
    expect(Number(shown) < Number(min), `${shown} beside --min ${min}: ${line}`).toBe(scored.score.value! < Number(min));
  });
});
