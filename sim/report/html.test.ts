/**
 * report.html (issue 6, item 6) without a browser: the same run gives the same bytes (twice
 * inline, and in the worker placement), scenario text is escaped, the timeline has the run's
 * fault, spans, checkpoints and no-ack, the page references nothing outside itself, and the fork
 * tree folds quiet runs of the spine and draws side branches below it.
 */
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { type Address } from '../../src/core/address';
import { type Hex } from '../../src/core/bytes';
import { loadScenario } from '../scenario/load';
import { type Scenario } from '../scenario/scenario';
import { type RunResult, runScenario, runScenarioAsync } from '../run/run';
import { EVERY_NODE_UP_TO } from './aggregate/threshold';
import { reportHtml } from './html';
import { forkTreeSvg } from './html/forkTree';
import { esc, timeTicks, valueTicks } from './html/format';
import { behindPeriods, faultNames } from './html/nodesSection';
import { timelineData } from './html/timeline';
import { syntheticRun } from './testing/syntheticRun';
import { ruleById } from '../rules';
import { ruleCoverage } from '../rules/coverage';

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

  it('lists the rules the run exercised and the oracle-guarded ones it did not, with their text, by module', () => {
    const r = partitionResult();
    expect(r.rulesExercised).toContain('sidechain.fork-choice.total-difficulty');
    expect([...r.rulesExercised].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(r.rulesExercised);
    const html = reportHtml(partition, r);
    const section = html.slice(html.indexOf('<section id="rules">'));
    const cov = ruleCoverage(r.rulesExercised);
    expect(section).toContain(`<summary>exercised (${cov.exercised.length})</summary>`);
    expect(section).toContain(`<summary>not exercised (${cov.notExercised.length})</summary>`);
    const [exercised, notExercised] = section.split('<summary>not exercised');
    expect(exercised).toContain('<td class="mono">sidechain.fork-choice.total-difficulty</td>');
    expect(exercised).toContain(esc(ruleById('sidechain.fork-choice.total-difficulty')!.rule));
    expect(exercised).toContain('<h3>sidechain: ');
    // A rule no oracle of this run judged (no top-up happens in it) is on the other list.
    expect(r.rulesExercised).not.toContain('topup.mint.once');
    expect(notExercised).toContain('<td class="mono">topup.mint.once</td>');
    expect(notExercised).not.toContain('sidechain.fork-choice.total-difficulty');
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

describe('report.html at a hundred nodes', () => {
  // The shape of mainnet-105 without running it: five distinct fork trees, three crash waves.
  const large = syntheticRun(105);
  const html = reportHtml(large.scenario, large.result);
  const treeGroups = () =>
    [
      ...html.matchAll(/<details class="tree" id="(tree-\d+)" data-nodes="([^"]*)"[^>]*><summary>(.*?)<\/summary>/g),
    ].map((m) => ({ id: m[1]!, nodes: m[2]!.split(' '), summary: m[3]! }));

  it('nodes with identical fork trees share one drawing, with their list', () => {
    const groups = treeGroups();
    expect(groups.map((g) => g.nodes.length)).toEqual([67, 18, 16, 3, 1]);
    const all = groups.flatMap((g) => g.nodes);
    expect(all).toHaveLength(105);
    expect(new Set(all)).toEqual(new Set(large.result.sidechain.nodes.map((n) => n.node)));
    expect(html.match(/<svg class="forktree"/g)).toHaveLength(5);
    expect(groups[0]!.summary).toContain('67 nodes</span></h3>sc-4–sc-70 · head #256 · 53 side blocks');
    expect(groups[2]!.summary).toContain('16 nodes</span></h3>sc-71–sc-78, sc-80–sc-87 ·');
    expect(groups[2]!.summary).toContain('1 reorg, deepest 35');
    expect(groups[4]!.summary).toContain('sc-79</span></h3>head #257');
    expect(html).toContain('105 nodes, 5 distinct trees');
    // The shared reorg says when its nodes made it: the first to the last.
    expect(html).toMatch(/reorg on each of the 16 nodes, at 337\.0 s–337\.\d s: depth 35 from #70/);
    // The trees start open for the largest groups only.
    expect(html.match(/<details class="tree" id="tree-\d+" data-nodes="[^"]*" open>/g)).toHaveLength(4);
  });

  it('a band and a heat map of lag instead of a line per node; the nodes that fell behind are named', () => {
    expect(html).toContain('Sidechain height across 105 nodes');
    expect(html).toMatch(/<path class="area" data-series="band" d="M[^"]+Z" fill="#0969da">/);
    expect(html).toContain('<path class="series" data-series="median"');
    expect(html).not.toMatch(/<path class="series" data-series="sc-\d+"/);
    const rows = [
      ...html.matchAll(/<a href="#node-(sc-\d+)" class="heat" data-node="sc-\d+"><title>([^<]*)<\/title>/g),
    ];
    expect(rows.map((m) => m[1])).toEqual(large.result.sidechain.nodes.map((n) => n.node));
    expect(rows[90]![2]).toMatch(/^sc-91: behind at \d+ of 121 samples, at most 97 blocks behind \(at 365\.0 s\)$/);
    expect(html).toContain(
      '38 nodes fell 2 or more blocks behind the highest head: sc-1–sc-3, sc-71–sc-105. Furthest behind: 97 blocks: sc-88–sc-105 at 365.0 s;',
    );
    // Reorgs: one stem per event, the timeline one dot per event, faults of a wave one row.
    expect(html).toMatch(/<title>depth 35 from block 70: sc-71–sc-87 \(17 nodes\) at 337\.0 s–337\.\d s<\/title>/);
    expect(html.match(/<g class="reorgev">/g)).toHaveLength(2);
    expect(html.match(/<circle class="reorgdot" data-series=/g)).toBeNull();
    expect(html).toContain('>crash ×34 sc-71–sc-87, svc-71–svc-87</text>');
    expect(html.match(/<g class="fault">/g)).toHaveLength(3);
  });

  it('every node has its detail on demand, closed, with its lag, reorgs, faults and tree', () => {
    const details = [...html.matchAll(/<details class="node" id="node-(sc-\d+)"( open)?><summary>(.*?)<\/summary>/g)];
    expect(details.map((m) => m[1])).toEqual(large.result.sidechain.nodes.map((n) => n.node));
    expect(details.every((m) => m[2] === undefined)).toBe(true);
    expect(html.match(/<option value="sc-\d+">/g)).toHaveLength(105);
    const sc72 = html.slice(html.indexOf('<details class="node" id="node-sc-72">'));
    const body = sc72.slice(0, sc72.indexOf('</details>'));
    expect(body).toContain('validator 72 · head #256 · at most 90 blocks behind');
    expect(body).toContain('1 reorg (deepest 35) · 2 faults');
    expect(body).toContain('<td>crash</td><td>svc-72</td><td class="num">150.0 s</td><td class="num">330.0 s</td>');
    expect(body).toContain('<td>crash</td><td>sc-72</td>');
    expect(body).toContain('<svg class="strip"');
    expect(body).toContain('<a href="#tree-3">shared with 15 other nodes</a>');
    const sc10 = html.slice(html.indexOf('<details class="node" id="node-sc-10">'));
    expect(sc10.slice(0, sc10.indexOf('</details>'))).toMatch(/at most 1 block behind .* no reorg<\/summary>/);
  });

  it('the page stays small: under 2 MB at 105 nodes and under 4 MB at 256', () => {
    expect(Buffer.byteLength(html)).toBeLessThan(2_000_000);
    const huge = syntheticRun(256);
    expect(Buffer.byteLength(reportHtml(huge.scenario, huge.result))).toBeLessThan(4_000_000);
  });

  it('the same input gives the same bytes (twice, and from a copy of the result)', () => {
    expect(reportHtml(large.scenario, large.result)).toBe(html);
    const copy = deserialize(serialize(large.result)) as RunResult;
    expect(reportHtml(large.scenario, copy)).toBe(html);
    // And it is self-contained like the small page.
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  it(`shows every node up to ${EVERY_NODE_UP_TO} nodes, and aggregates above`, () => {
    const small = syntheticRun(EVERY_NODE_UP_TO);
    const a = reportHtml(small.scenario, small.result);
    expect(a.match(/<svg class="forktree"/g)).toHaveLength(EVERY_NODE_UP_TO);
    expect(a.match(/<path class="series" data-series="sc-\d+"/g)).toHaveLength(EVERY_NODE_UP_TO);
    expect(a).not.toContain('class="heat" data-node=');
    expect(a).not.toContain('data-nodes=');
    const over = syntheticRun(EVERY_NODE_UP_TO + 1);
    const b = reportHtml(over.scenario, over.result);
    expect(b.match(/<svg class="forktree"/g)!.length).toBeLessThan(EVERY_NODE_UP_TO + 1);
    expect(b).not.toMatch(/<path class="series" data-series="sc-\d+"/);
    expect(b.match(/class="heat" data-node=/g)).toHaveLength(EVERY_NODE_UP_TO + 1);
    // Both have the per-node detail.
    expect(a.match(/<details class="node"/g)).toHaveLength(EVERY_NODE_UP_TO);
    expect(b.match(/<details class="node"/g)).toHaveLength(EVERY_NODE_UP_TO + 1);
  });

  it('a short real mainnet-105 run: aggregated, every node in one tree group, the same page in both placements', async () => {
    const s = loadScenario('mainnet-105').scenario;
    const inline = runScenario(s, { seed: 1, untilMs: 30_000 });
    const worker = await runScenarioAsync(s, { seed: 1, untilMs: 30_000, placement: 'worker' });
    const page = reportHtml(s, inline);
    expect(reportHtml(s, worker)).toBe(page);
    expect(page).toContain('Sidechain height across 105 nodes');
    const nodes = [...page.matchAll(/<details class="tree" id="tree-\d+" data-nodes="([^"]*)"/g)].flatMap((m) =>
      m[1]!.split(' '),
    );
    expect(nodes.sort()).toEqual(inline.sidechain.nodes.map((n) => n.node).sort());
    expect(page.match(/<svg class="forktree"/g)!.length).toBeLessThan(10);
    expect(Buffer.byteLength(page)).toBeLessThan(1_000_000);
  }, 120_000);
});

describe('node detail helpers', () => {
  it('a fault names a node by its id, its service node, or its validator', () => {
    expect(faultNames('sc-5', 'sc-5', 5)).toBe(true);
    expect(faultNames('svc-5', 'sc-5', 5)).toBe(true);
    expect(faultNames('sc-50', 'sc-5', 5)).toBe(false);
    expect(faultNames('svc-15', 'sc-5', 5)).toBe(false);
    expect(faultNames('validator 5 +3s', 'sc-5', 5)).toBe(true);
    expect(faultNames('validator 51', 'sc-5', 5)).toBe(false);
    expect(faultNames('validators 1, 5, 9', 'sc-5', 5)).toBe(true);
    expect(faultNames('validators 15, 55', 'sc-5', 5)).toBe(false);
    expect(faultNames('sc-1+sc-5 | sc-2', 'sc-5', 5)).toBe(true);
    expect(faultNames('sc-1+sc-2 -> sc-5', 'sc-5', 5)).toBe(true);
  });

  it('periods behind the head run from the first sample behind to the next sample at the head', () => {
    expect(behindPeriods([0, 5, 10, 15, 20], [0, 1, 3, 0, 2], 25)).toEqual([
      { fromMs: 5, toMs: 15, most: 3, samples: 2 },
      { fromMs: 20, toMs: 25, most: 2, samples: 1 },
    ]);
    expect(behindPeriods([0, 5], [0, 0], 10)).toEqual([]);
  });
});
