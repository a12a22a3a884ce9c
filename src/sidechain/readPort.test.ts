/**
 * The read port over a real chain: what a block's transactions did (transfers, the state-sync
 * transaction and its logs), and transaction lookups that follow the canonical chain through
 * reorgs and rewinds.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { AbiCoder, id, toBeHex } from 'ethers';
import { type Address, ZERO_ADDRESS } from '../core/address';
import { type SidechainBlock, type SidechainTx, TRANSFER_GAS, sidechainTxHash } from './block';
import { SidechainChain, type StoredBlock } from './chain';
import { buildBlock, planProduction, type ProductionInputs } from './producer';
import { chainReadPort } from './readPort';
import { STATE_COMMITTED_TOPIC, STATE_RECEIVER_ADDRESS, stateSyncTxHash } from './stateSync';
import { FIXTURE_CONFIG, fixtureKeys, fixtureProducers, fixtureRecords, fixtureSpans } from './testing/fixture';

const keys = fixtureKeys('read-port-test');
const producers = fixtureProducers(keys);
const records = fixtureRecords(10, 1000n);
const FAR = 10n ** 12n;

function inputs(txs: SidechainTx[]): ProductionInputs {
  const spans = fixtureSpans(producers, { rotate: false });
  return {
    span: (sid) => spans.get(sid) ?? null,
    stateSyncs: (fromId, toTimeS) => records.filter((r) => r.id >= fromId && r.timeS < toTimeS),
    txs,
  };
}

function produce(chain: SidechainChain, parent: StoredBlock, who: Address, txs: SidechainTx[] = []): SidechainBlock {
  const plan = planProduction(chain.cfg, parent, who)!;
  const key = keys.find((k) => k.address === who)!;
  return buildBlock(chain, plan, key.sk, who, inputs(txs), plan.timeS);
}

const inTurn = (b: StoredBlock): Address => b.snapshot.validatorSet.proposer.address;
const backup = (b: StoredBlock): Address =>
  b.snapshot.validatorSet.validators.find((v) => v.address !== inTurn(b))!.address;

function grow(chain: SidechainChain, n: number, txsAt: (number: bigint) => SidechainTx[] = () => []): void {
  for (let i = 0; i < n; i++) {
    const head = chain.head();
    const r = chain.import(produce(chain, head, inTurn(head), txsAt(head.block.header.number + 1n)), FAR, 0);
    expect(r).toMatchObject({ status: 'imported', newHead: true });
  }
}

const transfer = (nonce: bigint, value = 1n): SidechainTx => ({
  from: keys[0]!.address,
  to: keys[1]!.address,
  value,
  nonce,
});

let chain: SidechainChain;
beforeAll(() => {
  chain = new SidechainChain(FIXTURE_CONFIG, { timeS: 1000n, producers });
  grow(chain, 14, (n) => (n === 10n || n === 12n ? [transfer(n), transfer(n + 100n, 7n)] : []));
});

describe('block activity', () => {
  it('transfers: their hashes, 21,000 gas each, cumulative gas, status 1, no logs', () => {
    const port = chainReadPort(chain);
    const b = port.byNumber(10n)!;
    const a = port.activity(b);
    expect(a.txs.map((t) => t.hash)).toEqual(b.block.body.txs.map(sidechainTxHash));
    expect(a.receipts.map((r) => [r.kind, r.txIndex, r.gasUsed, r.cumulativeGasUsed, r.status, r.logs.length])).toEqual(
      [
        ['transfer', 0, TRANSFER_GAS, TRANSFER_GAS, 1, 0],
        ['transfer', 1, TRANSFER_GAS, 2n * TRANSFER_GAS, 1, 0],
      ],
    );
    expect(a.receipts[1]).toMatchObject({ from: keys[0]!.address, to: keys[1]!.address, blockHash: b.block.hash });
    expect(a.logs).toEqual([]);
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
        logIndex: i,
      })),
    );
    expect(a.logs).toEqual(r.logs);
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
    const c = new SidechainChain(FIXTURE_CONFIG, { timeS: 1000n, producers });
    grow(c, 5);
    const port = chainReadPort(c);
    const parent = c.head();
    const losing = produce(c, parent, backup(parent), [transfer(1n)]);
    expect(c.import(losing, FAR, 0)).toMatchObject({ status: 'imported', newHead: true });
    const lostHash = sidechainTxHash(losing.body.txs[0]!);
    expect(port.transaction(lostHash)?.block.block.hash).toBe(losing.hash);
    // The in-turn block at the same height is heavier: the head moves to it.
    const winning = produce(c, parent, inTurn(parent), [transfer(2n)]);
    expect(c.import(winning, FAR, 0)).toMatchObject({ status: 'imported', newHead: true });
    expect(c.head().block.hash).toBe(winning.hash);
    expect(port.transaction(lostHash)).toBeUndefined();
    expect(port.transaction(sidechainTxHash(winning.body.txs[0]!))?.block.block.hash).toBe(winning.hash);
    // The losing block is still stored and readable by hash.
    expect(port.byHash(losing.hash)?.block.hash).toBe(losing.hash);
  });

  it('follow a rewind and the chain growing back with other transactions', () => {
    const c = new SidechainChain(FIXTURE_CONFIG, { timeS: 1000n, producers });
    grow(c, 8, (n) => (n === 7n ? [transfer(70n)] : []));
    const port = chainReadPort(c);
    const old = sidechainTxHash(transfer(70n));
    expect(port.transaction(old)?.block.block.header.number).toBe(7n);
    expect(c.rewindTo(5n)).toMatchObject({ ok: true });
    expect(port.transaction(old)).toBeUndefined();
    grow(c, 3, (n) => (n === 6n ? [transfer(70n)] : n === 7n ? [transfer(71n)] : []));
    expect(port.transaction(old)?.block.block.header.number).toBe(6n);
    expect(port.transaction(sidechainTxHash(transfer(71n)))?.block.block.header.number).toBe(7n);
  });
});
