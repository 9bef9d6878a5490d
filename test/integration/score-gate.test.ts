/**
 * Issue 17, end to end: every bypass of the CI gate and of the evidence it
 * listed, each run through the built srs against the emulator (or offline on
 * a saved bundle), plus the tamper tests (digest, completeness, model
 * version, conflicting entries), the format-1 fixture and the step summary.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from '../../src/emulator/index.js';
import { ROOT, baseEnv, runSrs, startHarness, type Harness } from './harness.js';
import { writeConsistent } from '../support/consistent-bundle.js';

type Rec = Record<string, unknown>;
interface Entry {
  id: string;
  expiryDate?: string | null;
  isClaim?: boolean;
}
interface Item {
  supplierId: string;
  score: { value?: number | null; dataSourcesScore: { value?: number | null }; policyParametersScore: { value?: number | null } };
  dataSourceScores: Array<{ dataSourceId: string; score: { value?: number | null }; dataPoints: { dataEntries: Entry[] } }>;
  policyParameterScores: Array<{ policyParameterId: string; score: { value?: number | null }; dataPoints: { dataEntries: Entry[] } }>;
}

let h: Harness;
let offline: Record<string, string>;
const fx = fixtures();
const ids = fx.suppliers.map((s) => s.id).slice(0, 40);
let bundlePath: string;

const readBundle = (path: string): Rec[] => readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Rec);
/** Writes records as a format-2 bundle with a digest that matches the new content (what a forger would do), so the other checks are reached. */
function forge(name: string, records: Rec[]): string {
  const path = join(h.home, name);
  const body = records.slice(0, -1).map((r) => JSON.stringify(r) + '\n').join('');
  const end = structuredClone(records.at(-1)!) as { suppliers: number; digest: { value: string } };
  end.digest.value = createHash('sha256').update(body).digest('hex');
  end.suppliers = records.filter((r) => r.t === 'result' || r.t === 'error').length;
  writeFileSync(path, body + JSON.stringify(end) + '\n');
  return path;
}
const results = (records: Rec[]) => records.filter((r) => r.t === 'result').map((r) => r.item as Item);
const scored = (records: Rec[]) => results(records).filter((i) => typeof i.score.value === 'number');
/** stderr with JSON-escaped quotes undone (errors are one JSON line when stderr is not a terminal). */
const err = (r: { stderr: string }) => r.stderr.replace(/\\"/g, '"');
const recompute = (path: string, ...flags: string[]) => runSrs(['score', 'recompute', path, '--verify', '--only-differences', '-o', 'json', ...flags], offline);

beforeAll(async () => {
  h = await startHarness();
  offline = { ...baseEnv(h.home + '/offline'), SRS_BASE_URL: 'http://127.0.0.1:9' };
  bundlePath = join(h.home, 'evidence.jsonl');
  const r = await h.run(['score', 'calc', ...ids, '--save', bundlePath, '-o', 'json']);
  if (r.code !== 0) throw new Error(r.stderr);
});
afterAll(async () => {
  await h?.close();
});

describe('1. the gate never passes what it could not evaluate', () => {
  it('a malformed id is exit 2 naming it, before anything is sent', async () => {
    const before = h.requests.length;
    const r = await h.run(['score', 'check', '01zzzzzzzzzzzzzzzzzzzzzzzz', 'typo', '--min', '0.5']);
    expect(r.code).toBe(2);
    expect(err(r)).toMatch(/"typo" \(argument 2: 4 characters, not 26\)/);
    expect(r.stderr).not.toMatch(/01zzz/);
    expect(h.requests.length).toBe(before);
  });

  it('--ids-file: one id per line; "bad id" is one bad id; blank lines and # comments are ignored', async () => {
    const r = await h.run(['score', 'check', '--ids-file', '-', '--min', '-3'], { input: `# suppliers\n${ids[0]}\n\n  ${ids[1]}  # trailing comment\nbad id\n` });
    expect(r.code).toBe(2);
    expect(err(r)).toMatch(/1 supplier id is not a 26-character lowercase ULID: "bad id" \(stdin line 5/);
    const ok = await h.run(['score', 'check', '--ids-file', '-', '--min', '-3', '--allow-no-data', '-o', 'json'], { input: `# suppliers\n${ids[0]}\n\n  ${ids[1]}  # trailing comment\n` });
    expect(ok.code, ok.stderr).toBe(0);
    expect((JSON.parse(ok.stdout) as Rec[]).map((x) => x.supplierId)).toEqual([ids[0], ids[1]]);
    // UTF-16 with its byte order mark (PowerShell 5's >), CRLF: read as such. Without the mark: said, not NULs in ids.
    const text = `${ids[0]}\r\n${ids[1]}\r\n`;
    const le = join(h.home, 'ids-utf16le.txt');
    writeFileSync(le, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const be = join(h.home, 'ids-utf16be.txt');
    writeFileSync(be, Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]));
    for (const file of [le, be]) {
      const u = await h.run(['score', 'check', '--ids-file', file, '--min', '-3', '--allow-no-data', '-o', 'json']);
      expect(u.code, u.stderr).toBe(0);
      expect((JSON.parse(u.stdout) as Rec[]).map((x) => x.supplierId)).toEqual([ids[0], ids[1]]);
    }
    const bare = join(h.home, 'ids-utf16-nobom.txt');
    writeFileSync(bare, Buffer.from(text, 'utf16le'));
    const nb = await h.run(['score', 'check', '--ids-file', bare, '--min', '-3']);
    expect(nb.code).toBe(2);
    expect(err(nb)).toContain(`--ids-file ${bare} is not UTF-8 text (it holds NUL bytes`);
  });

  it('random well-formed ids the service does not know are unknown and fail', async () => {
    const crockford = '0123456789abcdefghjkmnpqrstvwxyz';
    const random = Array.from({ length: 300 }, () => '01' + Array.from({ length: 24 }, () => crockford[Math.floor(Math.random() * 32)]).join(''));
    const r = await h.run(['score', 'check', ...random, '--min', '0.5', '--allow-no-data', '-o', 'json']);
    expect(r.code, r.stderr).toBe(3);
    const rows = JSON.parse(r.stdout) as Array<{ status: string }>;
    expect(rows).toHaveLength(300);
    expect(rows.every((x) => x.status === 'unknown')).toBe(true);
  });

  it('--min-parameter naming a parameter no scorecard contains is exit 2 with a suggestion', async () => {
    const records = readBundle(bundlePath);
    const param = scored(records).flatMap((i) => i.policyParameterScores.filter((p) => typeof p.score.value === 'number')).at(0)!.policyParameterId;
    const typo = param.slice(0, -1) + (param.endsWith('a') ? 'b' : 'a');
    const supplier = scored(records)[0]!.supplierId;
    const r = await h.run(['score', 'check', supplier, '--min-parameter', `${typo}=0`]);
    expect(r.code, r.stderr).toBe(2);
    expect(err(r)).toContain(`"${typo}" is in no scorecard of this run`);
    expect(err(r)).toContain(`did you mean ${param}`);
    // Typed in capitals (26 edits away, case counted): the suggestion still comes.
    const upper = await runSrs(['score', 'check', '--from', bundlePath, '--allow-no-data', '--min-parameter', `${param.toUpperCase()}=0`], offline);
    expect(upper.code, upper.stderr).toBe(2);
    expect(err(upper)).toContain(`did you mean ${param}`);
    const offlineToo = await runSrs(['score', 'check', '--from', bundlePath, '--allow-no-data', '--min-parameter', `${typo}=0`], offline);
    expect(offlineToo.code, offlineToo.stderr).toBe(2);
  });
});

describe('2. baseline', () => {
  it('a fall to no data is a drop; a supplier not in the baseline is new; one missing from the run warns, or fails with --baseline-strict', async () => {
    const records = readBundle(bundlePath);
    const [a, b, c] = scored(records);
    const baseline = structuredClone(records);
    // In the baseline, b had no data (no entries) and c was not there at all (neither asked for nor answered); a had a
    // score. The baseline is recomputed by the gate, so its values are srs's recomputation of its entries.
    const bItem = results(baseline).find((i) => i.supplierId === b!.supplierId)!;
    for (const d of bItem.dataSourceScores) d.dataPoints.dataEntries = [];
    for (const p of bItem.policyParameterScores) p.dataPoints.dataEntries = [];
    const withoutC = baseline
      .filter((r) => !(r.t === 'result' && (r.item as Item).supplierId === c!.supplierId))
      .map((r) => (r.t === 'request' ? { ...r, request: { ...(r.request as { supplierIds: string[] }), supplierIds: (r.request as { supplierIds: string[] }).supplierIds.filter((id) => id !== c!.supplierId) } } : r));
    const basePath = join(h.home, 'baseline.jsonl');
    await writeConsistent(basePath, withoutC, offline);
    expect(results(readBundle(basePath)).find((i) => i.supplierId === b!.supplierId)!.score.value).toBeNull();
    const run = await h.run(['score', 'check', a!.supplierId, b!.supplierId, c!.supplierId, '--baseline', basePath, '--max-drop', '3', '-o', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const rows = JSON.parse(run.stdout) as Array<{ supplierId: string; status: string }>;
    expect(rows.find((x) => x.supplierId === c!.supplierId)!.status).toBe('new');
    expect(run.stderr).toContain(`NEW ${c!.supplierId}: not in the baseline (passes)`);
    expect(run.stderr).toMatch(/warning: (1 supplier of the baseline is|\d+ suppliers of the baseline are) not in this run/);
    const strict = await h.run(['score', 'check', a!.supplierId, b!.supplierId, c!.supplierId, '--baseline', basePath, '--max-drop', '3', '--baseline-strict', '-o', 'json']);
    expect(strict.code).toBe(3);
    expect(strict.stdout).toMatch(/in the baseline \([^)]*\) but not in this run/);
    // A baseline edited after it was saved is not compared with: the gate fails.
    const edited = join(h.home, 'baseline-edited.jsonl');
    writeFileSync(edited, readFileSync(basePath, 'utf8').replace('"claimWeight":0.5', '"claimWeight":0.4'));
    const altered = await h.run(['score', 'check', a!.supplierId, '--baseline', edited, '--max-drop', '3']);
    expect(altered.code).toBe(3);
    expect(altered.stderr).toMatch(/baseline altered/);
    // The same from stdin, where the digest is only known at the end: edited, cut short, or grown after the end record.
    const lines = readFileSync(basePath, 'utf8').trimEnd().split('\n');
    const tampered = [
      readFileSync(edited, 'utf8'),
      lines.slice(0, -1).join('\n') + '\n',
      [...lines, lines[1]].join('\n') + '\n',
    ];
    for (const input of tampered) {
      const piped = await h.run(['score', 'check', a!.supplierId, '--baseline', '-', '--max-drop', '3'], { input });
      expect(piped.code, piped.stderr).toBe(3);
      expect(piped.stderr).toMatch(/baseline altered/);
    }

    // The current bundle, with a's score gone: a fell from a value to no data.
    const current = structuredClone(records);
    const ca = results(current).find((i) => i.supplierId === a!.supplierId)!;
    ca.score.value = null;
    ca.score.policyParametersScore.value = null;
    ca.score.dataSourcesScore.value = null;
    ca.dataSourceScores = [];
    ca.policyParameterScores = [];
    const from = forge('current.jsonl', current);
    const drop = await runSrs(['score', 'check', '--from', from, '--baseline', bundlePath, '--max-drop', '3', '--allow-no-data', '-o', 'json'], offline);
    expect(drop.code, drop.stderr).toBe(3);
    expect(drop.stderr).toContain(`FAIL ${a!.supplierId}: score fell from ${Number(a!.score.value!.toFixed(9))} to no data since the baseline`);
  });
});

describe('3. numbers', () => {
  it('baseline 1.1, current 0.6, --max-drop 0.5 passes (9-decimal comparison), 0.599 fails with a message that shows why', async () => {
    const item = (supplierId: string, v: number) => ({
      supplierId,
      score: { value: v, dataSourcesScore: { value: v }, policyParametersScore: { value: null } },
      dataSourceScores: [{ dataSourceId: 'ds', score: { value: v }, dataPoints: { dataEntries: [{ id: `e-${supplierId}`, supplierId, dataSourceId: 'ds', score: { value: v }, isClaim: false }] } }],
      policyParameterScores: [],
    });
    const s = '01h58vrn1sad1y603je9gbpje8';
    const base = join(h.home, 'base-1.1.json');
    writeFileSync(base, JSON.stringify({ items: [item(s, 1.1)] }));
    const now = join(h.home, 'now-0.6.json');
    writeFileSync(now, JSON.stringify({ items: [item(s, 0.6)] }));
    const r = await runSrs(['score', 'check', '--from', now, '--allow-undigested', '--baseline', base, '--max-drop', '0.5'], offline);
    expect(r.code, r.stderr).toBe(0);
    // A baseline without a digest or a recorded service is used with --allow-undigested, but never silently.
    expect(r.stderr).toContain(`warning: --baseline ${base} carries no digest and records no service (a format-1 bundle or a raw response), taken with --allow-undigested: whether it was altered, and which service its scores came from, cannot be checked`);
    // Without --allow-undigested (here, --from a digested bundle) it is refused as --from would refuse it: exit 3.
    const refused = await runSrs(['score', 'check', '--from', bundlePath, '--baseline', base, '--max-drop', '0.5', '--allow-no-data'], offline);
    expect(refused.code, refused.stderr).toBe(3);
    expect(err(refused)).toContain('baseline not verified: cannot verify: a raw score-calculation response carries no digest');
    writeFileSync(now, JSON.stringify({ items: [item(s, 0.599)] }));
    const f = await runSrs(['score', 'check', '--from', now, '--allow-undigested', '--baseline', base, '--max-drop', '0.5'], offline);
    expect(f.code).toBe(3);
    expect(f.stderr).toContain('score fell by 0.501 since the baseline (1.1 -> 0.599), more than 0.5');
    // And the minimum: 0.49999 against 0.4999899 shows enough digits.
    writeFileSync(now, JSON.stringify({ items: [item(s, 0.4999899)] }));
    const m = await runSrs(['score', 'check', '--from', now, '--allow-undigested', '--min', '0.49999'], offline);
    expect(m.code).toBe(3);
    expect(m.stderr).toContain('score 0.4999899 is below the minimum 0.49999');
  });
});

describe('4. evidence you can trust (tamper tests)', () => {
  it('the saved bundle verifies', async () => {
    const r = await recompute(bundlePath);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('[]');
  });

  it('any edit without a new digest is "bundle altered", reported before anything is recomputed', async () => {
    const text = readFileSync(bundlePath, 'utf8');
    const path = join(h.home, 'edited.jsonl');
    writeFileSync(path, text.replace('"claimWeight":0.5', '"claimWeight":0.25'));
    const r = await recompute(path);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/bundle altered/);
    // Cut short: no end record.
    writeFileSync(path, text.split('\n').slice(0, -2).join('\n') + '\n');
    const cut = await recompute(path);
    expect(cut.code).toBe(3);
    expect(cut.stderr).toMatch(/bundle altered: its last line is not the end record/);
    // Read from stdin the digest is checked along the way, with the same finding.
    const piped = await runSrs(['score', 'recompute', '-', '--verify', '-o', 'json'], offline, { input: text.replace('"claimWeight":0.5', '"claimWeight":0.25') });
    expect(piped.code).toBe(3);
    expect(piped.stderr).toMatch(/bundle altered/);
  });

  it('adding 0.0049 to every value fails: the tolerance is 1e-9', async () => {
    const records = readBundle(bundlePath);
    for (const i of scored(records)) i.score.value = i.score.value! + 0.0049;
    const r = await recompute(forge('plus.jsonl', records));
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/recomputation differs/);
    expect(r.stderr).toMatch(/values agree within 1e-9/);
  });

  it('deleting a whole supplier is "bundle incomplete"', async () => {
    const records = readBundle(bundlePath);
    const gone = scored(records)[3]!.supplierId;
    const r = await recompute(forge('deleted.jsonl', records.filter((x) => !(x.t === 'result' && (x.item as Item).supplierId === gone))));
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('bundle incomplete: 1 requested supplier id has neither a result nor a recorded error');
    expect(r.stderr).toContain(gone);
  });

  it('another modelVersion fails unless accepted with --accept-model', async () => {
    const records = readBundle(bundlePath);
    records[0]!.modelVersion = '0.9.0';
    const path = forge('model.jsonl', records);
    const r = await recompute(path);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/model version differs: the bundle was computed with model 0\.9\.0/);
    expect((await recompute(path, '--accept-model', '0.9.0')).code).toBe(0);
    expect((await recompute(path, '--accept-model', '0.8.0')).code).toBe(3);
  });

  it('a conflicting expiry date or claim flag in a later occurrence of an entry fails, naming the entry', async () => {
    for (const field of ['expiryDate', 'isClaim'] as const) {
      const records = readBundle(bundlePath);
      const item = scored(records).find((i) => i.policyParameterScores.some((p) => p.dataPoints.dataEntries.length))!;
      const later = item.policyParameterScores.find((p) => p.dataPoints.dataEntries.length)!.dataPoints.dataEntries[0]!;
      if (field === 'expiryDate') later.expiryDate = '2099-12-31';
      else later.isClaim = !later.isClaim;
      const r = await recompute(forge(`conflict-${field}.jsonl`, records));
      expect(r.code, field).toBe(3);
      expect(r.stderr).toMatch(new RegExp(`conflicting entries: supplier ${item.supplierId}: entry ${later.id}: ${field} differ`));
    }
  });

  it('a duplicated supplier fails, naming it', async () => {
    const records = readBundle(bundlePath);
    const dup = records.find((r) => r.t === 'result')!;
    const r = await recompute(forge('dup.jsonl', [...records.slice(0, -1), dup, records.at(-1)!]));
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`supplier ${(dup.item as Item).supplierId} is listed more than once`);
  });

  it('check --from verifies the bundle first: a value raised by 0.5 does not pass --min', async () => {
    const records = readBundle(bundlePath);
    const low = scored(records).sort((x, y) => x.score.value! - y.score.value!)[0]!;
    const min = low.score.value! + 0.25;
    low.score.value = low.score.value! + 0.5;
    const path = forge('raised.jsonl', records);
    const r = await runSrs(['score', 'check', '--from', path, '--min', String(min), '--allow-no-data'], offline);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/recomputation differs: .*score check --from verifies the bundle first/);
    const unverified = await runSrs(['score', 'check', '--from', path, '--min', String(min), '--allow-no-data', '--no-verify', '-o', 'json'], offline);
    expect(unverified.stderr).toMatch(/--no-verify: .* was not verified/);
    expect((JSON.parse(unverified.stdout) as Array<{ supplierId: string; status: string }>).find((x) => x.supplierId === low.supplierId)!.status).toBe('pass');
  });
});

