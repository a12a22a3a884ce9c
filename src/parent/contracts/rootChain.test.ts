/**
 * RootChain: the 2/3 power rule (exactly 2/3 fails, just above passes), what does not count
 * (duplicates, non-validators, signatures over another checkpoint, malformed signatures),
 * continuity, header-block records and ids, epoch advance, and the vote digest against an
 * independent ABI encoding.
 */
import { describe, expect, it } from 'vitest';
import { AbiCoder, concat, keccak256 } from 'ethers';
import { type Hex, toHex } from '../../core/bytes';
import { compareAddresses } from '../../core/address';
import { decodeLog } from '../abi';
import { PARENT_CONTRACTS } from './addresses';
import { type CallResult } from './callResult';
import { StakeManager } from './stakeManager';
import { RootChain, checkpointSideSignBytes, checkpointSignDigest } from './rootChain';
import {
  signCheckpoint,
  testCheckpoint,
  testOwner,
  testSigner,
  tokens,
  type TestSigner,
} from '../testing/parentTestKit';

// Powers 2, 1, 1, 2 (total 6): exactly 2/3 is 4.
const A = testSigner(0);
const B = testSigner(1);
const C = testSigner(2);
const D = testSigner(3);
const OUTSIDER = testSigner(50);
const SENDER = testOwner(99);

function setup(
  powers: Array<[TestSigner, number]> = [
    [A, 2],
    [B, 1],
    [C, 1],
    [D, 2],
  ],
): { sm: StakeManager; rc: RootChain } {
  const sm = new StakeManager({ validatorThreshold: 10 });
  for (const [i, [s, p]] of powers.entries()) expect(sm.stake(testOwner(i), s.pubkey, tokens(p)).ok).toBe(true);
  return { sm, rc: new RootChain({ stakeManager: sm }) };
}

function expectRejected(sm: StakeManager, rc: RootChain, r: () => CallResult, message: RegExp): void {
  const before = [sm.stateJson(), rc.headerBlockCount(), rc.lastHeaderBlock()];
  const res = r();
  expect(res.ok).toBe(false);
  if (!res.ok) expect(res.error).toMatch(message);
  expect([sm.stateJson(), rc.headerBlockCount(), rc.lastHeaderBlock()]).toEqual(before);
}

const CP0 = testCheckpoint(0n, 255n, A.address);

describe('the vote digest', () => {
  it('is keccak256(0x01 ‖ abi.encode(proposer, start, end, root, accountRoot, chainId))', () => {
    const encoded = AbiCoder.defaultAbiCoder().encode(
      ['address', 'uint256', 'uint256', 'bytes32', 'bytes32', 'uint256'],
      [CP0.proposer, CP0.startBlock, CP0.endBlock, CP0.rootHash, CP0.accountRootHash, BigInt(CP0.sidechainChainId)],
    );
    expect(toHex(checkpointSideSignBytes(CP0))).toBe(encoded);
    expect(checkpointSideSignBytes(CP0)).toHaveLength(192);
    expect(toHex(checkpointSignDigest(CP0))).toBe(keccak256(concat(['0x01', encoded])));
  });
});

