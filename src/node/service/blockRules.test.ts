import { describe, expect, it } from 'vitest';
import { type Hex, toHex } from '../../core/bytes';
import { ValidatorSet } from '../../core/validatorSet';
import { testKey } from '../../app/testing/testChain';
import { BLOCK_MAX_BYTES } from '../../app/serviceApp';
import { blockHash, type CommittedBlock, type ServiceBlock, type Vote } from '../../consensus/types';
import {
  type ChainTip,
  GENESIS_PARENT_HASH,
  blockTxBytes,
  proposeBlock,
  syncableBlock,
  validCommit,
  votableBlock,
} from './blockRules';

const H = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex;
const keys = [1, 2, 3, 4].map((i) => testKey(`block-rules-${i}`));
const set = new ValidatorSet(keys.map((k, i) => ({ address: k.address, power: i === 3 ? 1n : 10n })));
const tip: ChainTip = { height: 5n, blockHash: H(5), appHash: H(55), timeMs: 50_000 };

/** Votes are signed by their validator's key in the real node; here `verify` is a stand-in. */
function precommit(i: number, height: bigint, hash: Hex | null, type: Vote['type'] = 'precommit'): Vote {
  return {
    type,
    height,
    round: 0,
    blockHash: hash,
    validator: keys[i]!.address,
    signature: toHex(new Uint8Array([i])),
  };
}
const allValid = () => true;

describe('proposeBlock', () => {
  it('the next height on the tip, its time the clock but always after the last block', () => {
    const b = proposeBlock(tip, { proposer: keys[0]!.address, nowMs: 60_000, lastCommit: [], txs: ['0x01'] });
    expect(b).toEqual({
      height: 6n,
      timeMs: 60_000,
      proposer: keys[0]!.address,
      lastBlockHash: H(5),
      lastAppHash: H(55),
      lastCommit: [],
      txs: ['0x01'],
    });
    expect(proposeBlock(tip, { proposer: keys[0]!.address, nowMs: 10_000, lastCommit: [], txs: [] }).timeMs).toBe(
      50_001,
    );
  });
});

describe('validCommit', () => {
  const hash = H(6);
  it('more than 2/3 of the power in distinct valid precommits for the block', () => {
    expect(
      validCommit(
        [0, 1, 2].map((i) => precommit(i, 6n, hash)),
        6n,
        hash,
        set,
        allValid,
      ),
    ).toBe(true);
    // 20 of 31 is not more than 2/3; 21 is.
    expect(
      validCommit(
        [0, 1].map((i) => precommit(i, 6n, hash)),
        6n,
        hash,
        set,
        allValid,
      ),
    ).toBe(false);
    expect(
      validCommit(
        [0, 1, 3].map((i) => precommit(i, 6n, hash)),
        6n,
        hash,
        set,
        allValid,
      ),
    ).toBe(true);
    expect(
      validCommit(
        [0, 3].map((i) => precommit(i, 6n, hash)),
        6n,
        hash,
        set,
        allValid,
      ),
    ).toBe(false);
  });
  it('refuses a repeated validator, a prevote, another height or block, a stranger and a bad signature', () => {
    const ok = [0, 1, 2].map((i) => precommit(i, 6n, hash));
    expect(validCommit([...ok, precommit(0, 6n, hash)], 6n, hash, set, allValid)).toBe(false);
    expect(validCommit([...ok.slice(0, 2), precommit(2, 6n, hash, 'prevote')], 6n, hash, set, allValid)).toBe(false);
    expect(validCommit([...ok.slice(0, 2), precommit(2, 7n, hash)], 6n, hash, set, allValid)).toBe(false);
    expect(validCommit([...ok.slice(0, 2), precommit(2, 6n, H(9))], 6n, hash, set, allValid)).toBe(false);
    const stranger = { ...precommit(2, 6n, hash), validator: testKey('stranger').address };
    expect(validCommit([...ok, stranger], 6n, hash, set, allValid)).toBe(false);
    expect(validCommit(ok, 6n, hash, set, (v) => v.validator !== keys[1]!.address)).toBe(false);
  });
});

describe('votableBlock and syncableBlock', () => {
  const make = (over: Partial<ServiceBlock> = {}): ServiceBlock => ({
    ...proposeBlock(tip, { proposer: keys[0]!.address, nowMs: 60_000, lastCommit: [precommit(0, 5n, H(5))], txs: [] }),
    ...over,
  });
  const v = { nowMs: 60_000, maxClockDriftMs: 10_000, lastCommitValid: () => true };

  it('a block on the tip with a good time, size and last commit', () => {
    const b = make();
    expect(votableBlock(b, blockHash(b), tip, v)).toBe(true);
  });

  it('refuses each broken condition', () => {
    const cases: Array<[string, ServiceBlock, Partial<typeof v>]> = [
      ['another height', make({ height: 7n }), {}],
      ['another parent', make({ lastBlockHash: H(4) }), {}],
      ['another app hash', make({ lastAppHash: H(54) }), {}],
      ['not after the last block', make({ timeMs: 50_000 }), {}],
      ['too far ahead of the clock', make({ timeMs: 70_001 }), {}],
      ['too many bytes', make({ txs: [`0x${'00'.repeat(BLOCK_MAX_BYTES + 1)}` as Hex] }), {}],
      ['a bad last commit', make(), { lastCommitValid: () => false }],
    ];
    for (const [what, b, over] of cases)
      expect(votableBlock(b, blockHash(b), tip, { ...v, ...over }), what).toBe(false);
    const b = make();
    expect(votableBlock(b, H(1), tip, v), 'not its hash').toBe(false);
  });

  it('block 1 carries no last commit', () => {
    const genesis: ChainTip = { height: 0n, blockHash: GENESIS_PARENT_HASH, appHash: H(1), timeMs: 0 };
    const b1 = proposeBlock(genesis, { proposer: keys[0]!.address, nowMs: 1_000, lastCommit: [], txs: [] });
    expect(votableBlock(b1, blockHash(b1), genesis, { ...v, nowMs: 1_000 })).toBe(true);
    const withCommit = { ...b1, lastCommit: [precommit(0, 0n, null)] };
    expect(votableBlock(withCommit, blockHash(withCommit), genesis, { ...v, nowMs: 1_000 })).toBe(false);
  });

  it('a synced block: its own hash, a valid commit, on the tip', () => {
    const b = make();
    const cb: CommittedBlock = { block: b, blockHash: blockHash(b), commit: [] };
    expect(syncableBlock(cb, tip, () => true)).toBe(true);
    expect(syncableBlock({ ...cb, blockHash: H(3) }, tip, () => true)).toBe(false);
    expect(syncableBlock(cb, tip, () => false)).toBe(false);
    expect(syncableBlock(cb, { ...tip, appHash: H(3) }, () => true)).toBe(false);
  });

  it('counts the bytes of hex txs', () => {
    expect(blockTxBytes(['0x0102', '0x', '0xff'])).toBe(3);
  });
});
