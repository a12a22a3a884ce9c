/**
 * The service's BFT consensus on the simulated network (issue: simulated network, "BFT" done-when):
 * liveness with up to 2 of 7 equal validators crashed or partitioned away, no commit without a
 * +2/3 side and recovery after the heal, and safety under a double-signing validator below 1/3.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../sim/scenario/load';
import { runScenario, type RunResult } from '../sim/run/run';

/** Commit times (virtual ms since start) of every block on a node's disk. */
function commitTimes(r: RunResult, node: number, epochMs: number): number[] {
  return r.main.nodes[node]!.commits.map((c) => c.timeMs - epochMs);
}

/** No two nodes hold different blocks at one height. */
function expectAgreement(r: RunResult): void {
  const byHeight = new Map<bigint, Set<string>>();
  for (const n of r.main.nodes)
    for (const c of n.commits) byHeight.set(c.height, (byHeight.get(c.height) ?? new Set()).add(c.blockHash));
  for (const [h, hashes] of byHeight) expect(hashes.size, `height ${h}`).toBe(1);
}

describe('BFT on the simulated network', () => {
  it('two of seven equal validators crashed: the other five keep committing', () => {
    const { scenario } = loadScenario('bft-two-crashed');
    for (const seed of [1, 2]) {
      const r = runScenario(scenario, { seed });
      expect(r.verdict).toBe('pass');
      // Worst case per height: a crashed proposer's propose timeout (3.5 s at round 1) plus a normal
      // height (about 2.5 s), so at least 120 s / 6 s = 20 blocks in the last two minutes.
      const after = commitTimes(r, 0, scenario.epochMs).filter((t) => t > 60_000);
      expect(after.length).toBeGreaterThanOrEqual(20);
      expectAgreement(r);
    }
  });

  it('two of seven partitioned away: the five commit throughout; the two catch up after the heal', () => {
    const { scenario } = loadScenario('bft-two-partitioned');
    const r = runScenario(scenario, { seed: 1 });
    const majority = commitTimes(r, 4, scenario.epochMs);
    // The same worst case: at least 100 s / 6 s = 16 blocks while the two are cut off.
    expect(majority.filter((t) => t > 60_000 && t < 160_000).length).toBeGreaterThanOrEqual(16);
    const minority = r.main.nodes[0]!;
    const best = Math.max(...r.main.nodes.map((n) => Number(n.height)));
    expect(Number(minority.height)).toBeGreaterThan(best - 5);
    expectAgreement(r);
  });

  it('a 3 | 4 split of seven equal validators commits nothing until the heal, then recovers', () => {
    const { scenario } = loadScenario('bft-no-quorum');
    const r = runScenario(scenario, { seed: 1 });
    for (let i = 0; i < 7; i++) {
      const times = commitTimes(r, i, scenario.epochMs);
      // Blocks proposed before the split may still finish within a few seconds; none after that.
      expect(
        times.filter((t) => t > 50_000 && t < 130_000),
        `svc-${i + 1}`,
      ).toEqual([]);
      expect(times.filter((t) => t > 130_000).length, `svc-${i + 1} after heal`).toBeGreaterThan(20);
    }
    expectAgreement(r);
  });

  it('a double-signing validator with a quarter of the power never splits honest nodes', () => {
    const { scenario } = loadScenario('bft-double-sign');
    for (const seed of [1, 2, 3]) {
      const r = runScenario(scenario, { seed });
      expect(r.verdict).toBe('pass');
      expect(r.counts.serviceBlocks).toBeGreaterThan(40);
      expectAgreement(r);
      // Honest nodes saw the equivocation.
      expect(r.main.records.some((x) => x.obs.kind === 'consensus.evidence')).toBe(true);
    }
  });
});
