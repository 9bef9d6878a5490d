/**
 * `srs score report --html`: one self-contained HTML file to share. Inline
 * CSS and SVG only: no script, no font, no image, no link to anything, and a
 * Content-Security-Policy that forbids every fetch, so opening it never
 * touches the network. Every text that comes from the service or a file
 * (ids, names, risk levels, dates) goes through esc().
 */
import { count } from '../util/plural.js';
import { UNRECOGNISED_RISK, type ExplainedParameter, type Explanation } from './explanation.js';
import { fixed2 } from '../scoring/labels.js';
import { sanitizeForTerminal } from './sanitize.js';

export interface DigestCheck {
  /** verified: the bundle's digest matches its content; mismatch: it does not; none: the bundle has no digest. */
  state: 'verified' | 'mismatch' | 'none';
  algorithm?: string;
  value?: string;
  note: string;
}

export interface RecomputeCheck {
  /** Values that agree between the service and the local model, of `total`. */
  agree: number;
  total: number;
  tolerance: number;
  /** What the verification found (altered, model version, incomplete, conflicts, differences), one line each, most serious first. */
  findings: string[];
  /** What was checked, as the report names it ("digest", "recomputation", ...): "none found" covers only these. */
  checked: readonly string[];
}

export interface ReportData {
  title: string;
  generatedAt: string;
  /** Where the scores come from: "bundle evidence.json" or "the service at https://…". */
  source: string;
  asOf: string;
  /** The filters the scores were calculated with, said beside the date (undefined: none). */
  filters?: string | undefined;
  modelVersion: string;
  explanations: Explanation[];
  /** Supplier names by id, where known (a report of ids looks them up; a bundle has none). */
  supplierNames?: ReadonlyMap<string, string> | undefined;
  digest: DigestCheck;
  recompute: RecomputeCheck;
}

