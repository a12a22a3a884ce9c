/**
 * The read port over a real chain: what a block's transactions did (signed transfers and Bor's
 * LogTransfer, the state-sync transaction and its logs), and transaction lookups that follow the
 * canonical chain through reorgs and rewinds.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AbiCoder, id, toBeHex, zeroPadValue } from 'ethers';
import { type Address, ZERO_ADDRESS } from '../core/address';
import { type SidechainBlock, TRANSFER_GAS } from './block';
import { type SignedTx } from './transaction';
import { LOG_TRANSFER_TOPIC, MATIC_TOKEN } from './transfers';
import { FIXTURE_BALANCE, fixtureAlloc, fixtureTransfer } from './testing/fixture';
import { SidechainChain, type StoredBlock } from './chain';
import { buildBlock, planProduction, type ProductionInputs } from './producer';
import { chainReadPort } from './readPort';
import { STATE_COMMITTED_TOPIC, STATE_RECEIVER_ADDRESS, stateSyncTxHash } from './stateSync';
import { FIXTURE_CONFIG, fixtureKeys, fixtureProducers, fixtureRecords, fixtureSpans } from './testing/fixture';

const keys = fixtureKeys('read-port-test');
const producers = fixtureProducers(keys);
const records = fixtureRecords(10, 1000n);
const FAR = 10n ** 12n;

function inputs(txs: readonly SignedTx[]): ProductionInputs {
  const spans = fixtureSpans(producers, { rotate: false });
  return {
    span: (sid) => spans.get(sid) ?? null,
    stateSyncs: (fromId, toTimeS) => records.filter((r) => r.id >= fromId && r.timeS < toTimeS),
    txs,
  };
}

function produce(
  chain: SidechainChain,
  parent: StoredBlock,
  who: Address,
  txs: readonly SignedTx[] = [],
): SidechainBlock {
  const plan = planProduction(chain.cfg, parent, who)!;
  const key = keys.find((k) => k.address === who)!;
  return buildBlock(chain, plan, key.sk, who, inputs(txs), plan.timeS);
}

const inTurn = (b: StoredBlock): Address => b.snapshot.validatorSet.proposer.address;
const backup = (b: StoredBlock): Address =>
  b.snapshot.validatorSet.validators.find((v) => v.address !== inTurn(b))!.address;

function grow(chain: SidechainChain, n: number, txsAt: (number: bigint) => readonly SignedTx[] = () => []): void {
  for (let i = 0; i < n; i++) {
    const head = chain.head();
    const r = chain.import(produce(chain, head, inTurn(head), txsAt(head.block.header.number + 1n)), FAR, 0);
    expect(r).toMatchObject({ status: 'imported', newHead: true });
  }
}

const transfer = (nonce: bigint, value = 1n): SignedTx => fixtureTransfer(keys[0]!, keys[1]!.address, nonce, { value });
const genesis = () => ({ timeS: 1000n, producers, alloc: fixtureAlloc(keys) });

let chain: SidechainChain;
beforeAll(() => {
  chain = new SidechainChain(FIXTURE_CONFIG, genesis());
  // Two transfers in block 10 (nonces 0, 1), two in block 12 (nonces 2, 3; value 0 and 7).
  grow(chain, 14, (n) =>
    n === 10n ? [transfer(0n), transfer(1n, 7n)] : n === 12n ? [transfer(2n, 0n), transfer(3n, 7n)] : [],
  );
});

describe('block activity', () => {
  it('transfers: their hashes, 21,000 gas each, cumulative gas, status 1, one LogTransfer each', () => {
    const port = chainReadPort(chain);
    const b = port.byNumber(10n)!;
    const a = port.activity(b);
    expect(a.txs.map((t) => t.hash)).toEqual(b.block.body.txs.map((t) => t.hash));
    expect(a.receipts.map((r) => [r.kind, r.txIndex, r.gasUsed, r.cumulativeGasUsed, r.status, r.logs.length])).toEqual(
      [
        ['transfer', 0, TRANSFER_GAS, TRANSFER_GAS, 1, 1],
        ['transfer', 1, TRANSFER_GAS, 2n * TRANSFER_GAS, 1, 1],
      ],
    );
    expect(a.receipts[1]).toMatchObject({ from: keys[0]!.address, to: keys[1]!.address, blockHash: b.block.hash });
    // Bor's LogTransfer from the MATIC token: topics [event, token, from, to], data the amount and
    // both balances before and after (computed here from the chain's own accounts).
    expect(LOG_TRANSFER_TOPIC).toBe(id('LogTransfer(address,address,address,uint256,uint256,uint256,uint256,uint256)'));
    const parent = port.byNumber(9n)!;
    const price = a.receipts[0]!.effectiveGasPrice;
    const senderBefore = parent.accounts.get(keys[0]!.address)!.balance - TRANSFER_GAS * price;
    const to = parent.accounts.get(keys[1]!.address)!.balance;
    expect(a.logs[0]).toEqual({
      address: MATIC_TOKEN,
      topics: [
        LOG_TRANSFER_TOPIC,
        zeroPadValue(MATIC_TOKEN, 32),
        zeroPadValue(keys[0]!.address, 32),
        zeroPadValue(keys[1]!.address, 32),
      ],
      data: AbiCoder.defaultAbiCoder().encode(
        ['uint256', 'uint256', 'uint256', 'uint256', 'uint256'],
        [1n, senderBefore, to, senderBefore - 1n, to + 1n],
      ),
      blockNumber: 10n,
      blockHash: b.block.hash,
      txHash: a.txs[0]!.hash,
      txIndex: 0,
      logIndex: 0,
    });
    expect(a.logs.map((l) => [l.txIndex, l.logIndex])).toEqual([
      [0, 0],
      [1, 1],
    ]);
    // The sender paid 2 × 21,000 gas and 8 wei; its nonce is 2.
    expect(b.accounts.get(keys[0]!.address)).toEqual({
      nonce: 2n,
      balance: parent.accounts.get(keys[0]!.address)!.balance - 2n * TRANSFER_GAS * price - 8n,
    });
    expect(FIXTURE_BALANCE).toBeGreaterThan(0n);
  });

  it('a block with state syncs: the state-sync transaction last, one StateCommitted log per record', () => {
    const port = chainReadPort(chain);
    const b = port.byNumber(12n)!;
    const syncs = b.block.body.stateSyncs;
    expect(syncs.length).toBeGreaterThan(0);
    const a = port.activity(b);
    const hash = stateSyncTxHash(12n, b.block.hash);
    expect(a.txs.map((t) => t.kind)).toEqual(['transfer', 'transfer', 'stateSync']);
    expect(a.txs[2]).toMatchObject({ hash, index: 2 });
    // A transfer of value 0 logs nothing; the other one log, numbered before the state-sync logs.
    expect(a.receipts.map((x) => x.logs.length)).toEqual([0, 1, syncs.length]);
    const r = a.receipts[2]!;
    expect(r).toMatchObject({ kind: 'stateSync', txHash: hash, txIndex: 2, from: ZERO_ADDRESS, to: ZERO_ADDRESS });
    expect([r.gasUsed, r.cumulativeGasUsed, r.status]).toEqual([0n, 0n, 1]);
    // The event's signature and encoding, computed independently with ethers.
    expect(STATE_COMMITTED_TOPIC).toBe(id('StateCommitted(uint256,bool)'));
    const trueWord = AbiCoder.defaultAbiCoder().encode(['bool'], [true]);
    expect(r.logs).toEqual(
      syncs.map((s, i) => ({
        address: STATE_RECEIVER_ADDRESS,
        topics: [STATE_COMMITTED_TOPIC, toBeHex(s.id, 32)],
        data: trueWord,
        blockNumber: 12n,
        blockHash: b.block.hash,
        txHash: hash,
        txIndex: 2,
        logIndex: i + 1,
      })),
    );
    expect(a.logs.slice(1)).toEqual(r.logs);
  });

  it('blocks without state syncs have no state-sync transaction', () => {
    const port = chainReadPort(chain);
    for (const b of chain.canonicalRange(0n)) {
      const has = port.activity(b).txs.some((t) => t.kind === 'stateSync');
      expect(has, `block ${b.block.header.number}`).toBe(b.block.body.stateSyncs.length > 0);
    }
  });
});

describe('transaction lookups', () => {
  it('find canonical transactions and the state-sync transaction, and nothing else', () => {
    const port = chainReadPort(chain);
    const b12 = port.byNumber(12n)!;
    for (const t of port.activity(b12).txs) {
      const at = port.transaction(t.hash)!;
      expect(at.block.block.hash).toBe(b12.block.hash);
      expect(at.entry).toEqual(t);
      expect(port.receipt(t.hash)).toBe(port.activity(b12).receipts[t.index]);
    }
    expect(port.transaction(`0x${'ab'.repeat(32)}`)).toBeUndefined();
    expect(port.receipt(`0x${'ab'.repeat(32)}`)).toBeUndefined();
  });

  it('follow a reorg: the losing branch is forgotten, the winning one found', () => {
    const c = new SidechainChain(FIXTURE_CONFIG, genesis());
    grow(c, 5);
    const port = chainReadPort(c);
    const parent = c.head();
    const losing = produce(c, parent, backup(parent), [transfer(0n)]);
    expect(c.import(losing, FAR, 0)).toMatchObject({ status: 'imported', newHead: true });
    const lostHash = losing.body.txs[0]!.hash;
    expect(port.transaction(lostHash)?.block.block.hash).toBe(losing.hash);
    // The in-turn block at the same height is heavier: the head moves to it.
    const winning = produce(c, parent, inTurn(parent), [transfer(0n, 2n)]);
    expect(c.import(winning, FAR, 0)).toMatchObject({ status: 'imported', newHead: true });
    expect(c.head().block.hash).toBe(winning.hash);
    expect(port.transaction(lostHash)).toBeUndefined();
    expect(port.transaction(winning.body.txs[0]!.hash)?.block.block.hash).toBe(winning.hash);
    // The losing block is still stored and readable by hash.
    expect(port.byHash(losing.hash)?.block.hash).toBe(losing.hash);
  });

  it('follow a rewind and the chain growing back with other transactions', () => {
    const c = new SidechainChain(FIXTURE_CONFIG, genesis());
    grow(c, 8, (n) => (n === 7n ? [transfer(0n)] : []));
    const port = chainReadPort(c);
    const old = transfer(0n).hash;
    expect(port.transaction(old)?.block.block.header.number).toBe(7n);
    expect(c.rewindTo(5n)).toMatchObject({ ok: true });
    expect(port.transaction(old)).toBeUndefined();
    grow(c, 3, (n) => (n === 6n ? [transfer(0n)] : n === 7n ? [transfer(1n)] : []));
    expect(port.transaction(old)?.block.block.header.number).toBe(6n);
    expect(port.transaction(transfer(1n).hash)?.block.block.header.number).toBe(7n);
  });
});
