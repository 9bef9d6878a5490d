// A lookup: srs ref countries -o json (every page: 3 requests) against a running
// emulator, against the same three requests made by one curl process; and
// `srs supplier get ID` against `node -e 0` (the floor of any Node CLI), in
// alternating pairs, the median of the per-pair ratios (issue 18: <= 2x). In the
// same rounds, the same lookup made with undici alone (bench/bare-undici-lookup.cjs):
// the floor of any lookup built on undici, which srs is.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BIN, NODE, ROOT, compare, median, report, srsEnv, startEmulatorProcess, timeOnce } from './common.mjs';

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
  const fixtures = JSON.parse(spawnSync(NODE, [BIN, 'emulator', 'fixtures'], { encoding: 'utf8' }).stdout);
  const id = fixtures.suppliers[0].id;
  const get = [BIN, 'supplier', 'get', id, '-o', 'json'];
  const bare = [join(ROOT, 'bench', 'bare-undici-lookup.cjs'), emu.url, emu.apiKey, id];
  for (let i = 0; i < 3; i++) {
    timeOnce(NODE, ['-e', '0'], { env });
    timeOnce(NODE, get, { env });
    timeOnce(NODE, bare, { env });
  }
  const PAIRS = 15;
  const pairs = [];
  for (let i = 0; i < PAIRS; i++) {
    const floor = timeOnce(NODE, ['-e', '0'], { env });
    const srs = timeOnce(NODE, get, { env });
    const undici = timeOnce(NODE, bare, { env });
    pairs.push({ floor, srs, undici, ratio: srs / floor });
  }
  const getRatio = median(pairs.map((p) => p.ratio));
  report('lookup', [
    { metric: 'srs supplier get ID -o json', value: median(pairs.map((p) => p.srs)), unit: `ms (median of ${PAIRS})` },
    { metric: 'node -e 0, alternating with it', value: median(pairs.map((p) => p.floor)), unit: `ms (median of ${PAIRS})` },
    { metric: 'srs supplier get / node -e 0', value: getRatio, unit: `x (median of ${PAIRS} pairs)`, target: '<= 2', pass: getRatio <= 2 },
    { metric: 'floor: the same lookup with undici alone (bench/bare-undici-lookup.cjs)', value: median(pairs.map((p) => p.undici)), unit: `ms (median of ${PAIRS})` },
    { metric: 'undici alone / node -e 0', value: median(pairs.map((p) => p.undici / p.floor)), unit: `x (median of ${PAIRS})` },
    { metric: 'srs supplier get / undici alone', value: median(pairs.map((p) => p.srs / p.undici)), unit: `x (median of ${PAIRS})` },
    { metric: 'srs ref countries -o json (3 pages)', value: t.srs, unit: 'ms' },
    { metric: 'curl, same 3 requests', value: t.curl, unit: 'ms' },
    { metric: 'srs / curl', value: t.srs / t.curl, unit: 'x' },
    { metric: 'srs one page / curl one page', value: t['srs one page'] / t['curl one page'], unit: 'x' },
  ]);
} finally {
  await emu.stop();
}
