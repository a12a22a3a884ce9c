/**
 * ParentChain: genesis, tx hashes, blocks and receipts, block-wide log indices, failed calls,
 * confirmations and finality, the contract views through the chain, and the header-block path the
 * service's checkpoint ack reads.
 */
import { describe, expect, it } from 'vitest';
import { type Hex } from '../core/bytes';
import { decodeLog } from './abi';
import { PARENT_CONTRACTS } from './contracts/addresses';
import { DEFAULT_PARENT_CHAIN_CONFIG, ParentChain, ZERO_HASH, nextBlockTimeMs, type ParentCall } from './parentChain';
import { signCheckpoint, testCheckpoint, testOwner, testSigner, tokens } from './testing/parentTestKit';

const GENESIS = {
  validators: [0, 1, 2].map((i) => ({ owner: testOwner(i), signerPubkey: testSigner(i).pubkey, amount: tokens(10) })),
};

function chain(config: ConstructorParameters<typeof ParentChain>[0] = {}): ParentChain {
  return new ParentChain({ genesisTimeMs: 1_000, ...config }, GENESIS);
}

const stake = (i: number, amount = tokens(5)): ParentCall => ({
  method: 'stake',
  from: testOwner(i),
  signerPubkey: testSigner(i).pubkey,
  amount,
});
const topUp = (fee: bigint): ParentCall => ({
  method: 'topUpForFee',
  from: testOwner(0),
  user: testSigner(0).address,
  fee,
});
const sync = (data: Hex): ParentCall => ({ method: 'syncState', from: testOwner(0), receiver: testOwner(50), data });

describe('genesis', () => {
  it('block 0 at the genesis time, with the genesis validators staked and no logs', () => {
    const c = chain();
    expect(c.head()).toMatchObject({ number: 0n, parentHash: ZERO_HASH, timeMs: 1_000, receipts: [] });
    expect(c.blockHash(0n)).toBe(c.head().hash);
    expect(c.stakeManager.currentValidators()).toHaveLength(3);
    expect(c.stakeManager.allValidators().map((v) => [v.id, v.activationEpoch, v.owner])).toEqual([
      [1n, 1n, testOwner(0)],
      [2n, 1n, testOwner(1)],
      [3n, 1n, testOwner(2)],
    ]);
    expect(c.logs(0n, 100n)).toEqual([]);
  });

  it('the defaults', () => {
    const c = new ParentChain();
    expect(c.config).toEqual({
      chainId: 1337n,
      blockTimeMs: 12_000,
      confirmations: 6,
      validatorSlots: 10,
      childBlockInterval: 10_000n,
      genesisTimeMs: 0,
    });
    expect(DEFAULT_PARENT_CHAIN_CONFIG.validatorSlots).toBe(10);
    expect(c.rootChain.childBlockInterval).toBe(10_000n);
    expect(c.stakeManager.validatorThreshold).toBe(10);
  });

  it('a genesis that breaks a contract rule or a bad config is an InputError naming the field', () => {
    expect(() => new ParentChain({ validatorSlots: 2 }, GENESIS)).toThrow(/^genesis\.validators\[2\]: no more slots$/);
    expect(() => new ParentChain({}, { validators: [{ ...GENESIS.validators[0]!, amount: 1n }] })).toThrow(
      /genesis\.validators\[0\]: amount must be at least 1 token/,
    );
    expect(() => new ParentChain({ confirmations: -1 })).toThrow(/^config\.confirmations:/);
    expect(() => new ParentChain({ chainId: 0n })).toThrow(/^config\.chainId:/);
    expect(() => new ParentChain({ blockTimeMs: 1.5 })).toThrow(/^config\.blockTimeMs:/);
  });

  it('the genesis validators and the chain id are part of the genesis hash', () => {
    expect(chain().head().hash).toBe(chain().head().hash);
    expect(chain({ chainId: 1n }).head().hash).not.toBe(chain().head().hash);
    expect(new ParentChain({ genesisTimeMs: 1_000 }).head().hash).not.toBe(chain().head().hash);
  });
});

