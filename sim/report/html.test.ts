/**
 * report.html (issue 6, item 6) without a browser: the same run gives the same bytes (twice
 * inline, and in the worker placement), scenario text is escaped, the timeline has the run's
 * fault, spans, checkpoints and no-ack, the page references nothing outside itself, and the fork
 * tree folds quiet runs of the spine and draws side branches below it.
 */
import { describe, expect, it } from 'vitest';
import { type Address } from '../../src/core/address';
import { type Hex } from '../../src/core/bytes';
import { loadScenario } from '../scenario/load';
import { type Scenario } from '../scenario/scenario';
import { type RunResult, runScenario, runScenarioAsync } from '../run';
import { reportHtml } from './html';
import { forkTreeSvg } from './html/forkTree';
import { esc, timeTicks, valueTicks } from './html/format';
import { timelineData } from './html/timeline';

const fast = (s: Scenario): Scenario => ({ ...s, crypto: 'fast' });

describe('report.html', () => {
  // The sidechain partition: the isolated in-turn producer's chain wins, the others reorg by 8.
  const partition = fast(loadScenario('sidechain-partition').scenario);
  const PARTITION_UNTIL_MS = 130_000;
  let partitionRun: RunResult | undefined;
  const partitionResult = () => (partitionRun ??= runScenario(partition, { seed: 1, untilMs: PARTITION_UNTIL_MS }));

  it('the same run gives the same bytes: twice inline, and in the worker placement', async () => {
    const a = reportHtml(partition, partitionResult());
    const b = reportHtml(partition, runScenario(partition, { seed: 1, untilMs: PARTITION_UNTIL_MS }));
    const w = await runScenarioAsync(partition, { seed: 1, untilMs: PARTITION_UNTIL_MS, placement: 'worker' });
    expect(b).toBe(a);
    expect(reportHtml(partition, w)).toBe(a);
    // A different seed is a different page.
    expect(reportHtml(partition, runScenario(partition, { seed: 2, untilMs: PARTITION_UNTIL_MS }))).not.toBe(a);
  }, 60_000);

  it('is self-contained: no URL, no external script, style, font or image', () => {
    const html = reportHtml(partition, partitionResult());
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/\/\/[a-z0-9.-]+\.[a-z]{2,}\//i);
    expect(html).not.toMatch(/<script[^>]*\bsrc=/i);
    expect(html).not.toMatch(/<link[^>]*rel="stylesheet"/i);
    expect(html).not.toMatch(/<img\b|@import|url\(|@font-face/i);
    expect(html).toMatch(/Content-Security-Policy" content="default-src &#39;none&#39;/);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
  });

  it('escapes scenario text, fault details and messages (no HTML injection)', () => {
    const evil = '<script>alert("x")</script><img src=x onerror=alert(1)> & \'q\'';
    const r = partitionResult();
    const html = reportHtml(
      { ...partition, description: `description ${evil}` },
      {
        ...r,
        scenario: `name ${evil}`,
        message: `message ${evil}`,
        faultsFired: r.faultsFired.map((f) => ({ ...f, detail: `detail ${evil}` })),
      },
    );
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html.match(/<script>/g)).toHaveLength(1);
    const escaped = esc(evil);
    expect(escaped).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &#39;q&#39;',
    );
    for (const what of ['description', 'name', 'message', 'detail']) expect(html).toContain(`${what} ${escaped}`);
  });

  it('the timeline has the fault, the spans, the checkpoints and the no-ack of a run', () => {
    const s = fast(loadScenario('checkpoint-proposer-offline').scenario);
    const r = runScenario(s, { seed: 1, untilMs: 300_000 });
    expect(r.counts.noAcks).toBeGreaterThanOrEqual(1);
    const t = timelineData(s, r);
    expect(t.faults).toEqual([
      { index: 0, kind: 'offlineCheckpointProposer', detail: 'svc-2', startMs: 120_000, endMs: 420_000 },
    ]);
    expect(t.noAcks).toHaveLength(1);
    expect(t.noAcks[0]!.atMs).toBeGreaterThan(120_000 + 200_000 - 30_000);
    expect(t.spans.map((x) => x.id)).toEqual(['1', '2', '3']);
    expect(t.checkpoints.filter((c) => c.ackedMs !== null)).toHaveLength(r.counts.checkpointsAcked);
    const html = reportHtml(s, r);
    expect(html).toContain('offlineCheckpointProposer svc-2');
    expect(html).toContain(`no-ack @h${t.noAcks[0]!.height}`);
    expect(html).toContain('span 1 [64–127]');
    expect(html).toContain('>#1</text>');
    expect(html.match(/<g class="noack">/g)).toHaveLength(1);
    // The fault runs past the end of this run: drawn open to the end.
    expect(html).toMatch(
      /<g class="fault"><title>fault 0: offlineCheckpointProposer \(svc-2\)\nfrom 120\.0 s to 420\.0 s \(after the run ended\)/,
    );
    expect(html.match(/<figure class="chart">/g)).toHaveLength(4);
  }, 30_000);

  it('every node gets a fork tree; side blocks and reorgs are drawn', () => {
    const r = partitionResult();
    const html = reportHtml(partition, r);
    for (const n of r.sidechain.nodes) expect(html).toContain(`<svg class="forktree" data-node="${n.node}"`);
    const sides = r.sidechain.nodes.map((n) => n.side.length);
    expect(sides.every((k) => k > 0)).toBe(true);
    expect(html.match(/<g class="blk side/g)!.length).toBe(sides.reduce((a, b) => a + b, 0));
    expect(html).toContain('<g class="reorg">');
    // Side blocks are never canonical, and each hangs off a block the node knows.
    for (const n of r.sidechain.nodes) {
      const known = new Set<string>([...n.canonical.map((b) => b.hash), ...n.side.map((b) => b.hash)]);
      for (const b of n.side) {
        expect(known.has(b.parentHash) || b.number === 1n).toBe(true);
        expect(n.canonical.some((c) => c.hash === b.hash)).toBe(false);
      }
      expect(n.sideOmitted).toBe(0);
    }
  });
});

describe('fork tree layout', () => {
  const signer = '0x1111111111111111111111111111111111111111' as Address;
  const other = '0x2222222222222222222222222222222222222222' as Address;
  const h = (tag: string, n: number) => `0x${tag}${n.toString(16).padStart(8, '0')}`.padEnd(66, '0') as Hex;
  const canonical = Array.from({ length: 100 }, (_, i) => ({
    number: BigInt(i + 1),
    hash: h('c', i + 1),
    signer,
    difficulty: 2n,
    time: BigInt(i),
    producers: 2,
    backup: false,
  }));
  const side = [50, 51, 52].map((n) => ({
    number: BigInt(n),
    hash: h('s', n),
    parentHash: n === 50 ? h('c', 49) : h('s', n - 1),
    signer: other,
    difficulty: 1n,
    backup: true,
    importedAtMs: 0,
  }));
  const twin = {
    number: 51n,
    hash: h('t', 51),
    parentHash: h('s', 50),
    signer,
    difficulty: 2n,
    backup: false,
    importedAtMs: 0,
  };
  const producer = (a: Address) => ({
    index: a === signer ? 1 : 2,
    label: a,
    color: a === signer ? '#4e79a7' : '#f28e2b',
  });

  it('folds quiet runs of the spine, and puts a branch of a branch on its own row', () => {
    const { svg, stats } = forkTreeSvg({
      node: 'sc-1',
      alive: true,
      head: { number: 100n, hash: h('c', 100) },
      canonical,
      side: [...side, twin],
      sideOmitted: 0,
      reorgs: [{ node: 'sc-1', atMs: 5_000, depth: 3, oldHead: h('s', 52), newHead: h('c', 53), commonAncestor: '49' }],
      epochMs: 0,
      producer,
    });
    // Shown: 0-2, 47-54 (the branch and the reorg with context), 98-100; folded: 3-46 and 55-97.
    expect(svg).toContain('… 44 …');
    expect(svg).toContain('… 43 …');
    expect(svg.match(/<g class="blk canon/g)).toHaveLength(2 + 8 + 3);
    expect(svg.match(/<g class="blk side/g)).toHaveLength(4);
    expect(svg).toContain('<g class="blk side backup oldhead"');
    expect(svg).toContain('>−3</text>');
    expect(stats).toEqual({ side: 4, forks: 2, reorgs: 1, deepest: 3 });
    // The twin at 51 forks off the side block at 50: a third row.
    const rowsY = new Set(
      [...svg.matchAll(/<g class="blk side[^"]*"[^>]*><title>[^<]*<\/title><rect x="[\d.]+" y="([\d.]+)"/g)].map(
        (m) => m[1],
      ),
    );
    expect(rowsY.size).toBe(2);
  });

  it('axis ticks are round and cover the range', () => {
    expect(timeTicks(130_000)).toEqual([0, 15_000, 30_000, 45_000, 60_000, 75_000, 90_000, 105_000, 120_000]);
    expect(timeTicks(840_000)).toEqual([0, 120_000, 240_000, 360_000, 480_000, 600_000, 720_000, 840_000]);
    expect(valueTicks(3)).toEqual([0, 1, 2, 3]);
    expect(valueTicks(387)).toEqual([0, 100, 200, 300, 400]);
  });
});
