/**
 * The HTML report in a real browser: headless Chromium (Debian package
 * `chromium`) opens the file srs wrote and must show it with no console
 * error, no request other than the file itself, and a screenshot that is
 * not blank. Without Chromium the test is skipped visibly (and fails under
 * CI=true: .ci/run installs it).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { fixtures } from '../../src/emulator/index.js';
import { optionalTool } from '../support/optional-tool.js';
import { startHarness, type Harness } from './harness.js';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const chromium = optionalTool({ name: 'chromium', pkg: 'chromium', present: () => existsSync(CHROMIUM) });

const fx = fixtures();
let h: Harness;

chromium.describe('score report in headless Chromium', () => {
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  chromium.it('renders with no console error, no network request, and a non-blank screenshot', async () => {
    const bundle = join(h.home, 'browser-bundle.json');
    const saved = await h.run(['score', 'calc', ...fx.suppliers.slice(0, 8).map((s) => s.id), '--save', bundle, '-o', 'csv']);
    expect(saved.code, saved.stderr).toBe(0);
    const report = join(h.home, 'browser-report.html');
    const r = await h.run(['score', 'report', bundle, '--html', report, '--expiring-within', '400']);
    expect(r.code, r.stderr).toBe(0);

    const { chromium: pw } = await import('playwright-core');
    const profile = mkdtempSync(join(tmpdir(), 'srs-chromium-'));
    const browser = await pw.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1100, height: 900 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('request', (req) => requests.push(req.url()));
      page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()}`));
      const url = pathToFileURL(report).href;
      await page.goto(url, { waitUntil: 'load' });
      await page.waitForLoadState('networkidle');

      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
      expect(await page.title()).toBe('Supplier score report');
      // The charts are there: one histogram and a bar per supplier at least.
      expect(await page.locator('svg.hist rect').count()).toBeGreaterThan(0);
      expect(await page.locator('svg.bar').count()).toBeGreaterThanOrEqual(8);
      const text = await page.locator('body').innerText();
      expect(text).toContain('Distribution of overall scores');
      expect(text).toContain(fx.suppliers[0]!.id);

      const png = await page.screenshot({ fullPage: false });
      writeFileSync(join(h.home, 'browser-report.png'), png);
      // Decode the screenshot in a blank page of the same browser and count its colours:
      // a blank or failed render has one or two.
      const probe = await browser.newPage();
      // (A string, so the page's DOM types stay out of this Node test's type check.)
      const decode = `(async (b64) => {
        const img = new Image();
        img.src = 'data:image/png;base64,' + b64;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const g = canvas.getContext('2d');
        g.drawImage(img, 0, 0);
        const data = g.getImageData(0, 0, img.width, img.height).data;
        const seen = new Set();
        let inked = 0;
        for (let i = 0; i < data.length; i += 4) {
          seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
          if (data[i] + data[i + 1] + data[i + 2] < 600) inked++;
        }
        return { distinct: seen.size, inkedShare: inked / (data.length / 4), width: img.width, height: img.height, red: seen.has(0xc0392b), green: seen.has(0x2e8b57) };
      })(${JSON.stringify(png.toString('base64'))})`;
      const colours = (await probe.evaluate(decode)) as { distinct: number; inkedShare: number; width: number; height: number; red: boolean; green: boolean };
      expect(colours.width).toBe(1100);
      expect(colours.distinct).toBeGreaterThan(20);
      expect(colours.inkedShare).toBeGreaterThan(0.01);
      // The score bars' colours are on screen.
      expect(colours.red || colours.green).toBe(true);

      // Printed on A4 (about 718 CSS px wide): every table fits the page, none is clipped by its scroll box
      // (13 of 23 lost their last columns in print). No scroll box clips on a 390 px phone either, where tables may scroll.
      const overflowing = `(() => [...document.querySelectorAll('table')].filter((t) => t.getBoundingClientRect().right > document.documentElement.clientWidth + 1).length)()`;
      await page.emulateMedia({ media: 'print' });
      await page.setViewportSize({ width: 718, height: 1000 });
      expect(await page.evaluate(overflowing)).toBe(0);
      expect(await page.evaluate(`getComputedStyle(document.querySelector('.scroll')).overflowX`)).toBe('visible');
      await page.emulateMedia({ media: 'screen' });
      await page.setViewportSize({ width: 390, height: 800 });
      expect(await page.evaluate(`document.documentElement.scrollWidth`)).toBeLessThanOrEqual(390);
    } finally {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }, 90_000);
});
