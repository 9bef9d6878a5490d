/**
 * Totals per year as horizontal bars, printed after the emission reports
 * table: one bar per year and unit, scaled to the largest total of that unit.
 */
import { fitText, magnitudeBar, pad, textWidth, type Glyphs } from './bars.js';
import { sanitizeForTerminal } from './sanitize.js';

export interface YearTotal {
  year: number;
  unit: string;
  total: number;
  reports: number;
}

/**
 * Sums `value` per calendar year (UTC) of `fromDate` and unit. Reports without a usable date or value are left out
 * and counted (`skipped`); `unreadable` holds the start dates among them that are there but that srs cannot read
 * (ISO 8601 also has week, ordinal and basic forms, which Date.parse does not), so that the note says so.
 */
export function totalsPerYear(reports: ReadonlyArray<{ fromDate?: string | null; value?: number | null; unit?: string | null }>): { totals: YearTotal[]; skipped: number; unreadable: string[] } {
  const by = new Map<string, YearTotal>();
  let skipped = 0;
  const unreadable: string[] = [];
  for (const r of reports) {
    const t = typeof r.fromDate === 'string' ? Date.parse(r.fromDate) : NaN;
    if (Number.isNaN(t) || typeof r.value !== 'number' || !Number.isFinite(r.value)) {
      skipped++;
      if (typeof r.fromDate === 'string' && r.fromDate.trim() !== '' && Number.isNaN(t)) unreadable.push(r.fromDate);
      continue;
    }
    const year = new Date(t).getUTCFullYear();
    const unit = r.unit ?? '';
    const key = `${unit}\u0000${year}`;
    const cur = by.get(key) ?? { year, unit, total: 0, reports: 0 };
    cur.total += r.value;
    cur.reports++;
    by.set(key, cur);
  }
  const totals = [...by.values()].sort((a, b) => a.unit.localeCompare(b.unit) || a.year - b.year);
  return { totals, skipped, unreadable };
}

/** One decimal, or two significant digits for a total so small that one decimal would print 0 beside a visible bar. */
const number = (v: number) =>
  v !== 0 && Math.abs(v) < 0.05
    ? String(Number(v.toPrecision(2)))
    : // Past 10^15 grouped digits stop meaning anything (1.79e308 was 412 columns): six significant digits and an exponent.
      Math.abs(v) >= 1e15
      ? v.toExponential(5).replace(/\.?0+e/, 'e')
      : v.toLocaleString('en-US', { maximumFractionDigits: 1 });

/** The chart: a title line, then "YEAR  bar  total unit (n reports)" per year, in `width` columns. */
export function renderYearBars(totals: YearTotal[], g: Glyphs, width: number, paint: { bold(s: string): string }): string {
  if (!totals.length) return '';
  // Scaled to the largest size: a negative total (the document types a value only as a number) is drawn by its size
  // in another glyph, with its sign in the number (it had no bar at all, and a chart of negatives was empty).
  const max = new Map<string, number>();
  for (const t of totals) max.set(t.unit, Math.max(max.get(t.unit) ?? 0, Math.abs(t.total)));
  const negative = g.full === '#' ? '-' : '░';
  // One chart per unit: bars of different units on one scale read as comparable (500,000 kgCO2e drawn longer
  // than 1,200 tCO2e). Each chart says its unit; with one unit there is one chart, as before.
  const units = [...max.keys()];
  const lines: string[] = [];
  for (const unit of units) {
    if (lines.length) lines.push('');
    const anyNegative = totals.some((t) => t.unit === unit && t.total < 0);
    const legend = anyNegative ? ` ${negative} below zero` : '';
    lines.push(paint.bold(fitText(units.length > 1 ? `Totals per year (${sanitizeForTerminal(unit) || 'no unit'})${legend}` : `Totals per year${legend}`, width, g)));
    // Laid out per chart, and the number is never cut: the bar gives way first (down to 10 columns), then the unit.
    // One long unit took the width of every chart and its cut took the other units' totals with it.
    const rows = totals.filter((t) => t.unit === unit);
    const nums = rows.map((t) => number(t.total));
    const numW = Math.max(...nums.map(textWidth));
    const unitText = sanitizeForTerminal(unit);
    const unitW = textWidth(unitText);
    const barW = Math.max(10, Math.min(50, width - 6 - 2 - numW - (unitW ? 1 + unitW : 0)));
    const unitShown = unitW ? fitText(unitText, Math.max(1, width - 6 - barW - 2 - numW - 1), g) : '';
    rows.forEach((t, i) => {
      const size = magnitudeBar(Math.abs(t.total), max.get(t.unit)!, barW, g);
      const bar = t.total < 0 ? negative.repeat(textWidth(size)) : size;
      lines.push(`${String(t.year).padEnd(6)}${pad(bar, barW)}  ${pad(nums[i]!, numW, 'right')}${unitShown ? ` ${unitShown}` : ''}`.trimEnd());
    });
  }
  return lines.join('\n') + '\n';
}
