/**
 * report.html in a real browser (headless Chromium through playwright-core): a short sidechain
 * partition run with a fork, written to a temp dir and opened from file://. No console error, no
 * page error, no request leaving the file; every node's fork tree has blocks and at least one
 * side block; the legend toggles and the block hover work. A screenshot goes to
 * $TMPDIR/lockstep-report.png for a look. Then a 105-node page (a synthetic run shaped like
 * mainnet-105): the same checks, the shared fork trees, and a node's detail opening from the node
 * picker and from its heat map row.
 *
 * Chromium is Debian's package (/usr/bin/chromium, or $CHROMIUM_PATH). Without it this test fails
 * and says how to install it: it never skips.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../scenario/load';
import { runScenario } from '../run/run';
import { reportHtml } from './html';
import { syntheticRun } from './testing/syntheticRun';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const SCREENSHOT = join(tmpdir(), 'lockstep-report.png');
const SCREENSHOT_LARGE = join(tmpdir(), 'lockstep-report-105.png');

function requireChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `headless Chromium not found at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (Debian; as root) or run \`scripts/ensure-chromium.sh\`, or set CHROMIUM_PATH to a Chromium binary`,
    );
  }
}

/** Open `html` from file:// in headless Chromium; `problems` collects console errors and warnings, page errors and any request. */
async function openPage<T>(html: string, use: (page: Page, problems: string[]) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'lockstep-html-'));
  const file = join(dir, 'report.html');
  writeFileSync(file, html);
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
    return await use(page, problems);
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('report.html in headless Chromium', () => {
  it('renders without errors or requests, with a fork tree per node and a side block', async () => {
    requireChromium();
    const scenario = { ...loadScenario('sidechain-partition').scenario, crypto: 'fast' as const };
    const result = runScenario(scenario, { seed: 1, untilMs: 130_000 });
    expect(result.counts.reorgs).toBeGreaterThan(0);
    await openPage(reportHtml(scenario, result), async (page, problems) => {
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
    });
  }, 60_000);

  it('a 105-node page: shared fork trees, a heat map, and a node opens from the picker and from its row', async () => {
    requireChromium();
    const { scenario, result } = syntheticRun(105);
    await openPage(reportHtml(scenario, result), async (page, problems) => {
      // Five distinct trees for 105 nodes, each with blocks; every node in exactly one.
      const groups = await page.$$eval('details.tree[data-nodes]', (ds) =>
        ds.map((d) => ({
          nodes: (d.getAttribute('data-nodes') ?? '').split(' '),
          blocks: d.querySelectorAll('svg.forktree .blk').length,
        })),
      );
      expect(groups.map((g) => g.nodes.length)).toEqual([67, 18, 16, 3, 1]);
      expect(groups.every((g) => g.blocks > 0)).toBe(true);
      expect(new Set(groups.flatMap((g) => g.nodes)).size).toBe(105);
      expect(await page.locator('figure.chart').count()).toBe(4);
      expect(await page.locator('svg a.heat').count()).toBe(105);

      // The same side block lights up in every tree that has it.
      const side = page.locator('svg.forktree .blk.side').first();
      const hash = await side.getAttribute('data-h');
      await side.hover();
      const lit = await page.locator('svg.forktree .blk.hl').count();
      expect(lit).toBe(await page.locator(`svg.forktree .blk[data-h="${hash}"]`).count());
      expect(lit).toBeGreaterThan(1);

      // Every node's detail starts closed; the picker opens one, its heat map row is marked.
      expect(await page.locator('details.node[open]').count()).toBe(0);
      await page.selectOption('#nodepick', 'sc-72');
      const sc72 = page.locator('#node-sc-72');
      await expect.poll(() => sc72.evaluate((d) => d.hasAttribute('open'))).toBe(true);
      expect(await sc72.locator('svg.strip').isVisible()).toBe(true);
      expect(await sc72.locator('text=shared with 15 other nodes').isVisible()).toBe(true);
      expect(await page.locator('svg a.heat.picked').getAttribute('data-node')).toBe('sc-72');
      // Clicking a heat map row opens that node instead.
      await page.locator('svg a.heat[data-node="sc-95"] rect.hit').click();
      const sc95 = page.locator('#node-sc-95');
      await expect.poll(() => sc95.evaluate((d) => d.hasAttribute('open'))).toBe(true);
      expect(await page.locator('details.node.picked').getAttribute('id')).toBe('node-sc-95');
      expect(await page.locator('#nodepick').inputValue()).toBe('sc-95');
      // Picking the node already in the address opens it again after it was closed.
      await sc95.locator('summary').click();
      expect(await sc95.evaluate((d) => d.hasAttribute('open'))).toBe(false);
      await page.selectOption('#nodepick', '');
      await page.selectOption('#nodepick', 'sc-95');
      await expect.poll(() => sc95.evaluate((d) => d.hasAttribute('open'))).toBe(true);

      await page.screenshot({ path: SCREENSHOT_LARGE, fullPage: true });
      expect(problems).toEqual([]);
    });
  }, 60_000);
});
