/**
 * What a CI author found the gate passing or saying unclearly (third outside review): number options in hex, a
 * blank --min-parameter, --require-score with --allow-no-data, an empty --from, a bundle used as its own baseline,
 * a year-old bundle passing --expiring-within, the sandbox's scores and what verification cannot prove, unsaid.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtures } from '../../src/emulator/index.js';
import { baseEnv, runSrs, startWithBundle, type Harness } from './harness.js';
import { writeConsistent } from '../support/consistent-bundle.js';

type Rec = Record<string, unknown>;
interface Entry {
  id: string;
  expiryDate?: string | null;
  issueDate?: string | null;
}
interface Item {
  supplierId: string;
  dataSourceScores: Array<{ dataPoints: { dataEntries: Entry[] } }>;
  policyParameterScores: Array<{ dataPoints: { dataEntries: Entry[] } }>;
}

let h: Harness;
let bundle: string;
const ids = fixtures().suppliers.map((s) => s.id).slice(0, 3);
const readBundle = (path: string): Rec[] => readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Rec);
const err = (r: { stderr: string }) => r.stderr.replace(/\\"/g, '"');

beforeAll(async () => {
  ({ h, bundle } = await startWithBundle(ids));
});
afterAll(async () => {
  await h?.close();
});

describe('score check: what the gate is told', () => {
  it('numbers are decimal: hex, binary, octal and a blank are refused (0x5a was read as 90), exit 2 naming the option', async () => {
    for (const [flags, message] of [
      [['--min', '0x1'], '--min must be a number (got "0x1")'],
      [['--min', '0b1'], '--min must be a number (got "0b1")'],
      [['--min', '0o7'], '--min must be a number (got "0o7")'],
      [['--expiring-within', '0x5a'], '--expiring-within'],
      [['--min-parameter', `${ids[0]}= `], '--min-parameter takes ID=N'],
      [['--min-parameter', `${ids[0]}=0x1`], '--min-parameter takes ID=N'],
      [['--min-parameter', `${ids[0]}=1=2`], '--min-parameter takes ID=N'],
    ] as const) {
      const r = await h.run(['score', 'check', ids[0]!, ...flags]);
      expect(r.code, `${flags.join(' ')}: ${r.stderr}`).toBe(2);
      expect(err(r)).toContain(message);
    }
    const tol = await runSrs(['score', 'recompute', bundle, '--verify', '--tolerance', '0x1'], h.env);
    expect(tol.code).toBe(2);
    expect(err(tol)).toContain('--tolerance must be a number');
    // Decimal spellings still work: a sign, a point, an exponent, blanks around.
    const ok = await h.run(['score', 'check', ids[0]!, '--min', ' -3.0e0 ', '-o', 'json']);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('--require-score with --allow-no-data is refused (alone, the pair ran no rule and passed a supplier without a score)', async () => {
    const r = await h.run(['score', 'check', ids[0]!, '--require-score', '--allow-no-data']);
    expect(r.code).toBe(2);
    expect(err(r)).toContain('--require-score and --allow-no-data contradict each other');
  });

  it('an empty --from, --baseline or --ids-file names the option (it said ": cannot read  (no such file)")', async () => {
    for (const args of [['--from', '', '--min', '0'], ['--ids-file', '', '--min', '0'], [ids[0]!, '--baseline', '', '--max-drop', '1']]) {
      const r = await h.run(['score', 'check', ...args]);
      expect(r.code, r.stderr).toBe(2);
      expect(err(r)).toMatch(/(--from|--ids-file|--baseline): empty path; name the file to read/);
    }
    // The other commands that read a bundle or a list of ids.
    for (const args of [['score', 'explain', ids[0]!, '--from', ''], ['score', 'recompute', ''], ['score', 'calc', '--ids-file', '']]) {
      const r = await h.run(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(err(r)).toContain('empty path; name the');
      expect(err(r)).not.toContain('cannot read  (');
    }
  });

  it('a bundle given as its own baseline is said to compare every score with itself (it passed in silence)', async () => {
    const r = await h.run(['score', 'check', '--from', bundle, '--baseline', bundle, '--max-drop', '0', '--min', '-3']);
    expect(r.code, r.stderr).toBe(0);
    expect(err(r)).toContain(`warning: --baseline ${bundle} is the --from bundle itself: every score is compared with itself, so --max-drop can find no drop`);
    // A byte-identical copy too (by its digest).
    const copy = join(h.home, 'copy.jsonl');
    writeFileSync(copy, readFileSync(bundle));
    const c = await h.run(['score', 'check', '--from', bundle, '--baseline', copy, '--max-drop', '0', '--min', '-3']);
    expect(c.code, c.stderr).toBe(0);
    expect(err(c)).toContain(`warning: --baseline ${copy} holds the same content as ${bundle} (the same digest)`);
  });

  it('a year-old bundle: --expiring-within counts from today (evidence expired since passed), and its date is said in stderr, the summary and JUnit', async () => {
    // The bundle as it was calculated on 2025-06-01, one entry valid then and expiring on 2026-01-15 (before today).
    const records = readBundle(bundle);
    (records[0] as { asOf: string }).asOf = '2025-06-01';
    const first = records.find((r) => r.t === 'result')!.item as Item;
    const entryId = first.dataSourceScores[0]!.dataPoints.dataEntries[0]!.id;
    for (const rec of records) {
      if (rec.t !== 'result') continue;
      const item = rec.item as Item;
      for (const part of [...item.dataSourceScores, ...item.policyParameterScores]) {
        for (const e of part.dataPoints.dataEntries) if (e.id === entryId) Object.assign(e, { issueDate: '2025-01-01', expiryDate: '2026-01-15' });
      }
    }
    const old = join(h.home, 'old.jsonl');
    await writeConsistent(old, records, h.env);
    const junit = join(h.home, 'old.xml');
    const summary = join(h.home, 'summary.md');
    const r = await runSrs(['score', 'check', '--from', old, '--min', '-3', '--expiring-within', '90', '--junit', junit, '-o', 'json'], { ...h.env, GITHUB_STEP_SUMMARY: summary });
    expect(r.code, r.stderr).toBe(3);
    const rows = JSON.parse(r.stdout) as Array<{ supplierId: string; status: string; reasons: string[] }>;
    expect(rows.find((x) => x.supplierId === first.supplierId)!.reasons.join(' ')).toContain(`evidence has expired (entry ${entryId} on 2026-01-15`);
    const today = new Date().toISOString().slice(0, 10);
    const days = Math.round((Date.parse(today) - Date.parse('2025-06-01')) / 86_400_000);
    const said = `${old} holds scores as of 2025-06-01, ${days} days before today: the gate checks those scores, not today's (--expiring-within counts from today)`;
    expect(err(r)).toContain(said);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<property name="asOf" value="2025-06-01"/>');
    expect(xml).toContain(`<property name="source" value="${old} (calculated against ${h.emu.url})"/>`);
    expect(xml).toContain(`holds scores as of 2025-06-01, ${days} days before today`);
    // --expiring-within reads dates no recomputation checks: said too.
    expect(xml).toContain('--expiring-within reads expiry dates as');
    const md = readFileSync(summary, 'utf8');
    expect(md).toContain('As of 2025-06-01; scores from');
    expect(md).toContain('holds scores as of 2025-06-01');
    // The swapped pair (--from the old bundle, --baseline today's) is said to be backwards.
    const swapped = await h.run(['score', 'check', '--from', old, '--baseline', bundle, '--max-drop', '3', '--min', '-3']);
    expect(err(swapped)).toContain(`the baseline ${bundle} (as of ${today}) is newer than the scores checked (${old}, as of 2025-06-01)`);
  });

  it('the step summary is masked as stdout is: a key in the base URL the scores came from (a proxy path) is not published in full', async () => {
    const key = h.env.SRS_API_KEY!;
    const records = readBundle(bundle);
    (records[0] as { service: { baseUrl: string } }).service.baseUrl = `http://127.0.0.1:9/${key}`;
    const forged = join(h.home, 'keyed.jsonl');
    await writeConsistent(forged, records, h.env);
    const summary = join(h.home, 'keyed-summary.md');
    const junit = join(h.home, 'keyed.xml');
    const r = await runSrs(['score', 'check', '--from', forged, '--min', '-3', '--junit', junit], { ...h.env, GITHUB_STEP_SUMMARY: summary });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain(key);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).not.toContain(key);
    expect(xml).toContain(`****${key.slice(-4)}`);
    // In Markdown the mask's stars are escaped (they render as ****).
    const md = readFileSync(summary, 'utf8');
    expect(md).not.toContain(key);
    expect(md).toContain(`\\*\\*\\*\\*${key.slice(-4)}`);
  });

  it("the sandbox's scores checked outside the sandbox are said to be made-up data; --max-risk from a bundle says what it rests on", async () => {
    const home = join(h.home, 'sbx');
    const env = baseEnv(home);
    mkdirSync(home, { recursive: true });
    const sb = join(home, 'sandbox.jsonl');
    const saved = await runSrs(['--sandbox', 'score', 'calc', ids[0]!, '--save', sb, '-o', 'json'], env);
    expect(saved.code, saved.stderr).toBe(0);
    const r = await runSrs(['score', 'check', '--from', sb, '--min', '-3', '--max-risk', 'High'], h.env);
    expect(r.code, r.stderr).toBe(0);
    expect(err(r)).toContain(`${sb} holds the sandbox's scores (calculated with --sandbox, on made-up data), not a service's`);
    expect(err(r)).toContain(`--max-risk reads risk levels as ${sb} records them: verification recomputes the values from the bundle's own entries, not these`);
    // Checked as a rehearsal in the sandbox itself: nothing to say about the source.
    const inSandbox = await runSrs(['--sandbox', 'score', 'check', '--from', sb, '--min', '-3'], env);
    expect(inSandbox.code, inSandbox.stderr).toBe(0);
    expect(err(inSandbox)).not.toContain("holds the sandbox's scores");
  });
});
