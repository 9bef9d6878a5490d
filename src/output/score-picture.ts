/**
 * `srs score explain` in the terminal: the overall score, then per scorecard
 * and per parameter a bar on the -3..+3 scale centred on 0, with names,
 * weights and entry counts, then the data sources and the evidence that has
 * expired or expires soon. Plain text with optional colour; every text from
 * the service goes through sanitizeForTerminal.
 */
import { count } from '../util/plural.js';
import { divergingBar, divergingScale, fitText, pad, paintDiverging, textWidth, type Glyphs } from './bars.js';
import { UNRECOGNISED_RISK, type ExplainedParameter, type Explanation } from './explanation.js';
import { sanitizeForTerminal } from './sanitize.js';
import { fixed2, roundScore } from '../scoring/labels.js';

export interface PicturePaint {
  bold(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
}

export interface PictureOptions {
  glyphs: Glyphs;
  paint: PicturePaint;
  /** Terminal width (80 when unknown). */
  width: number;
  /** The supplier's name, shown under the heading; null or absent when not known (offline, a failed lookup). */
  supplierName?: string | null;
}

const fmtWith = (none: string) => (v: number | null): string => (v === null ? none : fixed2(v));
const weightText = (w: number | null): string => (w === null ? '' : String(roundScore(w)));
/** A parameter's risk level as shown: one srs cannot rank is marked "(unrecognised)". */
export const riskText = (p: Pick<ExplainedParameter, 'riskLevel' | 'riskRecognised'>): string =>
  p.riskLevel === null ? '' : `${p.riskLevel.trim() === '' ? JSON.stringify(p.riskLevel) : sanitizeForTerminal(p.riskLevel)}${p.riskRecognised === false ? ` ${UNRECOGNISED_RISK}` : ''}`;
const scoreText = (v: number | null) => (v === null ? 'no data' : '');

interface Layout {
  name: number;
  half: number;
  label: boolean;
  /** The width of the entries slot. */
  entries: number;
}

/**
 * The entries slot: "12 entries" (10), or wider for the overall score's label in its row ("below average" is 13):
 * the names give up what the label needs.
 */
function layoutFor(width: number, longestName: number, entriesWidth: number): Layout {
  const w = Math.max(60, width);
  // indent 2, weight 6, score 6, entries (or the overall score's label) ENTRIES_WIDTH, flag 2, and the gaps between them
  const fixed = 2 + 1 + 6 + 1 + 6 + 2 + 2 + entriesWidth + 2;
  const half = w >= 110 ? 12 : w >= 96 ? 10 : 8;
  const label = w >= 120;
  const room = w - fixed - (2 * half + 1) - (label ? 15 : 0);
  return { name: Math.max(12, Math.min(room, Math.max(longestName, 20))), half, label, entries: entriesWidth };
}

export function renderScorePicture(x: Explanation, o: PictureOptions): string {
  const { glyphs: g, paint } = o;
  const fmt = fmtWith(g.none);
  const clean = (s: string | null, fallback: string) => sanitizeForTerminal(s ?? fallback);
  const lines: string[] = [];
  const allNames = [...x.scorecards.map((c) => clean(c.name, c.scorecardId)), ...x.scorecards.flatMap((c) => c.parameters.map((p) => clean(p.name, p.policyParameterId))), ...x.dataSources.map((d) => clean(d.name, d.dataSourceId))];
  const L = layoutFor(o.width, Math.max(0, ...allNames.map((n) => textWidth(n) + 2)), Math.max(10, textWidth(x.score.label)));
  const colour = { neg: paint.red, pos: paint.green };
  const bar = (v: number | null) => paintDiverging(divergingBar(v, L.half, g), v, colour, g);

  const row = (indent: number, name: string, weight: string, score: number | null, entries: string, flag: string, label: string) =>
    // The flag (" !") always takes its two cells, so that the labels line up under their heading.
    `${' '.repeat(indent)}${pad(fitText(name, L.name + 2 - indent, g), L.name + 2 - indent)} ${pad(weight, 6, 'right')} ${pad(fmt(score), 6, 'right')}  ${bar(score)}  ${pad(entries, L.entries)}${flag || '  '}${L.label ? `  ${label}` : ''}`.trimEnd();
  // The title is cut like the names under it: a longer one pushed WEIGHT, SCORE and the scale off their columns.
  const header = (title: string, weightHeader = 'WEIGHT', last = 'ENTRIES', label = true) =>
    paint.bold(`${pad(fitText(title, L.name + 2, g), L.name + 2)} ${pad(weightHeader, 6, 'right')} ${pad('SCORE', 6, 'right')}  ${divergingScale(L.half)}  ${pad(last, L.entries)}  ${L.label && label ? '  LABEL' : ''}`.trimEnd());
  const paramRow = (p: ExplainedParameter) =>
    row(4, clean(p.name, p.policyParameterId), weightText(p.weight), p.score, count(p.entries, 'entry'), p.expiringEntries ? ` ${paint.yellow('!')}` : '', p.label);

  // The risk level is the service's string (any length): cut to what the line has left.
  const head = `Supplier ${x.supplierId}  as of ${x.asOf}`;
  // Beside the heading when it fits the width; on a line of its own otherwise (at 60 columns the line was 64 wide).
  const supplierRisk = x.score.riskLevel !== null ? `risk ${sanitizeForTerminal(riskText({ riskLevel: x.score.riskLevel, riskRecognised: x.score.riskRecognised }))}` : '';
  const beside = supplierRisk !== '' && textWidth(supplierRisk) <= o.width - textWidth(head) - 2;
  lines.push(`${paint.bold('Supplier')} ${x.supplierId}  ${paint.dim(`as of ${x.asOf}`)}${beside ? `  ${supplierRisk}` : ''}`);
  if (supplierRisk && !beside) lines.push(`  ${fitText(supplierRisk, Math.max(10, o.width - 2), g)}`);
  if (o.supplierName) lines.push(`  ${paint.bold(fitText(sanitizeForTerminal(o.supplierName), Math.max(10, o.width - 2), g))}`);
  for (const c of x.conflicts) lines.push(paint.yellow(`! conflicting result: ${sanitizeForTerminal(c)}; srs cannot tell which copy counts, so no copy's score is shown`));
  lines.push('');
  lines.push(header('', '', 'LABEL', false));
  lines.push(paint.bold(row(0, 'Overall score', '', x.score.value, x.score.label, '', '')));
  lines.push(row(2, 'from data sources', '', x.score.dataSourcesScore, scoreText(x.score.dataSourcesScore), '', ''));
  lines.push(row(2, 'from policy parameters', '', x.score.policyParametersScore, scoreText(x.score.policyParametersScore), '', ''));
  if (!x.model.agrees) {
    const overall = x.model.differences.find((d) => d.startsWith('value '));
    const others = x.model.differences.length - (overall ? 1 : 0);
    const what = overall ? `gives ${fmt(x.model.value)}` : `differs on ${others} value${others === 1 ? '' : 's'}`;
    const first = x.model.differences.find((d) => !d.startsWith('value '));
    lines.push(paint.yellow(`  the local model ${what} from the same entries${!overall && first ? ` (${sanitizeForTerminal(first)}${others > 1 ? ', …' : ''})` : ''}; see srs score recompute`));
  }

  lines.push('');
  if (x.scorecards.length) {
    lines.push(header('SCORECARD / PARAMETER'));
    for (const c of x.scorecards) {
      // No weight on a scorecard's row: the model does not use a scorecard's own weight (docs/scoring.md), and a 2 there
      // read as if this scorecard counted twice. Its parameters' weights, which are used, are on their rows.
      lines.push(paint.bold(row(0, clean(c.name, c.scorecardId), '', c.score, '', '', c.label)));
      for (const p of c.parameters) lines.push(paramRow(p));
    }
  } else {
    lines.push('No scorecard applies to this supplier: parameters weigh 1 each.');
  }
  if (x.otherParameters.length) {
    lines.push('');
    lines.push(header('IN NO SCORECARD', ''));
    for (const p of x.otherParameters) lines.push(paramRow(p));
  }
  // Each parameter's risk level (the supplier's is the highest), with the levels srs cannot rank marked.
  const risks = new Map<string, ExplainedParameter>();
  for (const p of [...x.scorecards.flatMap((c) => c.parameters), ...x.otherParameters]) if (p.riskLevel && !risks.has(p.policyParameterId)) risks.set(p.policyParameterId, p);
  if (risks.size) {
    lines.push('');
    lines.push(paint.bold('PARAMETER RISK'));
    // Two columns only: the names take what the longest level leaves (they were cut to the table's name column
    // above, "Responsible minerals sourci… Medium" on a 40-column line at 80).
    const levels = [...risks.values()].map((p) => riskText(p));
    const names = [...risks.values()].map((p) => clean(p.name, p.policyParameterId));
    const nameW = Math.max(L.name, Math.min(Math.max(...names.map(textWidth)), Math.max(60, o.width) - 3 - Math.max(...levels.map(textWidth))));
    [...risks.values()].forEach((p, i) => {
      const shown = fitText(levels[i]!, Math.max(10, Math.max(60, o.width) - nameW - 3), g);
      lines.push(`  ${pad(fitText(names[i]!, nameW, g), nameW)} ${p.riskRecognised === false ? paint.yellow(shown) : shown}`.trimEnd());
    });
  }
  if (x.dataSources.length) {
    lines.push('');
    lines.push(header('DATA SOURCE', ''));
    for (const d of x.dataSources) lines.push(row(2, clean(d.name, d.dataSourceId), '', d.score, count(d.entries, 'entry'), '', d.label));
  }

  lines.push('');
  const within = x.expiring.withinDays;
  if (!x.expiring.entries.length) {
    lines.push(`No evidence expires within ${count(within, 'day')} of ${x.asOf}.`);
  } else {
    lines.push(paint.yellow(`! Evidence expired or expiring within ${count(within, 'day')} of ${x.asOf}:`));
    for (const e of x.expiring.entries) {
      const when = e.status === 'expired' ? `expired ${e.expiryDate} (${count(-e.daysLeft, 'day')} ago)` : `expires ${e.expiryDate} (in ${count(e.daysLeft, 'day')})`;
      const claim = e.isClaim ? '  (claim)' : '';
      // The source's name takes what the line has left (at least its first letters and the ellipsis).
      const room = Math.max(4, Math.max(60, o.width) - textWidth(`  ${e.entryId}  ${when}  ${claim}`));
      lines.push(`  ${e.entryId}  ${when}  ${fitText(clean(e.dataSourceName, e.dataSourceId), room, g)}${claim}`);
    }
  }
  return lines.join('\n') + '\n';
}
