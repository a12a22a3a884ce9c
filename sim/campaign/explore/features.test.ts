/**
 * The explorer's features: log2 buckets, messages with numbers and hex masked, consensus tuples
 * with the lock a node holds, notable events paired with the fault kinds in force, and families
 * switched off when not asked for.
 */
import { describe, expect, it } from 'vitest';
import { type RunRecord } from '../../core/record';
import { FeatureCollector, bucket, normalise } from './features';

const vote = (node: string, type: 'prevote' | 'precommit', round: number, block: boolean, t = 0): RunRecord =>
  ({
    t,
    node,
    obs: {
      kind: 'consensus.vote',
      origin: 'consensus',
      vote: { type, height: 5n, round, blockHash: block ? '0xab' : null, validator: '0x01' },
    },
  }) as RunRecord;

const fault = (start: boolean, kind: string, index: number): RunRecord =>
  ({
    t: 0,
    node: '',
    obs: {
      kind: start ? 'fault.start' : 'fault.end',
      index,
      fault: kind,
      detail: '',
      permanent: false,
      atHeight: null,
    },
  }) as RunRecord;

const features = (c: FeatureCollector) =>
  c.finish({
    rulesExercised: ['a.rule'],
    counts: { reorgs: 3, noAcks: 0, checkpointsAcked: 9, spans: 1, sidechainTransfers: 0 },
    maxReorgDepth: 2,
    backupBlocks: 17,
    network: { dropped: 0 },
  } as never);

describe('explorer features', () => {
  it('buckets and normalises', () => {
    expect([0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 1000].map(bucket)).toEqual([
      '0',
      '1',
      '2',
      '3-4',
      '3-4',
      '5-8',
      '5-8',
      '9-16',
      '9-16',
      '17-32',
      '513-1024',
    ]);
    expect(normalise('block 12 rejected: 0xdeadBEEF is not 7')).toBe('block N rejected: 0x… is not N');
  });

  it('sees a lock, pairs notable events with the faults in force, and honours the families', () => {
    const c = new FeatureCollector();
    c.onRecord(vote('svc-1', 'precommit', 0, true));
    c.onRecord(fault(true, 'partition', 0));
    c.onRecord(vote('svc-1', 'prevote', 1, false));
    c.onRecord(fault(false, 'partition', 0));
    c.onRecord(vote('svc-2', 'prevote', 1, false));
    const f = features(c);
    expect(f).toContain('bft:precommit:block:r0:free');
    expect(f).toContain('bft:prevote:nil:r1:locked');
    expect(f).toContain('bft:prevote:nil:r1:free');
    expect(f).toContain('at:bft:prevote:nil:r1:locked@partition');
    expect(f).not.toContain('at:bft:prevote:nil:r1:free@partition');
    expect(f).toContain('load:fault:partition');
    expect(f).toContain('rule:a.rule');
    expect(f).toContain('count:reorgs:3-4');
    expect(f).toContain('count:backupBlocks:17-32');
    expect([...f].sort()).toEqual(f);
    const only = new FeatureCollector(['rule']);
    only.onRecord(vote('svc-1', 'precommit', 0, true));
    expect(features(only)).toEqual(['rule:a.rule']);
  });

  it('names a node that joins a height in round 0 behind the others, calm or under a fault', () => {
    const rec = (node: string, obs: Record<string, unknown>): RunRecord =>
      ({ t: 0, node, obs }) as unknown as RunRecord;
    const c = new FeatureCollector();
    c.onRecord(rec('svc-1', { kind: 'service.commit', height: 9n, commit: { round: 0 }, txs: [], sideTxs: [] }));
    c.onRecord(rec('svc-1', { kind: 'consensus.round', height: 10n, round: 2 }));
    // A node at another height, or at the same height in round 0, is not behind anyone.
    c.onRecord(rec('svc-3', { kind: 'service.started', height: 4n }));
    expect(features(c).some((x) => x.startsWith('bft:joinsBehind'))).toBe(false);
    // A restart (recorded while its own crash is still in force) joins height 10 behind round 2.
    c.onRecord(fault(true, 'crash', 0));
    c.onRecord(rec('svc-2', { kind: 'service.started', height: 9n }));
    expect(features(c)).toContain('bft:joinsBehind:r2+:calm');
    c.onRecord(fault(true, 'partition', 1));
    c.onRecord(rec('svc-4', { kind: 'service.synced', height: 9n }));
    expect(features(c)).toContain('bft:joinsBehind:r2+:faulty');
  });
});
