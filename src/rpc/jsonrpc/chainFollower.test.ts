import { describe, expect, it } from 'vitest';
import { type Address } from '../../core/address';
import { type SidechainBlock } from '../../sidechain/block';
import { SidechainChain, type StoredBlock } from '../../sidechain/chain';
import { buildBlock, planProduction } from '../../sidechain/producer';
import { chainReadPort } from '../../sidechain/readPort';
import { FIXTURE_CONFIG, fixtureKeys, fixtureProducers } from '../../sidechain/testing/fixture';
import { ChainFollower } from './chainFollower';

const keys = fixtureKeys('follower-test');
const producers = fixtureProducers(keys);
const FAR = 10n ** 12n;

function produce(chain: SidechainChain, parent: StoredBlock, who: Address): SidechainBlock {
  const plan = planProduction(chain.cfg, parent, who)!;
  const inputs = { span: () => null, stateSyncs: () => [], txs: [] };
  return buildBlock(chain, plan, keys.find((k) => k.address === who)!.sk, who, inputs, plan.timeS);
}
const inTurn = (b: StoredBlock) => b.snapshot.validatorSet.proposer.address;
const backup = (b: StoredBlock) => b.snapshot.validatorSet.validators.find((v) => v.address !== inTurn(b))!.address;

function grow(chain: SidechainChain, n: number): void {
  for (let i = 0; i < n; i++) chain.import(produce(chain, chain.head(), inTurn(chain.head())), FAR, 0);
}
const numbers = (bs: StoredBlock[]) => bs.map((b) => Number(b.block.header.number));

describe('ChainFollower', () => {
  it('announces nothing at first, then each new canonical block once, oldest first', () => {
    const chain = new SidechainChain(FIXTURE_CONFIG, { timeS: 1000n, producers });
    grow(chain, 3);
    const port = chainReadPort(chain);
    const f = new ChainFollower();
    expect(f.poll(port)).toEqual({ added: [], removed: [] });
    grow(chain, 2);
    const c = f.poll(port);
    expect(numbers(c.added)).toEqual([4, 5]);
    expect(c.removed).toEqual([]);
    expect(f.poll(port)).toEqual({ added: [], removed: [] });
  });

  it('a reorg: the replaced block is removed, the new branch added', () => {
    const chain = new SidechainChain(FIXTURE_CONFIG, { timeS: 1000n, producers });
    grow(chain, 3);
    const port = chainReadPort(chain);
    const f = new ChainFollower();
    f.poll(port);
    const parent = chain.head();
    const weak = produce(chain, parent, backup(parent));
    chain.import(weak, FAR, 0);
    expect(f.poll(port).added.map((b) => b.block.hash)).toEqual([weak.hash]);
    const strong = produce(chain, parent, inTurn(parent));
    chain.import(strong, FAR, 0);
    expect(chain.head().block.hash).toBe(strong.hash);
    const c = f.poll(port);
    expect(c.removed.map((b) => b.block.hash)).toEqual([weak.hash]);
    expect(c.added.map((b) => b.block.hash)).toEqual([strong.hash]);
  });

  it('a rewind removes what it took, oldest first; growing again adds the new blocks', () => {
    const chain = new SidechainChain(FIXTURE_CONFIG, { timeS: 1000n, producers });
    grow(chain, 3);
    const port = chainReadPort(chain);
    const f = new ChainFollower();
    f.poll(port);
    grow(chain, 4);
    f.poll(port);
    chain.rewindTo(4n);
    const c = f.poll(port);
    expect(numbers(c.removed)).toEqual([5, 6, 7]);
    expect(c.added).toEqual([]);
    grow(chain, 1);
    expect(numbers(f.poll(port).added)).toEqual([5]);
  });

  it('a follower that knows only the head it started on: a reorg takes back that head and what led to it, never the whole chain', () => {
    // A devnet opened at a time starts its follower on the head it finds: nothing below was ever
    // announced. A depth-2 reorg must still remove 2 blocks and add the new branch (issue 22).
    const chain = new SidechainChain(FIXTURE_CONFIG, { timeS: 1000n, producers });
    grow(chain, 20);
    const port = chainReadPort(chain);
    const f = new ChainFollower();
    expect(f.poll(port)).toEqual({ added: [], removed: [] });
    const fork = chain.byNumber(19n)!;
    const old20 = chain.head();
    // A weaker block on top of the followed head, announced, then replaced with its parent's sibling chain.
    const weak = produce(chain, old20, backup(old20));
    chain.import(weak, FAR, 0);
    expect(numbers(f.poll(port).added)).toEqual([21]);
    // A heavier branch from block 19: 20' (a backup's) and 21', 22' in turn on it.
    const b20 = produce(chain, fork, backup(fork));
    chain.import(b20, FAR, 0);
    const s20 = chain.get(b20.hash)!;
    const b21 = produce(chain, s20, inTurn(s20));
    chain.import(b21, FAR, 0);
    const s21 = chain.get(b21.hash)!;
    chain.import(produce(chain, s21, inTurn(s21)), FAR, 0);
    expect(chain.head().block.header.number).toBe(22n);
    expect(chain.byNumber(20n)!.block.hash).toBe(b20.hash);
    const c = f.poll(port);
    expect(c.removed.map((b) => b.block.hash)).toEqual([old20.block.hash, weak.hash]);
    expect(numbers(c.added)).toEqual([20, 21, 22]);
  });

  it('a jump past maxBlocks announces only the newest maxBlocks', () => {
    const chain = new SidechainChain(FIXTURE_CONFIG, { timeS: 1000n, producers });
    const port = chainReadPort(chain);
    const f = new ChainFollower(4);
    f.poll(port);
    grow(chain, 10);
    expect(numbers(f.poll(port).added)).toEqual([7, 8, 9, 10]);
    grow(chain, 1);
    expect(numbers(f.poll(port).added)).toEqual([11]);
  });
});
