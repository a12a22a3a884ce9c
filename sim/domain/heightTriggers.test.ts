import { describe, expect, it } from 'vitest';
import { type FaultSpec } from '../faults/registry';
import { HeightTriggers, heightOf } from './heightTriggers';
import { type RunObservation } from '../core/record';

// Only the fields a trigger reads: the kind and the height (a commit's, an imported block's number).
const commit = (height: number) => ({ kind: 'service.commit', height: BigInt(height) }) as unknown as RunObservation;
const imported = (n: number) =>
  ({ kind: 'sidechain.imported', block: { number: BigInt(n) } }) as unknown as RunObservation;
const other = { kind: 'fault.start' } as unknown as RunObservation;
const round = (height: number, r: number) =>
  ({ kind: 'consensus.round', height: BigInt(height), round: r }) as unknown as RunObservation;

const crashAt = (chain: 'service' | 'sidechain', height: number, forMs?: number): FaultSpec => ({
  kind: 'crash',
  node: chain === 'service' ? 'svc-1' : 'sc-1',
  atHeight: { chain, height },
  ...(forMs !== undefined ? { forMs } : {}),
});

describe('heightOf', () => {
  it('reads a service commit and a sidechain import, and nothing else', () => {
    expect(heightOf(commit(7))).toEqual({ chain: 'service', height: 7 });
    expect(heightOf(imported(64))).toEqual({ chain: 'sidechain', height: 64 });
    expect(heightOf(other)).toBeNull();
  });
});

describe('HeightTriggers', () => {
  it('fires a fault at the first record at or past its height, once, and remembers who reached it', () => {
    const t = new HeightTriggers();
    const f = crashAt('service', 10);
    t.arm(f, 3);
    expect(t.watch('svc-2', commit(9), 0)).toEqual([]);
    expect(t.firedByOf(3)).toBeUndefined();
    expect(t.watch('svc-4', commit(11), 0)).toEqual([{ fault: f, index: 3 }]);
    expect(t.firedByOf(3)).toEqual({ chain: 'service', height: 11, node: 'svc-4' });
    // Disarmed: a later record at the height fires nothing and keeps the first node.
    expect(t.watch('svc-1', commit(12), 0)).toEqual([]);
    expect(t.firedByOf(3)).toEqual({ chain: 'service', height: 11, node: 'svc-4' });
    expect(t.anyArmed).toBe(false);
  });

  it('watches only its own chain', () => {
    const t = new HeightTriggers();
    t.arm(crashAt('sidechain', 5), 0);
    expect(t.watch('svc-1', commit(100), 0)).toEqual([]);
    expect(t.watch('sc-1', other, 0)).toEqual([]);
    expect(t.anyArmed).toBe(true);
    expect(t.watch('sc-2', imported(5), 0)).toHaveLength(1);
  });

  it('fires every fault one record reaches, in scenario order, and keeps the rest armed', () => {
    const t = new HeightTriggers();
    const a = crashAt('service', 4);
    const b = crashAt('service', 8);
    const c = crashAt('service', 2);
    t.arm(a, 0);
    t.arm(b, 1);
    t.arm(c, 2);
    expect(t.watch('svc-1', commit(5), 0).map((x) => x.index)).toEqual([0, 2]);
    expect(t.anyArmed).toBe(true);
    expect(t.watch('svc-1', commit(8), 0).map((x) => x.index)).toEqual([1]);
    expect(t.anyArmed).toBe(false);
  });

  it('fires a round trigger at the first round at least its own, from its time on, and only then', () => {
    const t = new HeightTriggers();
    const f: FaultSpec = { kind: 'crash', node: 'svc-2', atMs: 60_000, atRound: 2, forMs: 30_000 };
    t.arm(f, 5);
    // Before its time a round past it fires nothing; neither do a lower round, a commit or another record.
    expect(t.watch('svc-1', round(10, 3), 59_999)).toEqual([]);
    expect(t.watch('svc-1', round(12, 1), 61_000)).toEqual([]);
    expect(t.watch('svc-1', commit(30), 61_000)).toEqual([]);
    expect(t.watch('svc-1', other, 61_000)).toEqual([]);
    expect(t.anyArmed).toBe(true);
    expect(t.watch('svc-3', round(12, 2), 62_000)).toEqual([{ fault: f, index: 5 }]);
    expect(t.firedByOf(5)).toEqual({ chain: 'service', height: 12, node: 'svc-3', round: 2 });
    expect(t.watch('svc-4', round(12, 3), 63_000)).toEqual([]);
    expect(t.firedByOf(5)?.node).toBe('svc-3');
    expect(t.anyArmed).toBe(false);
  });

  it('bounds the next request: at once for a start that re-plans a producer, else `for` after it fires', () => {
    const t = new HeightTriggers();
    expect(t.requestBoundMs(1_000)).toBe(Infinity);
    t.arm(crashAt('sidechain', 50), 0);
    // A permanent crash never ends: its start sends nothing across, so nothing is bounded.
    expect(t.requestBoundMs(1_000)).toBe(Infinity);
    t.arm(crashAt('sidechain', 60, 5_000), 1);
    expect(t.requestBoundMs(1_000)).toBe(1_000 + 1 + 5_000);
    t.arm({ kind: 'offlineProducer', validator: 2, atHeight: { chain: 'sidechain', height: 70 }, forMs: 9_000 }, 2);
    expect(t.requestBoundMs(1_000)).toBe(1_001);
    // Once they fired, they bound nothing more (their start and end are queued events then).
    t.watch('sc-1', imported(70), 0);
    expect(t.requestBoundMs(1_000)).toBe(Infinity);
  });
});