describe('transactions and blocks', () => {
  it('submit returns a deterministic hash; the same call twice gets two hashes; the receipt appears once mined', () => {
    const a = chain();
    const b = chain();
    const h1 = a.submit(topUp(5n));
    const h2 = a.submit(topUp(5n));
    expect(h1).not.toBe(h2);
    expect(b.submit(topUp(5n))).toBe(h1);
    expect(h1).toMatch(/^0x[0-9a-f]{64}$/);
    expect(a.pendingCount()).toBe(2);
    expect(a.receipt(h1)).toBeNull();
    const block = a.mineBlock(a.nextBlockTimeMs());
    expect(a.pendingCount()).toBe(0);
    expect(block.receipts.map((r) => r.txHash)).toEqual([h1, h2]);
    expect(a.receipt(h1)).toBe(block.receipts[0]);
    expect(a.receipt(h1.toUpperCase().replace('0X', '0x') as Hex)).toBe(block.receipts[0]);
  });

  it('the caller mutating its call object after submit changes nothing', () => {
    const a = chain();
    const b = chain();
    const call = topUp(5n) as Extract<ParentCall, { method: 'topUpForFee' }>;
    const h = a.submit(call);
    call.fee = 0n;
    expect(b.submit(topUp(5n))).toBe(h);
    expect(a.mineBlock(2_000).receipts[0]!.status).toBe(1);
  });

  it('blocks link by parentHash, carry their time, and need a later time than their parent', () => {
    const c = chain();
    expect(c.nextBlockTimeMs()).toBe(13_000);
    expect(nextBlockTimeMs(13_000, 12_000)).toBe(25_000);
    const b1 = c.mineBlock(13_000);
    const b2 = c.mineBlock(13_001);
    expect(b1).toMatchObject({ number: 1n, parentHash: c.blockHash(0n), timeMs: 13_000 });
    expect(b2).toMatchObject({ number: 2n, parentHash: b1.hash });
    expect(c.block(2n)).toBe(b2);
    expect(c.block(3n)).toBeNull();
    expect(c.blockHash(-1n)).toBeNull();
    expect(() => c.mineBlock(13_001)).toThrow(
      /^timeMs: a block's time must be an integer after its parent's \(13001\)/,
    );
    expect(() => c.mineBlock(20_000.5)).toThrow(/^timeMs:/);
    expect(c.head().number).toBe(2n);
  });

  it('blocks are frozen', () => {
    const c = chain();
    c.submit(topUp(1n));
    const b = c.mineBlock(2_000);
    expect(Object.isFrozen(b) && Object.isFrozen(b.receipts) && Object.isFrozen(b.receipts[0]!.logs[0]!.topics)).toBe(
      true,
    );
  });
});

