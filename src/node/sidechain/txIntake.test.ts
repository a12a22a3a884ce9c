/**
 * A sidechain node's transactions through a reorg and a rewind: a client's transfer is admitted
 * and gossiped once, leaves the pool when a block carries it, comes back when a reorg takes that
 * block away (to be gossiped again), and a block of the winning branch includes it again.
 */
import { describe, expect, it } from 'vitest';
import { type Address } from '../../core/address';
import { SidechainChain, type StoredBlock } from '../../sidechain/chain';
import { buildBlock, planProduction } from '../../sidechain/producer';
import { chainReadPort } from '../../sidechain/readPort';
import { type SignedTx } from '../../sidechain/transaction';
import {
  FIXTURE_CONFIG,
  fixtureAlloc,
  fixtureKeys,
  fixtureProducers,
  fixtureTransfer,
} from '../../sidechain/testing/fixture';
import { SidechainTxIntake } from './txIntake';

const keys = fixtureKeys('tx-intake-test');
const FAR = 10n ** 12n;
const inTurn = (b: StoredBlock): Address => b.snapshot.validatorSet.proposer.address;
const backup = (b: StoredBlock): Address =>
  b.snapshot.validatorSet.validators.find((v) => v.address !== inTurn(b))!.address;

function produce(chain: SidechainChain, parent: StoredBlock, who: Address, txs: readonly SignedTx[]) {
  const plan = planProduction(chain.cfg, parent, who)!;
  const inputs = { span: () => null, stateSyncs: () => [], txs };
  return buildBlock(chain, plan, keys.find((k) => k.address === who)!.sk, who, inputs, plan.timeS);
}

describe('SidechainTxIntake', () => {
  it('admits a client’s transfer once; a block takes it; a reorg gives it back; the winning branch includes it', () => {
    const chain = new SidechainChain(FIXTURE_CONFIG, {
      timeS: 1000n,
      producers: fixtureProducers(keys),
      alloc: fixtureAlloc(keys),
    });
    const intake = new SidechainTxIntake(chain);
    const tx = fixtureTransfer(keys[0]!, keys[1]!.address, 0n, { value: 9n });
    const first = intake.submit(tx.raw);
    expect(first.verdict).toEqual({ hash: tx.hash, ok: true, error: null });
    expect(first.gossip?.hash).toBe(tx.hash);
    // What the answer was given on: the sender's account on the head, its pooled transactions around the answer.
    const pooled = {
      hash: tx.hash,
      from: keys[0]!.address,
      nonce: 0n,
      chainId: FIXTURE_CONFIG.chainId,
      gasLimit: tx.gasLimit,
      value: 9n,
      maxFeePerGas: tx.maxFeePerGas,
      maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
    };
    const head = { hash: chain.head().block.hash, number: 0n };
    expect(first.admission).toMatchObject({ raw: tx.raw, tx: pooled, head, before: [], after: [pooled], poolSize: 0 });
    expect(first.admission!.account).toEqual({
      nonce: 0n,
      balance: chain.head().accounts.get(keys[0]!.address)!.balance,
    });
    expect(first.admission!.headGasLimit).toBe(chain.head().block.header.gasLimit);
    const again = intake.submit(tx.raw);
    expect(again.verdict).toEqual({ hash: tx.hash, ok: false, error: 'already known' });
    expect(again.gossip).toBeNull();
    expect(again.admission).toMatchObject({ before: [pooled], after: [pooled], poolSize: 1 });
    expect(intake.submit('0x01')).toMatchObject({ verdict: { hash: null, ok: false }, admission: null });
    expect(intake.pendingNonce(keys[0]!.address)).toBe(1n);

    // A backup seals it; the pool lets it go.
    const parent = chain.head();
    const weak = produce(chain, parent, backup(parent), intake.candidates());
    expect(weak.body.txs.map((t) => t.hash)).toEqual([tx.hash]);
    expect(chain.import(weak, FAR, 0)).toMatchObject({ status: 'imported', newHead: true, reorg: null });
    expect(intake.headMoved(null)).toEqual([]);
    expect(intake.pool.size).toBe(0);
    expect(intake.pendingNonce(keys[0]!.address)).toBe(1n);

    // The in-turn block without it wins: the transfer is back in the pool, to be gossiped again.
    const strong = produce(chain, parent, inTurn(parent), []);
    const r = chain.import(strong, FAR, 0);
    expect(r).toMatchObject({ status: 'imported', newHead: true });
    if (r.status !== 'imported' || !r.reorg) throw new Error('expected a reorg');
    expect(intake.headMoved(r.reorg).map((t) => t.hash)).toEqual([tx.hash]);
    expect(intake.pool.has(tx.hash)).toBe(true);
    expect(chainReadPort(chain).transaction(tx.hash)).toBeUndefined();

    // The next block of the winning branch includes it again.
    const next = produce(chain, chain.head(), inTurn(chain.head()), intake.candidates());
    expect(chain.import(next, FAR, 0)).toMatchObject({ status: 'imported', newHead: true });
    intake.headMoved(null);
    expect(intake.pool.size).toBe(0);
    expect(chainReadPort(chain).receipt(tx.hash)).toMatchObject({ blockHash: next.hash, status: 1 });
  });

  it('a rewind gives back the transactions of the blocks it forgets', () => {
    const chain = new SidechainChain(FIXTURE_CONFIG, {
      timeS: 1000n,
      producers: fixtureProducers(keys),
      alloc: fixtureAlloc(keys),
    });
    const intake = new SidechainTxIntake(chain);
    const txs = [0n, 1n].map((n) => fixtureTransfer(keys[2]!, keys[3]!.address, n));
    for (const [i, t] of txs.entries()) {
      const head = chain.head();
      chain.import(produce(chain, head, inTurn(head), [t]), FAR, 0);
      expect(chain.head().block.header.number).toBe(BigInt(i + 1));
    }
    const forgotten = intake.above(0n);
    expect(forgotten.map((t) => t.hash)).toEqual(txs.map((t) => t.hash));
    expect(chain.rewindTo(0n)).toMatchObject({ ok: true });
    expect(intake.rewound(forgotten).map((t) => t.hash)).toEqual(txs.map((t) => t.hash));
    expect(intake.candidates().map((t) => t.hash)).toEqual(txs.map((t) => t.hash));
  });
});
