/**
 * Merging hunt shards: the rows of every shard together, in population order; refused: a shard
 * given twice, shards of other parameters, commits or shard counts, an interrupted shard, a merged
 * result given as a shard, a file that is not a hunt result. The missing shards are named.
 */
import { describe, expect, it } from 'vitest';
import { HUNT_KIND, type HuntShard, mergeHunts } from './results';
import { renderHunt } from './render';

function shard(index: number, over: Partial<HuntShard> = {}): HuntShard {
  return {
    kind: HUNT_KIND,
    version: '0.1.0',
    commit: 'abc',
    params: {
      seed: 9,
      sample: 2,
      budgetS: 120,
      strategies: ['swarm', 'guided'],
      swarmDurationMs: 7_200_000,
      campaignSeed: 9,
      plants: ['send-debit'],
      targets: ['src/modules'],
      mutators: ['EqualityOperator'],
      populationSize: 100,
      populationHash: 'h',
      mutantKeys: ['m1', 'm2'],
    },
    shard: { index, count: 3 },
    interrupted: false,
    rows: (['swarm', 'guided'] as const).map((strategy) => ({
      index: index - 1,
      strategy,
      bug: { type: 'plant', key: `plant:${index}`, plant: 'send-debit', rule: 'r', guards: ['accounts-and-fees'] },
      caught: strategy === 'guided',
      cpuS: strategy === 'guided' ? 3 : 120,
      spentS: 3,
      runs: 2,
      kind: strategy === 'guided' ? 'safety' : null,
      oracle: strategy === 'guided' ? 'accounts-and-fees' : null,
      message: '',
      reached: null,
      alsoFailsUnmodified: [],
      catchRun: null,
      byGuard: strategy === 'guided' ? true : null,
    })),
    unit: { examined: 3, ran: 3, cached: 0, wallMs: 1 },
    wall: { totalMs: 1, huntMs: 1 },
    cpu: null,
    machine: { cpus: 2, model: 'cpu', loadStart: [0, 0, 0], loadEnd: [0, 0, 0] },
    ...over,
  };
}

describe('hunt results', () => {
  it('merges shards and names the missing ones', () => {
    const m = mergeHunts([
      { file: 'b', value: shard(3) },
      { file: 'a', value: shard(1) },
    ]);
    expect(m.rows.map((r) => `${r.index} ${r.strategy}`)).toEqual(['0 guided', '0 swarm', '2 guided', '2 swarm']);
    expect(m.missingShards).toEqual([2]);
    const text = renderHunt(m);
    expect(text).toContain('2 of 3 shards (missing: 2)');
    expect(text).toMatch(/\| caught +\| 0\/2 = 0% +\| 2\/2 = 100% +\|/);
    expect(text).toContain('median CPU-s to the first catch, swarm / guided: 40.00x');
  });

  it('refuses what would count wrong', () => {
    const merge =
      (...parts: unknown[]) =>
      () =>
        mergeHunts(parts.map((value, i) => ({ file: `f${i}`, value })));
    expect(merge(shard(1), shard(1))).toThrow('shard 1 is given twice');
    expect(merge(shard(1), shard(2, { commit: 'def' }))).toThrow('comes from commit def');
    expect(merge(shard(1), shard(2, { params: { ...shard(2).params, budgetS: 60 } }))).toThrow('other parameters');
    expect(merge(shard(1), shard(2, { shard: { index: 2, count: 4 } }))).toThrow('is shard 2/4');
    expect(merge(shard(1, { interrupted: true }))).toThrow('was interrupted');
    expect(merge(mergeHunts([{ file: 'a', value: shard(1) }]))).toThrow('is already merged');
    expect(merge({ kind: 'lockstep-mutation-shard' })).toThrow('not a hunt bench result');
  });
});