describe('5. formats', () => {
  it('a format-1 bundle (written by srs before format 2) is still read: recomputed, checked, used as a baseline', async () => {
    const v1 = join(ROOT, 'test/fixtures/bundles/format1.json');
    const strict = await recompute(v1);
    expect(strict.code).toBe(3);
    expect(strict.stderr).toMatch(/cannot verify: a format-1 bundle carries no digest/);
    const r = await recompute(v1, '--allow-undigested');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/recomputed 4 suppliers/);
    const check = await runSrs(['score', 'check', '--from', v1, '--allow-undigested', '--min', '-3', '--allow-no-data'], offline);
    expect(check.code, check.stderr).toBe(0);
    // As a baseline it is verified as --from is: refused without --allow-undigested (exit 3), used with it.
    const refused = await runSrs(['score', 'check', '--from', bundlePath, '--baseline', v1, '--max-drop', '6', '--allow-no-data'], offline);
    expect(refused.code, refused.stderr).toBe(3);
    expect(err(refused)).toContain('baseline not verified: cannot verify: a format-1 bundle carries no digest');
    const base = await runSrs(['score', 'check', '--from', bundlePath, '--baseline', v1, '--allow-undigested', '--max-drop', '6', '--allow-no-data', '-o', 'json'], offline);
    expect(base.code, base.stderr).toBe(0);
    expect((JSON.parse(base.stdout) as Array<{ status: string }>).filter((x) => x.status === 'new').length).toBeGreaterThan(0);
  });

  it('malformed input is exit 2 naming the line; a newer format says to upgrade', async () => {
    const records = readBundle(bundlePath);
    const path = join(h.home, 'malformed.jsonl');
    const lines = records.map((r) => JSON.stringify(r));
    lines[2] = '{"t":"result","item":';
    writeFileSync(path, lines.join('\n') + '\n');
    const r = await runSrs(['score', 'recompute', path], offline);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/malformed\.jsonl line 3: not valid JSON/);
    writeFileSync(path, JSON.stringify({ ...records[0], bundleVersion: 3 }) + '\n');
    const newer = await runSrs(['score', 'recompute', path], offline);
    expect(newer.code).toBe(2);
    expect(newer.stderr).toMatch(/format-3 bundle: this srs reads formats 1 and 2; upgrade srs/);
    // Reformatted by a tool (one pretty JSON document): still the upgrade hint, and never "format undefined".
    writeFileSync(path, JSON.stringify([{ ...records[0], bundleVersion: 3 }, ...records.slice(1)], null, 2));
    const pretty = await runSrs(['score', 'recompute', path], offline);
    expect(pretty.code).toBe(2);
    expect(pretty.stderr).toMatch(/a format-3 srs score bundle, reformatted: .*; upgrade srs$/m);
    writeFileSync(path, JSON.stringify(records, null, 2));
    const asArray = await runSrs(['score', 'check', '--from', path, '--min', '0'], offline);
    expect(asArray.code).toBe(2);
    expect(asArray.stderr).toContain('an srs score bundle of format 2 as one JSON array, reformatted or not written by srs');
    writeFileSync(path, JSON.stringify({ kind: records[0]!.kind }, null, 2));
    const bare = await runSrs(['score', 'recompute', path], offline);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('an srs score bundle without a bundleVersion');
    expect(bare.stderr).not.toContain('undefined');
  });
});

describe('7. CI summary', () => {
  it('GITHUB_STEP_SUMMARY gets counts, failing suppliers with reasons and the worst scores appended', async () => {
    const summary = join(h.home, 'summary.md');
    writeFileSync(summary, '# earlier step\n');
    const unknown = '01zzzzzzzzzzzzzzzzzzzzzzzz';
    const r = await h.run(['score', 'check', ...ids.slice(0, 10), unknown, '--min', '0', '--allow-no-data'], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(3);
    const md = readFileSync(summary, 'utf8');
    expect(md.startsWith('# earlier step\n## srs score check: ')).toBe(true);
    expect(md).toContain('| passed | new | no data | unknown | failed |');
    expect(md).toContain(`| \`${unknown}\` | unknown | — | the service does not know supplier ${unknown}`);
    expect(md).toMatch(/### Lowest \d+ scores?\n/);
  });
});
