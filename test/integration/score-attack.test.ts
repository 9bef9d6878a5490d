/**
 * The score gate and its evidence against a new user's attack review (issue
 * 17, second round): filters a bundle was not calculated with, duplicated
 * parameters and results, unrecognised risk levels, empty and malformed
 * bundles, service strings that would break a line, credentials in the base
 * URL, warnings in the step summary, the end count. Each runs the built srs
 * against the emulator; a service that misbehaves is a node:http proxy in
 * front of it that rewrites score-calculation answers; a bundle that
 * misbehaves is forged with a recomputed digest.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from '../../src/emulator/index.js';
import { onTerminal, pty } from '../support/terminal.js';
import { BIN, runSrs, startWithBundle, type Harness } from './harness.js';

type Rec = Record<string, unknown>;
interface Entry {
  id: string;
  expiryDate?: string | null;
  issueDate?: string | null;
}
interface Param {
  policyParameterId: string;
  score: { value: number | null };
  dataPoints: { dataEntries: Entry[]; risk?: { riskLevel?: unknown } | null };
}
interface Item {
  supplierId: string;
  score: { value: number | null };
  dataSourceScores: Array<{ dataSourceId: string; score: { value: number | null }; dataPoints: { dataEntries: Entry[] } }>;
  policyParameterScores: Param[];
}

let h: Harness;
let offline: Record<string, string>;
let bundle: string;
let proxy: Server;
let proxyUrl: string;
/** Rewrites each score-calculation answer the proxy passes on (identity when unset). */
let rewrite: ((body: { items: Item[] }) => void) | undefined;
const fx = fixtures();
const [a, b, c] = fx.suppliers.map((s) => s.id);
const err = (r: { stderr: string }) => r.stderr.replace(/\\"/g, '"');

const readBundle = (path: string): Rec[] => readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Rec);
/** Writes records as a format-2 bundle whose digest matches (what a forger does); `count` false keeps the end record's count as it was. */
function forge(name: string, records: Rec[], opts: { count?: boolean } = {}): string {
  const path = join(h.home, name);
  const body = records.slice(0, -1).map((r) => JSON.stringify(r) + '\n').join('');
  const end = structuredClone(records.at(-1)!) as { suppliers: number; digest: { value: string } };
  end.digest.value = createHash('sha256').update(body).digest('hex');
  if (opts.count !== false) end.suppliers = records.filter((r) => r.t === 'result' || r.t === 'error').length;
  writeFileSync(path, body + JSON.stringify(end) + '\n');
  return path;
}
const items = (records: Rec[]) => records.filter((r) => r.t === 'result').map((r) => r.item as Item);
/** The first result with a scored parameter, and that parameter. */
function scoredParam(records: Rec[]): { item: Item; p: Param } {
  for (const item of items(records)) for (const p of item.policyParameterScores) if (typeof p.score.value === 'number') return { item, p };
  throw new Error('no scored parameter in the bundle');
}
/** srs against the proxy. */
const viaProxy = (args: string[], env: Record<string, string> = {}) => runSrs(args, { ...h.env, SRS_BASE_URL: proxyUrl, ...env });

