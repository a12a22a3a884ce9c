/**
 * StakeManager rules, one test each: slots, minimum stake, signer uniqueness, key checks, owner-only
 * restake / unstake / updateSigner, epochs, the current validator set, and "a failed call changes
 * nothing" (the state digest is unchanged and no logs come back).
 */
import { describe, expect, it } from 'vitest';
import { ONE_TOKEN } from '../../core/amount';
import { type Hex } from '../../core/bytes';
import { decodeLog } from '../abi';
import { PARENT_CONTRACTS } from './addresses';
import { type CallResult } from './callResult';
import { StakeManager } from './stakeManager';
import { testOwner, testSigner, tokens } from '../testing/parentTestKit';

const TX = `0x${'01'.repeat(32)}` as Hex;

function decoded(r: CallResult) {
  expect(r.ok).toBe(true);
  if (!r.ok) throw new Error(r.error);
  return r.logs.map((l, i) => {
    expect(l.address).toBe(PARENT_CONTRACTS.stakingInfo);
    const d = decodeLog({ ...l, txHash: TX, logIndex: BigInt(i), blockNumber: 1n });
    expect(d).not.toBeNull();
    return d!;
  });
}

/** Expect the call to fail with `message` and leave the contract exactly as it was. */
function expectRejected(sm: StakeManager, call: () => CallResult, message: string | RegExp): void {
  const before = sm.stateJson();
  const r = call();
  expect(r.ok).toBe(false);
  if (!r.ok) expect(r.error).toMatch(message);
  expect(sm.stateJson()).toBe(before);
}

function withValidators(n: number, slots = 10): StakeManager {
  const sm = new StakeManager({ validatorThreshold: slots });
  for (let i = 0; i < n; i++) expect(sm.stake(testOwner(i), testSigner(i).pubkey, tokens(10 + i)).ok).toBe(true);
  return sm;
}

describe('stake', () => {
  it('emits Staked with the signer, sequential id, activationEpoch = currentEpoch, total stake and the 64-byte key', () => {
    const sm = withValidators(1);
    const [ev] = decoded(sm.stake(testOwner(1), testSigner(1).pubkey, tokens(5)));
    expect(ev).toEqual({
      name: 'Staked',
      txHash: TX,
      logIndex: 0n,
      blockNumber: 1n,
      signer: testSigner(1).address,
      validatorId: 2n,
      activationEpoch: 1n,
      amount: tokens(5),
      total: tokens(15),
      signerPubkey: `0x${testSigner(1).pubkey.slice(4)}`,
    });
    expect(sm.validator(2n)).toEqual({
      id: 2n,
      owner: testOwner(1),
      signer: testSigner(1).address,
      signerPubkey: testSigner(1).pubkey,
      amount: tokens(5),
      activationEpoch: 1n,
      deactivationEpoch: 0n,
    });
  });

  it('stakeFor makes `user` the owner, not the sender', () => {
    const sm = withValidators(0);
    expect(sm.stakeFor(testOwner(9), testOwner(3), testSigner(3).pubkey, tokens(2)).ok).toBe(true);
    expect(sm.validator(1n)?.owner).toBe(testOwner(3));
    expect(sm.unstake(testOwner(9), 1n)).toEqual({ ok: false, error: 'not the owner' });
    expect(sm.unstake(testOwner(3), 1n).ok).toBe(true);
  });

  it('no free slot: stake and stakeFor fail with "no more slots" and change nothing; a slot freed by unstake can be taken', () => {
    const sm = withValidators(2, 2);
    expectRejected(sm, () => sm.stake(testOwner(5), testSigner(5).pubkey, tokens(1)), /^no more slots$/);
    expectRejected(
      sm,
      () => sm.stakeFor(testOwner(5), testOwner(6), testSigner(5).pubkey, tokens(1)),
      /^no more slots$/,
    );
    expect(sm.unstake(testOwner(0), 1n).ok).toBe(true);
    expect(sm.slotsInUse()).toBe(1);
    const [ev] = decoded(sm.stake(testOwner(5), testSigner(5).pubkey, tokens(1)));
    expect(ev).toMatchObject({ name: 'Staked', validatorId: 3n });
    expectRejected(sm, () => sm.stake(testOwner(6), testSigner(6).pubkey, tokens(1)), /^no more slots$/);
  });

  it('zero slots: nobody can stake', () => {
    const sm = new StakeManager({ validatorThreshold: 0 });
    expectRejected(sm, () => sm.stake(testOwner(0), testSigner(0).pubkey, tokens(1)), /^no more slots$/);
  });

  it('below one token fails; exactly one token is enough', () => {
    const sm = withValidators(0);
    expectRejected(sm, () => sm.stake(testOwner(0), testSigner(0).pubkey, ONE_TOKEN - 1n), /at least 1 token/);
    expectRejected(sm, () => sm.stake(testOwner(0), testSigner(0).pubkey, 0n), /at least 1 token/);
    expect(sm.stake(testOwner(0), testSigner(0).pubkey, ONE_TOKEN).ok).toBe(true);
  });

  it('a signer already staked fails, even once its validator has unstaked', () => {
    const sm = withValidators(1);
    expectRejected(sm, () => sm.stake(testOwner(7), testSigner(0).pubkey, tokens(1)), /signer already staked/);
    expect(sm.unstake(testOwner(0), 1n).ok).toBe(true);
    expectRejected(sm, () => sm.stake(testOwner(7), testSigner(0).pubkey, tokens(1)), /signer already staked/);
  });

  it('malformed keys and arguments fail', () => {
    const sm = withValidators(0);
    const pub = testSigner(0).pubkey;
    expectRejected(sm, () => sm.stake(testOwner(0), `0x${pub.slice(4)}` as Hex, tokens(1)), /invalid signer pubkey/); // 64 bytes
    expectRejected(
      sm,
      () => sm.stake(testOwner(0), `0x02${pub.slice(4, 68)}` as Hex, tokens(1)),
      /invalid signer pubkey/,
    ); // compressed
    expectRejected(sm, () => sm.stake(testOwner(0), `0x05${pub.slice(4)}` as Hex, tokens(1)), /invalid signer pubkey/); // wrong prefix
    expectRejected(
      sm,
      () => sm.stake(testOwner(0), `0x04${'11'.repeat(64)}` as Hex, tokens(1)),
      /not an uncompressed secp256k1 public key/,
    ); // off the curve
    expectRejected(sm, () => sm.stake(testOwner(0), 'nope' as Hex, tokens(1)), /invalid signer pubkey/);
    expectRejected(sm, () => sm.stake('0x1234' as Hex, pub, tokens(1)), /invalid owner/);
    expectRejected(sm, () => sm.stake(testOwner(0), pub, 5 as unknown as bigint), /invalid amount/);
    expectRejected(sm, () => sm.stake(testOwner(0), pub, -1n), /invalid amount/);
  });

  it('an upper-case key and owner are stored lower-case', () => {
    const sm = withValidators(0);
    const pub = testSigner(0).pubkey;
    expect(
      sm.stake(
        testOwner(0).toUpperCase().replace('0X', '0x') as Hex,
        `0x${pub.slice(2).toUpperCase()}` as Hex,
        tokens(1),
      ).ok,
    ).toBe(true);
    expect(sm.validator(1n)).toMatchObject({ owner: testOwner(0), signerPubkey: pub });
  });
});

