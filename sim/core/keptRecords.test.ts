import { describe, expect, it } from 'vitest';
import { type RunObservation } from './record';
import { keptAfterRun } from './keptRecords';

describe('the records a run keeps', () => {
  it('keeps what the metrics, the report and the message reach read; not the per-message consensus records', () => {
    const kinds = (k: string) => keptAfterRun({ kind: k } as RunObservation);
    for (const k of ['service.commit', 'sidechain.imported', 'parent.block', 'fault.start', 'service.genesis'])
      expect(kinds(k), k).toBe(true);
    for (const k of ['consensus.vote', 'consensus.proposal', 'consensus.round']) expect(kinds(k), k).toBe(false);
  });
});

describe('a run', () => {
  it('keeps, of every record the oracles and onRecord saw, exactly the kept kinds, in the same order', async () => {
    const { loadScenario } = await import('../scenario/load');
    const { runScenario } = await import('../run/run');
    const { scenario } = loadScenario('smoke');
    const seen: Array<{ t: number; node: string; obs: RunObservation }> = [];
    const r = runScenario({ ...scenario, crypto: 'fast' }, { seed: 2, untilMs: 30_000, onRecord: (x) => seen.push(x) });
    expect(seen.some((x) => x.obs.kind === 'consensus.vote')).toBe(true);
    const kept = [...r.main.records, ...r.sidechainRecords];
    expect(kept.some((x) => !keptAfterRun(x.obs))).toBe(false);
    const keptSet = new Set(kept);
    expect(seen.filter((x) => keptAfterRun(x.obs)).every((x) => keptSet.has(x))).toBe(true);
    expect(kept.length).toBe(seen.filter((x) => keptAfterRun(x.obs)).length);
  });
});
