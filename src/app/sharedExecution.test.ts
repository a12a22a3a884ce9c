import { describe, expect, it } from 'vitest';
import { TestChain, TOKEN, testKey } from './testing/testChain';
import { MsgSendDef } from '../modules/bank/msgs';
import { toHex, type Hex } from '../core/bytes';
import { SharedExecution } from './sharedExecution';

const HASH_A = `0x${'a1'.repeat(32)}` as Hex;

function transfer(chain: TestChain): Hex {
  const [a] = chain.validators;
  return toHex(
    chain.tx(
      MsgSendDef,
      {
        fromAddress: a!.address,
        toAddress: testKey('receiver').address,
        amount: [{ denom: 'matic', amount: 3n * TOKEN }],
      },
      a!,
    ),
  );
}

describe('shared block execution', () => {
  it("a second node applying the same block to the same state adopts the first one's record", () => {
    const shared = new SharedExecution();
    const one = new TestChain({ sharedExecution: shared });
    const two = new TestChain({ sharedExecution: shared });
    const block = { txs: [transfer(one)] };
    const req = { timeMs: 5_000, proposer: one.validators[1]!.address };
    const first = one.app.applyBlock(req, block.txs, block, HASH_A);
    const second = two.app.applyBlock(req, block.txs, block, HASH_A);
    // The record itself, not a copy: the block did not run again (the outcome objects are shared).
    expect(second.results).toBe(first.results);
    expect(second.end).toBe(first.end);
    expect(second.commit).toBe(first.commit);
    expect(second.writes).toBe(first.writes);
    expect(first.results[0]).toMatchObject({ code: 0 });
    expect(two.app.appHash).toBe(one.app.appHash);
    expect(two.app.height).toBe(1n);
    expect(two.app.lastBlockTimeMs).toBe(5_000);
    expect(two.app.exportState()).toBe(one.app.exportState());
    expect(two.balance(testKey('receiver').address)).toBe(3n * TOKEN);
    // Both go on alike: the next block (run by each) reaches the same hash, and the check state is fresh.
    expect(two.app.checkTx(Uint8Array.from(Buffer.from(transfer(two).slice(2), 'hex'))).code).toBe(0);
    const next = { txs: [transfer(one)] };
    expect(next.txs[0]).toBe(transfer(two));
    one.app.applyBlock({ timeMs: 10_000, proposer: req.proposer }, next.txs, next, `0x${'b2'.repeat(32)}` as Hex);
    two.app.applyBlock(
      { timeMs: 10_000, proposer: req.proposer },
      next.txs,
      { ...next },
      `0x${'b2'.repeat(32)}` as Hex,
    );
    expect(two.app.appHash).toBe(one.app.appHash);
  });

  it('another block object, or another state before it, runs the block', () => {
    const shared = new SharedExecution();
    const one = new TestChain({ sharedExecution: shared });
    const same = new TestChain({ sharedExecution: shared });
    const ahead = new TestChain({ sharedExecution: shared });
    ahead.block([
      ahead.tx(
        MsgSendDef,
        {
          fromAddress: ahead.validators[0]!.address,
          toAddress: testKey('x').address,
          amount: [{ denom: 'matic', amount: 1n }],
        },
        ahead.validators[0]!,
      ),
    ]);
    const block = { txs: [transfer(one)] };
    const req = { timeMs: 20_000, proposer: one.validators[0]!.address };
    const first = one.app.applyBlock(req, block.txs, block, HASH_A);
    // Equal content in another object: run again, same outcome.
    const copy = same.app.applyBlock(req, [...block.txs], { ...block }, HASH_A);
    expect(copy).not.toBe(first);
    expect(copy).toEqual(first);
    // The same object on a different state: run on that state, where the tx's sequence is stale.
    const other = ahead.app.applyBlock(req, block.txs, block, HASH_A);
    expect(other).not.toBe(first);
    expect(other.commit.height).toBe(2n);
    expect(first.results[0]!.code).toBe(0);
    expect(other.results[0]!.code).not.toBe(0);
  });

  it('apps that share no records (another run, or sharing off) each run the block', () => {
    const one = new TestChain({ sharedExecution: new SharedExecution() });
    const two = new TestChain({ sharedExecution: new SharedExecution() });
    const three = new TestChain();
    const block = { txs: [transfer(one)] };
    const req = { timeMs: 5_000, proposer: one.validators[1]!.address };
    const first = one.app.applyBlock(req, block.txs, block, HASH_A);
    const second = two.app.applyBlock(req, block.txs, block, HASH_A);
    const third = three.app.applyBlock(req, block.txs, block, HASH_A);
    expect(second.results).not.toBe(first.results);
    expect(third.results).not.toBe(first.results);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
  });

  it('counts adopted blocks (hits) and run blocks (misses), keeping the latest records only', () => {
    const shared = new SharedExecution(2);
    const chains = [0, 1, 2].map(() => new TestChain({ sharedExecution: shared }));
    const block = { txs: [] as Hex[] };
    for (const c of chains) c.app.applyBlock({ timeMs: 5_000, proposer: c.validators[0]!.address }, [], block, HASH_A);
    expect([shared.hits, shared.misses, shared.size]).toEqual([2, 1, 1]);
    for (let i = 0; i < 3; i++)
      shared.remember(`k${i}`, {
        block,
        writes: [],
        delta: { buckets: [], groups: [], digests: [], top: HASH_A },
        applied: null as never,
      });
    expect(shared.size).toBe(2);
  });
});
