/**
 * `--quiet` after the verb (`srs supplier import FILE --quiet`) reaches the program's own --quiet
 * (Commander), so the import must honour ctx.quiet as well as its own option: otherwise the progress
 * line, and the record count that feeds it (a second read of the whole file), ran under --quiet.
 * stderr must be a terminal for the progress line to redraw, so the import runs under script(1).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pty } from '../support/terminal.js';
import { assertBuilt, BIN } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'srs-import-quiet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The import's stderr and stdout as a terminal shows them, progress redraws split into lines. */
function onTerminal(args: string[]): string[] {
  const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const out = execFileSync('script', ['-qec', [process.execPath, BIN, ...args].map(quote).join(' '), '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', HOME: dir, SRS_CONFIG_DIR: join(dir, 'config'), SRS_DATA_DIR: join(dir, 'data'), TERM: 'xterm', NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return out.split(/[\r\n]+/);
}

pty.describe('supplier import --quiet on a terminal', () => {
  assertBuilt();
  const file = join(dir, 'in.csv');
  let csv = 'Supplier Name,Country,Vendor ID\n';
  for (let i = 0; i < 40_000; i++) csv += `Supplier ${i},DEU,Q${i}\n`;
  writeFileSync(file, csv);

  it('shows the progress line without --quiet, and none with --quiet before or after the verb', () => {
    const loud = onTerminal(['supplier', 'import', file, '--dry-run', '-o', 'json']);
    expect(loud.some((l) => l.includes('validating:'))).toBe(true);
    for (const args of [
      ['supplier', 'import', file, '--dry-run', '-o', 'json', '--quiet'],
      ['--quiet', 'supplier', 'import', file, '--dry-run', '-o', 'json'],
    ]) {
      const lines = onTerminal(args);
      expect(lines.filter((l) => l.includes('validating:')), args.join(' ')).toEqual([]);
      expect(lines.join('\n')).toContain('"valid": 40000');
    }
  });
});