describe('the 2/3 rule', () => {
  it('exactly 2/3 of the power fails', () => {
    const { sm, rc } = setup();
    expectRejected(
      sm,
      rc,
      () => rc.submitCheckpoint(SENDER, CP0, signCheckpoint(CP0, [A, D])),
      /^not enough signatures$/,
    );
  });

  it('just above 2/3 succeeds', () => {
    const { rc } = setup();
    expect(rc.tallySignatures(CP0, signCheckpoint(CP0, [A, D, B]))).toMatchObject({ signedPower: 5n, totalPower: 6n });
    expect(rc.submitCheckpoint(SENDER, CP0, signCheckpoint(CP0, [A, D, B])).ok).toBe(true);
  });

  it('duplicate signatures count once', () => {
    const { sm, rc } = setup();
    const [a, d] = signCheckpoint(CP0, [A, D]) as [Hex, Hex];
    expect(rc.tallySignatures(CP0, [a, a, d, a, d]).signedPower).toBe(4n);
    expectRejected(sm, rc, () => rc.submitCheckpoint(SENDER, CP0, [a, a, d, a, d]), /not enough signatures/);
  });

  it('signatures by non-validators do not count', () => {
    const { sm, rc } = setup();
    expectRejected(
      sm,
      rc,
      () => rc.submitCheckpoint(SENDER, CP0, signCheckpoint(CP0, [A, D, OUTSIDER])),
      /not enough signatures/,
    );
  });

  it('a signature over a different checkpoint does not count', () => {
    const { sm, rc } = setup();
    const other = { ...CP0, rootHash: `0x${'99'.repeat(32)}` as Hex };
    const sigs = [...signCheckpoint(CP0, [A, D]), ...signCheckpoint(other, [B])];
    expectRejected(sm, rc, () => rc.submitCheckpoint(SENDER, CP0, sigs), /not enough signatures/);
    const otherChain = { ...CP0, sidechainChainId: '137' };
    expectRejected(
      sm,
      rc,
      () => rc.submitCheckpoint(SENDER, CP0, [...signCheckpoint(CP0, [A, D]), ...signCheckpoint(otherChain, [B])]),
      /not enough signatures/,
    );
  });

  it('malformed signatures are ignored, not fatal', () => {
    const { rc } = setup();
    const good = signCheckpoint(CP0, [A, D, B]);
    const badV = `${good[2]!.slice(0, -2)}1b` as Hex; // v = 27 is rejected, as in the reference
    const junk = ['0x', '0x1234', 'not hex', `0x${'00'.repeat(65)}`, badV] as Hex[];
    expect(rc.tallySignatures(CP0, [...junk, good[0]!, good[1]!]).signedPower).toBe(4n);
    expect(rc.submitCheckpoint(SENDER, CP0, [...junk, ...good]).ok).toBe(true);
  });

  it('no validators: nothing can pass', () => {
    const { sm, rc } = setup([]);
    expectRejected(sm, rc, () => rc.submitCheckpoint(SENDER, CP0, signCheckpoint(CP0, [A])), /not enough signatures/);
  });

  it('only current validators count: an exited one stops counting after its deactivation epoch', () => {
    const { sm, rc } = setup([
      [A, 1],
      [B, 1],
      [C, 1],
    ]);
    expect(sm.unstake(testOwner(2), 3n).ok).toBe(true); // C: deactivation epoch 2
    // Epoch 1: C still counts (total 3), so A + B (2 of 3) is exactly 2/3 and fails.
    expect(rc.submitCheckpoint(SENDER, CP0, signCheckpoint(CP0, [A, B])).ok).toBe(false);
    expect(rc.submitCheckpoint(SENDER, CP0, signCheckpoint(CP0, [A, B, C])).ok).toBe(true);
    // Epoch 2: C is gone (total 2), A + B is everything, C's signature adds nothing.
    const cp1 = testCheckpoint(256n, 511n, A.address);
    expect(rc.tallySignatures(cp1, signCheckpoint(cp1, [A, B, C]))).toMatchObject({
      signedPower: 2n,
      totalPower: 2n,
      signers: [A.address, B.address].sort(compareAddresses),
    });
    expect(rc.submitCheckpoint(SENDER, cp1, signCheckpoint(cp1, [A, B])).ok).toBe(true);
  });
});