describe('restake', () => {
  it('the owner adds stake: StakeUpdate(validatorId, newAmount)', () => {
    const sm = withValidators(2);
    const [ev] = decoded(sm.restake(testOwner(1), 2n, tokens(4)));
    expect(ev).toMatchObject({ name: 'StakeUpdate', validatorId: 2n, newAmount: tokens(15) });
    expect(sm.totalStaked).toBe(tokens(10 + 11 + 4));
  });

  it('by a non-owner fails', () => {
    const sm = withValidators(2);
    expectRejected(sm, () => sm.restake(testOwner(0), 2n, tokens(1)), /^not the owner$/);
  });

  it('of an unknown validator, of zero, or of an unstaking validator fails', () => {
    const sm = withValidators(2);
    expectRejected(sm, () => sm.restake(testOwner(0), 9n, tokens(1)), /no validator 9/);
    expectRejected(sm, () => sm.restake(testOwner(0), 1n, 0n), /amount must be positive/);
    expect(sm.unstake(testOwner(0), 1n).ok).toBe(true);
    expectRejected(sm, () => sm.restake(testOwner(0), 1n, tokens(1)), /not active/);
  });
});

describe('unstake', () => {
  it('emits UnstakeInit(user = owner, id, deactivationEpoch = currentEpoch + 1, amount)', () => {
    const sm = withValidators(2);
    sm.advanceEpoch();
    sm.advanceEpoch();
    const [ev] = decoded(sm.unstake(testOwner(1), 2n));
    expect(ev).toMatchObject({
      name: 'UnstakeInit',
      user: testOwner(1),
      validatorId: 2n,
      deactivationEpoch: 4n,
      amount: tokens(11),
    });
    expect(sm.validator(2n)?.deactivationEpoch).toBe(4n);
  });

  it('twice fails', () => {
    const sm = withValidators(2);
    expect(sm.unstake(testOwner(1), 2n).ok).toBe(true);
    expectRejected(sm, () => sm.unstake(testOwner(1), 2n), /unstake already in progress/);
  });

  it('by a non-owner fails', () => {
    const sm = withValidators(2);
    expectRejected(sm, () => sm.unstake(testOwner(0), 2n), /^not the owner$/);
  });
});

