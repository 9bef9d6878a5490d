// A lookup: srs ref countries -o json (every page: 3 requests) against a running
// emulator, against the same three requests made by one curl process.
import { BIN, NODE, compare, report, srsEnv, startEmulatorProcess } from './common.mjs';

const emu = await startEmulatorProcess();
try {
  const env = srsEnv({ SRS_BASE_URL: emu.url, SRS_API_KEY: emu.apiKey });
  const pages = [1, 2, 3].map((p) => `${emu.url}/v1/countries?page=${p}&perPage=100`);
  const t = compare(
    [
      { name: 'srs', cmd: NODE, args: [BIN, 'ref', 'countries', '-o', 'json'], env },
      { name: 'curl', cmd: 'curl', args: ['-sf', '-H', `x-api-key: ${emu.apiKey}`, ...pages] },
      { name: 'srs one page', cmd: NODE, args: [BIN, 'ref', 'countries', '--page', '1', '-o', 'json'], env },
      { name: 'curl one page', cmd: 'curl', args: ['-sf', '-H', `x-api-key: ${emu.apiKey}`, pages[0]] },
    ],
    { warmup: 3, runs: 15 },
  );
  report('lookup', [
    { metric: 'srs ref countries -o json (3 pages)', value: t.srs, unit: 'ms' },
    { metric: 'curl, same 3 requests', value: t.curl, unit: 'ms' },
    { metric: 'srs / curl', value: t.srs / t.curl, unit: 'x' },
    { metric: 'srs one page / curl one page', value: t['srs one page'] / t['curl one page'], unit: 'x' },
  ]);
} finally {
  await emu.stop();
}