/** HTML-escapes text for element content and quoted attribute values. */
export function esc(s: unknown): string {
  // Text from the service or a file is shown as the terminal views show it: escape sequences removed, control, bidi
  // and invisible characters as visible escapes. Written raw, "\u202Egnp.exe" displayed as "exe.png" in a browser, and
  // `--html -` on a terminal cleared the screen (ESC[2J) and made links of the service's choosing.
  return sanitizeForTerminal(String(s ?? '')).replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const fmt = (v: number | null): string => (v === null || !Number.isFinite(v) ? '—' : fixed2(v));
const weightText = (w: number | null): string => (w === null ? '' : String(Math.round(w * 100) / 100));
const NEG = '#c0392b';
const POS = '#2e8b57';

/** A diverging bar on -3..+3 as inline SVG, with an accessible label. */
function svgBar(v: number | null, width = 180, height = 14): string {
  const mid = width / 2;
  const label = v === null ? 'no data' : `score ${fmt(v)}`;
  let rect = '';
  if (v !== null && Number.isFinite(v) && v !== 0) {
    const len = (Math.min(3, Math.abs(v)) / 3) * (mid - 1);
    const x = v < 0 ? mid - len : mid;
    rect = `<rect x="${x.toFixed(1)}" y="2" width="${len.toFixed(1)}" height="${height - 4}" fill="${v < 0 ? NEG : POS}"/>`;
  }
  return `<svg class="bar" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(label)}"><rect x="0" y="${height / 2 - 0.5}" width="${width}" height="1" fill="#ddd"/>${rect}<rect x="${mid - 0.5}" y="0" width="1" height="${height}" fill="#555"/></svg>`;
}

/** Bins of half a point from -3 to +3 (the top bin includes +3), and the suppliers with no score. */
export function histogram(values: ReadonlyArray<number | null>): { bins: number[]; noData: number } {
  const bins = new Array<number>(12).fill(0);
  let noData = 0;
  for (const v of values) {
    if (v === null || !Number.isFinite(v)) {
      noData++;
      continue;
    }
    const i = Math.min(11, Math.max(0, Math.floor((v + 3) / 0.5)));
    bins[i]!++;
  }
  return { bins, noData };
}

function svgHistogram(values: ReadonlyArray<number | null>): string {
  const { bins, noData } = histogram(values);
  const W = 560;
  const H = 200;
  const left = 36;
  const bottom = 28;
  const plotW = W - left - 10;
  const plotH = H - bottom - 14;
  const max = Math.max(1, ...bins);
  const bw = plotW / bins.length;
  const parts: string[] = [];
  parts.push(`<line x1="${left}" y1="${H - bottom}" x2="${W - 10}" y2="${H - bottom}" stroke="#555"/>`);
  bins.forEach((n, i) => {
    const h = (n / max) * plotH;
    const x = left + i * bw;
    const centre = -3 + i * 0.5 + 0.25;
    if (n) {
      parts.push(`<rect x="${(x + 2).toFixed(1)}" y="${(H - bottom - h).toFixed(1)}" width="${(bw - 4).toFixed(1)}" height="${h.toFixed(1)}" fill="${centre < 0 ? NEG : POS}"><title>${count(n, 'supplier')} from ${(-3 + i * 0.5).toFixed(1)} to ${(-2.5 + i * 0.5).toFixed(1)}</title></rect>`);
      parts.push(`<text x="${(x + bw / 2).toFixed(1)}" y="${(H - bottom - h - 3).toFixed(1)}" text-anchor="middle" font-size="11">${n}</text>`);
    }
  });
  for (let t = -3; t <= 3; t++) {
    const x = left + ((t + 3) / 6) * plotW;
    parts.push(`<line x1="${x.toFixed(1)}" y1="${H - bottom}" x2="${x.toFixed(1)}" y2="${H - bottom + 4}" stroke="#555"/>`);
    parts.push(`<text x="${x.toFixed(1)}" y="${H - bottom + 17}" text-anchor="middle" font-size="11">${t > 0 ? `+${t}` : t}</text>`);
  }
  const scored = values.length - noData;
  return `<svg class="hist" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="distribution of ${scored} overall scores">${parts.join('')}</svg>${noData ? `<p class="muted">${count(noData, 'supplier')} without a score (no counting data) ${noData === 1 ? 'is' : 'are'} not in the chart.</p>` : ''}`;
}

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;margin:0;background:#fafafa}
main{max-width:1040px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}
.muted{color:#666}.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
table{border-collapse:collapse;width:100%;background:#fff;margin:6px 0 12px}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eee;vertical-align:middle}
th{font-weight:600;background:#f1f1f1}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.card td{font-weight:600;background:#f7f7f7}td.param{padding-left:24px}td,h2,h3,p{overflow-wrap:break-word}th{overflow-wrap:normal}.mono{overflow-wrap:anywhere}
.scroll{overflow-x:auto;margin:6px 0 12px}.scroll table{margin:0}
.ok{color:${POS};font-weight:600}.bad{color:${NEG};font-weight:600}.warn{color:#b8860b;font-weight:600}
.box{background:#fff;border:1px solid #ddd;border-radius:6px;padding:10px 14px;margin:8px 0;overflow-wrap:anywhere}
.flag{color:#b8860b;font-weight:700}
section.supplier{background:#fff;border:1px solid #e3e3e3;border-radius:6px;padding:4px 14px 10px;margin:14px 0}
svg{vertical-align:middle}svg.hist{max-width:100%;height:auto}
@media (max-width:600px){main{padding:12px}svg.bar{width:96px;height:auto}}
@media print{body{background:#fff;font-size:10.5px}main{max-width:none;padding:0}.scroll{overflow:visible}
section.supplier{border:0;padding:0;break-inside:avoid-page}tr{break-inside:avoid}h2,h3{break-after:avoid}
svg.bar{width:84px;height:auto}th,td{padding:2px 5px}.mono{font-size:10px}a{color:inherit;text-decoration:none}}
`;

function parameterRow(p: ExplainedParameter): string {
  const name = p.name ?? p.policyParameterId;
  return `<tr><td class="param">${esc(name)}<div class="muted mono">${esc(p.policyParameterId)}</div></td><td class="num">${esc(weightText(p.weight))}</td><td class="num">${fmt(p.score)}</td><td>${svgBar(p.score)}</td><td>${esc(p.label)}</td><td>${p.riskLevel === null ? '' : `${esc(p.riskLevel)}${p.riskRecognised === false ? ` <span class="bad">${UNRECOGNISED_RISK}</span>` : ''}`}</td><td class="num">${p.entries}</td><td>${p.expiringEntries ? `<span class="flag" title="evidence expired or expiring">! ${p.expiringEntries}</span>` : ''}</td></tr>`;
}

function supplierSection(x: Explanation, name: string | undefined): string {
  const out: string[] = [];
  // A supplier without a score reads "— no data", not "— — no data".
  const overall = x.score.value === null ? esc(x.score.label) : `${fmt(x.score.value)} ${esc(x.score.label)}`;
  out.push(`<section class="supplier" id="s-${esc(x.supplierId)}"><h3>${name ? `${esc(name)} ` : ''}<span class="mono">${esc(x.supplierId)}</span> — ${overall}${x.score.riskLevel !== null ? ` · risk ${esc(x.score.riskLevel)}${x.score.riskRecognised === false ? ` <span class="bad">${UNRECOGNISED_RISK}</span>` : ''}` : ''}</h3>`);
  for (const c of x.conflicts) out.push(`<p class="bad">Conflicting result: ${esc(c)}; srs cannot tell which copy counts, so no copy's score is shown.</p>`);
  out.push(`<p class="muted">From data sources ${fmt(x.score.dataSourcesScore)} · from policy parameters ${fmt(x.score.policyParametersScore)}${x.model.agrees ? '' : ` · <span class="bad">the local model does not reproduce ${esc(x.model.differences.length)} value${x.model.differences.length === 1 ? '' : 's'} (${esc(x.model.differences.slice(0, 3).join('; '))}${x.model.differences.length > 3 ? '; …' : ''})</span>`}</p>`);
  out.push('<div class="scroll"><table><thead><tr><th>Scorecard / parameter</th><th class="num">Weight</th><th class="num">Score</th><th>−3 … 0 … +3</th><th>Label</th><th>Risk</th><th class="num">Entries</th><th>Expiring</th></tr></thead><tbody>');
  for (const c of x.scorecards) {
    // No weight on a scorecard's row: the model does not use a scorecard's own weight (its parameters' weights are shown).
    out.push(`<tr class="card"><td>${esc(c.name ?? c.scorecardId)}</td><td class="num"></td><td class="num">${fmt(c.score)}</td><td>${svgBar(c.score)}</td><td>${esc(c.label)}</td><td></td><td></td><td></td></tr>`);
    for (const p of c.parameters) out.push(parameterRow(p));
  }
  if (x.otherParameters.length) {
    out.push('<tr class="card"><td>In no scorecard</td><td></td><td></td><td></td><td></td><td></td><td></td><td></td></tr>');
    for (const p of x.otherParameters) out.push(parameterRow(p));
  }
  out.push('</tbody></table></div>');
  if (x.dataSources.length) {
    out.push('<div class="scroll"><table><thead><tr><th>Data source</th><th class="num">Score</th><th>−3 … 0 … +3</th><th>Label</th><th class="num">Entries</th></tr></thead><tbody>');
    for (const d of x.dataSources) out.push(`<tr><td>${esc(d.name ?? d.dataSourceId)}${d.name ? `<div class="muted mono">${esc(d.dataSourceId)}</div>` : ''}</td><td class="num">${fmt(d.score)}</td><td>${svgBar(d.score)}</td><td>${esc(d.label)}</td><td class="num">${d.entries}</td></tr>`);
    out.push('</tbody></table></div>');
  }
  out.push('</section>');
  return out.join('\n');
}

function verification(d: ReportData): string {
  const dg = d.digest;
  const digestLine =
    dg.state === 'verified'
      ? `<span class="ok">verified</span> ${esc(dg.algorithm ?? '')} <span class="mono">${esc(dg.value ?? '')}</span>`
      : dg.state === 'mismatch'
        ? `<span class="bad">does not match the content</span> ${esc(dg.algorithm ?? '')} <span class="mono">${esc(dg.value ?? '')}</span>`
        : '<span class="warn">no digest</span>';
  const r = d.recompute;
  const ok = r.agree === r.total;
  const recomputeLine = `${ok ? '<span class="ok">agrees</span>' : '<span class="bad">differs</span>'}: ${r.agree} of ${r.total} values agree within ${esc(r.tolerance)}`;
  const findings = r.findings.length
    ? `<div><b class="bad">Findings:</b><ul>${r.findings.map((x) => `<li>${esc(x)}</li>`).join('')}</ul></div>`
    : `<div><b>Findings:</b> <span class="ok">none</span> (checked: ${esc(r.checked.join(', '))})</div>`;
  return `<div class="box"><div><b>Digest:</b> ${digestLine} <span class="muted">${esc(dg.note)}</span></div><div><b>Recomputed offline</b> (local model ${esc(d.modelVersion)}): ${recomputeLine}</div>${findings}</div>`;
}

export function renderHtmlReport(d: ReportData): string {
  const xs = d.explanations;
  const sorted = [...xs].sort((a, b) => (a.score.value ?? Infinity) - (b.score.value ?? Infinity) || a.supplierId.localeCompare(b.supplierId));
  // Soonest first (the longest expired at the top), as a list of what to chase: it was in supplier order.
  const expiring = xs.flatMap((x) => x.expiring.entries.map((e) => ({ x, e }))).sort((a, b) => a.e.daysLeft - b.e.daysLeft || a.x.supplierId.localeCompare(b.x.supplierId) || a.e.entryId.localeCompare(b.e.entryId));
  const within = xs[0]?.expiring.withinDays ?? 0;
  const body: string[] = [];
  body.push(`<h1>${esc(d.title)}</h1>`);
  body.push(`<p class="muted">${count(xs.length, 'supplier')} · scores as of ${esc(d.asOf)} · from ${esc(d.source)} · generated ${esc(d.generatedAt)} by srs</p>`);
  // A filtered calculation shows suppliers without data where they have some: said first, where it cannot be missed.
  if (d.filters) body.push(`<p><strong>Filtered:</strong> ${esc(d.filters)}. Scores, data and "no data" below are of this filter only.</p>`);
  body.push('<h2>Verification</h2>');
  body.push(verification(d));
  body.push('<h2>Distribution of overall scores</h2>');
  body.push(svgHistogram(xs.map((x) => x.score.value)));
  body.push('<h2>Overall scores</h2>');
  body.push('<div class="scroll"><table><thead><tr><th>Supplier</th><th class="num">Score</th><th>−3 … 0 … +3</th><th>Label</th><th>Risk</th><th class="num">Expiring</th></tr></thead><tbody>');
  for (const x of sorted) {
    const name = d.supplierNames?.get(x.supplierId);
    const who = name ? `<a href="#s-${esc(x.supplierId)}">${esc(name)}</a><div class="muted mono">${esc(x.supplierId)}</div>` : `<a class="mono" href="#s-${esc(x.supplierId)}">${esc(x.supplierId)}</a>`;
    body.push(`<tr><td>${who}</td><td class="num">${fmt(x.score.value)}</td><td>${svgBar(x.score.value)}</td><td>${esc(x.score.label)}</td><td>${x.score.riskLevel === null ? '—' : `${esc(x.score.riskLevel)}${x.score.riskRecognised === false ? ` <span class="bad">${UNRECOGNISED_RISK}</span>` : ''}`}</td><td class="num">${x.expiring.entries.length ? `<span class="flag">${x.expiring.entries.length}</span>` : '<span class="muted">0</span>'}</td></tr>`);
  }
  body.push('</tbody></table></div>');
  body.push(`<h2>Evidence expired or expiring within ${count(within, 'day')}</h2>`);
  if (!expiring.length) body.push(`<p>None within ${count(within, 'day')} of ${esc(d.asOf)}.</p>`);
  else {
    body.push('<div class="scroll"><table><thead><tr><th>Supplier</th><th>Entry</th><th>Data source</th><th>Expires</th><th>When</th><th>Claim</th></tr></thead><tbody>');
    for (const { x, e } of expiring) {
      const when = e.status === 'expired' ? `<span class="bad">expired ${count(-e.daysLeft, 'day')} ago</span>` : `<span class="warn">in ${count(e.daysLeft, 'day')}</span>`;
      body.push(`<tr><td class="mono"><a href="#s-${esc(x.supplierId)}">${esc(x.supplierId)}</a></td><td class="mono">${esc(e.entryId)}</td><td>${esc(e.dataSourceName ?? e.dataSourceId)}</td><td>${esc(e.expiryDate)}</td><td>${when}</td><td>${e.isClaim ? 'claim' : ''}</td></tr>`);
    }
    body.push('</tbody></table></div>');
  }
  body.push('<h2>Per supplier</h2>');
  for (const x of xs) body.push(supplierSection(x, d.supplierNames?.get(x.supplierId)));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(d.title)}</title>
<style>${CSS}</style>
</head>
<body><main>
${body.join('\n')}
</main></body>
</html>
`;
}
