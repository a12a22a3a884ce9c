/**
 * Header answers are shared between the nodes whose chains stand at the same head: the answer must
 * be what that node's own chain gives, from any number, before and after a reorg moves the head.
 */
import { describe, expect, it } from 'vitest';
import { type Address } from '../../core/address';
import { clearCaches } from '../../core/memo';
import { SidechainChain, type StoredBlock } from '../../sidechain/chain';
import { type SidechainBlock } from '../../sidechain/block';
import { buildBlock, planProduction } from '../../sidechain/producer';
import {
  FIXTURE_CONFIG,
  fixtureKeys,
  fixtureProducers,
  fixtureRecords,
  fixtureSpans,
} from '../../sidechain/testing/fixture';
import { headersAnswer } from './headerAnswers';

const keys = fixtureKeys('header-answers-test');
const producers = fixtureProducers(keys);
const spans = fixtureSpans(producers, { rotate: true });
const records = fixtureRecords(10, 1000n);
const FAR = 10n ** 12n;

function produce(chain: SidechainChain, parent: StoredBlock, who: Address): SidechainBlock {
  const plan = planProduction(chain.cfg, parent, who)!;
  const key = keys.find((k) => k.address === who)!;
  return buildBlock(
    chain,
    plan,
    key.sk,
    who,
    {
      span: (id) => spans.get(id) ?? null,
      stateSyncs: (fromId, toTimeS) => records.filter((r) => r.id >= fromId && r.timeS < toTimeS),
      txs: [],
    },
    plan.timeS,
  );
}

const inTurn = (p: StoredBlock) => p.snapshot.validatorSet.proposer.address;
const backup = (p: StoredBlock) => {
  const set = p.snapshot.validatorSet;
  return set.validators[(set.indexOfAddress(set.proposer.address) + 1) % set.size]!.address;
};

/** The answer built from scratch (an empty cache) on `chain`. */
function fresh(chain: SidechainChain, from: bigint, max: number) {
  clearCaches();
  return headersAnswer(chain, from, max);
}

describe('header answers', () => {
  it('are each chain’s own answer, shared between chains at one head, and follow a reorg', () => {
    const a = new SidechainChain(FIXTURE_CONFIG, { timeS: 1000n, producers });
    const b = new SidechainChain(FIXTURE_CONFIG, { timeS: 1000n, producers });
    // Both chains import the same twenty blocks (the same objects, as nodes of a run do).
    for (let i = 0; i < 20; i++) {
      const block = produce(a, a.head(), inTurn(a.head()));
      expect(a.import(block, FAR, 0)).toMatchObject({ status: 'imported' });
      expect(b.import(block, FAR, 0)).toMatchObject({ status: 'imported' });
    }
    const cases: Array<[bigint, number]> = [
      [0n, 256],
      [5n, 256],
      [5n, 4],
      [19n, 256],
      [20n, 256],
      [40n, 256],
    ];
    for (const [from, max] of cases) {
      const want = fresh(a, from, max);
      clearCaches();
      const first = headersAnswer(a, from, max);
      expect(first).toEqual(want);
      expect(headersAnswer(b, from, max)).toBe(first);
    }
    // b switches to a heavier branch from block 17: its answers are its chain's, a's stay a's.
    const fork = b.byNumber(17n)!;
    const b18 = produce(b, fork, backup(fork));
    b.import(b18, FAR, 0);
    let tip = b.get(b18.hash)!;
    for (let i = 0; i < 4; i++) {
      const next = produce(b, tip, inTurn(tip));
      b.import(next, FAR, 0);
      tip = b.get(next.hash)!;
    }
    expect(b.head().block.hash).toBe(tip.block.hash);
    for (const [from, max] of cases) {
      const onA = headersAnswer(a, from, max);
      const onB = headersAnswer(b, from, max);
      expect(onA).toEqual(fresh(a, from, max));
      expect(onB).toEqual(fresh(b, from, max));
    }
    expect(headersAnswer(b, 15n, 256)).not.toEqual(headersAnswer(a, 15n, 256));
  });
});