describe('updateSigner', () => {
  it('emits SignerChange(id, old, new, 64-byte key); the old signer is free again', () => {
    const sm = withValidators(2);
    const [ev] = decoded(sm.updateSigner(testOwner(0), 1n, testSigner(5).pubkey));
    expect(ev).toMatchObject({
      name: 'SignerChange',
      validatorId: 1n,
      oldSigner: testSigner(0).address,
      newSigner: testSigner(5).address,
      signerPubkey: `0x${testSigner(5).pubkey.slice(4)}`,
    });
    expect(sm.validator(1n)).toMatchObject({ signer: testSigner(5).address, signerPubkey: testSigner(5).pubkey });
    expect(sm.validatorIdBySigner(testSigner(5).address)).toBe(1n);
    expect(sm.validatorIdBySigner(testSigner(0).address)).toBeNull();
    expect(sm.stake(testOwner(9), testSigner(0).pubkey, tokens(1)).ok).toBe(true);
  });

  it('to the same signer fails', () => {
    const sm = withValidators(2);
    expectRejected(sm, () => sm.updateSigner(testOwner(0), 1n, testSigner(0).pubkey), /new signer same as old signer/);
  });

  it("to another validator's signer fails", () => {
    const sm = withValidators(2);
    expectRejected(sm, () => sm.updateSigner(testOwner(0), 1n, testSigner(1).pubkey), /signer already in use/);
  });

  it('by a non-owner, with a malformed key, or after unstake fails', () => {
    const sm = withValidators(2);
    expectRejected(sm, () => sm.updateSigner(testOwner(1), 1n, testSigner(5).pubkey), /^not the owner$/);
    expectRejected(sm, () => sm.updateSigner(testOwner(0), 1n, '0x04' as Hex), /invalid signer pubkey/);
    expect(sm.unstake(testOwner(0), 1n).ok).toBe(true);
    expectRejected(sm, () => sm.updateSigner(testOwner(0), 1n, testSigner(5).pubkey), /not active/);
  });
});

describe('topUpForFee', () => {
  it('emits TopUpFee(user, fee) for anyone paying for anyone', () => {
    const sm = withValidators(0);
    const [ev] = decoded(sm.topUpForFee(testOwner(1), testSigner(2).address, 10n ** 15n));
    expect(ev).toMatchObject({ name: 'TopUpFee', user: testSigner(2).address, fee: 10n ** 15n });
    expect(sm.totalFees).toBe(10n ** 15n);
  });

  it('a zero fee or a bad user fails', () => {
    const sm = withValidators(0);
    expectRejected(sm, () => sm.topUpForFee(testOwner(1), testSigner(2).address, 0n), /fee must be positive/);
    expectRejected(sm, () => sm.topUpForFee(testOwner(1), '0xzz' as Hex, 1n), /invalid user/);
  });
});

describe('epochs and the current validator set', () => {
  it('currentEpoch starts at 1; activationEpoch is the epoch at stake time', () => {
    const sm = withValidators(1);
    expect(sm.currentEpoch).toBe(1n);
    sm.advanceEpoch();
    sm.advanceEpoch();
    expect(sm.currentEpoch).toBe(3n);
    const [ev] = decoded(sm.stake(testOwner(1), testSigner(1).pubkey, tokens(1)));
    expect(ev).toMatchObject({ activationEpoch: 3n });
  });

  it('an unstaking validator stays current until its deactivation epoch; power = floor(amount / 10^18)', () => {
    const sm = new StakeManager({ validatorThreshold: 10 });
    expect(sm.stake(testOwner(0), testSigner(0).pubkey, tokens(3) + ONE_TOKEN - 1n).ok).toBe(true);
    expect(sm.stake(testOwner(1), testSigner(1).pubkey, tokens(2)).ok).toBe(true);
    expect(sm.unstake(testOwner(0), 1n).ok).toBe(true); // deactivation epoch 2
    expect(new Map(sm.currentValidators().map((v) => [v.id, v.power]))).toEqual(
      new Map([
        [1n, 3n],
        [2n, 2n],
      ]),
    );
    sm.advanceEpoch();
    expect(sm.currentValidators().map((v) => v.id)).toEqual([2n]);
  });

  it('currentValidators is in signer-address order', () => {
    const sm = withValidators(8);
    const signers = sm.currentValidators().map((v) => v.signer);
    expect(signers).toEqual([...signers].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(signers).toHaveLength(8);
  });

  it('genesis stake: no logs, activation epoch 1, same rules', () => {
    const sm = new StakeManager({ validatorThreshold: 1 });
    expect(sm.stakeAtGenesis(testOwner(0), testSigner(0).pubkey, tokens(1))).toEqual({ ok: true, logs: [] });
    expect(sm.stakeAtGenesis(testOwner(1), testSigner(1).pubkey, tokens(1))).toEqual({
      ok: false,
      error: 'no more slots',
    });
    expect(sm.validator(1n)?.activationEpoch).toBe(1n);
  });
});
