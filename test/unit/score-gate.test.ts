/**
 * The rules of `srs score check` (src/commands/score/evaluate.ts) and the
 * numbers they compare (src/scoring/labels.ts): each bypass of issue 17 that a
 * pure function can show, the step summary, and the model's named departures.
 */
import { describe, expect, it } from 'vitest';
import type { ScoreResult } from '../../src/api/contract.js';
import { evaluate, missingFromRun, type CheckRules } from '../../src/commands/score/evaluate.js';
import { resultIndex } from '../../src/commands/score/calc.js';
import { checkBaselineService } from '../../src/commands/score/check.js';
import { githubAnnotation, junitReport, markdownSummary } from '../../src/commands/score/junit.js';
import {
  COMPARE_DIGITS,
  FALLBACK_PARAMETER_WEIGHT,
  PUBLISHED_SCORE_LABELS,
  SCORE_LABELS,
  ZERO_WEIGHT_EXCLUDES_ITEM,
  comparable,
  digitsToShow,
  scoreSupplier,
  showNumber,
} from '../../src/scoring/index.js';
import { isUlid, whyNotUlid } from '../../src/util/ulid.js';

const rules = (r: Partial<CheckRules> = {}): CheckRules => ({ minParameter: new Map(), allowNoData: false, asOf: '2025-01-15', ...r });

/** A score result; `value: undefined` leaves the field out, as a service may for "no data". */
function item(supplierId: string, value: number | null | undefined, params: Record<string, number | null | undefined> = {}, risk: string | null = null): ScoreResult {
  const score: Record<string, unknown> = { dataSourcesScore: { value: null }, policyParametersScore: { value: null } };
  if (value !== undefined) score.value = value;
  return {
    supplierId,
    score,
    dataSourceScores: [],
    policyParameterScores: Object.entries(params).map(([policyParameterId, v]) => ({
      policyParameterId,
      score: v === undefined ? {} : { value: v },
      dataPoints: { dataEntries: [], risk: { riskLevel: risk, riskEntries: [] } },
    })),
  } as unknown as ScoreResult;
}

