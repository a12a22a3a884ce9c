/** The checkpoint-submitter oracle: silent when the proposer submits, fires when another validator does. */
import { describe, expect, it } from 'vitest';
import { type Address } from '../../src/core/address';
import { CheckpointSubmitterOracle } from './checkpointSubmitter';
import { VALIDATORS, commit, rec, serviceGenesis } from './testing/observations';

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

  it("follows the proposer's validator through a signer change, on the submitting node's own state", () => {
    const o = new CheckpointSubmitterOracle();
    const v = VALIDATORS[1]!;
    const genesis = serviceGenesis();
    if (genesis.kind !== 'service.genesis') throw new Error('a genesis');
    const stored = genesis.state.find((w) => w.what === 'validator' && w.id === v.id);
    if (stored?.what !== 'validator') throw new Error('validator 2 in the genesis');
    o.observe(rec(0, 'svc-2', genesis));
    o.observe(rec(0, 'svc-3', genesis));
    // Validator 2 rotates from its genesis signer to B on svc-2's state only.
    o.observe(rec(10, 'svc-2', commit(5n, { writes: [{ ...stored, signer: B }] })));
    const resubmit = { kind: 'bridge.parentCall', method: 'submitCheckpoint', key: 'submit/0', from: B } as const;
    o.observe(rec(20, 'svc-2', { ...resubmit, proposer: v.signer }));
    expect(o.violation).toBeNull();
    // A node whose state never saw the change is judged on its own state: B is not validator 2's there.
    o.observe(rec(21, 'svc-3', { ...resubmit, proposer: v.signer }));
    expect(o.violation?.message).toMatch(/svc-3 sent checkpoint submit\/0 to the parent chain as 0x0b/);
  });

  it("does not take two validators' signers for one", () => {
    const o = new CheckpointSubmitterOracle();
    o.observe(rec(0, 'svc-1', serviceGenesis()));
    const [v1, v2] = [VALIDATORS[0]!, VALIDATORS[1]!];
    o.observe(
      rec(1, 'svc-1', {
        kind: 'bridge.parentCall',
        method: 'submitCheckpoint',
        key: 'submit/0',
        from: v2.signer,
        proposer: v1.signer,
      }),
    );
    expect(o.violation?.message).toMatch(/but its proposer is/);
  });
});