describe('receipts and logs', () => {
  it('logIndex counts across the block; each log names its contract, tx and block', () => {
    const c = chain();
    const hStake = c.submit(stake(5));
    const hFail = c.submit(topUp(0n));
    const hTop = c.submit(topUp(7n));
    const hSync = c.submit(sync('0x01'));
    const block = c.mineBlock(2_000);
    const logs = c.logs(1n, 1n);
    expect(logs.map((l) => [l.logIndex, l.txHash, l.address])).toEqual([
      [0n, hStake, PARENT_CONTRACTS.stakingInfo],
      [1n, hTop, PARENT_CONTRACTS.stakingInfo],
      [2n, hSync, PARENT_CONTRACTS.stateSender],
    ]);
    expect(logs.every((l) => l.blockNumber === 1n && l.blockHash === block.hash)).toBe(true);
    expect(c.receipt(hFail)).toEqual({
      txHash: hFail,
      blockNumber: 1n,
      blockHash: block.hash,
      status: 0,
      error: 'fee must be positive',
      logs: [],
    });
    expect(c.receipt(hTop)?.logs.map((l) => l.logIndex)).toEqual([1n]);
    expect(c.log(hSync, 2n)).toBe(logs[2]);
    expect(c.log(hSync, 0n)).toBeNull();
    expect(decodeLog(c.log(hTop, 1n)!)).toEqual({
      name: 'TopUpFee',
      txHash: hTop,
      logIndex: 1n,
      blockNumber: 1n,
      user: testSigner(0).address,
      fee: 7n,
    });

    // The next block starts again at 0.
    const h2 = c.submit(sync('0x02'));
    c.mineBlock(3_000);
    expect(c.receipt(h2)?.logs[0]?.logIndex).toBe(0n);
    expect(c.logs(0n, 99n)).toHaveLength(4);
    expect(c.logs(2n, 1n)).toEqual([]);
  });

  it('a failed call leaves state and logs untouched', () => {
    const c = chain({ validatorSlots: 3 });
    const before = c.stateDigest();
    const failing: ParentCall[] = [
      stake(7), // no free slot
      { method: 'restake', from: testOwner(1), validatorId: 1n, amount: tokens(1) }, // not the owner
      { method: 'unstake', from: testOwner(0), validatorId: 9n }, // unknown validator
      { method: 'updateSigner', from: testOwner(0), validatorId: 1n, signerPubkey: testSigner(1).pubkey }, // used signer
      { method: 'syncState', from: testOwner(0), receiver: testOwner(1), data: '0x0' as Hex }, // bad data
      { method: 'submitCheckpoint', from: testOwner(0), checkpoint: testCheckpoint(0n, 9n), signatures: [] }, // no signatures
    ];
    const hashes = failing.map((f) => c.submit(f));
    const block = c.mineBlock(2_000);
    expect(block.receipts.map((r) => r.status)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(hashes.map((h) => c.receipt(h)?.error)).toEqual([
      'no more slots',
      'not the owner',
      'no validator 9',
      'signer already in use',
      'invalid data',
      'not enough signatures',
    ]);
    expect(c.logs(0n, 1n)).toEqual([]);
    expect(c.stateDigest()).toBe(before);
  });

  it('an unknown method or a call that is not plain data is refused at submit', () => {
    const c = chain();
    expect(() => c.submit({ method: 'transfer' } as never)).toThrow(/^call\.method:/);
    expect(() => c.submit({ ...sync('0x00'), data: new Uint8Array(1) } as never)).toThrow(/^call: not plain data/);
    expect(() => c.submit({ ...topUp(1n), fee: 0.5 } as never)).toThrow(/^call: not plain data/);
    expect(c.pendingCount()).toBe(0);
  });
});

describe('finality', () => {
  it('finalizedNumber = head - 6, never below 0; isFinal follows it', () => {
    const c = chain();
    expect(c.finalizedNumber()).toBe(0n);
    expect(c.isFinal(0n)).toBe(true);
    for (let i = 1; i <= 6; i++) c.mineBlock(1_000 + i * 12_000);
    expect(c.head().number).toBe(6n);
    expect(c.finalizedNumber()).toBe(0n);
    expect(c.isFinal(1n)).toBe(false);
    c.mineBlock(c.nextBlockTimeMs());
    expect(c.finalizedNumber()).toBe(1n);
    expect(c.isFinal(1n)).toBe(true);
    expect(c.isFinal(2n)).toBe(false);
    expect(c.isFinal(8n)).toBe(false);
    expect(c.isFinal(-1n)).toBe(false);
  });

  it('confirmations 0: the head is final', () => {
    const c = chain({ confirmations: 0 });
    c.mineBlock(2_000);
    expect(c.finalizedNumber()).toBe(1n);
    expect(c.isFinal(1n)).toBe(true);
  });
});

describe('checkpoints through the chain', () => {
  it('submitCheckpoint stores header block 1, emits NewHeaderBlock from the root chain and advances the epoch', () => {
    const c = chain();
    const cp = testCheckpoint(0n, 255n, testSigner(0).address);
    const h = c.submit({
      method: 'submitCheckpoint',
      from: testSigner(0).address,
      checkpoint: cp,
      signatures: signCheckpoint(cp, [0, 1, 2].map(testSigner)),
    });
    c.mineBlock(2_000);
    expect(c.receipt(h)?.status).toBe(1);
    expect(c.receipt(h)?.logs[0]?.address).toBe(PARENT_CONTRACTS.rootChain);
    expect(decodeLog(c.log(h, 0n)!)).toMatchObject({
      name: 'NewHeaderBlock',
      headerBlockId: 10_000n,
      start: 0n,
      end: 255n,
      root: cp.rootHash,
    });
    expect(c.headerBlock(1n)).toEqual({
      number: 1n,
      proposer: cp.proposer,
      startBlock: 0n,
      endBlock: 255n,
      rootHash: cp.rootHash,
      accountRootHash: cp.accountRootHash,
    });
    expect(c.headerBlock(2n)).toBeNull();
    expect(c.stakeManager.currentEpoch).toBe(2n);

    // A stake after the checkpoint activates at epoch 2; an unstake then deactivates at 3.
    const hs = c.submit(stake(4));
    const hu = c.submit({ method: 'unstake', from: testOwner(1), validatorId: 2n });
    c.mineBlock(3_000);
    expect(decodeLog(c.log(hs, 0n)!)).toMatchObject({ name: 'Staked', activationEpoch: 2n, validatorId: 4n });
    expect(decodeLog(c.log(hu, 1n)!)).toMatchObject({ name: 'UnstakeInit', deactivationEpoch: 3n, user: testOwner(1) });
  });

  it('a sidechain chain id in the config reaches the root chain', () => {
    const c = chain({ sidechainChainId: '137' });
    const cp = testCheckpoint(0n, 255n);
    const h = c.submit({
      method: 'submitCheckpoint',
      from: testOwner(0),
      checkpoint: cp,
      signatures: signCheckpoint(cp, [0, 1, 2].map(testSigner)),
    });
    c.mineBlock(2_000);
    expect(c.receipt(h)?.error).toBe('invalid sidechain chain id');
  });
});
