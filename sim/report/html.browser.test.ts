/**
 * report.html in a real browser (headless Chromium through playwright-core): a short sidechain
 * partition run with a fork, written to a temp dir and opened from file://. No console error, no
 * page error, no request leaving the file; every node's fork tree has blocks and at least one
 * side block; the legend toggles and the block hover work. A screenshot goes to
 * $TMPDIR/lockstep-report.png for a look.
 *
 * Chromium is Debian's package (/usr/bin/chromium, or $CHROMIUM_PATH). Without it this test fails
 * and says how to install it: it never skips.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../scenario/load';
import { runScenario } from '../run';
import { reportHtml } from './html';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const SCREENSHOT = join(tmpdir(), 'lockstep-report.png');

describe('report.html in headless Chromium', () => {
  it('renders without errors or requests, with a fork tree per node and a side block', async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `headless Chromium not found at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (Debian; as root) or run \`scripts/ensure-chromium.sh\`, or set CHROMIUM_PATH to a Chromium binary`,
      );
    }
    const scenario = { ...loadScenario('sidechain-partition').scenario, crypto: 'fast' as const };
    const result = runScenario(scenario, { seed: 1, untilMs: 130_000 });
    expect(result.counts.reorgs).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'lockstep-html-'));
    const file = join(dir, 'report.html');
    writeFileSync(file, reportHtml(scenario, result));
    const pageUrl = pathToFileURL(file).href;

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
      ],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText ?? '?'})`));
      page.on('request', (r) => {
        if (r.url() !== pageUrl) problems.push(`request: ${r.url()}`);
      });
      await page.goto(pageUrl, { waitUntil: 'load' });

      const trees = await page.$$eval('svg.forktree', (svgs) =>
        svgs.map((s) => ({
          node: s.getAttribute('data-node'),
          blocks: s.querySelectorAll('.blk').length,
          side: s.querySelectorAll('.blk.side').length,
          width: s.getBoundingClientRect().width,
        })),
      );
      expect(trees.map((t) => t.node)).toEqual(result.sidechain.nodes.map((n) => n.node));
      for (const t of trees) {
        expect(t.blocks, `blocks in ${t.node}'s tree`).toBeGreaterThan(0);
        expect(t.width).toBeGreaterThan(100);
      }
      expect(trees.reduce((k, t) => k + t.side, 0)).toBeGreaterThan(0);
      expect(await page.locator('svg.timeline').count()).toBe(1);
      expect(await page.locator('figure.chart').count()).toBe(4);

      // The script: hovering a side block lights the same block in every tree; a legend entry hides its line.
      const side = page.locator('svg.forktree .blk.side').first();
      const hash = await side.getAttribute('data-h');
      await side.hover();
      const lit = await page.locator('svg.forktree .blk.hl').count();
      expect(lit).toBe(await page.locator(`svg.forktree .blk[data-h="${hash}"]`).count());
      expect(lit).toBeGreaterThan(1);
      const toggle = page.locator('figure.chart').first().locator('[data-toggle="sc-1"]');
      await toggle.click();
      expect(await page.locator('figure.chart').first().locator('path.series[data-series="sc-1"].off').count()).toBe(1);
      await toggle.click();

      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
