/** A JUnit XML report of a score check: one test case per supplier. */
import type { CheckResult } from './evaluate.js';

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

export function junitReport(results: CheckResult[], opts: { timestamp: string; seconds: number }): string {
  const failures = results.filter((r) => r.status === 'fail').length;
  const skipped = results.filter((r) => r.status === 'no data').length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="srs score check" tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${opts.seconds.toFixed(3)}">`,
    `  <testsuite name="srs score check" tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}" timestamp="${xmlEscape(opts.timestamp)}" time="${opts.seconds.toFixed(3)}">`,
  ];
  for (const r of results) {
    const name = xmlEscape(r.supplierId);
    const score = r.score === null ? 'null' : String(r.score);
    if (r.status === 'pass') {
      lines.push(`    <testcase classname="srs.score" name="${name}" time="0"><system-out>score ${xmlEscape(score)}</system-out></testcase>`);
    } else if (r.status === 'no data') {
      lines.push(`    <testcase classname="srs.score" name="${name}" time="0"><skipped message="${xmlEscape(r.reasons.join('; ') || 'no data')}"/></testcase>`);
    } else {
      const msg = xmlEscape(r.reasons.join('; '));
      lines.push(`    <testcase classname="srs.score" name="${name}" time="0"><failure message="${msg}" type="score-check">${msg}</failure></testcase>`);
    }
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}

/** A GitHub Actions annotation line (workflow command), escaped per the runner's rules. */
export function githubAnnotation(r: CheckResult): string {
  const esc = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const prop = (s: string) => esc(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
  return `::error title=${prop(`srs score check: ${r.supplierId}`)}::${esc(r.reasons.join('; '))}`;
}
