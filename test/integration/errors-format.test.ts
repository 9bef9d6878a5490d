/**
 * Errors follow the output format the user chose: one JSON object on stderr
 * only when json or ndjson was chosen explicitly (-o or SRS_OUTPUT), and then
 * for every kind of error; otherwise one text line, also when stdout is piped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chosenOutput, parseErrorLine } from '../../src/cli.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** One failure of each kind: an API error, a usage error from srs, and Commander's own parse errors. */
const failures: Array<{ name: string; args: string[]; code: number; errorCode: string; message: RegExp }> = [
  { name: 'not found (API)', args: ['supplier', 'get', '01zzzzzzzzzzzzzzzzzzzzzzzz'], code: 1, errorCode: 'not_found', message: /HTTP 404/ },
  { name: 'bad --limit (srs usage)', args: ['ref', 'countries', '--limit', 'x'], code: 2, errorCode: 'usage', message: /^--limit must be a whole number/ },
  { name: 'unknown command (parse)', args: ['scorecard'], code: 2, errorCode: 'usage', message: /^unknown command 'scorecard' \(did you mean scorecards\?\)$/ },
  { name: 'unknown option (parse)', args: ['ref', 'countries', '--lmit', '3'], code: 2, errorCode: 'usage', message: /^unknown option '--lmit' \(did you mean --limit\?\)$/ },
  { name: 'a noun without its verb', args: ['ref'], code: 2, errorCode: 'usage', message: /needs a subcommand: countries, industries, sources, categories \(srs ref --help describes them\)$/ },
  { name: 'a bigger noun without its verb', args: ['score'], code: 2, errorCode: 'usage', message: /needs a subcommand: calc, explain, report, recompute, check \(srs score --help describes them\)$/ },
];

describe.each(failures)('$name', (f) => {
  it('is one text line on stderr when no format was chosen, though stdout is piped', async () => {
    const r = await h.run(f.args);
    expect(r.code).toBe(f.code);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    // One line, a noun without its verb too (it showed the noun's whole help first: 93 lines for `srs score`).
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^srs: /);
    expect(r.stderr).not.toContain('{"error"');
  });
  it.each([
    ['-o json', ['-o', 'json'], {}],
    ['--output=ndjson', ['--output=ndjson'], {}],
    ['SRS_OUTPUT=json', [], { SRS_OUTPUT: 'json' }],
  ])('is one JSON object on stderr with %s', async (_label, flags, env) => {
    const r = await h.run([...flags, ...f.args], { env });
    expect(r.code).toBe(f.code);
    expect(r.stdout).toBe('');
    const e = JSON.parse(r.stderr) as { error: { code: string; message: string; exitCode: number } };
    expect(e.error.code).toBe(f.errorCode);
    expect(e.error.exitCode).toBe(f.code);
    expect(e.error.message).toMatch(f.message);
  });
  it('is text with -o csv or -o table, even with SRS_OUTPUT=json (the flag wins)', async () => {
    const r = await h.run(['-o', 'csv', ...f.args], { env: { SRS_OUTPUT: 'json' } });
    expect(r.code).toBe(f.code);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(/^srs: /);
  });
});

describe('words that are not commands', () => {
  it('srs version points at --version; srs help with an unknown word points at the help', async () => {
    const v = await h.run(['version']);
    expect(v.code).toBe(2);
    expect(v.stderr).toBe("srs: unknown command 'version' (did you mean srs --version?)\n");
    const x = await h.run(['help', 'score', 'x']);
    expect(x.code).toBe(2);
    expect(x.stderr).toBe('srs: unknown command \'x\' for "srs score" (see "srs score --help")\n');
  });
});

describe('reading the chosen format before parsing', () => {
  it('finds -o, -oFMT, --output FMT, --output=FMT, -qo FMT and SRS_OUTPUT, and stops at --', () => {
    expect(chosenOutput(['-o', 'json', 'x'], {})).toBe('json');
    expect(chosenOutput(['-ondjson'], {})).toBe('ndjson');
    expect(chosenOutput(['--output', 'csv'], {})).toBe('csv');
    expect(chosenOutput(['--output=json'], {})).toBe('json');
    expect(chosenOutput(['-qo', 'json'], {})).toBe('json');
    expect(chosenOutput(['ref', 'countries'], { SRS_OUTPUT: 'ndjson' })).toBe('ndjson');
    expect(chosenOutput(['-o', 'table'], { SRS_OUTPUT: 'json' })).toBe('table');
    expect(chosenOutput(['api', 'GET', '/v1/x', '--', '-o', 'json'], {})).toBeUndefined();
    expect(chosenOutput([], {})).toBeUndefined();
  });
  it('folds "Did you mean" into the error line, or points at the help', () => {
    expect(parseErrorLine("error: unknown command 'cacl'\n(Did you mean calc?)\n", 'srs score')).toBe("unknown command 'cacl' (did you mean calc?)");
    expect(parseErrorLine("error: unknown option '--x'\n", 'srs ref countries')).toBe('unknown option \'--x\' (see "srs ref countries --help")');
    expect(parseErrorLine("error: unknown command 'version'\n", 'srs')).toBe("unknown command 'version' (did you mean srs --version?)");
  });
});

describe('a listing whose first page fails', () => {
  it.each([['csv'], ['json'], ['ndjson'], ['table']])('prints nothing on stdout with -o %s (a lone CSV header would look like a valid empty list)', async (format) => {
    // A base URL with a path the service does not have: every request is a 404.
    const r = await h.run(['-o', format, 'ref', 'categories'], { env: { SRS_BASE_URL: `${h.env.SRS_BASE_URL}/nowhere` } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/404/);
  });
  it('an empty list still prints the CSV header', async () => {
    const r = await h.run(['-o', 'csv', 'ref', 'countries', '--page', '99']);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stdout).toMatch(/^iso3Code,/);
  });
});
