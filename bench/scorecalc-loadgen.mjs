#!/usr/bin/env node
// The load generator of bench/scorecalc.bench.mjs as a process of its own:
// autocannon sends the score-calculation bodies in BODIES_FILE (one JSON body
// per line) over CONNECTIONS connections, once each, and the process exits.
// Timed from the outside like srs (start-up and a cold JIT included), it shows
// what any fresh process pays for the same 100 requests.
// Usage: node bench/scorecalc-loadgen.mjs URL API_KEY BODIES_FILE CONNECTIONS
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { scoreCalcLoad } from './scorecalc-load.mjs';

const [url, apiKey, bodiesFile, connections] = process.argv.slice(2);
const bodies = readFileSync(bodiesFile, 'utf8').split('\n').filter(Boolean);
let seen = 0;
const instance = autocannon(scoreCalcLoad(url, apiKey, bodies, Number(connections)), (err, r) => {
  if (err || r.non2xx) {
    process.stderr.write(`load generator failed: ${err?.message ?? `${r.non2xx} non-2xx answers`}\n`);
    process.exit(1);
  }
});
// With `amount`, autocannon notices it is done only at its next one-second tick: exit at the last response instead.
instance.on('response', () => {
  if (++seen === bodies.length) {
    instance.stop();
    process.exit(0);
  }
});