describe('acceptance', () => {
  it('stores header block n under id n × 10000, emits NewHeaderBlock and advances the epoch', () => {
    const { sm, rc } = setup();
    const r = rc.submitCheckpoint(SENDER, CP0, signCheckpoint(CP0, [A, B, D]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.logs).toHaveLength(1);
    expect(r.logs[0]!.address).toBe(PARENT_CONTRACTS.rootChain);
    expect(decodeLog({ ...r.logs[0]!, txHash: `0x${'01'.repeat(32)}`, logIndex: 0n, blockNumber: 5n })).toEqual({
      name: 'NewHeaderBlock',
      txHash: `0x${'01'.repeat(32)}`,
      logIndex: 0n,
      blockNumber: 5n,
      proposer: A.address,
      headerBlockId: 10000n,
      reward: 0n,
      start: 0n,
      end: 255n,
      root: CP0.rootHash,
    });
    const record = {
      number: 1n,
      proposer: A.address,
      startBlock: 0n,
      endBlock: 255n,
      rootHash: CP0.rootHash,
      accountRootHash: CP0.accountRootHash,
    };
    expect(rc.headerBlock(1n)).toEqual(record);
    expect(rc.lastHeaderBlock()).toEqual(record);
    expect(rc.headerBlock(0n)).toBeNull();
    expect(rc.headerBlock(2n)).toBeNull();
    expect(sm.currentEpoch).toBe(2n);

    const cp1 = testCheckpoint(256n, 300n, B.address);
    const r2 = rc.submitCheckpoint(SENDER, cp1, signCheckpoint(cp1, [A, B, D]));
    expect(
      r2.ok && decodeLog({ ...r2.logs[0]!, txHash: `0x${'01'.repeat(32)}`, logIndex: 0n, blockNumber: 6n }),
    ).toMatchObject({ headerBlockId: 20000n, proposer: B.address, start: 256n, end: 300n });
    expect(rc.lastHeaderBlock()?.number).toBe(2n);
    expect(sm.currentEpoch).toBe(3n);
  });

  it('a custom child block interval', () => {
    const sm = new StakeManager({ validatorThreshold: 1 });
    expect(sm.stake(testOwner(0), A.pubkey, tokens(1)).ok).toBe(true);
    const rc = new RootChain({ stakeManager: sm, childBlockInterval: 7n });
    const r = rc.submitCheckpoint(SENDER, CP0, signCheckpoint(CP0, [A]));
    expect(
      r.ok && decodeLog({ ...r.logs[0]!, txHash: `0x${'01'.repeat(32)}`, logIndex: 0n, blockNumber: 1n }),
    ).toMatchObject({ headerBlockId: 7n });
  });
});

describe('continuity', () => {
  it('the first checkpoint must start at 0', () => {
    const { sm, rc } = setup();
    const cp = testCheckpoint(1n, 255n, A.address);
    expectRejected(
      sm,
      rc,
      () => rc.submitCheckpoint(SENDER, cp, signCheckpoint(cp, [A, B, D])),
      /^first checkpoint must start at block 0$/,
    );
  });

  it('each next one starts at the previous end + 1: gaps and overlaps fail', () => {
    const { sm, rc } = setup();
    expect(rc.submitCheckpoint(SENDER, CP0, signCheckpoint(CP0, [A, B, D])).ok).toBe(true);
    for (const start of [257n, 255n, 0n]) {
      const cp = testCheckpoint(start, 600n, A.address);
      expectRejected(
        sm,
        rc,
        () => rc.submitCheckpoint(SENDER, cp, signCheckpoint(cp, [A, B, D])),
        /not in continuity: expected start block 256/,
      );
    }
    const next = testCheckpoint(256n, 600n, A.address);
    expect(rc.submitCheckpoint(SENDER, next, signCheckpoint(next, [A, B, D])).ok).toBe(true);
  });

  it('an end before the start fails; a one-block checkpoint is fine', () => {
    const { sm, rc } = setup();
    const bad = testCheckpoint(0n, 0n, A.address);
    const backwards = { ...testCheckpoint(5n, 4n, A.address) };
    expectRejected(
      sm,
      rc,
      () => rc.submitCheckpoint(SENDER, backwards, signCheckpoint(backwards, [A, B, D])),
      /end block before start block/,
    );
    expect(rc.submitCheckpoint(SENDER, bad, signCheckpoint(bad, [A, B, D])).ok).toBe(true);
  });
});

describe('malformed calls', () => {
  it('fail with a message and change nothing', () => {
    const { sm, rc } = setup();
    const sigs = signCheckpoint(CP0, [A, B, D]);
    expectRejected(
      sm,
      rc,
      () => rc.submitCheckpoint(SENDER, { ...CP0, rootHash: '0x1234' }, sigs),
      /invalid checkpoint root hash/,
    );
    expectRejected(
      sm,
      rc,
      () => rc.submitCheckpoint(SENDER, { ...CP0, proposer: '0xnope' }, sigs),
      /invalid checkpoint proposer/,
    );
    expectRejected(
      sm,
      rc,
      () => rc.submitCheckpoint(SENDER, { ...CP0, sidechainChainId: '0x89' }, sigs),
      /invalid checkpoint sidechain chain id/,
    );
    expectRejected(
      sm,
      rc,
      () => rc.submitCheckpoint(SENDER, { ...CP0, startBlock: -1n }, sigs),
      /invalid checkpoint start block/,
    );
    expectRejected(sm, rc, () => rc.submitCheckpoint(SENDER, null as never, sigs), /invalid checkpoint/);
    expectRejected(sm, rc, () => rc.submitCheckpoint(SENDER, CP0, 'sigs' as never), /invalid signatures/);
    expectRejected(sm, rc, () => rc.submitCheckpoint('0x' as Hex, CP0, sigs), /invalid sender/);
  });

  it('with a configured sidechain chain id, another chain id fails even when signed', () => {
    const sm = new StakeManager({ validatorThreshold: 1 });
    expect(sm.stake(testOwner(0), A.pubkey, tokens(1)).ok).toBe(true);
    const rc = new RootChain({ stakeManager: sm, sidechainChainId: '137' });
    expectRejected(
      sm,
      rc,
      () => rc.submitCheckpoint(SENDER, CP0, signCheckpoint(CP0, [A])),
      /invalid sidechain chain id/,
    );
    const ok = { ...CP0, sidechainChainId: '137' };
    expect(rc.submitCheckpoint(SENDER, ok, signCheckpoint(ok, [A])).ok).toBe(true);
  });
});
