/** Bars, the score picture and the HTML report as pure functions (issue #19 items 7 and 8). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ASCII, UNICODE, divergingBar, divergingScale, fitText, glyphsFor, isUtf8Locale, magnitudeBar, paintDiverging, textWidth } from '../../src/output/bars.js';
import type { Explanation } from '../../src/output/explanation.js';
import { esc, histogram, renderHtmlReport } from '../../src/output/html-report.js';
import { renderScorePicture } from '../../src/output/score-picture.js';
import { totalsPerYear, renderYearBars } from '../../src/output/year-bars.js';

const joined = (b: { left: string; axis: string; right: string }) => b.left + b.axis + b.right;

describe('locale', () => {
  it('is UTF-8 from the first non-empty of LC_ALL, LC_CTYPE, LANG; no locale is ASCII', () => {
    expect(isUtf8Locale({ LANG: 'en_US.UTF-8' })).toBe(true);
    expect(isUtf8Locale({ LANG: 'C.utf8' })).toBe(true);
    expect(isUtf8Locale({})).toBe(false);
    expect(isUtf8Locale({ LANG: 'C' })).toBe(false);
    expect(isUtf8Locale({ LC_ALL: 'C', LANG: 'en_US.UTF-8' })).toBe(false);
    expect(isUtf8Locale({ LC_ALL: '', LC_CTYPE: 'de_DE.UTF-8', LANG: 'C' })).toBe(true);
    expect(glyphsFor({ LANG: 'en_US.UTF-8' }, false)).toBe(UNICODE);
    expect(glyphsFor({ LANG: 'en_US.UTF-8' }, true)).toBe(ASCII);
  });
});

describe('divergingBar', () => {
  it('is always 2*half+1 cells, with the axis in the middle and the fill on the side of the sign', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double({ min: -5, max: 5, noNaN: true }), fc.constant(null)), fc.integer({ min: 1, max: 20 }), fc.boolean(), (v, half, ascii) => {
        const g = ascii ? ASCII : UNICODE;
        const b = divergingBar(v, half, g);
        expect([...b.left].length).toBe(half);
        expect([...b.right].length).toBe(half);
        expect(b.axis).toBe(g.axis);
        if (v === null || v === 0) expect(b.left + b.right).toBe(g.track.repeat(2 * half));
        else if (v < 0) expect(b.right).toBe(g.track.repeat(half));
        else expect(b.left).toBe(g.track.repeat(half));
      }),
    );
  });

  it('fills the whole side at the ends of the scale and half of it at ±1.5', () => {
    expect(joined(divergingBar(-3, 4, UNICODE))).toBe('████│····');
    expect(joined(divergingBar(3, 4, UNICODE))).toBe('····│████');
    expect(joined(divergingBar(1.5, 4, UNICODE))).toBe('····│██··');
    expect(joined(divergingBar(-0.375, 4, UNICODE))).toBe('···▐│····');
    expect(joined(divergingBar(0.375, 4, UNICODE))).toBe('····│▌···');
    expect(joined(divergingBar(-2, 3, ASCII))).toBe(' ##|   ');
    expect(joined(divergingBar(9, 3, ASCII))).toBe('   |###');
  });

  it('paints only the filled cells', () => {
    const paint = { neg: (s: string) => `<r>${s}</r>`, pos: (s: string) => `<g>${s}</g>` };
    expect(paintDiverging(divergingBar(-1.5, 4, UNICODE), -1.5, paint, UNICODE)).toBe('··<r>██</r>│····');
    expect(paintDiverging(divergingBar(1.5, 4, UNICODE), 1.5, paint, UNICODE)).toBe('····│<g>██</g>··');
    expect(paintDiverging(divergingBar(null, 2, UNICODE), null, paint, UNICODE)).toBe('··│··');
  });

  it('has a scale line that puts 0 under the axis', () => {
    const s = divergingScale(8);
    expect(s.length).toBe(17);
    expect(s[8]).toBe('0');
    expect(s.startsWith('-3')).toBe(true);
    expect(s.endsWith('+3')).toBe(true);
  });
});

describe('magnitudeBar and text fitting', () => {
  it('scales to the maximum, in eighths with Unicode and whole cells with ASCII', () => {
    expect(magnitudeBar(10, 10, 5, UNICODE)).toBe('█████');
    expect(magnitudeBar(5, 10, 5, UNICODE)).toBe('██▌');
    expect(magnitudeBar(5, 10, 5, ASCII)).toBe('###');
    expect(magnitudeBar(0.0001, 10, 5, ASCII)).toBe('#');
    expect(magnitudeBar(0, 10, 5, ASCII)).toBe('');
  });

  it('cuts by display width, wide characters counting two', () => {
    expect(fitText('Freedom of association', 10, UNICODE)).toBe('Freedom o…');
    expect(textWidth(fitText('日本語の名前です', 7, UNICODE))).toBeLessThanOrEqual(7);
    expect(fitText('short', 10, ASCII)).toBe('short');
  });
});

describe('emission totals per year', () => {
  const reports = [
    { fromDate: '2022-01-01T00:00:00.000Z', value: 10, unit: 'tCO2e' },
    { fromDate: '2022-01-01T00:00:00.000Z', value: 5.5, unit: 'tCO2e' },
    { fromDate: '2023-01-01T00:00:00.000Z', value: 20, unit: 'tCO2e' },
    { fromDate: '2023-01-01T00:00:00.000Z', value: 3, unit: 'MWh' },
    { fromDate: 'not a date', value: 1, unit: 'tCO2e' },
  ];

  it('sums per UTC year and unit, and counts what it leaves out', () => {
    const { totals, skipped } = totalsPerYear(reports);
    expect(skipped).toBe(1);
    expect(totals).toEqual([
      { year: 2023, unit: 'MWh', total: 3, reports: 1 },
      { year: 2022, unit: 'tCO2e', total: 15.5, reports: 2 },
      { year: 2023, unit: 'tCO2e', total: 20, reports: 1 },
    ]);
  });

  it('draws one line per year within the width, the largest total filling the bar, one chart per unit', () => {
    const text = renderYearBars(totalsPerYear(reports).totals, UNICODE, 60, { bold: (s) => s });
    const lines = text.trimEnd().split('\n');
    // Units are never drawn on one scale (500,000 kgCO2e was drawn longer than 1,200 tCO2e).
    expect(lines[0]).toBe('Totals per year (MWh)');
    expect(lines[1]).toMatch(/^2023 +█+ +3 MWh$/);
    expect(lines[2]).toBe('');
    expect(lines[3]).toBe('Totals per year (tCO2e)');
    expect(lines).toHaveLength(6);
    for (const l of lines) expect(textWidth(l)).toBeLessThanOrEqual(60);
    expect(lines[5]).toMatch(/^2023 +█+ +20 tCO2e$/);
    const one = renderYearBars(totalsPerYear(reports).totals.filter((t) => t.unit === 'tCO2e'), UNICODE, 60, { bold: (s) => s });
    expect(one.split('\n')[0]).toBe('Totals per year');
  });

  it('draws a negative total by its size in its own glyph, named in the title; a tiny total is not printed as 0', () => {
    const signed = [
      { fromDate: '2021-01-01T00:00:00Z', value: 500, unit: 't' },
      { fromDate: '2021-06-01T00:00:00Z', value: -800, unit: 't' },
      { fromDate: '2022-01-01T00:00:00Z', value: 300, unit: 't' },
      { fromDate: '2023-01-01T00:00:00Z', value: 0.001, unit: 't' },
    ];
    const lines = renderYearBars(totalsPerYear(signed).totals, UNICODE, 60, { bold: (s) => s }).trimEnd().split('\n');
    expect(lines[0]).toBe('Totals per year ░ below zero');
    // -300 is the largest size: it fills the bar; 300 the same length in the other glyph.
    const fill = (l: string) => /^\d{4} +([█░]+)/.exec(l)?.[1]?.length ?? 0;
    expect(lines[1]).toMatch(/^2021 +░+ +-300 t$/);
    expect(lines[2]).toMatch(/^2022 +█+ +300 t$/);
    expect(fill(lines[1]!)).toBe(fill(lines[2]!));
    expect(lines[3]).toMatch(/^2023 +▏ +0\.001 t$/);
    const ascii = renderYearBars(totalsPerYear(signed).totals, ASCII, 60, { bold: (s) => s });
    expect(ascii).toMatch(/^2021 +-+ +-300 t$/m);
  });

  it('a long unit is cut, never a number, and only in its own chart (one long unit erased every total at 80 columns)', () => {
    const long = 'tonnes of carbon dioxide equivalent as reported under the supplier protocol v2';
    const reports = [
      { fromDate: '2022-01-01T00:00:00Z', value: 8495.4, unit: 'tCO2e' },
      { fromDate: '2023-01-01T00:00:00Z', value: 9100.2, unit: 'tCO2e' },
      { fromDate: '2023-01-01T00:00:00Z', value: 1.79e308, unit: long },
    ];
    const lines = renderYearBars(totalsPerYear(reports).totals, UNICODE, 80, { bold: (s) => s }).trimEnd().split('\n');
    for (const l of lines) expect(textWidth(l)).toBeLessThanOrEqual(80);
    expect(lines.find((l) => l.startsWith('2022'))).toMatch(/ 8,495\.4 tCO2e$/);
    expect(lines.filter((l) => l.startsWith('2023')).some((l) => / 9,100\.2 tCO2e$/.test(l))).toBe(true);
    // The huge total is whole; its unit is what gives way.
    const huge = lines.filter((l) => l.startsWith('2023')).find((l) => !l.includes('tCO2e'))!;
    expect(huge).toContain(' 1.79e+308 ');
    expect(huge).toMatch(/…$/);
    // Below 10^21 too, where String() still writes every digit.
    const big = renderYearBars(totalsPerYear([{ fromDate: '2023-01-01T00:00:00Z', value: 1.5e20, unit: 'kgCO2e' }]).totals, UNICODE, 80, { bold: (s) => s });
    expect(big).toMatch(/ 1\.5e\+20 kgCO2e$/m);
  });
});

const explanation = (over: Partial<Explanation> = {}): Explanation => ({
  supplierId: 'sup1',
  asOf: '2026-01-01',
  modelVersion: '1.0.0',
  score: { value: -1.5, label: 'below average', dataSourcesScore: -1, policyParametersScore: -1.5, riskLevel: 'High', riskRecognised: true },
  model: { value: -1.5, agrees: true, differences: [] },
  scorecards: [
    {
      scorecardId: 'card1',
      name: 'Baseline',
      weight: 1,
      score: -1.5,
      label: 'below average',
      parameters: [
        { policyParameterId: 'p1', name: 'GHG emissions', weight: 5, score: 1.5, label: 'good', riskLevel: null, riskRecognised: null, entries: 2, expiringEntries: 1 },
        { policyParameterId: 'p2', name: null, weight: 2, score: null, label: 'no data', riskLevel: null, riskRecognised: null, entries: 0, expiringEntries: 0 },
      ],
    },
  ],
  otherParameters: [],
  dataSources: [{ dataSourceId: 'ds1', name: 'Northwind', score: -3, label: 'very poor', entries: 1 }],
  conflicts: [],
  expiring: { withinDays: 30, entries: [{ entryId: 'e1', dataSourceId: 'ds1', dataSourceName: 'Northwind', expiryDate: '2026-01-11', daysLeft: 10, status: 'expiring', isClaim: true, policyParameterIds: ['p1'] }] },
  ...over,
});

describe('renderScorePicture', () => {
  const plain = { bold: (s: string) => s, red: (s: string) => s, green: (s: string) => s, yellow: (s: string) => s, dim: (s: string) => s };

  it('shows names (ids when unnamed), weights, scores, entry counts and the expiring evidence, within the width', () => {
    for (const width of [80, 120]) {
      const text = renderScorePicture(explanation(), { glyphs: UNICODE, paint: plain, width });
      for (const line of text.split('\n')) expect(textWidth(line), line).toBeLessThanOrEqual(width);
      expect(text).toMatch(/Overall score +-1\.50 +·*█+│/);
      expect(text).toMatch(/ {4}GHG emissions +5 +1\.50 +·+│█+·* +2 entries +!/);
      expect(text).toMatch(/ {4}p2 +2 +— +·+│·+ +0 entries/);
      // The scorecard's own weight (which the model does not use) is not shown beside its score.
      expect(text).toMatch(/^Baseline +-1\.50 /m);
      expect(text).toContain('Northwind');
      expect(text).toMatch(/e1 +expires 2026-01-11 \(in 10 days\) +Northwind +\(claim\)/);
    }
  });

  it('stays within 80 columns with real ids, the longest label and a long source name (cut with an ellipsis)', () => {
    const long = 'Quarry Lane Safety Records and Certification Archive International';
    const x = explanation({
      expiring: {
        withinDays: 400,
        entries: [{ entryId: '01h5994zk4r6m3vjp0jswxv6dx', dataSourceId: 'ds1', dataSourceName: long, expiryDate: '2027-11-07', daysLeft: 348, status: 'expiring', isClaim: false, policyParameterIds: ['p1'] }],
      },
    });
    // A claim, and a risk level of the service's that is long and unrecognised.
    x.expiring.entries.push({ entryId: '01hk3s8pa1x4ge2kc4sc91dhv8', dataSourceId: 'ds1', dataSourceName: 'Beacon Grievance Mechanism Reports', expiryDate: '2027-06-15', daysLeft: 203, status: 'expiring', isClaim: true, policyParameterIds: ['p1'] });
    x.score.riskLevel = 'Extreme beyond any level the methodology describes (unrecognised)';
    x.scorecards[0]!.parameters[0]!.riskLevel = 'Extreme beyond any level the methodology describes';
    x.scorecards[0]!.parameters[0]!.riskRecognised = false;
    for (const width of [80, 100]) {
      const text = renderScorePicture(x, { glyphs: UNICODE, paint: plain, width });
      for (const line of text.split('\n')) expect(textWidth(line), line).toBeLessThanOrEqual(width);
      expect(text).toMatch(/Overall score .* below average$/m);
      expect(text).toMatch(/01h5994zk4r6m3vjp0jswxv6dx +expires 2027-11-07 \(in 348 days\) +Quarry Lane.*…$/m);
    }
  });

  it('the heading line keeps to the width: the supplier\'s risk goes on a line of its own when it does not fit beside it', () => {
    const x = explanation({ supplierId: '01h5994zk4r6m3vjp0jswxv6dx' });
    for (const width of [60, 66, 80]) {
      const lines = renderScorePicture(x, { glyphs: UNICODE, paint: plain, width }).split('\n');
      expect(textWidth(lines[0]!), `${width}: ${lines[0]}`).toBeLessThanOrEqual(width);
      expect(lines.slice(0, 2).join('\n'), `${width}`).toContain(`risk ${x.score.riskLevel}`);
    }
  });

  it('headings stay over their columns at any width (a long title is cut like the names), and wide pictures head the LABEL column', () => {
    for (const width of [60, 62, 70, 80, 130]) {
      const lines = renderScorePicture(explanation(), { glyphs: UNICODE, paint: plain, width }).split('\n');
      const heading = lines.find((l) => l.startsWith('SCORECARD'))!;
      const row = lines.find((l) => /^ {4}GHG emissions/.test(l) || /^ {4}GHG emi/.test(l))!;
      // The 0 of the scale sits over the axis of every bar, and WEIGHT ends where the weights end.
      expect(heading.indexOf(' 0 ') + 1, `${width}:\n${heading}\n${row}`).toBe(row.indexOf('│'));
      expect(heading.indexOf('WEIGHT') + 'WEIGHT'.length, `${width}`).toBe(row.indexOf(' 5 ') + 2);
      if (width >= 120) expect(heading.indexOf('LABEL'), `${width}`).toBe(row.lastIndexOf('  ') + 2);
      else expect(heading).not.toContain('LABEL');
    }
  });

  it('in ASCII is pure ASCII', () => {
    const text = renderScorePicture(explanation(), { glyphs: ASCII, paint: plain, width: 80 });
    expect(/^[\x20-\x7e\n]*$/.test(text)).toBe(true);
    expect(text).toMatch(/ {4}p2 +2 +- +\| +0 entries/);
  });

  it('paints negative bars red, positive green and the expiry flag yellow, and nothing with plain paint', () => {
    const mark = { bold: (s: string) => s, red: (s: string) => `[R${s}]`, green: (s: string) => `[G${s}]`, yellow: (s: string) => `[Y${s}]`, dim: (s: string) => s };
    const text = renderScorePicture(explanation(), { glyphs: UNICODE, paint: mark, width: 80 });
    expect(text).toMatch(/GHG emissions.*│\[G█+\].*\[Y!\]/);
    expect(text).toMatch(/Northwind.*\[R█+\]│/);
    expect(renderScorePicture(explanation(), { glyphs: UNICODE, paint: plain, width: 80 })).not.toContain('[');
  });

  it('neutralises escape sequences in names', () => {
    const x = explanation({ dataSources: [{ dataSourceId: 'ds1', name: 'Evil\u001b[2J\u001b]0;pwned\u0007Source', score: 1, label: 'fair', entries: 1 }] });
    const text = renderScorePicture(x, { glyphs: UNICODE, paint: plain, width: 100 });
    expect(text).not.toContain('\u001b');
    expect(text).toContain('EvilSource');
  });
});

describe('html report', () => {
  it('escapes every character that could open markup or an attribute', () => {
    expect(esc(`<script>"a" & 'b' \`c\`</script>`)).toBe('&#60;script&#62;&#34;a&#34; &#38; &#39;b&#39; &#96;c&#96;&#60;/script&#62;');
  });

  it('bins scores by half points, +3 in the top bin, null apart', () => {
    const { bins, noData } = histogram([-3, -2.75, 0, 2.99, 3, null]);
    expect(bins[0]).toBe(2);
    expect(bins[6]).toBe(1);
    expect(bins[11]).toBe(2);
    expect(bins.reduce((a, b) => a + b, 0)).toBe(5);
    expect(noData).toBe(1);
  });

  it('is one document with no script, no external reference and a CSP that forbids fetching; service text is escaped', () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const x = explanation({ scorecards: [{ ...explanation().scorecards[0]!, name: `</td><script>alert(1)</script>` }], dataSources: [{ dataSourceId: '"><svg onload=alert(1)>', name: hostile, score: 1, label: 'fair', entries: 1 }] });
    const html = renderHtmlReport({
      title: 'T <b>',
      generatedAt: '2026-01-01T00:00:00.000Z',
      source: 'test',
      asOf: '2026-01-01',
      modelVersion: '1.0.0',
      explanations: [x],
      digest: { state: 'none', note: 'no digest here' },
      recompute: { agree: 3, total: 3, tolerance: 0.005, findings: ['bundle altered: <b>x</b>'], checked: ['digest', 'recomputation'] },
    });
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).not.toMatch(/<script|<img|<svg onload|<link|@import|url\(|https?:\/\//i);
    expect(html).toContain('&#60;/td&#62;&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).toContain('T &#60;b&#62;');
    expect(html).toContain('no digest');
    expect(html).toContain('3 of 3 values agree');
    expect(html).toContain('<li>bundle altered: &#60;b&#62;x&#60;/b&#62;</li>');
  });
});

describe('html report details', () => {
  const report = (explanations: ReturnType<typeof explanation>[]) =>
    renderHtmlReport({
      title: 'T',
      generatedAt: '2026-01-01T00:00:00.000Z',
      source: 'test',
      asOf: '2026-01-01',
      modelVersion: '1.0.0',
      explanations,
      digest: { state: 'none', note: 'n' },
      recompute: { agree: 1, total: 1, tolerance: 1e-9, findings: [], checked: ['recomputation'] },
    });
  const entry = (entryId: string, daysLeft: number) => ({ entryId, dataSourceId: 'ds1', dataSourceName: 'Northwind', expiryDate: new Date(Date.UTC(2026, 0, 1 + daysLeft)).toISOString().slice(0, 10), daysLeft, status: daysLeft < 0 ? ('expired' as const) : ('expiring' as const), isClaim: false, policyParameterIds: ['p1'] });

  it('lists expiring evidence soonest first, each supplier linked to its section; a supplier with none shows 0', () => {
    const a = explanation({ supplierId: 'sup-a', expiring: { withinDays: 30, entries: [entry('a-late', 20)] } });
    const b = explanation({ supplierId: 'sup-b', expiring: { withinDays: 30, entries: [entry('b-expired', -5), entry('b-soon', 2)] } });
    const c = explanation({ supplierId: 'sup-c', expiring: { withinDays: 30, entries: [] } });
    const html = report([a, b, c]);
    const order = ['b-expired', 'b-soon', 'a-late'].map((id) => html.indexOf(`>${id}<`));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(html).toContain('<td class="mono"><a href="#s-sup-b">sup-b</a></td><td class="mono">b-expired</td>');
    expect(html).toMatch(/href="#s-sup-c">sup-c<\/a>.*<span class="muted">0<\/span><\/td><\/tr>/);
  });

  it('a supplier without a score is headed "— no data" (it read "— — no data")', () => {
    const x = explanation({ supplierId: 'sup-n', score: { ...explanation().score, value: null, label: 'no data', riskLevel: null, riskRecognised: null } });
    const html = report([x]);
    expect(html).toContain('<span class="mono">sup-n</span> — no data</h3>');
    expect(html).not.toContain('— — no data');
  });
});

describe('score picture: parameter risk', () => {
  const plain = { bold: (s: string) => s, red: (s: string) => s, green: (s: string) => s, yellow: (s: string) => s, dim: (s: string) => s };
  it('names take the width the longest level leaves, not the table\'s name column (they were cut with room to spare)', () => {
    const base = explanation();
    const card = base.scorecards[0]!;
    const long = 'Responsible minerals sourcing and smelter due diligence';
    const x = explanation({ scorecards: [{ ...card, parameters: [{ ...card.parameters[0]!, name: long, riskLevel: 'Medium', riskRecognised: true }] }] });
    const text = renderScorePicture(x, { glyphs: UNICODE, paint: plain, width: 80 });
    const block = text.slice(text.indexOf('PARAMETER RISK'));
    expect(block).toMatch(new RegExp(`^  ${long} +Medium$`, 'm'));
    for (const line of text.split('\n')) expect(textWidth(line), line).toBeLessThanOrEqual(80);
  });
});