beforeAll(async () => {
  ({ h, offline, bundle } = await startWithBundle([a!, b!, c!]));
  const target = new URL(h.emu.url);
  proxy = createServer((req, res) => {
    const up = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (upRes) => {
      const chunks: Buffer[] = [];
      upRes.on('data', (d: Buffer) => chunks.push(d));
      upRes.on('end', () => {
        let out = Buffer.concat(chunks);
        const headers = { ...upRes.headers };
        if (rewrite && req.url === '/v1/score-calculation' && upRes.statusCode === 200) {
          const body = JSON.parse(out.toString('utf8')) as { items: Item[] };
          rewrite(body);
          out = Buffer.from(JSON.stringify(body));
          delete headers['transfer-encoding'];
          headers['content-length'] = String(out.length);
        }
        res.writeHead(upRes.statusCode ?? 502, headers);
        res.end(out);
      });
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  await h?.close();
});

describe('6. FAIL and UNKNOWN lines are one line each, whatever the service sent', () => {
  it('a risk level with a line break cannot start a workflow command under GITHUB_ACTIONS', async () => {
    rewrite = (body) => {
      for (const it of body.items) for (const p of it.policyParameterScores) p.dataPoints.risk = { riskLevel: 'Severe\n::notice title=pwned::injected\r::warning::x' };
    };
    try {
      const r = await viaProxy(['score', 'check', a!, '--max-risk', 'Low'], { GITHUB_ACTIONS: 'true' });
      expect(r.code).toBe(3);
      const lines = r.stderr.split('\n');
      expect(lines.some((l) => /^(FAIL|UNKNOWN) /.test(l) && l.includes('::notice title=pwned::injected'))).toBe(true);
      for (const l of lines) expect(l, 'a service string started a line').not.toMatch(/^::(notice|warning)/);
    } finally {
      rewrite = undefined;
    }
  });

  it('the API key a service sends back is masked in GitHub annotations, the step summary and the JUnit file too', async () => {
    const key = h.env.SRS_API_KEY!;
    rewrite = (body) => {
      for (const it of body.items) for (const p of it.policyParameterScores) p.dataPoints.risk = { riskLevel: `leak-${key}` };
    };
    try {
      const junit = join(h.home, 'leak.xml');
      const summary = join(h.home, 'leak.md');
      const r = await viaProxy(['score', 'check', a!, '--max-risk', 'High', '--junit', junit], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
      expect(r.code, r.stderr).toBe(3);
      // The reason quotes the level, so each place did receive it: masked, not dropped.
      expect(r.stderr).toMatch(/^::error title=.*leak-/m);
      expect(readFileSync(junit, 'utf8')).toContain('leak-');
      expect(readFileSync(summary, 'utf8')).toContain('leak-');
      for (const [where, text] of [['stderr', r.stderr], ['stdout', r.stdout], ['junit', readFileSync(junit, 'utf8')], ['summary', readFileSync(summary, 'utf8')]]) {
        expect(text, where).not.toContain(key);
      }
    } finally {
      rewrite = undefined;
    }
  });
});

describe('round 6. a bundle cut inside or just after its header', () => {
  it('is "bundle altered" (exit 3) from a file and from stdin alike, not exit 2', async () => {
    const text = readFileSync(bundle, 'utf8');
    const header = text.slice(0, text.indexOf('\n') + 1);
    for (const [label, cut] of [['inside the header', text.slice(0, 200)], ['after the header', header]] as const) {
      const file = join(h.home, `cut-header-${label.replace(/ /g, '-')}.jsonl`);
      writeFileSync(file, cut);
      for (const [args, input] of [[['score', 'check', '--from', file, '--min', '0'], undefined], [['score', 'check', '--from', '-', '--min', '0'], cut], [['score', 'recompute', file, '--verify'], undefined]] as const) {
        const r = await runSrs([...args], offline, input === undefined ? {} : { input });
        expect(r.code, `${label}, ${args.join(' ')}: ${r.stderr}`).toBe(3);
        expect(err(r)).toContain('bundle altered');
      }
    }
  });
});

describe('round 6. parts of a result that srs left out never pass a rule they feed', () => {
  it('parameters without a policyParameterId: --max-risk and a missing --min-parameter are unknown; calc --save records the supplier unknown', async () => {
    const base = await viaProxy(['score', 'check', a!, '--max-risk', 'High', '-o', 'json']);
    expect(base.code, base.stderr).toBe(0);
    const params = (JSON.parse((await viaProxy(['score', 'calc', a!, '-o', 'json'])).stdout) as Item[])[0]!.policyParameterScores;
    const kept = params.find((p) => typeof p.score.value === 'number')!.policyParameterId;
    // The finding: the parameters with a risk level lost their ids (the spec marks no field required); the rest stays.
    rewrite = (body) => {
      for (const it of body.items) for (const p of it.policyParameterScores) if (p.policyParameterId !== kept && p.dataPoints.risk?.riskLevel) delete (p as Partial<Param>).policyParameterId;
    };
    try {
      const risk = await viaProxy(['score', 'check', a!, '--max-risk', 'High', '-o', 'json']);
      expect(risk.code, risk.stderr).toBe(3);
      const [res] = JSON.parse(risk.stdout) as Array<{ status: string; reasons: string[] }>;
      expect(res!.status).toBe('unknown');
      expect(res!.reasons.join(' ')).toMatch(/the service's result has \d+ policy parameter scores without a policyParameterId, which srs left out/);
      expect(res!.reasons.join(' ')).toContain('so --max-risk High cannot be checked');
      // A named parameter that is not there may be one of those left out: unknown, even with --allow-no-data.
      const missing = params.find((p) => p.policyParameterId !== kept && p.dataPoints.risk?.riskLevel)?.policyParameterId;
      if (missing) {
        const mp = await viaProxy(['score', 'check', a!, '--min-parameter', `${missing}=-3`, '--allow-no-data', '-o', 'json']);
        expect(mp.code, mp.stderr).toBe(3);
        expect((JSON.parse(mp.stdout) as Array<{ status: string }>)[0]!.status).toBe('unknown');
      }
      const saved = join(h.home, 'left-out.jsonl');
      const save = await viaProxy(['score', 'calc', a!, '--save', saved, '-o', 'json']);
      expect(save.code, save.stderr).not.toBe(0);
      expect(err(save)).toContain(`the service's result for supplier ${a} is incomplete (policy parameter scores without a policyParameterId`);
      expect(err(save)).toContain('srs cannot record it as evidence');
    } finally {
      rewrite = undefined;
    }
  });

  it('a threshold finer than the 9 compared decimals is refused (exit 2), not read as another one', async () => {
    // The finding: --min 1e-10 was read as 0, so a score of 0 passed it; 5e-10 was shown as "the minimum 1e-9".
    for (const args of [['--min', '1e-10'], ['--min', '5e-10'], ['--min-parameter', `${a}=0.0000000001`], ['--baseline', bundle, '--max-drop', '3e-10'], ['--min', '1e-400'], ['--min-parameter', `${a}=-1e-400`]]) {
      const r = await runSrs(['score', 'check', a!, ...args], h.env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(err(r)).toContain('has more decimals than the 9 that scores are compared with (it would be read as');
    }
    // A threshold that 9 decimals hold to a millionth of itself (a score pasted in) is compared at 9 decimals.
    for (const min of ['-2.123456789', '-2.1234567891234567', '0', '0e5', '-0.0']) {
      const fine = await runSrs(['score', 'check', a!, '--min', min], h.env);
      expect([0, 3], `${min}: ${fine.stderr}`).toContain(fine.code);
    }
  });

  it('an empty risk level is one srs does not know: unknown under --max-risk, not ignored', async () => {
    rewrite = (body) => {
      for (const it of body.items) for (const p of it.policyParameterScores) if (p.dataPoints.risk) p.dataPoints.risk.riskLevel = '';
    };
    try {
      const r = await viaProxy(['score', 'check', a!, '--max-risk', 'High', '-o', 'json']);
      expect(r.code, r.stderr).toBe(3);
      const [res] = JSON.parse(r.stdout) as Array<{ status: string; riskLevel: string; riskRecognised: boolean; reasons: string[] }>;
      expect(res!.status).toBe('unknown');
      // The level as sent, and whether srs can rank it: scripts compare the value (the marker is for tables).
      expect(res!.riskLevel).toBe('');
      expect(res!.riskRecognised).toBe(false);
      const table = await viaProxy(['score', 'check', a!, '--max-risk', 'High', '-o', 'table'], { COLUMNS: '200' });
      expect(table.stdout).toContain('"" (unrecognised)');
      expect(res!.reasons.join(' ')).toContain('risk level "" is not one srs knows');
      // explain follows the same rule: the parameter's empty level is unrecognised, not "no risk" (it said null).
      const ex = await viaProxy(['score', 'explain', a!, '-o', 'json']);
      expect(ex.code, ex.stderr).toBe(0);
      type P = { riskLevel: string | null; riskRecognised: boolean | null };
      const exp = JSON.parse(ex.stdout) as { score: { riskRecognised: boolean | null }; scorecards: Array<{ parameters: P[] }>; otherParameters: P[] };
      expect(exp.score.riskRecognised).toBe(false);
      const withRisk = [...exp.scorecards.flatMap((c) => c.parameters), ...exp.otherParameters].filter((p) => p.riskLevel !== null);
      expect(withRisk.length).toBeGreaterThan(0);
      for (const p of withRisk) expect(p.riskRecognised).toBe(false);
      const pic = await viaProxy(['score', 'explain', a!, '-o', 'table'], { COLUMNS: '120' });
      expect(pic.stdout).toContain('"" (unrecognised)');
    } finally {
      rewrite = undefined;
    }
  });

  it('entries without an id: --expiring-within is unknown, not a pass', async () => {
    const base = await viaProxy(['score', 'check', a!, '--expiring-within', '0', '-o', 'json']);
    expect(base.code, base.stderr).toBe(0);
    rewrite = (body) => {
      for (const it of body.items) {
        for (const d of it.dataSourceScores) for (const e of d.dataPoints.dataEntries) delete (e as Partial<Entry>).id;
        for (const p of it.policyParameterScores) for (const e of p.dataPoints.dataEntries) delete (e as Partial<Entry>).id;
      }
    };
    try {
      const r = await viaProxy(['score', 'check', a!, '--expiring-within', '0', '-o', 'json']);
      expect(r.code, r.stderr).toBe(3);
      const [res] = JSON.parse(r.stdout) as Array<{ status: string; reasons: string[] }>;
      expect(res!.status).toBe('unknown');
      expect(res!.reasons.join(' ')).toContain('so --expiring-within 0 cannot be checked');
      // The overall score is the service's own, untouched by what was left out: --min still gates on it.
      const min = await viaProxy(['score', 'check', a!, '--min', '-3']);
      expect(min.code, min.stderr).toBe(0);
    } finally {
      rewrite = undefined;
    }
  });
});

describe('round 6. what people read agrees with what srs checks', () => {
  it('explain: parameter scores the local model does not reproduce (the overall score unchanged) are said, never "agrees"', async () => {
    rewrite = (body) => {
      for (const it of body.items) for (const p of it.policyParameterScores) if (typeof p.score.value === 'number') p.score.value = Math.min(3, p.score.value + 1);
    };
    try {
      const json = await viaProxy(['score', 'explain', a!, '-o', 'json']);
      expect(json.code, json.stderr).toBe(0);
      const x = JSON.parse(json.stdout) as { model: { agrees: boolean; differences: string[] } };
      expect(x.model.agrees).toBe(false);
      expect(x.model.differences.some((d) => d.startsWith('parameters.'))).toBe(true);
      expect(json.stderr).toMatch(/warning: the local model does not reproduce \d+ values? of this result from the same entries and scorecards \(/);
      const picture = await viaProxy(['score', 'explain', a!, '-o', 'table'], { COLUMNS: '80' });
      expect(picture.stdout).toMatch(/the local model (differs on \d+ values?|gives \S+) from the same entries/);
    } finally {
      rewrite = undefined;
    }
    const clean = await viaProxy(['score', 'explain', a!, '-o', 'json']);
    expect((JSON.parse(clean.stdout) as { model: { agrees: boolean; differences: string[] } }).model).toMatchObject({ agrees: true, differences: [] });
  });

  it('report --html: escape sequences, control, bidi and invisible characters from the service are shown escaped, never written raw', async () => {
    rewrite = (body) => {
      for (const it of body.items) for (const p of it.policyParameterScores) if (p.dataPoints.risk) p.dataPoints.risk.riskLevel = 'X\u001b[2J\u001b]8;;http://evil.example\u0007\u202egnp.exe\u202c\u200b';
    };
    try {
      const file = join(h.home, 'hostile.html');
      await viaProxy(['score', 'report', a!, '--html', file]);
      const html = readFileSync(file, 'utf8');
      expect(html).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u200b]/);
      expect(html).toContain('\\u202egnp.exe\\u202c');
    } finally {
      rewrite = undefined;
    }
  });
});

describe('7. the bundle records the base URL without credentials or query', () => {
  it('SRS_BASE_URL with user:password@ does not reach the bundle; one with a ?query is refused (srs never sends it), not echoed', async () => {
    const port = new URL(h.emu.url).port;
    const saved = join(h.home, 'creds.jsonl');
    const queried = await runSrs(['score', 'calc', a!, '--save', saved, '-o', 'json'], { ...h.env, SRS_BASE_URL: `http://127.0.0.1:${port}/?sig=QUERYSECRET` });
    expect(queried.code).toBe(2);
    expect(queried.stderr).toContain('holds a query string');
    expect(queried.stderr).not.toContain('QUERYSECRET');
    const r = await runSrs(['score', 'calc', a!, '--save', saved, '-o', 'json'], { ...h.env, SRS_BASE_URL: `http://tok:HUNTER2SECRET@127.0.0.1:${port}/` });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(saved, 'utf8');
    expect(text).not.toContain('HUNTER2SECRET');
    expect(text).not.toContain('tok:');
    expect((readBundle(saved)[0] as { service: { baseUrl: string } }).service.baseUrl).toBe(`http://127.0.0.1:${port}`);
  });
});

describe('2. a parameter listed twice in one result is a conflict', () => {
  it('online: --min-parameter does not pass on one copy; the supplier is unknown, naming the parameter', async () => {
    const { p } = scoredParam(readBundle(bundle));
    rewrite = (body) => {
      for (const it of body.items) {
        const at = it.policyParameterScores.findIndex((x) => x.policyParameterId === p.policyParameterId);
        if (at < 0) continue;
        const real = it.policyParameterScores[at]!;
        // A first copy that passes any gate, the real one after it.
        it.policyParameterScores.splice(at, 0, { ...real, score: { value: 3 }, dataPoints: { dataEntries: [] } });
        real.score.value = -3;
      }
    };
    try {
      const r = await viaProxy(['score', 'check', a!, '--min-parameter', `${p.policyParameterId}=2`]);
      expect(r.code).not.toBe(0);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(new RegExp(`UNKNOWN ${a}: conflicting result: parameter ${p.policyParameterId} is listed 2 times \\(scores 3, -3\\)`));
      expect(r.stderr).toMatch(/0 passed .* 1 unknown/);
    } finally {
      rewrite = undefined;
    }
  });

  it('--verify: "conflicting entries" naming the supplier and the parameter (exit 3); check --from does not gate on a copy', async () => {
    const records = readBundle(bundle);
    const { item, p } = scoredParam(records);
    const at = item.policyParameterScores.indexOf(p);
    // The copy the comparison reads (the last) is the real one: before, --verify said verified.
    item.policyParameterScores.splice(at, 0, { ...p, score: { value: 3 }, dataPoints: { dataEntries: [] } });
    const forged = forge('dup-param.jsonl', records);
    const r = await runSrs(['score', 'recompute', forged, '--verify', '-o', 'json'], offline);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`conflicting entries: supplier ${item.supplierId}: parameter ${p.policyParameterId} is listed 2 times`));
    const check = await runSrs(['score', 'check', '--from', forged, '--no-verify', '--min-parameter', `${p.policyParameterId}=2`], offline);
    expect(check.code).toBe(3);
    expect(check.stderr).toMatch(new RegExp(`UNKNOWN ${item.supplierId}: conflicting result: parameter ${p.policyParameterId}`));
  });
});

describe('3. an unrecognised risk level makes the risk verdict unknown', () => {
  const extreme = (list: Param[]) => {
    list.forEach((p, i) => (p.dataPoints.risk = { riskLevel: i === 0 ? 'Extreme' : 'Low' }));
  };
  it('online: "Extreme" beside Low levels does not pass --max-risk Low', async () => {
    rewrite = (body) => {
      for (const it of body.items) extreme(it.policyParameterScores);
    };
    try {
      const r = await viaProxy(['score', 'check', a!, '--max-risk', 'Low']);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(new RegExp(`UNKNOWN ${a}: risk level "Extreme" is not one srs knows .*--max-risk Low cannot be checked`));
    } finally {
      rewrite = undefined;
    }
  });

  it('--from: the same, from a bundle that verifies', async () => {
    const records = readBundle(bundle);
    for (const it of items(records)) extreme(it.policyParameterScores);
    const forged = forge('extreme.jsonl', records);
    const r = await runSrs(['score', 'check', '--from', forged, '--max-risk', 'Low'], offline);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/UNKNOWN \w+: risk level "Extreme" is not one srs knows/);
    expect(r.stderr).toMatch(/0 passed .* 3 unknown/);
  });
});

describe('round 3, 3. an unrecognised risk level is shown as such, never as the highest known level', () => {
  it('calc, check, explain (picture, csv, json) and report --html say "Extreme (unrecognised)" to people, and "Extreme" with riskRecognised false to scripts, never Low', async () => {
    rewrite = (body) => {
      for (const it of body.items) it.policyParameterScores.forEach((p, i) => (p.dataPoints.risk = { riskLevel: i === 0 ? 'Extreme' : 'Low' }));
    };
    try {
      const calc = await viaProxy(['score', 'calc', a!, '-o', 'csv']);
      expect(calc.code, calc.stderr).toBe(0);
      expect(calc.stdout.split('\n')[0]).toContain('riskLevel,riskRecognised');
      expect(calc.stdout).toMatch(/,Extreme,false$/m);
      expect(calc.stdout).not.toContain('(unrecognised)');
      const calcTable = await viaProxy(['score', 'calc', a!, '-o', 'table'], { COLUMNS: '200' });
      expect(calcTable.stdout).toContain('Extreme (unrecognised)');
      expect(calcTable.stdout).not.toMatch(/ Low\s*$/m);
      const check = await viaProxy(['score', 'check', a!, '--max-risk', 'Low', '-o', 'json']);
      expect(check.code).toBe(3);
      expect((JSON.parse(check.stdout) as Array<{ riskLevel: string; riskRecognised: boolean }>)[0]).toMatchObject({ riskLevel: 'Extreme', riskRecognised: false });
      const explain = await viaProxy(['score', 'explain', a!, '-o', 'table'], { COLUMNS: '120' });
      expect(explain.code, explain.stderr).toBe(0);
      expect(explain.stdout).toContain('risk Extreme (unrecognised)');
      expect(explain.stdout).not.toMatch(/risk Low/);
      // Each parameter's risk, which check's unknown message points at, is in the picture.
      expect(explain.stdout).toMatch(/PARAMETER RISK\n(.*\n)*.*Extreme \(unrecognised\)/);
      expect(explain.stdout).toMatch(/PARAMETER RISK\n(.*\n)*.* Low\n/);
      const csv = await viaProxy(['score', 'explain', a!, '-o', 'csv']);
      expect(csv.stdout.split('\n')[0]).toContain('riskLevel,riskRecognised');
      expect(csv.stdout).toMatch(/,Extreme,false,/);
      const json = await viaProxy(['score', 'explain', a!, '-o', 'json']);
      const x = JSON.parse(json.stdout) as { score: { riskLevel: string; riskRecognised: boolean }; otherParameters: Array<{ riskLevel: string; riskRecognised: boolean }>; scorecards: Array<{ parameters: Array<{ riskLevel: string | null; riskRecognised: boolean | null }> }> };
      expect(x.score).toMatchObject({ riskLevel: 'Extreme', riskRecognised: false });
      expect([...x.scorecards.flatMap((c) => c.parameters), ...x.otherParameters]).toContainEqual(expect.objectContaining({ riskLevel: 'Extreme', riskRecognised: false }));
      const html = join(h.home, 'extreme.html');
      const report = await viaProxy(['score', 'report', a!, '--html', html]);
      expect(report.code, report.stderr).toBe(0);
      const page = readFileSync(html, 'utf8');
      expect(page).toContain('risk Extreme <span class="bad">(unrecognised)</span>');
      expect(page).not.toContain('risk Low');
      expect(page).toContain('<td>Extreme <span class="bad">(unrecognised)</span></td>');
    } finally {
      rewrite = undefined;
    }
  });
});

describe('round 3, 7. explain does not draw one copy of a parameter listed twice', () => {
  it('a warning naming the parameter and both scores, the parameter once with no value, exit 1 (online, picture and json)', async () => {
    const { p } = scoredParam(readBundle(bundle));
    const pid = p.policyParameterId;
    rewrite = (body) => {
      for (const it of body.items) {
        const at = it.policyParameterScores.findIndex((x) => x.policyParameterId === pid);
        if (at < 0) continue;
        const real = it.policyParameterScores[at]!;
        real.score.value = -2;
        it.policyParameterScores.splice(at, 0, { ...real, score: { value: 1 } });
      }
    };
    try {
      const json = await viaProxy(['score', 'explain', a!, '-o', 'json']);
      expect(json.code).toBe(1);
      expect(err(json)).toContain(`warning: conflicting result: supplier ${a}: parameter ${pid} is listed 2 times (scores 1, -2)`);
      expect(err(json)).toMatch(/unknown: the result for supplier \w+ lists an item more than once/);
      const x = JSON.parse(json.stdout) as { conflicts: string[]; scorecards: Array<{ parameters: Array<{ policyParameterId: string; score: number | null; label: string }> }>; otherParameters: Array<{ policyParameterId: string; score: number | null; label: string }> };
      expect(x.conflicts).toEqual([`parameter ${pid} is listed 2 times (scores 1, -2)`]);
      const shown = x.otherParameters.filter((q) => q.policyParameterId === pid);
      expect(shown.length).toBeLessThanOrEqual(1);
      for (const q of [...x.scorecards.flatMap((c) => c.parameters), ...shown].filter((q) => q.policyParameterId === pid)) {
        expect(q.score).toBeNull();
        expect(q.label).toBe('conflicting');
      }
      const picture = await viaProxy(['score', 'explain', a!, '-o', 'table'], { COLUMNS: '120' });
      expect(picture.code).toBe(1);
      expect(picture.stdout).toContain(`! conflicting result: parameter ${pid} is listed 2 times (scores 1, -2)`);
      // The parameter's rows draw no value (no -2.00, no 1.00), labelled conflicting.
      expect(picture.stdout).toMatch(/^ {4}\S.* -  .*conflicting$/m);
      expect(picture.stdout).not.toMatch(/(-2\.00|1\.00) .*conflicting$/m);
      const check = await viaProxy(['score', 'check', a!, '--min', '-3']);
      expect(check.code).toBe(3);
      expect(check.stderr).toContain(`UNKNOWN ${a}: conflicting result: parameter ${pid}`);
      // The HTML report says so, and is not a success either (as for a bundle with conflicting entries).
      const html = join(h.home, 'dup-param.html');
      const report = await viaProxy(['score', 'report', a!, '--html', html]);
      expect(report.code).toBe(3);
      expect(err(report)).toContain(`conflicting entries: supplier ${a}: parameter ${pid} is listed 2 times (scores 1, -2)`);
      expect(readFileSync(html, 'utf8')).toContain(`Conflicting result: parameter ${pid} is listed 2 times (scores 1, -2)`);
    } finally {
      rewrite = undefined;
    }
  });
});

describe('1. --from with filters the bundle was not calculated with is refused', () => {
  it('check, explain and report --from: exit 2 saying what the bundle was calculated with and how to save one', async () => {
    const { p } = scoredParam(readBundle(bundle));
    const pp = p.policyParameterId;
    const check = await runSrs(['score', 'check', '--from', bundle, '--policy-parameter', pp, '--min', '-3'], offline);
    expect(check.code).toBe(2);
    expect(err(check)).toContain(`was calculated with every policy parameter, not with --policy-parameter ${pp}`);
    expect(err(check)).toContain(`srs score calc ID... --policy-parameter ${pp} --save FILE`);
    expect(check.stdout).toBe('');
    const zero = await runSrs(['score', 'check', '--from', bundle, '--exclude-zero-values', '--min', '-3'], offline);
    expect(zero.code).toBe(2);
    expect(err(zero)).toContain('was calculated with zero values included, not with --exclude-zero-values');
    const ds = await runSrs(['score', 'check', '--from', bundle, '--data-source', 'xyz', '--min', '-3'], offline);
    expect(ds.code).toBe(2);
    const explain = await runSrs(['score', 'explain', a!, '--from', bundle, '--policy-parameter', pp], offline);
    expect(explain.code).toBe(2);
    expect(err(explain)).toContain(`not with --policy-parameter ${pp}`);
    const report = await runSrs(['score', 'report', bundle, '--html', join(h.home, 'f.html'), '--data-source', 'xyz'], offline);
    expect(report.code).toBe(2);
    // Without filters, or with the ones it was calculated with, the bundle is read.
    expect((await runSrs(['score', 'check', '--from', bundle, '--min', '-3'], offline)).code).toBe(0);
    const filtered = join(h.home, 'filtered.jsonl');
    const save = await h.run(['score', 'calc', a!, b!, '--policy-parameter', pp, '--save', filtered, '-o', 'json']);
    expect(save.code, save.stderr).toBe(0);
    const same = await runSrs(['score', 'check', '--from', filtered, '--policy-parameter', pp, '--min', '-3'], offline);
    expect(same.code, same.stderr).toBe(0);
  });

  it('check --from with only some of the filters a bundle was calculated with is refused too, naming all of them', async () => {
    const records = readBundle(bundle);
    const params = [...new Set(items(records).flatMap((it) => it.policyParameterScores.map((p) => p.policyParameterId)))];
    const sources = [...new Set(items(records).flatMap((it) => it.dataSourceScores.map((s) => s.dataSourceId)))];
    const [pp, pp2] = params;
    const [ds] = sources;
    const both = join(h.home, 'pp-ds.jsonl');
    const save = await h.run(['score', 'calc', a!, b!, '--policy-parameter', pp!, '--policy-parameter', pp2!, '--data-source', ds!, '--exclude-zero-values', '--save', both, '-o', 'json']);
    expect(save.code, save.stderr).toBe(0);
    const all = ['--policy-parameter', pp!, '--policy-parameter', pp2!, '--data-source', ds!, '--exclude-zero-values'];
    for (const some of [['--policy-parameter', pp!, '--policy-parameter', pp2!], ['--data-source', ds!], ['--exclude-zero-values'], ['--policy-parameter', pp2!, '--policy-parameter', pp!, '--data-source', ds!]]) {
      const r = await runSrs(['score', 'check', '--from', both, '--min', '-3', '--allow-no-data', ...some], offline);
      expect(r.code, `${some.join(' ')}: ${r.stderr}`).toBe(2);
      expect(err(r)).toContain('say so with all of the same filters');
      expect(r.stdout).toBe('');
    }
    const whole = await runSrs(['score', 'check', '--from', both, '--min', '-3', '--allow-no-data', ...all], offline);
    expect(whole.code, whole.stderr).toBe(0);
  });
});

describe('round 3, 13. a filter given twice is one filter', () => {
  it('calc --policy-parameter P twice records P once; check --from with P once (or twice) reads it; a bundle that repeats P matches P', async () => {
    const { p } = scoredParam(readBundle(bundle));
    const pp = p.policyParameterId;
    const saved = join(h.home, 'pp-twice.jsonl');
    const save = await h.run(['score', 'calc', a!, '--policy-parameter', pp, '--policy-parameter', pp, '--save', saved, '-o', 'json']);
    expect(save.code, save.stderr).toBe(0);
    expect((readBundle(saved)[0] as { options: { policyParameterIds: string[] } }).options.policyParameterIds).toEqual([pp]);
    for (const given of [[pp], [pp, pp]]) {
      const r = await runSrs(['score', 'check', '--from', saved, ...given.flatMap((id) => ['--policy-parameter', id]), '--min', '-3'], offline);
      expect(r.code, r.stderr).toBe(0);
    }
    // A bundle saved before this fix, which repeats the id (digest recomputed), is compared as a set.
    const records = readBundle(saved);
    (records[0] as { options: { policyParameterIds: string[] } }).options.policyParameterIds = [pp, pp];
    const old = forge('pp-twice-old.jsonl', records);
    const r = await runSrs(['score', 'check', '--from', old, '--policy-parameter', pp, '--min', '-3'], offline);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('round 3, 12. a baseline calculated with other filters than this run is refused', () => {
  it('online and --from, either way round: exit 2 in the words of the --from check; the same filters are compared', async () => {
    const { p } = scoredParam(readBundle(bundle));
    const pp = p.policyParameterId;
    const idsFile = join(h.home, 'baseline-ids.txt');
    writeFileSync(idsFile, `${a}\n${b}\n`);
    // The finding: a filtered run against an unfiltered baseline compared silently.
    const filteredRun = await h.run(['score', 'check', '--ids-file', idsFile, '--policy-parameter', pp, '--baseline', bundle, '--max-drop', '0']);
    expect(filteredRun.code).toBe(2);
    expect(err(filteredRun)).toContain(`--baseline ${bundle} was calculated with every policy parameter, not with --policy-parameter ${pp} as this run is`);
    expect(err(filteredRun)).toContain(`save one with them: srs score calc ID... --policy-parameter ${pp} --save FILE`);
    expect(filteredRun.stdout).toBe('');
    const zero = await h.run(['score', 'check', a!, '--exclude-zero-values', '--baseline', bundle, '--max-drop', '0']);
    expect(zero.code).toBe(2);
    expect(err(zero)).toContain('was calculated with zero values included, not with --exclude-zero-values as this run is');
    // The other way round: a filtered baseline, an unfiltered run (online, and --from an unfiltered bundle).
    const filtered = join(h.home, 'baseline-filtered.jsonl');
    const save = await h.run(['score', 'calc', a!, b!, '--policy-parameter', pp, '--save', filtered, '-o', 'json']);
    expect(save.code, save.stderr).toBe(0);
    const unfilteredRun = await h.run(['score', 'check', a!, b!, '--baseline', filtered, '--max-drop', '0']);
    expect(unfilteredRun.code).toBe(2);
    expect(err(unfilteredRun)).toContain(`--baseline ${filtered} was calculated with --policy-parameter ${pp}, not with every policy parameter as this run is`);
    const fromUnfiltered = await runSrs(['score', 'check', '--from', bundle, '--baseline', filtered, '--max-drop', '0'], offline);
    expect(fromUnfiltered.code).toBe(2);
    expect(err(fromUnfiltered)).toContain(`--baseline ${filtered} was calculated with --policy-parameter ${pp}, not with every policy parameter as this run is`);
    const fromFiltered = await runSrs(['score', 'check', '--from', filtered, '--baseline', bundle, '--max-drop', '0'], offline);
    expect(fromFiltered.code).toBe(2);
    expect(err(fromFiltered)).toContain(`--baseline ${bundle} was calculated with every policy parameter, not with --policy-parameter ${pp} as this run is`);
    // The same filters (given in another order or twice) are compared.
    const same = await h.run(['score', 'check', a!, b!, '--policy-parameter', pp, '--policy-parameter', pp, '--baseline', filtered, '--max-drop', '0']);
    expect(same.code, same.stderr).not.toBe(2);
    expect(same.stderr).toMatch(/checked 2 suppliers/);
    // (A filtered bundle is gated with its filters stated: its scores are not overall scores.)
    const sameFrom = await runSrs(['score', 'check', '--from', filtered, '--policy-parameter', pp, '--baseline', filtered, '--max-drop', '0'], offline);
    expect(sameFrom.code, sameFrom.stderr).toBe(0);
    // recompute --verify of the filtered bundle says so: its values are not the suppliers' whole scores.
    const verified = await runSrs(['score', 'recompute', filtered, '--verify'], offline);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stderr).toContain(`verified: recomputed 2 suppliers`);
    expect(verified.stderr).toContain(`; calculated with only policy parameter ${pp})`);
    const whole = await runSrs(['score', 'recompute', bundle, '--verify'], offline);
    expect(whole.stderr).not.toContain('calculated with');
  });
});

describe('4. two different results for one supplier in one answer make it unknown', () => {
  const twice = (changed: boolean) => (body: { items: Item[] }) => {
    const first = body.items.find((it) => it.supplierId === a)!;
    const copy = structuredClone(first);
    if (changed) copy.score.value = (first.score.value ?? 0) - 2;
    body.items.push(copy);
  };

  it('check: unknown naming the supplier (not a gate on the first); identical copies are one result', async () => {
    rewrite = twice(true);
    try {
      const r = await viaProxy(['score', 'check', a!, b!, '--min', '-3']);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(new RegExp(`UNKNOWN ${a}: the service returned 2 different results for supplier ${a} in one answer`));
      expect(r.stderr).toMatch(/1 passed .* 1 unknown/);
      rewrite = twice(false);
      const same = await viaProxy(['score', 'check', a!, b!, '--min', '-3']);
      expect(same.code, same.stderr).toBe(0);
    } finally {
      rewrite = undefined;
    }
  });

  it('calc --save records an error for it, not a value; piped JSON leaves it out; both exit 1', async () => {
    rewrite = twice(true);
    try {
      const saved = join(h.home, 'dup-result.jsonl');
      const r = await viaProxy(['score', 'calc', a!, b!, '--save', saved, '-o', 'json']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`UNKNOWN ${a}: the service returned 2 different results`);
      const records = readBundle(saved);
      expect(items(records).map((i) => i.supplierId)).toEqual([b]);
      expect(records).toContainEqual(expect.objectContaining({ t: 'error', supplierId: a, code: 'conflicting_results' }));
      // The bundle is consistent: it verifies, and check --from says unknown for that supplier.
      const verify = await runSrs(['score', 'recompute', saved, '--verify', '-o', 'json'], offline);
      expect(verify.code, verify.stderr).toBe(0);
      const piped = await viaProxy(['score', 'calc', a!, b!, '-o', 'ndjson']);
      expect(piped.code).toBe(1);
      expect(piped.stdout.trim().split('\n').map((l) => (JSON.parse(l) as Item).supplierId)).toEqual([b]);
      expect(piped.stderr).toContain(`UNKNOWN ${a}: the service returned 2 different results`);
    } finally {
      rewrite = undefined;
    }
  });
});

describe('8. items of a bundle whose digest is right are validated before use', () => {
  it('riskLevel 5 or {}: check --from, explain, report and recompute --verify are invalid input (exit 2) naming the line', async () => {
    for (const bad of [5, {}]) {
      const records = readBundle(bundle);
      const { item } = scoredParam(records);
      item.policyParameterScores[0]!.dataPoints.risk = { riskLevel: bad };
      const forged = forge(`bad-risk-${typeof bad}.jsonl`, records);
      const line = records.findIndex((r) => r.t === 'result' && (r.item as Item) === item) + 1;
      const runs = await Promise.all([
        runSrs(['score', 'check', '--from', forged, '--max-risk', 'Low'], offline),
        runSrs(['score', 'check', '--from', forged, '--expiring-within', '10'], offline),
        runSrs(['score', 'explain', item.supplierId, '--from', forged], offline),
        runSrs(['score', 'report', forged, '--html', join(h.home, 'bad.html')], offline),
        runSrs(['score', 'recompute', forged, '--verify', '-o', 'json'], offline),
      ]);
      for (const r of runs) {
        expect(r.code, r.stderr).toBe(2);
        expect(err(r)).toContain(`line ${line}: not a score result: item.policyParameterScores[0].dataPoints.risk.riskLevel`);
        expect(r.stderr).not.toContain('unexpected error');
        expect(r.stderr).not.toMatch(/verified:/);
      }
    }
  });

  it('a parameter without dataPoints and dataEntries null are completed, not a crash', async () => {
    const records = readBundle(bundle);
    const { item } = scoredParam(records);
    delete (item.policyParameterScores[0] as Partial<Param>).dataPoints;
    (item.dataSourceScores[0]!.dataPoints as { dataEntries: Entry[] | null }).dataEntries = null;
    const forged = forge('no-datapoints.jsonl', records);
    for (const args of [['score', 'check', '--from', forged, '--no-verify', '--max-risk', 'Critical', '--expiring-within', '10'], ['score', 'explain', item.supplierId, '--from', forged]]) {
      const r = await runSrs(args, offline);
      expect(r.stderr).not.toContain('unexpected error');
      expect([0, 3], r.stderr).toContain(r.code);
    }
  });
});

describe('5. a bundle with no suppliers is nothing evaluated, not a pass', () => {
  it('recompute --verify and check --from exit 1 with one clear line', async () => {
    const records = readBundle(bundle);
    const empty = forge('empty.jsonl', [records[0]!, records.at(-1)!]);
    const verify = await runSrs(['score', 'recompute', empty, '--verify'], offline);
    expect(verify.code).toBe(1);
    expect(err(verify)).toContain(`nothing to verify: ${empty} holds no supplier result`);
    expect(verify.stderr).not.toMatch(/verified:/);
    const check = await runSrs(['score', 'check', '--from', empty, '--min', '0'], offline);
    expect(check.code).toBe(1);
    expect(err(check)).toContain(`nothing was checked: ${empty} holds no supplier`);
    expect(check.stderr).not.toMatch(/checked 0 suppliers/);
    // Only recorded errors: nothing recomputed either.
    const errorsOnly = forge('errors-only.jsonl', [records[0]!, { t: 'request', request: { supplierIds: [a] } }, { t: 'error', supplierId: a, code: 'not_found', message: 'gone' }, records.at(-1)!]);
    const v2 = await runSrs(['score', 'recompute', errorsOnly, '--verify'], offline);
    expect(v2.code).toBe(1);
    expect(err(v2)).toContain('holds no supplier result (1 supplier recorded without a result, unknown)');
  });
});

describe('round 3, 8. report of a bundle with no suppliers writes nothing and exits 1', () => {
  it('empty, or recorded errors only: "nothing to report", no file, exit 1 (as check and recompute --verify)', async () => {
    const records = readBundle(bundle);
    const empty = forge('empty-report.jsonl', [records[0]!, records.at(-1)!]);
    const out = join(h.home, 'e.html');
    const r = await runSrs(['score', 'report', empty, '--html', out], offline);
    expect(r.code).toBe(1);
    expect(err(r)).toContain(`nothing to report: ${empty} holds no supplier result; no report was written`);
    expect(r.stderr).not.toMatch(/wrote|digest verified|values agree/);
    expect(existsSync(out)).toBe(false);
    const errorsOnly = forge('errors-only-report.jsonl', [records[0]!, { t: 'request', request: { supplierIds: [a] } }, { t: 'error', supplierId: a, code: 'not_found', message: 'gone' }, records.at(-1)!]);
    const r2 = await runSrs(['score', 'report', errorsOnly, '--html', out], offline);
    expect(r2.code).toBe(1);
    expect(err(r2)).toContain('holds no supplier result (1 supplier recorded without a result, unknown)');
    expect(existsSync(out)).toBe(false);
  });
});

describe('12. the end record\'s count is checked in the pass of its own, before anything is printed', () => {
  it('a result cut out, digest recomputed, count kept: "bundle altered" and no row printed (exit 3)', async () => {
    const records = readBundle(bundle);
    const cut = records.filter((r, i) => !(r.t === 'result' && i === records.findIndex((x) => x.t === 'result')));
    const forged = forge('cut-count.jsonl', cut, { count: false });
    const r = await runSrs(['score', 'recompute', forged, '--verify', '-o', 'json'], offline);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/bundle altered: the end record counts 3 suppliers, the bundle holds 2; nothing was recomputed/);
    expect(r.stderr).not.toMatch(/agree/);
    const check = await runSrs(['score', 'check', '--from', forged, '--min', '-3'], offline);
    expect(check.code).toBe(3);
    expect(check.stdout).toBe('');
    expect(check.stderr).toMatch(/bundle altered: the end record counts 3 suppliers, the bundle holds 2/);
    // Said once, also without --verify.
    const plain = await runSrs(['score', 'recompute', forged, '-o', 'json'], offline);
    expect(plain.stderr.match(/the end record counts/g)).toHaveLength(1);
  });
});

describe('9. check --from: warnings reach the step summary as well as stderr', () => {
  it('an entry that expires before it is issued, and --no-verify, are in GITHUB_STEP_SUMMARY', async () => {
    const records = readBundle(bundle);
    const entry = items(records)[0]!.dataSourceScores[0]!.dataPoints.dataEntries[0]!;
    entry.issueDate = '2026-06-01';
    entry.expiryDate = '2026-01-01';
    const forged = forge('inverted.jsonl', records);
    const summary = join(h.home, 'summary.md');
    writeFileSync(summary, '');
    const r = await runSrs(['score', 'check', '--from', forged, '--no-verify', '--min', '-3'], { ...offline, GITHUB_STEP_SUMMARY: summary });
    expect(r.stderr).toMatch(/warning: .*--no-verify: .* was not verified/);
    expect(r.stderr).toMatch(new RegExp(`warning: .*entry ${entry.id}: expires \\(2026-01-01\\) before it is issued`));
    const md = readFileSync(summary, 'utf8');
    expect(md).toMatch(/--no-verify: .* was not verified/);
    expect(md).toContain(`entry ${entry.id}: expires (2026-01-01) before it is issued`);
  });
});

describe('10. explain and report run one spinner at a time on a terminal', () => {
  pty.it('no "[ora] Multiple concurrent spinners" warning (util-linux script)', async () => {
    const env = { ...h.env, TERM: 'xterm' };
    const explain = await onTerminal(['score', 'explain', a!], env, { cols: 100 });
    expect(explain.code, explain.out).toBe(0);
    expect(explain.out).toContain(a);
    const report = await onTerminal(['score', 'report', a!, b!, '--html', join(h.home, 'tty.html')], env, { cols: 100 });
    expect(report.code, report.out).toBe(0);
    for (const r of [explain, report]) expect(r.out).not.toMatch(/Multiple concurrent spinners/);
  });
});

describe('round 3, 9. every warning is one line, whatever the bundle holds', () => {
  it('a parameter id with a line break cannot start a workflow command from recompute, explain or report warnings', async () => {
    const records = readBundle(bundle);
    const { item, p } = scoredParam(records);
    const at = item.policyParameterScores.indexOf(p);
    const bad = 'PX\n::notice::INJ2';
    // Listed twice (a finding that names the parameter), under an id with a line break.
    item.policyParameterScores.splice(at, 1, { ...p, policyParameterId: bad }, { ...p, policyParameterId: bad, score: { value: 1 } });
    const forged = forge('inject-warn.jsonl', records);
    const env = { ...offline, GITHUB_ACTIONS: 'true' };
    const runs = await Promise.all([
      runSrs(['score', 'recompute', forged, '-o', 'json'], env),
      runSrs(['score', 'explain', item.supplierId, '--from', forged, '-o', 'json'], env),
      runSrs(['score', 'report', forged, '--html', join(h.home, 'inject.html'), '--no-verify'], env),
    ]);
    for (const r of runs) {
      // Said as a warning (escaped \n) or, where the finding refuses the command (explain --from), as its one-line error.
      expect(r.stderr, 'the finding was not said').toMatch(/PX(\\n| )::notice::INJ2/);
      for (const l of r.stderr.split('\n')) expect(l, 'a bundle string started a line').not.toMatch(/^::/);
    }
  });
});

describe('round 4. a baseline that has no comparable value for a supplier', () => {
  it('an error record, two different results, a wrong count or no supplier at all: unknown or refused, never a pass', async () => {
    const records = readBundle(bundle);
    const first = items(records)[0]!;
    // a's baseline is an error record (the baseline run could not score it).
    const withError = records.map((r) => (r.t === 'result' && (r.item as Item).supplierId === first.supplierId ? { t: 'error', supplierId: first.supplierId, code: 'lookup_failed', message: 'the lookup failed' } : r));
    const errorBase = forge('base-error.jsonl', withError);
    const r1 = await runSrs(['score', 'check', first.supplierId, '--baseline', errorBase, '--max-drop', '0', '-o', 'json'], h.env);
    expect(r1.code, r1.stderr).toBe(3);
    const [res1] = JSON.parse(r1.stdout) as Array<{ status: string; reasons: string[] }>;
    expect(res1!.status).toBe('unknown');
    expect(res1!.reasons.join(' ')).toContain('--max-drop cannot be checked: the baseline has no score for it (lookup_failed');
    // Two different results for a (the second raised by 3).
    const twice = [...records];
    const raised = structuredClone(records.find((r) => r.t === 'result' && (r.item as Item).supplierId === first.supplierId)!) as Rec;
    (raised.item as Item).score.value = 3;
    twice.splice(twice.length - 1, 0, raised);
    const twiceBase = forge('base-twice.jsonl', twice);
    // Verified, a supplier listed twice (one copy raised) conflicts: the whole baseline is refused (file or stdin alike).
    for (const [file, input] of [[twiceBase, undefined], ['-', readFileSync(twiceBase)]] as const) {
      const r2 = await runSrs(['score', 'check', first.supplierId, '--baseline', file, '--max-drop', '0.1', '-o', 'json'], h.env, input ? { input } : {});
      expect(r2.code, r2.stderr).toBe(3);
      expect(r2.stdout).toBe('');
      expect(err(r2)).toContain(`baseline not verified: conflicting entries: supplier ${first.supplierId} is listed more than once`);
    }
    // The end record counting other suppliers than the baseline holds: altered.
    const miscounted = forge('base-count.jsonl', twice, { count: false });
    const r3 = await runSrs(['score', 'check', first.supplierId, '--baseline', miscounted, '--max-drop', '0.1'], h.env);
    expect(r3.code).toBe(3);
    expect(err(r3)).toMatch(/baseline altered: the end record counts \d+ suppliers, the bundle holds \d+ \(--baseline [^;]+; nothing was compared\)/);
    // No supplier at all.
    const empty = forge('base-empty.jsonl', records.filter((r) => r.t !== 'result' && r.t !== 'error' && r.t !== 'scorecard' && r.t !== 'request'));
    const r4 = await runSrs(['score', 'check', first.supplierId, '--baseline', empty, '--max-drop', '0.1'], h.env);
    expect(r4.code).toBe(1);
    expect(err(r4)).toContain('holds no supplier: there is nothing to compare with');
  });
});

describe('round 6. a forged baseline whose digest was recomputed', () => {
  it('is recomputed from its own entries: a raised value, a dropped entry or a conflicting entry fails the gate (exit 3), nothing compared', async () => {
    const records = readBundle(bundle);
    const first = items(records)[0]!;
    // The finding: a baseline value raised to +3 (digest recomputed) let any drop... no: let a real drop hide, or any value pass.
    const lowered = records.map((r) => (r.t === 'result' && (r.item as Item).supplierId === first.supplierId ? { ...r, item: { ...(r.item as Item), score: { ...(r.item as Item).score, value: -3 } } } : r));
    const base = forge('base-lowered.jsonl', lowered);
    const r = await runSrs(['score', 'check', first.supplierId, '--baseline', base, '--max-drop', '0', '-o', 'json'], h.env);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toBe('');
    expect(err(r)).toContain(`baseline not verified: recomputation differs`);
    expect(err(r)).toContain(`--baseline ${base}; nothing was compared`);
    // The same refusal with --from: the baseline is checked as the bundle is.
    const from = await runSrs(['score', 'check', '--from', bundle, '--baseline', base, '--max-drop', '0'], offline);
    expect(from.code, from.stderr).toBe(3);
    expect(err(from)).toContain('baseline not verified: recomputation differs');
    // From stdin, verified in the same one pass.
    const piped = await runSrs(['score', 'check', first.supplierId, '--baseline', '-', '--max-drop', '0'], h.env, { input: readFileSync(base) });
    expect(piped.code, piped.stderr).toBe(3);
    expect(err(piped)).toContain('baseline not verified: recomputation differs');
    // Relabelled as another model version (digest recomputed): refused unless accepted, and then recomputed all the same.
    const relabelled = forge('base-model.jsonl', lowered.map((r) => (r.kind === 'srs.score-bundle' ? { ...r, modelVersion: '0.0.1' } : r)));
    const model = await runSrs(['score', 'check', first.supplierId, '--baseline', relabelled, '--max-drop', '0'], h.env);
    expect(model.code, model.stderr).toBe(3);
    expect(err(model)).toContain('baseline not verified: model version differs');
    const accepted = await runSrs(['score', 'check', first.supplierId, '--baseline', relabelled, '--accept-model', '0.0.1', '--max-drop', '0'], h.env);
    expect(accepted.code, accepted.stderr).toBe(3);
    expect(err(accepted)).toContain('baseline not verified: recomputation differs');
    // An untouched baseline still compares, and passes against itself.
    const same = await runSrs(['score', 'check', '--from', bundle, '--baseline', bundle, '--max-drop', '0'], offline);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).not.toContain('baseline not verified');
  });
});

describe('round 4. explain --from a bundle with two different results for one supplier', () => {
  it('explains nothing (exit 3), as check --from', async () => {
    const records = readBundle(bundle);
    const first = items(records)[0]!;
    const raised = structuredClone(records.find((r) => r.t === 'result' && (r.item as Item).supplierId === first.supplierId)!) as Rec;
    (raised.item as Item).score.value = 3;
    const twice = [...records];
    twice.splice(twice.length - 1, 0, raised);
    const r = await runSrs(['score', 'explain', first.supplierId, '--from', forge('explain-twice.jsonl', twice)], offline);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toBe('');
    expect(err(r)).toContain('nothing was explained');
  });
});

describe('round 5. what a new user reached past the gate', () => {
  it('a baseline value off the -3..+3 scale is no value to compare with: unknown, not a pass of --max-drop', async () => {
    const records = readBundle(bundle);
    const first = items(records)[0]!;
    const off = records.map((r) => (r.t === 'result' && (r.item as Item).supplierId === first.supplierId ? { ...r, item: { ...(r.item as Item), score: { ...(r.item as Item).score, value: -7 } } } : r));
    // Without a digest (taken with --allow-undigested, so not recomputed), the value itself is what is judged.
    const raw = join(h.home, 'base-off.json');
    writeFileSync(raw, JSON.stringify({ items: items(off) }));
    const r = await runSrs(['score', 'check', first.supplierId, '--baseline', raw, '--allow-undigested', '--max-drop', '0', '-o', 'json'], h.env);
    expect(r.code, r.stderr).toBe(3);
    const [res] = JSON.parse(r.stdout) as Array<{ status: string; reasons: string[] }>;
    expect(res!.status).toBe('unknown');
    expect(res!.reasons.join(' ')).toContain("the baseline's score -7 is outside the scale -3..+3");
  });

  it('a bundle cut off mid-line is "bundle altered" (exit 3) to report, explain and check/recompute from stdin, not "not valid JSON" (exit 2)', async () => {
    const text = readFileSync(bundle, 'utf8');
    const lines = text.split('\n');
    // Cut inside the last result line: the results before it are whole, the end record is gone.
    const cutAt = lines.slice(0, -3).join('\n').length + 1 + Math.floor(lines.at(-3)!.length / 2);
    const cut = join(h.home, 'cut.jsonl');
    writeFileSync(cut, text.slice(0, cutAt));
    const report = await runSrs(['score', 'report', cut, '--html', join(h.home, 'cut.html')], offline);
    expect(report.code, report.stderr).toBe(3);
    expect(report.stderr).toContain('bundle altered');
    const explain = await runSrs(['score', 'explain', a!, '--from', cut], offline);
    expect(explain.code, explain.stderr).toBe(3);
    const check = await runSrs(['score', 'check', '--from', '-', '--min', '-3'], offline, { input: text.slice(0, cutAt) });
    expect(check.code, check.stderr).toBe(3);
    expect(check.stderr).toContain('bundle altered');
    const recompute = await runSrs(['score', 'recompute', '-', '--verify'], offline, { input: text.slice(0, cutAt) });
    expect(recompute.code, recompute.stderr).toBe(3);
    // Cut before the first result: still altered, not "nothing to report".
    writeFileSync(cut, text.slice(0, lines[0]!.length + 10));
    const early = await runSrs(['score', 'report', cut, '--html', join(h.home, 'cut-early.html')], offline);
    expect(early.code, early.stderr).toBe(3);
    expect(early.stderr).toContain('bundle altered');
    expect(existsSync(join(h.home, 'cut-early.html'))).toBe(false);
  });

  it('report of a bundle with a score off the scale: exit 1, no report (it drew a full +3 bar in the 2.5-3.0 bin), verified or not', async () => {
    const records = readBundle(bundle);
    const first = items(records)[0]!;
    const off = records.map((r) => (r.t === 'result' && (r.item as Item).supplierId === first.supplierId ? { ...r, item: { ...(r.item as Item), score: { ...(r.item as Item).score, value: 3.5 } } } : r));
    const forged = forge('off-scale.jsonl', off);
    for (const extra of [[], ['--no-verify']]) {
      const html = join(h.home, `off-scale${extra.length}.html`);
      const r = await runSrs(['score', 'report', forged, '--html', html, ...extra], offline);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`supplier ${first.supplierId} cannot be explained: its score 3.5 is outside the scale -3..+3`);
      expect(existsSync(html)).toBe(false);
    }
  });

  it('a mistyped --data-source or --policy-parameter is exit 2 with a suggestion in calc, explain and report too (all "no data", exit 0)', async () => {
    const records = readBundle(bundle);
    const source = items(records).flatMap((it) => it.dataSourceScores.map((d) => d.dataSourceId))[0]!;
    const typo = source.slice(0, -4) + 'zzzz';
    for (const args of [['score', 'calc', a!, '-o', 'csv'], ['score', 'explain', a!], ['score', 'report', a!, '--html', join(h.home, 'typo.html')]]) {
      const sent = h.requests.length;
      const r = await runSrs([...args, '--data-source', typo], h.env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(`--data-source "${typo}" is no data source of the service`);
      expect(h.requests.slice(sent).some((l) => l.startsWith('POST /v1/score-calculation')), args.join(' ')).toBe(false);
    }
  });

  it('a gzipped bundle is named as such with the command that reads it, not binary noise', async () => {
    const { gzipSync } = await import('node:zlib');
    const gz = join(h.home, 'evidence.jsonl.gz');
    writeFileSync(gz, gzipSync(readFileSync(bundle)));
    const r = await runSrs(['score', 'check', '--from', gz, '--min', '0'], offline);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${gz}: gzip-compressed: decompress it first (gunzip -c "${gz}" | srs score check --from - ...)`);
    expect(r.stderr).not.toContain('\x1f');
  });

  it('--accept-model, --allow-undigested and --no-verify without --from are refused (exit 2), not ignored', async () => {
    const r = await runSrs(['score', 'check', a!, '--min', '-3', '--accept-model', '9.9', '--allow-undigested'], h.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--accept-model and --allow-undigested apply to --from BUNDLE or --baseline FILE only');
    const nv = await runSrs(['score', 'check', a!, '--min', '-3', '--no-verify'], h.env);
    expect(nv.code).toBe(2);
    expect(nv.stderr).toContain('--no-verify applies to --from BUNDLE only (a --baseline is always verified)');
  });

  it('--junit or GITHUB_STEP_SUMMARY naming srs\'s own stdout is refused (exit 2): the results there were replaced or unreadable', async () => {
    const out = join(h.home, 'results.json');
    const { openSync, closeSync } = await import('node:fs');
    const { spawnSync } = await import('node:child_process');
    for (const [extra, env] of [[['--junit', out], {}], [[], { GITHUB_STEP_SUMMARY: out }]] as const) {
      const fd = openSync(out, 'w');
      try {
        // Offline (--from) and synchronous: the refusal comes before anything is read or sent.
        const r = spawnSync(process.execPath, [BIN, 'score', 'check', '--from', bundle, '--min', '-3', '-o', 'json', ...extra], { env: { ...offline, ...env }, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: 20_000 });
        expect(r.status, r.stderr).toBe(2);
        expect(r.stderr).toContain("is srs's standard output, which carries the results");
      } finally {
        closeSync(fd);
      }
    }
    // /dev/null as the JUnit file stays allowed (nothing there to lose).
    const devnull = await runSrs(['score', 'check', '--from', bundle, '--min', '-3', '-o', 'json', '--junit', '/dev/null'], offline);
    expect(devnull.code, devnull.stderr).toBe(0);
  });
});

describe('a bundle is read from one open file: what is verified is what is gated', () => {
  it('a FIFO or <(...) is read once, hashed as it streams (a second open found it empty, or waited for ever); a forged one is "bundle altered"', async () => {
    const { execFileSync } = await import('node:child_process');
    const { createWriteStream } = await import('node:fs');
    const fifo = join(h.home, 'bundle.fifo');
    execFileSync('mkfifo', [fifo]);
    const { p } = scoredParam(readBundle(bundle));
    const genuine = readFileSync(bundle, 'utf8');
    // A value raised, the digest left as it was.
    const forged = genuine.replace(JSON.stringify(p.score), JSON.stringify({ ...p.score, value: 3 }));
    expect(forged).not.toBe(genuine);
    const offer = (text: string) =>
      new Promise<void>((resolve) => {
        const w = createWriteStream(fifo);
        w.on('error', () => resolve());
        w.end(text, () => resolve());
      });
    for (const [text, args, code] of [
      [genuine, ['score', 'check', '--from', fifo, '--min', '-3', '--allow-no-data'], 0],
      [genuine, ['score', 'recompute', fifo, '--verify'], 0],
      [forged, ['score', 'check', '--from', fifo, '--min', '-3', '--allow-no-data'], 3],
    ] as const) {
      const writing = offer(text);
      const r = await runSrs([...args], offline, { timeoutMs: 30_000 });
      await writing;
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(code);
      if (code === 3) expect(err(r)).toContain('bundle altered');
    }
  });

  it('a regular file changed while srs reads it is not verified (exit 1), whatever its digest says', async () => {
    const { pinEvidence, sameAsPinned } = await import('../../src/commands/score/evidence.js');
    const copy = join(h.home, 'pinned.jsonl');
    writeFileSync(copy, readFileSync(bundle));
    const pinned = (await pinEvidence(copy, 'test'))!;
    expect(pinned.regular).toBe(true);
    expect(sameAsPinned(pinned)).toBe(true);
    writeFileSync(copy, readFileSync(bundle, 'utf8') + '\n');
    expect(sameAsPinned(pinned)).toBe(false);
    await pinned.handle.close();
  });
});

describe('--no-verify still fails what it did not evaluate', () => {
  it('a bundle cut short (anywhere: after a result, at a batch boundary, mid-line) is exit 3 with nothing checked; a whole one missing a requested supplier makes it unknown (both passed, exit 0)', async () => {
    const lines = readFileSync(bundle, 'utf8').split('\n');
    const firstResult = lines.findIndex((l) => l.includes('"t":"result"') || l.includes('"t":"error"'));
    const cut = join(h.home, 'cut.jsonl');
    writeFileSync(cut, lines.slice(0, firstResult + 1).join('\n') + '\n');
    const r = await runSrs(['score', 'check', '--from', cut, '--no-verify', '--min', '-3', '--allow-no-data'], offline);
    expect(r.code, r.stderr).toBe(3);
    expect(err(r)).toContain(`${cut} is not whole: it has no end record`);
    expect(r.stdout).toBe('');
    // Cut at a batch's boundary (its request line went too), or mid-line: the same.
    const requestAt = lines.findIndex((l, i) => i > 0 && l.includes('"t":"request"'));
    for (const [name, text] of [['batch.jsonl', lines.slice(0, requestAt).join('\n') + '\n'], ['midline.jsonl', lines.slice(0, firstResult + 1).join('\n') + '\n' + lines[firstResult + 1]!.slice(0, 20)]] as const) {
      const path = join(h.home, name);
      writeFileSync(path, text);
      const c = await runSrs(['score', 'check', '--from', path, '--no-verify', '--min', '-3', '--allow-no-data'], offline);
      expect(c.code, `${name}: ${c.stderr}`).toBe(3);
      expect(err(c)).toContain('is not whole');
    }
    // Whole, with a supplier's result line deleted and the end record's count and digest made to match: the requested
    // id without a record is unknown.
    const records = readBundle(bundle);
    const dropAt = records.findIndex((x) => x.t === 'result');
    const dropped = forge('dropped.jsonl', records.filter((_, i) => i !== dropAt));
    const d = await runSrs(['score', 'check', '--from', dropped, '--no-verify', '--min', '-3', '--allow-no-data'], offline);
    expect(d.code, d.stderr).toBe(3);
    expect(d.stderr).toMatch(/^UNKNOWN \S+: the bundle's requests name it, but it holds neither a result nor a recorded error/m);
  });
});

describe('--verify says "verified" only of the bundle as it was calculated', () => {
  it('--as-of, --claim-weight or --mode other than the bundle records is exit 2 under --verify (a what-if without it); --tolerance is at most 0.5', async () => {
    const header = readBundle(bundle)[0] as { asOf: string; options: { claimWeight: number; mode: string } };
    for (const [args, words] of [
      [['--as-of', '2099-01-01'], `not with --as-of 2099-01-01 (it was calculated as of ${header.asOf})`],
      [['--claim-weight', '0.5000000001'], `not with --claim-weight 0.5000000001 (it records ${header.options.claimWeight})`],
      [['--mode', header.options.mode === 'parameters' ? 'scorecards' : 'parameters'], `(it records ${header.options.mode})`],
      [['--tolerance', '10'], '--tolerance must be a number from 0 to 0.5'],
    ] as const) {
      const r = await runSrs(['score', 'recompute', bundle, '--verify', ...args], offline);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(err(r)).toContain(words);
      expect(r.stdout).toBe('');
    }
    // The same values as recorded verify; without --verify the what-if recomputes.
    expect((await runSrs(['score', 'recompute', bundle, '--verify', '--as-of', header.asOf, '--claim-weight', String(header.options.claimWeight)], offline)).code).toBe(0);
    expect((await runSrs(['score', 'recompute', bundle, '--as-of', '2099-01-01', '-o', 'json'], offline)).code).toBe(0);
    const huge = await runSrs(['score', 'check', '--from', bundle, '--min', '1e400'], offline);
    expect(huge.code).toBe(2);
    expect(err(huge)).toContain('(got "1e400", too large to hold)');
  });
});

describe('--accept-model names a version', () => {
  it('an empty --accept-model (a script\'s unset variable) is exit 2 for recompute, check --from and --baseline', async () => {
    for (const args of [['score', 'recompute', bundle, '--verify', '--accept-model', ''], ['score', 'check', '--from', bundle, '--min', '-3', '--accept-model', ' '], ['score', 'check', a!, '--baseline', bundle, '--max-drop', '1', '--accept-model', '']]) {
      const r = await runSrs(args, h.env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(err(r)).toContain('--accept-model needs the model version to accept (it was empty)');
    }
  });
});

describe('a risk level srs cannot rank is marked in the parameters breakdown too', () => {
  it('an escape-coded "High" (sanitised, it looked like High) is "(unrecognised)" in the table and riskRecognised false in CSV and JSON', async () => {
    rewrite = (body) => {
      for (const it of body.items) for (const p of it.policyParameterScores) p.dataPoints.risk = { riskLevel: '\u001b[31mHigh\u001b[0m' };
    };
    try {
      const t = await viaProxy(['score', 'calc', a!, '--breakdown', 'parameters', '-o', 'table', '--wide']);
      expect(t.code, t.stderr).toBe(0);
      expect(t.stdout).toContain('(unrecognised)');
      const csv = await viaProxy(['score', 'calc', a!, '--breakdown', 'parameters', '-o', 'csv']);
      const [head, first] = csv.stdout.split('\n');
      const at = head!.split(',').indexOf('riskRecognised');
      expect(at, head).toBeGreaterThan(0);
      expect(first!.split(',')[at]).toBe('false');
      const j = await viaProxy(['score', 'calc', a!, '--breakdown', 'parameters', '--fields', 'policyParameterId,riskLevel,riskRecognised', '-o', 'json']);
      expect(j.code, j.stderr).toBe(0);
      for (const row of JSON.parse(j.stdout) as Array<{ riskRecognised: unknown }>) expect(row.riskRecognised).toBe(false);
    } finally {
      rewrite = undefined;
    }
  });
});