describe('score check fails closed', () => {
  it('no data fails unless --allow-no-data, whether the value is null or absent', () => {
    for (const v of [null, undefined]) {
      const r = evaluate(item('s', v), rules({ min: 0.5 }));
      expect(r.status).toBe('fail');
      expect(r.reasons.join()).toMatch(/no score .*--allow-no-data/);
      expect(evaluate(item('s', v), rules({ min: 0.5, allowNoData: true })).status).toBe('no data');
    }
  });

  it('a named parameter without a score fails unless --allow-no-data', () => {
    const rs = rules({ minParameter: new Map([['p1', 0]]) });
    expect(evaluate(item('s', 1, { p2: 1 }), rs).status).toBe('fail');
    expect(evaluate(item('s', 1, { p1: null }), rs).status).toBe('fail');
    expect(evaluate(item('s', 1, { p1: undefined }), rs).reasons.join()).toMatch(/parameter p1 has no score/);
    expect(evaluate(item('s', 1, { p1: null }), { ...rs, allowNoData: true }).status).toBe('no data');
    expect(evaluate(item('s', 1, { p1: 0.1 }), rs).status).toBe('pass');
  });

  it('--max-risk without a risk level cannot be evaluated: fails unless --allow-no-data', () => {
    expect(evaluate(item('s', 1, { p: 1 }), rules({ maxRisk: 'High' })).status).toBe('fail');
    expect(evaluate(item('s', 1, { p: 1 }, 'Low'), rules({ maxRisk: 'High' })).status).toBe('pass');
  });

  it('baseline: a fall to no data is a drop; a supplier not in the baseline is new and passes', () => {
    const baseline = new Map<string, number | null>([['a', 2.5], ['b', null]]);
    const r = evaluate(item('a', null), rules({ baseline, maxDrop: 0.5, allowNoData: true }));
    expect(r.status).toBe('fail');
    expect(r.reasons).toContain('score fell from 2.5 to no data since the baseline');
    const fresh = evaluate(item('c', 1), rules({ baseline, maxDrop: 0.5 }));
    expect(fresh.status).toBe('new');
    expect(fresh.reasons).toEqual(['new: not in the baseline']);
    expect(evaluate(item('b', 1), rules({ baseline, maxDrop: 0.5 })).status).toBe('pass');
    expect(missingFromRun('z', 1.25).reasons[0]).toMatch(/in the baseline \(1\.25\) but not in this run/);
  });

  it('baseline 1.1, current 0.6, --max-drop 0.5 passes: comparisons use 9 decimals', () => {
    expect(1.1 - 0.6).not.toBe(0.5);
    const baseline = new Map([['a', 1.1]]);
    expect(evaluate(item('a', 0.6), rules({ baseline, maxDrop: 0.5 })).status).toBe('pass');
    const r = evaluate(item('a', 0.599), rules({ baseline, maxDrop: 0.5 }));
    expect(r.status).toBe('fail');
    expect(r.reasons[0]).toBe('score fell by 0.501 since the baseline (1.1 -> 0.599), more than 0.5');
  });

  it('messages never contradict the verdict ("0.5 is below the minimum 0.49999")', () => {
    const r = evaluate(item('s', 0.499996), rules({ min: 0.49999 }));
    expect(r.status).toBe('pass');
    const f = evaluate(item('s', 0.4999899), rules({ min: 0.49999 }));
    expect(f.status).toBe('fail');
    expect(f.reasons[0]).toBe('score 0.4999899 is below the minimum 0.49999');
    // A value equal at 9 decimals is not below.
    expect(evaluate(item('s', 0.5 - 1e-12), rules({ min: 0.5 })).status).toBe('pass');
  });

  it('digitsToShow keeps the order of a value and its threshold visible', () => {
    expect(COMPARE_DIGITS).toBe(9);
    expect(comparable(1.1 - 0.6)).toBe(0.5);
    for (let k = 0; k < 2000; k++) {
      const t = Math.round(Math.random() * 6e5 - 3e5) / 1e5;
      const v = t + (Math.random() - 0.5) * 10 ** -Math.floor(Math.random() * 9);
      const d = digitsToShow(v, t);
      const shown = Number(showNumber(v, d));
      expect(Math.sign(shown - comparable(t)), `${v} vs ${t} at ${d}`).toBe(Math.sign(comparable(v) - comparable(t)));
    }
  });
});

describe('ids', () => {
  it('26-character lowercase ULIDs only, with the reason', () => {
    expect(isUlid('01h58vrn1sad1y603je9gbpje8')).toBe(true);
    expect(isUlid('01zzzzzzzzzzzzzzzzzzzzzzzz')).toBe(true);
    for (const bad of ['typo', '01H58VRN1SAD1Y603JE9GBPJE8', '01h58vrn1sad1y603je9gbpjeu', '81h58vrn1sad1y603je9gbpje8', 'bad id', '']) expect(isUlid(bad), bad).toBe(false);
    expect(whyNotUlid('01H58VRN1SAD1Y603JE9GBPJE8')).toMatch(/lowercase/);
    expect(whyNotUlid('01h58vrn1sad1y603je9gbpjeu')).toMatch(/"u" is not a Crockford/);
  });
});

