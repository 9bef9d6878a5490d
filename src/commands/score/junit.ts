/** The reports of a score check: JUnit XML, GitHub annotations and the GitHub step summary (Markdown). */
import { closeSync, openSync, readSync, writeFileSync } from 'node:fs';
import { isFailing, type CheckResult } from '../../scoring/gate.js';
import { sanitizeForTerminal } from '../../output/sanitize.js';
import { count as counted } from '../../util/plural.js';

export function xmlEscape(s: string): string {
  // Characters XML 1.0 cannot carry at all are dropped; the rest are escaped.
  return s
    .replace(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function junitReport(results: CheckResult[], opts: { timestamp: string; seconds: number; properties?: ReadonlyArray<readonly [string, string]> }): string {
  // A supplier that could not be evaluated (unknown) is an error in JUnit's terms, not a failed assertion.
  const errors = results.filter((r) => r.status === 'unknown').length;
  const failures = results.filter((r) => isFailing(r.status)).length - errors;
  const skipped = results.filter((r) => r.status === 'no data').length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="srs score check" tests="${results.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${opts.seconds.toFixed(3)}">`,
    `  <testsuite name="srs score check" tests="${results.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" timestamp="${xmlEscape(opts.timestamp)}" time="${opts.seconds.toFixed(3)}">`,
  ];
  // What the verdict rests on (the scores' date and source, the warnings), where a CI page that shows only this file
  // can read it: a year-old bundle, or the sandbox's, passed with nothing in the file saying so.
  if (opts.properties?.length) {
    lines.push('    <properties>');
    for (const [name, value] of opts.properties) lines.push(`      <property name="${xmlEscape(name)}" value="${xmlEscape(value)}"/>`);
    lines.push('    </properties>');
  }
  for (const r of results) {
    const name = xmlEscape(r.supplierId);
    const score = r.score === null ? 'null' : String(r.score);
    if (r.status === 'pass' || r.status === 'new') {
      const note = r.status === 'new' ? ' (new: not in the baseline)' : '';
      lines.push(`    <testcase classname="srs.score" name="${name}" time="0"><system-out>score ${xmlEscape(score)}${note}</system-out></testcase>`);
    } else if (r.status === 'no data') {
      lines.push(`    <testcase classname="srs.score" name="${name}" time="0"><skipped message="${xmlEscape(r.reasons.join('; ') || 'no data')}"/></testcase>`);
    } else if (r.status === 'unknown') {
      const msg = xmlEscape(r.reasons.join('; ') || 'unknown');
      lines.push(`    <testcase classname="srs.score" name="${name}" time="0"><error message="${msg}" type="unknown">${msg}</error></testcase>`);
    } else {
      const msg = xmlEscape(r.reasons.join('; '));
      lines.push(`    <testcase classname="srs.score" name="${name}" time="0"><failure message="${msg}" type="score-check">${msg}</failure></testcase>`);
    }
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

/**
 * A GitHub Actions annotation line (workflow command), escaped per the runner's rules. It goes to stderr,
 * which a person may be watching too: text that came from the service is first made safe for a terminal
 * (escape sequences, controls, bidi overrides), as every other stderr line is.
 */
export function githubAnnotation(r: CheckResult): string {
  return annotation(`srs score check: ${r.supplierId}`, r.reasons.join('; '));
}

/** An `::error` workflow command, its title and message escaped per the runner's rules (see githubAnnotation). */
function annotation(title: string, message: string): string {
  const esc = (s: string) => sanitizeForTerminal(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const prop = (s: string) => esc(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
  return `::error title=${prop(title)}::${esc(message)}`;
}

/**
 * The reports of a check that could not evaluate at all (a bundle that does not verify, an altered baseline,
 * nothing to check): a JUnit file with one <error>, a step summary and an annotation that say so. Without them
 * a CI job kept the JUnit file of an earlier run that passed, and its summary page said nothing.
 */
export function junitRunError(message: string, opts: { timestamp: string; seconds: number }): string {
  const msg = xmlEscape(message);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="srs score check" tests="1" failures="0" errors="1" skipped="0" time="${opts.seconds.toFixed(3)}">`,
    `  <testsuite name="srs score check" tests="1" failures="0" errors="1" skipped="0" timestamp="${xmlEscape(opts.timestamp)}" time="${opts.seconds.toFixed(3)}">`,
    `    <testcase classname="srs.score" name="score check" time="0"><error message="${msg}" type="not-evaluated">${msg}</error></testcase>`,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

export function summaryRunError(message: string): string {
  return `### srs score check: not evaluated\n\n${cell(message)}\n\nNothing was checked; the step fails.\n`;
}

export function annotationRunError(message: string): string {
  return annotation('srs score check', message);
}

/** How many failing suppliers the step summary lists before a count. */
const SUMMARY_FAILURES = 100;

/** How many of the lowest-scoring suppliers the step summary lists. */
export const SUMMARY_WORST = 10;

/** A Markdown cell: one line, pipes escaped, no HTML. */
function cell(s: string): string {
  // Service text is text: a riskLevel "[Approve](https://…) ![i](…)" was a live link and image in the summary.
  // Without [ and ] there is no link or image; without * _ ~ ` no emphasis or code span to hide text in; & escaped so
  // that no entity (&#x202E;, a bidi override) is decoded; "://" and "www." written so that GitHub makes no autolink.
  return s
    .replace(/[\r\n]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/[\\`*_[\]~|]/g, '\\$&')
    .replace(/</g, '&lt;')
    .replace(/:\/\//g, '&#58;//')
    .replace(/\b(www)\./gi, '$1&#46;');
}

/** An id in a code span: a backtick in it (a forged bundle's) would end the span and let the rest render. */
function code(s: string): string {
  return `\`${s.replace(/[\r\n]+/g, ' ').replace(/`/g, "'").replace(/\|/g, '\\|')}\``;
}

/**
 * The GitHub Actions step summary of a score check (appended to
 * $GITHUB_STEP_SUMMARY): the counts, every failing supplier with its reasons
 * (the first SUMMARY_FAILURES, then a count), and the `worst` lowest scores.
 */
export function markdownSummary(results: CheckResult[], opts: { asOf: string; source?: string; warnings: string[]; worst?: number }): string {
  const count = (s: CheckResult['status']) => results.filter((r) => r.status === s).length;
  const failing = results.filter((r) => isFailing(r.status));
  const lines = [
    `## srs score check: ${failing.length ? headline(results) : passedHeadline(results)}`,
    '',
    `As of ${opts.asOf}${opts.source ? `; scores from ${cell(opts.source)}` : ''}.`,
    '',
    '| passed | new | no data | unknown | failed |',
    '|---:|---:|---:|---:|---:|',
    `| ${count('pass')} | ${count('new')} | ${count('no data')} | ${count('unknown')} | ${count('fail')} |`,
    '',
  ];
  if (failing.length) {
    const max = SUMMARY_FAILURES;
    lines.push('### Failing suppliers', '', '| supplier | status | score | reasons |', '|---|---|---:|---|');
    for (const r of failing.slice(0, max)) lines.push(`| ${code(r.supplierId)} | ${r.status} | ${r.score === null ? '—' : String(r.score)} | ${cell(r.reasons.join('; '))} |`);
    if (failing.length > max) lines.push('', `… and ${failing.length - max} more (see the JSON output or the JUnit report).`);
    lines.push('');
  }
  const scored = results.filter((r) => r.score !== null).sort((a, b) => a.score! - b.score! || (a.supplierId < b.supplierId ? -1 : 1));
  const worst = scored.slice(0, opts.worst ?? SUMMARY_WORST);
  if (worst.length) {
    lines.push(`### Lowest ${counted(worst.length, 'score')}`, '', '| supplier | score | status |', '|---|---:|---|');
    for (const r of worst) lines.push(`| ${code(r.supplierId)} | ${r.score} | ${r.status} |`);
    lines.push('');
  }
  if (opts.warnings.length) {
    lines.push('### Warnings', '');
    for (const w of opts.warnings) lines.push(`- ${cell(w)}`);
    lines.push('');
  }
  return lines.join('\n');
}

/** "2 of 5 failed, 1 unknown": unknown suppliers are not counted as failed. */
/** A check that did not fail: "all 3 passed" only when every supplier passed ("no data" accepted is not a pass). */
function passedHeadline(results: readonly CheckResult[]): string {
  const noData = results.filter((r) => r.status === 'no data').length;
  if (!noData) return `all ${results.length} passed`;
  const passed = results.length - noData;
  return `${passed} of ${results.length} passed, ${noData} without data (accepted with --allow-no-data)`;
}

function headline(results: readonly CheckResult[]): string {
  const failed = results.filter((r) => r.status === 'fail').length;
  const unknown = results.filter((r) => r.status === 'unknown').length;
  return [failed ? `${failed} of ${results.length} failed` : '', unknown ? `${unknown} of ${results.length} unknown (not evaluated)` : ''].filter(Boolean).join(', ');
}

/**
 * Replaces `file` with one <error> (junitRunError) only when it already is a JUnit report: a usage error caught
 * before `score check` could check its --junit path must never write anything else. No such file (nothing stale),
 * or one srs cannot read or write: nothing is done, the usage error says what went wrong.
 */
export function replaceJunitReport(file: string, message: string): void {
  try {
    const fd = openSync(file, 'r');
    const head = Buffer.alloc(512);
    const n = readSync(fd, head, 0, head.length, 0);
    closeSync(fd);
    const text = head.subarray(0, n).toString('utf8');
    if (!text.startsWith('<?xml') || !text.includes('<testsuites')) return;
    writeFileSync(file, junitRunError(message, { timestamp: new Date().toISOString(), seconds: 0 }));
  } catch {
    /* see above */
  }
}
