/**
 * The per-run metrics on real runs whose figures are known from the scenario (a 60 s cut-off of
 * the in-turn producer, a calm network with state syncs and checkpoints), and on edits of one run
 * that move exactly one metric; and the table documented in docs/SWEEPS.md is this table.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../scenario/load';
import { runScenario } from '../run/run';
import { type RunResult } from '../run/runResult';
import { METRIC_NAMES } from '../core/metricNames';
import { METRICS, computeMetrics, metricsMarkdown, metricsOfDigest, touchedSidechainNodes } from './metrics';
import { runDigest } from './runDigest';
import { PACKAGE_ROOT } from '../../cli/provenance';

const run = (name: string, untilS?: number): RunResult => {
  const { scenario } = loadScenario(name);
  return runScenario(scenario, { seed: scenario.seed ?? 1, ...(untilS ? { untilMs: untilS * 1000 } : {}) });
};

describe('metrics', () => {
  const cutOff = run('sprint-16');
  const smoke = run('smoke');

  it('a cut-off in-turn producer: the healthy nodes reorg onto its branch, it is left out of the healthy depth', () => {
    const m = computeMetrics(cutOff);
    const isolated = touchedSidechainNodes(cutOff);
    expect(isolated.size).toBe(1);
    const healthy = cutOff.reorgs.filter((x) => !isolated.has(x.node));
    expect(healthy.length).toBeGreaterThan(0);
    expect(m.reorgDepth).toBe(cutOff.maxReorgDepth);
    expect(m.reorgDepthHealthy).toBe(Math.max(...healthy.map((x) => x.depth)));
    expect(m.reorgs).toBe(cutOff.reorgs.length);
    expect(m.reorgDepthMean).toBe(cutOff.reorgs.reduce((s, x) => s + x.depth, 0) / cutOff.reorgs.length);
  });

  it('a calm network: no reorg, one round per height, blocks about every commit timeout, state syncs after their delay', () => {
    const m = computeMetrics(smoke);
    expect(m).toMatchObject({ reorgDepth: 0, reorgDepthHealthy: 0, reorgDepthMean: null, reorgs: 0, noAcks: 0 });
    expect(m.roundsPerHeightMean).toBe(1);
    // commitTimeout 2 s plus a proposal and two vote rounds of 20–80 ms each.
    expect(m.serviceBlockIntervalMeanS).toBeGreaterThan(2);
    expect(m.serviceBlockIntervalMeanS).toBeLessThan(2.6);
    // smoke: stateSyncDelayS 10, parent confirmations 2 x 4 s, the next sprint start.
    expect(m.stateSyncLatencyMedianS).toBeGreaterThan(10);
    expect(m.stateSyncLatencyMaxS).toBeLessThan(120);
    // Four acked checkpoints: the median is the mean of the middle two latencies.
    const lat = smoke.checkpointLatencyMs.slice().sort((a, b) => a - b);
    expect(lat).toHaveLength(4);
    expect(m.checkpointLatencyMedianS).toBe((lat[1]! + lat[2]!) / 2 / 1000);
    expect(m.checkpointLatencyMaxS).toBe(lat[3]! / 1000);
    expect(m.checkpointsAcked).toBe(smoke.counts.checkpointsAcked);
    expect(m.checkpointGapMaxS).toBeGreaterThan(0);
    expect(m.checkpointGapMaxS).toBeLessThanOrEqual(smoke.simulatedMs / 1000);
  });

  it('the checkpoint gap is the longest stretch without an ack, the end included', () => {
    const acked = (ms: number[]): RunResult => ({
      ...smoke,
      simulatedMs: 100_000,
      main: {
        ...smoke.main,
        checkpointTimes: ms.map((t, i) => ({ startBlock: String(i), bufferedMs: t - 1, ackedMs: t })),
      },
    });
    expect(computeMetrics(acked([10_000, 20_000, 60_000])).checkpointGapMaxS).toBe(40);
    expect(computeMetrics(acked([50_000])).checkpointGapMaxS).toBe(50);
    expect(computeMetrics(acked([])).checkpointGapMaxS).toBe(100);
  });

  it('a metric without a value is null (no checkpoint acked, no state sync emitted)', () => {
    const m = computeMetrics({
      ...smoke,
      checkpointLatencyMs: [],
      main: { ...smoke.main, records: [] },
      sidechainRecords: [],
    });
    expect(m).toMatchObject({
      checkpointLatencyMedianS: null,
      stateSyncLatencyMedianS: null,
      serviceBlockIntervalMeanS: null,
      roundsPerHeightMean: null,
    });
  });

  it('faults name the sidechain nodes they touch by sc-N or validator index; a service crash touches none', () => {
    const fired = (detail: string): RunResult => ({
      ...smoke,
      faultsFired: [{ kind: 'x', atMs: 0, detail, index: 0 }],
    });
    expect([...touchedSidechainNodes(fired('validators 2, 5'))]).toEqual(['sc-2', 'sc-5']);
    expect([...touchedSidechainNodes(fired('sc-1+sc-2 | sc-3'))]).toEqual(['sc-1', 'sc-2', 'sc-3']);
    expect([...touchedSidechainNodes(fired('validator 3 +4s'))]).toEqual(['sc-3']);
    expect(touchedSidechainNodes(fired('svc-3')).size).toBe(0);
  });

  it("every metric comes from the run's digest alone, which survives JSON (a sweep's stored runs are measured again)", () => {
    for (const r of [cutOff, smoke]) {
      const stored = JSON.parse(JSON.stringify(runDigest(r)));
      expect(metricsOfDigest(stored)).toEqual(computeMetrics(r));
      // Compact: a few kilobytes for a run of minutes.
      expect(JSON.stringify(stored).length).toBeLessThan(20_000);
    }
  });

  it('names are unique, say their unit last where it is a time, and unknown names are refused', () => {
    // The table defines every name files may use, once each, in the list's order.
    expect(METRICS.map((m) => m.name)).toEqual([...METRIC_NAMES]);
    for (const m of METRICS) if (m.unit === 's') expect(m.name).toMatch(/S$/);
    expect(() => computeMetrics(smoke, ['nope'])).toThrow(/unknown metric "nope"/);
  });

  it('docs/SWEEPS.md holds this table', () => {
    const doc = readFileSync(join(PACKAGE_ROOT, 'docs', 'SWEEPS.md'), 'utf8');
    expect(doc).toContain(metricsMarkdown());
  });
});
