#!/usr/bin/env node
// Renders an HTML report (srs score report --html) in headless Chromium and
// writes a PNG screenshot: node scripts/report-screenshot.mjs report.html out.png [width] [height]
// Used to make docs/score-report.png. Needs the Debian package chromium and
// the devDependency playwright-core.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const [html, png, width = '1100', height = '1400'] = process.argv.slice(2);
if (!html || !png) {
  console.error('usage: node scripts/report-screenshot.mjs REPORT.html OUT.png [WIDTH] [HEIGHT]');
  process.exit(2);
}
const profile = mkdtempSync(join(tmpdir(), 'srs-chromium-'));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  headless: true,
  viewport: { width: Number(width), height: Number(height) },
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  await page.goto(pathToFileURL(resolve(html)).href);
  await page.screenshot({ path: png });
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
