// Start-up: srs --version and srs --help against node -e 0, the floor of any Node CLI.
import { BIN, NODE, compare, report, srsEnv } from './common.mjs';

const env = srsEnv();
const t = compare(
  [
    { name: 'node -e 0', cmd: NODE, args: ['-e', '0'], env },
    { name: 'srs --version', cmd: NODE, args: [BIN, '--version'], env },
    { name: 'srs --help', cmd: NODE, args: [BIN, '--help'], env },
    { name: 'srs ref --help', cmd: NODE, args: [BIN, 'ref', '--help'], env },
  ],
  { warmup: 5, runs: 25 },
);
const base = t['node -e 0'];
report('startup', [
  { metric: 'node -e 0', value: base, unit: 'ms' },
  { metric: 'srs --version', value: t['srs --version'], unit: 'ms' },
  { metric: 'srs --version / node -e 0', value: t['srs --version'] / base, unit: 'x', target: '<= 1.3', pass: t['srs --version'] / base <= 1.3 },
  { metric: 'srs --help', value: t['srs --help'], unit: 'ms' },
  { metric: 'srs --help / node -e 0', value: t['srs --help'] / base, unit: 'x', target: '<= 1.5', pass: t['srs --help'] / base <= 1.5 },
  { metric: 'srs ref --help (loads Commander)', value: t['srs ref --help'], unit: 'ms' },
]);
