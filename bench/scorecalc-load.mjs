// Shared by bench/scorecalc.bench.mjs and bench/scorecalc-loadgen.mjs; imports nothing, so the
// load-generator process pays no more start-up than autocannon's own.
/** autocannon options for POST /v1/score-calculation, each body once (scorecalc bench and its load-generator process). */
export function scoreCalcLoad(url, apiKey, bodies, connections) {
  return {
    url: `${url}/v1/score-calculation`,
    connections,
    amount: bodies.length,
    requests: bodies.map((body) => ({ method: 'POST', path: '/v1/score-calculation', headers: { 'content-type': 'application/json', 'x-api-key': apiKey }, body })),
  };
}
