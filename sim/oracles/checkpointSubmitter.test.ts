/** The checkpoint-submitter oracle: silent when the proposer submits, fires when another validator does. */
import { describe, expect, it } from 'vitest';
import { type Address } from '../../src/core/address';
import { CheckpointSubmitterOracle } from './checkpointSubmitter';
import { rec } from './testing/observations';

const A = `0x${'0a'.repeat(20)}` as Address;
const B = `0x${'0b'.repeat(20)}` as Address;

describe('checkpoint-submitter', () => {
  it('is silent when the proposer submits (its address in either case) and on other calls', () => {
    const o = new CheckpointSubmitterOracle();
    o.observe(
      rec(1, 'svc-1', { kind: 'bridge.parentCall', method: 'submitCheckpoint', key: 'submit/0', from: A, proposer: A }),
    );
    o.observe(
      rec(2, 'svc-1', {
        kind: 'bridge.parentCall',
        method: 'submitCheckpoint',
        key: 'submit/0',
        from: A,
        proposer: A.toUpperCase().replace('0X', '0x') as Address,
      }),
    );
    o.observe(rec(3, 'svc-2', { kind: 'bridge.parentCall', method: 'topUpForFee', key: 'x', from: B, proposer: null }));
    expect(o.violation).toBeNull();
    expect(o.exercised.has('bridge.checkpoint.proposer-submits')).toBe(true);
  });

  it('fires when a validator submits a checkpoint whose proposer is another', () => {
    const o = new CheckpointSubmitterOracle();
    o.observe(
      rec(1, 'svc-2', { kind: 'bridge.parentCall', method: 'submitCheckpoint', key: 'submit/0', from: B, proposer: A }),
    );
    expect(o.violation?.message).toMatch(/svc-2 sent checkpoint submit\/0 .* but its proposer is 0x0a/);
  });
});
