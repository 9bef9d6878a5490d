// Memory while streaming: srs ref countries --all -o ndjson over 100,000 items
// served 100 per page by a synthetic loopback server (the emulator's lists are
// small), peak RSS measured with GNU time.
import { createServer } from 'node:http';
import { BIN, NODE, peakRss, report, srsEnv } from './common.mjs';

const TOTAL = 100_000;
const server = createServer((req, res) => {
  const u = new URL(req.url, 'http://x');
  const page = Number(u.searchParams.get('page') ?? 1);
  const perPage = Number(u.searchParams.get('perPage') ?? 100);
  const start = (page - 1) * perPage;
  const items = [];
  for (let i = start; i < Math.min(TOTAL, start + perPage); i++) {
    items.push({ iso3Code: `C${String(i).padStart(6, '0')}`, iso2Code: 'XX', commonName: `Country number ${i}`, officialName: `The Republic of Country number ${i}`, regionName: 'Benchmark' });
  }
  const body = JSON.stringify({ items, pagination: { pageSize: perPage, nextPage: start + perPage < TOTAL ? page + 1 : null } });
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(body);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}`;
try {
  const env = srsEnv({ SRS_BASE_URL: url, SRS_API_KEY: 'bench-key-0000' });
  const rss = await peakRss(NODE, [BIN, 'ref', 'countries', '--all', '-o', 'ndjson'], { env });
  report('stream', [
    { metric: 'items streamed as NDJSON', value: rss.lines, unit: 'items', target: `= ${TOTAL}`, pass: rss.lines === TOTAL },
    { metric: 'peak RSS, --all -o ndjson over 100,000 items', value: rss.mb, unit: 'MB', target: '< 150', pass: rss.mb < 150 },
  ]);
} finally {
  server.close();
}