describe('GitHub step summary', () => {
  it('counts, failing suppliers with reasons, the lowest scores; Markdown-safe', () => {
    const results = [
      { supplierId: 'a', status: 'pass' as const, score: 2, riskLevel: null, riskRecognised: null, reasons: [] },
      { supplierId: 'b', status: 'fail' as const, score: -1, riskLevel: null, riskRecognised: null, reasons: ['score -1 is below the minimum 0 | x'] },
      { supplierId: 'c', status: 'unknown' as const, score: null, riskLevel: null, riskRecognised: null, reasons: ['the service does not know supplier c'] },
      { supplierId: 'd', status: 'new' as const, score: 0.5, riskLevel: null, riskRecognised: null, reasons: ['new: not in the baseline'] },
    ];
    const md = markdownSummary(results, { asOf: '2025-01-15', warnings: ['w <b>'], worst: 2 });
    // An unknown supplier is counted as unknown, not as failed.
    expect(md).toMatch(/^## srs score check: 1 of 4 failed, 1 of 4 unknown \(not evaluated\)$/m);
    expect(md).toContain('| 1 | 1 | 0 | 1 | 1 |');
    expect(md).toContain('| `b` | fail | -1 | score -1 is below the minimum 0 \\| x |');
    expect(md).toContain('| `c` | unknown | — | the service does not know supplier c |');
    expect(md).toMatch(/### Lowest 2 scores\n\n\| supplier \| score \| status \|\n\|---\|---:\|---\|\n\| `b` \| -1 \| fail \|\n\| `d` \| 0.5 \| new \|/);
    expect(md).toContain('- w &lt;b>');
  });

  it('service text is text: no link, image or emphasis from a risk level, no code span broken by an id', () => {
    const results = [
      { supplierId: 'x`[y](https://evil.example)`', status: 'unknown' as const, score: null, riskLevel: null, riskRecognised: null, reasons: ['risk level "[Approve: see runbook](https://example.invalid/x) ![i](https://example.invalid/p.png) *b* ~s~" is not one srs knows'] },
    ];
    const md = markdownSummary(results, { asOf: '2025-01-15', warnings: [] });
    expect(md).toContain('\\[Approve: see runbook\\](https&#58;//example.invalid/x) !\\[i\\](https&#58;//example.invalid/p.png) \\*b\\* \\~s\\~');
    // No autolink (a bare URL or www.), no entity decoded.
    const auto = markdownSummary([{ ...results[0]!, reasons: ['see www.evil.example/ok and https://evil.example/a?b=1 &#91;x&#93; &#x202E;'] }], { asOf: '2025-01-15', warnings: [] });
    expect(auto).toContain('see www&#46;evil.example/ok and https&#58;//evil.example/a?b=1 &amp;#91;x&amp;#93; &amp;#x202E;');
    expect(md).not.toMatch(/(^|[^\\])\[Approve/);
    // The id stays inside its code span: a backtick in it is replaced, so the span cannot end early.
    expect(md).toContain("| `x'[y](https://evil.example)'` | unknown |");
  });

  it('says "all passed" only when every supplier passed: one without data (accepted) is not a pass', () => {
    const pass = { supplierId: 'a', status: 'pass' as const, score: 2, riskLevel: null, riskRecognised: null, reasons: [] };
    const noData = { supplierId: 'b', status: 'no data' as const, score: null, riskLevel: null, riskRecognised: null, reasons: ['no score'] };
    expect(markdownSummary([pass], { asOf: '2025-01-15', warnings: [] })).toMatch(/^## srs score check: all 1 passed$/m);
    expect(markdownSummary([noData], { asOf: '2025-01-15', warnings: [] })).toMatch(/^## srs score check: 0 of 1 passed, 1 without data \(accepted with --allow-no-data\)$/m);
  });
});

describe('departures from the public methodology, by name', () => {
  it('the labels the service publishes are the two ends of the scale, and ours agree with them', () => {
    expect(PUBLISHED_SCORE_LABELS).toEqual({ '-3': 'very poor', '3': 'very good' });
    expect(SCORE_LABELS['-3']).toBe(PUBLISHED_SCORE_LABELS['-3']);
    expect(SCORE_LABELS['3']).toBe(PUBLISHED_SCORE_LABELS['3']);
  });

  it('a zero weight excludes the item; no applicable scorecard weighs every parameter FALLBACK_PARAMETER_WEIGHT', () => {
    expect(ZERO_WEIGHT_EXCLUDES_ITEM).toBe(true);
    expect(FALLBACK_PARAMETER_WEIGHT).toBe(1);
    const entries = [{ id: 'e', supplierId: 's', dataSourceId: 'd', score: 1, isClaim: false, parameterScores: [{ policyParameterId: 'p', score: 2 }, { policyParameterId: 'q', score: -1 }] }];
    const cards = [{ id: 'c', items: [{ policyParameterId: 'p', weight: 0 }, { policyParameterId: 'q', weight: 0 }] }];
    const r = scoreSupplier('s', entries, cards, { asOf: '2025-01-01' });
    expect(r.parameters.map((p) => p.weight)).toEqual([FALLBACK_PARAMETER_WEIGHT, FALLBACK_PARAMETER_WEIGHT]);
    expect(r.value).toBe(0.5);
  });
});

describe('githubAnnotation', () => {
  it('is one workflow-command line, its properties escaped, with no terminal escape or control from the service', () => {
    const line = githubAnnotation({
      supplierId: '01h58vrn1sad1y603je9gbpje8',
      status: 'fail',
      score: 0.2,
      riskLevel: null,
      riskRecognised: null,
      reasons: ['parameter "\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007, 100%\r\n::warning::fake" has 0.2 < 0.5', 'second\u202ereason'],
    });
    expect(line.split('\n')).toHaveLength(1);
    expect(line.startsWith('::error title=srs score check%3A 01h58vrn1sad1y603je9gbpje8::')).toBe(true);
    expect(line).not.toMatch(/[\u0000-\u001f\u007f\u202e]/);
    expect(line).toContain('100%25');
    expect(line).toContain('second\\u202ereason');
    // The runner reads a workflow command only at the start of a line: the injected one stays text.
    expect(line).toMatch(/ {2}::warning::fake" has 0\.2 < 0\.5; second/);
  });
});

describe('--expiring-within reads an expiry timestamp as its calendar date (issue 17, finding 11)', () => {
  const withExpiry = (expiryDate: string) => {
    const it = item('s', 1) as unknown as { dataSourceScores: unknown[] };
    it.dataSourceScores = [{ dataSourceId: 'd', score: { value: 1 }, dataPoints: { dataEntries: [{ id: 'e1', supplierId: 's', dataSourceId: 'd', score: { value: 1 }, isClaim: false, expiryDate }] } }];
    return it as unknown as ScoreResult;
  };
  it('"2026-12-04T00:00:00Z" fails like "2026-12-04" 10 days after 2026-11-24; a date it cannot read is unknown', () => {
    const r = rules({ asOf: '2026-11-24', expiringWithinDays: 10 });
    for (const d of ['2026-12-04', '2026-12-04T00:00:00Z', '2026-12-04T23:59:59+05:00']) {
      const v = evaluate(withExpiry(d), r);
      expect(v.status, d).toBe('fail');
      expect(v.reasons[0]).toBe('evidence expires within 10 days (entry e1 on 2026-12-04)');
    }
    expect(evaluate(withExpiry('2026-12-05T00:00:00Z'), r).status).toBe('pass');
    // Already expired: still a failure of the window, said as what it is (not "expires within 10 days").
    const past = evaluate(withExpiry('2025-01-01'), r);
    expect(past.status).toBe('fail');
    expect(past.reasons[0]).toBe('evidence has expired (entry e1 on 2025-01-01, and --expiring-within counts expired evidence too)');
    const odd = evaluate(withExpiry('next week'), r);
    expect(odd.status).toBe('unknown');
    expect(odd.reasons[0]).toMatch(/an expiry date that is not a calendar date: entry e1 \("next week"\)/);
  });
});

describe('resultIndex (score calc: which result belongs to which requested id)', () => {
  it('compares only repeated results, and names an id without one or with two that differ', () => {
    const compared: Array<[number, number]> = [];
    const bodies = ['a', 'b', 'c1', 'c2', 'd', 'd'];
    const same = (j: number, k: number) => {
      compared.push([j, k]);
      return bodies[j] === bodies[k];
    };
    const out = resultIndex({ supplierIds: ['A', 'B', 'C', 'D', 'E'] }, ['A', 'B', 'C', 'C', 'D', 'D'], same);
    expect(out.get('A')).toBe(0);
    expect(out.get('B')).toBe(1);
    expect(out.get('C')).toMatch(/2 different results for supplier C/);
    expect(out.get('D')).toBe(4);
    expect(out.get('E')).toMatch(/no result for supplier E/);
    // A lone result is never serialised to be compared with itself (the cost this guards: 8% of calc --save's CPU).
    expect(compared.every(([j, k]) => j !== k)).toBe(true);
    expect(compared.some(([j]) => j === 0 || j === 1)).toBe(false);
  });
});

describe('checkBaselineService (a baseline from another service or key)', () => {
  const here = { baseUrl: 'https://api.example.com', account: 'aaaaaaaaaaaa' };
  it('refuses another base URL, warns about another key, and compares nothing it does not know', () => {
    const warnings: string[] = [];
    expect(() => checkBaselineService({ baseUrl: 'https://staging.example.com', account: 'aaaaaaaaaaaa' }, here, '--baseline b.jsonl', warnings)).toThrow(
      /--baseline b.jsonl was calculated against https:\/\/staging.example.com, this run's scores come from https:\/\/api.example.com/,
    );
    checkBaselineService({ baseUrl: 'https://api.example.com', account: 'bbbbbbbbbbbb' }, here, '--baseline b.jsonl', warnings);
    expect(warnings).toEqual([expect.stringMatching(/saved with another API key \(fingerprint bbbbbbbbbbbb, this run aaaaaaaaaaaa\)/)]);
    // A sandbox bundle (null) against a real service, either way round: another service.
    expect(() => checkBaselineService({ baseUrl: null, account: null }, here, '--baseline b.jsonl', warnings)).toThrow(/calculated against the sandbox, this run's scores come from https/);
    expect(() => checkBaselineService(here, { baseUrl: null, account: null }, '--baseline b.jsonl', warnings)).toThrow(/come from the sandbox/);
    // A raw response records no service: nothing to compare.
    checkBaselineService({ baseUrl: null, account: null, recorded: false }, here, '--baseline b.jsonl', warnings);
    checkBaselineService({ baseUrl: null, account: null }, { baseUrl: null, account: null }, '--baseline b.jsonl', warnings);
    checkBaselineService({ baseUrl: 'https://api.example.com', account: null }, here, '--baseline b.jsonl', warnings);
    expect(warnings).toHaveLength(1);
  });
});

describe('junitReport', () => {
  it('a supplier that could not be evaluated is an <error>, a failed threshold a <failure>, no data <skipped>', () => {
    const xml = junitReport(
      [
        { supplierId: 'p', status: 'pass', score: 1, riskLevel: null, riskRecognised: null, reasons: [] },
        { supplierId: 'f', status: 'fail', score: -1, riskLevel: null, riskRecognised: null, reasons: ['score -1 is below the minimum 0'] },
        { supplierId: 'u', status: 'unknown', score: null, riskLevel: null, riskRecognised: null, reasons: ['the service does not know supplier u'] },
        { supplierId: 'n', status: 'no data', score: null, riskLevel: null, riskRecognised: null, reasons: ['no score'] },
      ] as never,
      { timestamp: '2026-11-24T00:00:00Z', seconds: 1 },
    );
    expect(xml).toMatch(/<testsuites [^>]*tests="4" failures="1" errors="1" skipped="1"/);
    expect(xml).toContain('<testcase classname="srs.score" name="u" time="0"><error message="the service does not know supplier u" type="unknown">');
    expect(xml).toContain('<testcase classname="srs.score" name="f" time="0"><failure message="score -1 is below the minimum 0" type="score-check">');
  });
});

describe('evaluate: a score outside -3..+3', () => {
  it('is unknown, never a pass, overall or for a parameter', () => {
    const item = { supplierId: 's', score: { value: 99, dataSourcesScore: { value: 99 }, policyParametersScore: { value: 99 } }, dataSourceScores: [], policyParameterScores: [] } as unknown as ScoreResult;
    const r = evaluate(item, { minParameter: new Map(), allowNoData: false, asOf: '2026-11-24', min: 2 } as CheckRules);
    expect(r.status).toBe('unknown');
    expect(r.reasons.join(' ')).toMatch(/score 99 is outside the scale -3\.\.\+3/);
    const ok = evaluate({ ...item, score: { value: 2.5, dataSourcesScore: { value: 2.5 }, policyParametersScore: { value: 2.5 } } } as unknown as ScoreResult, { minParameter: new Map(), allowNoData: false, asOf: '2026-11-24', min: 2 } as CheckRules);
    expect(ok.status).toBe('pass');
  });
});
