/**
 * The fork-choice oracle on hand-built block trees: silent while every head is the heaviest
 * block its node knows; fires on a length-before-TD comparison, a reversed hash tie-break, a
 * reorg past the bound, a switch below the finality floor; follows rewinds and checkpoint forks.
 */
import { describe, expect, it } from 'vitest';
import { type SidechainBlockFact } from '../../src/node/observations';
import { ConvergenceOracle, ForkChoiceOracle } from './forkChoice';
import { SidechainModel } from './model/sidechainModel';
import {
  PARAMS,
  address,
  block,
  genesisRef,
  hash,
  imported,
  inTurnChain,
  rec,
  sidechainStarted,
} from './testing/observations';
import { type RunRecord } from './oracle';

function harness(maxReorgDepth: number | null = null) {
  const model = new SidechainModel(PARAMS);
  const oracle = new ForkChoiceOracle(model, maxReorgDepth);
  let t = 0;
  const feed = (node: string, obs: RunRecord['obs']) => {
    const r = rec(++t, node, obs);
    model.observe(r);
    oracle.observe(r);
  };
  feed('sc-1', sidechainStarted());
  return { oracle, feed };
}

const A = address(1);
const B = address(2);

describe('fork-choice oracle', () => {
  const main = inTurnChain(3); // td 1 + 3 + 3 + 3 = 10, number 3

  it('silent while the head is the heaviest known block, through a reorg to a heavier branch', () => {
    const { oracle, feed } = harness(5);
    for (const b of main) feed('sc-1', imported(b));
    // A branch from block 1 that becomes heavier at its third block: 4 + 1 + 1 + 5 = 11 > 10.
    const y2 = block('y2', main[0]!, { signer: B, difficulty: 1n });
    const y3 = block('y3', y2, { signer: B, difficulty: 1n });
    const y4 = block('y4', y3, { signer: B, difficulty: 5n });
    feed('sc-1', imported(y2, main[2]!));
    feed('sc-1', imported(y3, main[2]!));
    expect(oracle.violation).toBeNull();
    feed('sc-1', imported(y4));
    expect(oracle.violation).toBeNull();
  });

  it('fires when a longer but lighter chain is kept (length compared before total difficulty)', () => {
    const { oracle, feed } = harness();
    for (const b of main) feed('sc-1', imported(b));
    // Four backup blocks: longer (number 4) but lighter (td 5) than the main chain (td 10).
    let parent: SidechainBlockFact | typeof genesisRef = genesisRef;
    const light: SidechainBlockFact[] = [];
    for (let i = 1; i <= 4; i++) {
      const b = block(`l${i}`, parent, { signer: B, difficulty: 1n });
      light.push(b);
      parent = b;
    }
    for (const b of light.slice(0, 3)) feed('sc-1', imported(b, main[2]!));
    expect(oracle.violation).toBeNull();
    feed('sc-1', imported(light[3]!));
    expect(oracle.violation).toMatchObject({ oracle: 'fork-choice', class: 'safety', node: 'sc-1' });
    expect(oracle.violation!.message).toMatch(/not the heaviest known chain/);
    expect(oracle.violation!.evidence.expected).toBe(main[2]!.hash);
  });

  it('equal TD: the lower number wins, then the larger hash; a reversed tie-break fires', () => {
    const ok = harness();
    const lo = block('t-aaa', genesisRef, { signer: A, difficulty: 3n });
    const hi = block('t-zzz', genesisRef, { signer: B, difficulty: 3n });
    ok.feed('sc-1', imported(lo));
    ok.feed('sc-1', imported(hi)); // larger hash, same td and number: the new head
    expect(ok.oracle.violation).toBeNull();
    const bad = harness();
    bad.feed('sc-1', imported(lo));
    bad.feed('sc-1', imported(hi, lo)); // kept the smaller hash
    expect(bad.oracle.violation?.message).toMatch(/not the heaviest known chain/);
    // Equal TD, the lower number wins: one block of difficulty 2 (td 3, number 1) beats two of
    // difficulty 1 (td 3, number 2).
    const num = harness();
    const two1 = block('n1', genesisRef, { signer: A, difficulty: 1n });
    const two2 = block('n2', two1, { signer: A, difficulty: 1n });
    const one = block('n0', genesisRef, { signer: B, difficulty: 2n });
    num.feed('sc-1', imported(two1));
    num.feed('sc-1', imported(two2));
    num.feed('sc-1', imported(one, two2)); // td 3 at number 1 beats td 3 at number 2
    expect(num.oracle.violation?.message).toMatch(/not the heaviest known chain/);
  });

  it('fires on a reorg deeper than the bound', () => {
    const { oracle, feed } = harness(1);
    for (const b of main) feed('sc-1', imported(b));
    const y1 = block('d1', genesisRef, { signer: B, difficulty: 5n });
    const y2 = block('d2', y1, { signer: B, difficulty: 5n });
    feed('sc-1', imported(y1, main[2]!));
    feed('sc-1', imported(y2)); // td 11 > 10: reorg of depth 3
    expect(oracle.violation?.message).toMatch(/reorg of depth 3 exceeds the scenario's bound 1/);
  });

  it('the finality floor: a heavier chain without the floor block is not the expected head', () => {
    const { oracle, feed } = harness();
    for (const b of main) feed('sc-1', imported(b));
    feed('sc-1', { kind: 'sidechain.finalized', number: 2n, hash: main[1]!.hash });
    const y1 = block('f1', genesisRef, { signer: B, difficulty: 9n });
    feed('sc-1', imported(y1, main[2]!)); // heavier (10 vs 10 at a lower number) but disagrees with the floor
    expect(oracle.violation).toBeNull();
    const w = harness();
    for (const b of main) w.feed('sc-1', imported(b));
    w.feed('sc-1', { kind: 'sidechain.finalized', number: 2n, hash: main[1]!.hash });
    w.feed('sc-1', imported(y1)); // switched below its floor
    expect(w.oracle.violation?.message).toMatch(/not the heaviest known chain/);
  });

  it('the floor on long branches: those that keep it may win, one that left it below never does', () => {
    // main: 8 in-turn blocks (td 3 each), the floor at main[2] (number 3). y: a heavier branch
    // from main[1] (below the floor), 8 blocks of difficulty 9. z: a heavier branch from main[4]
    // (above the floor), 5 blocks of difficulty 9. The expected head is z's tip: y never counts,
    // however long it grows, and each z block carries the floor through its parent.
    const long = inTurnChain(8);
    const { oracle, feed } = harness();
    for (const b of long.slice(0, 3)) feed('sc-1', imported(b));
    feed('sc-1', { kind: 'sidechain.finalized', number: 3n, hash: long[2]!.hash });
    for (const b of long.slice(3)) feed('sc-1', imported(b));
    let parent: SidechainBlockFact = long[1]!;
    for (let i = 0; i < 8; i++) {
      const y = block(`y${i}`, parent, { signer: B, difficulty: 9n });
      feed('sc-1', imported(y, long[7]!));
      parent = y;
    }
    parent = long[4]!;
    for (let i = 0; i < 5; i++) {
      const z = block(`z${i}`, parent, { signer: A, difficulty: 9n });
      // z0 (td 16 + 9 = 25 at number 6) ties main's tip (25 at number 8) and wins on the lower number.
      feed('sc-1', imported(z));
      parent = z;
    }
    expect(oracle.violation).toBeNull();
  });

  it('a setHead must report as removed exactly the blocks the node held above it, on every branch', () => {
    const side = block('s2', main[0]!, { signer: B, difficulty: 1n });
    const run = (removed: number) => {
      const { oracle, feed } = harness();
      for (const b of main) feed('sc-1', imported(b));
      feed('sc-1', imported(side, main[2]!));
      feed('sc-1', {
        kind: 'sidechain.setHead',
        number: 1n,
        removed,
        error: null,
        head: { hash: main[0]!.hash, number: 1n },
      });
      return oracle.violation?.message ?? null;
    };
    expect(run(3)).toBeNull(); // main 2 and 3, and the side block at 2
    expect(run(2)).toMatch(/setHead\(1\) reports 2 blocks removed; the node held 3 above it/);
    expect(run(-3)).toMatch(/reports -3 blocks removed/);
  });

  it('a setHead is refused only to a block that is not below the head', () => {
    const run = (number: bigint) => {
      const { oracle, feed } = harness();
      for (const b of main) feed('sc-1', imported(b));
      const head = main[main.length - 1]!;
      feed('sc-1', {
        kind: 'sidechain.setHead',
        number,
        removed: null,
        error: 'refused',
        head: { hash: head.hash, number: head.number },
      });
      return oracle.violation?.message ?? null;
    };
    const top = main[main.length - 1]!.number;
    expect(run(top)).toBeNull();
    expect(run(top + 5n)).toBeNull();
    expect(run(top - 1n)).toMatch(
      new RegExp(`setHead\\(${top - 1n}\\) refused \\(refused\\) though the head was ${top}`),
    );
  });

  it('a rewind resets the expected head to the rewound-to block; a checkpoint fork to its heaviest descendant', () => {
    const { oracle, feed } = harness();
    for (const b of main) feed('sc-1', imported(b));
    feed('sc-1', {
      kind: 'sidechain.setHead',
      number: 1n,
      removed: 2,
      error: null,
      head: { hash: main[0]!.hash, number: 1n },
    });
    expect(oracle.violation).toBeNull();
    // The removed blocks come back from peers.
    feed('sc-1', imported(main[1]!));
    feed('sc-1', imported(main[2]!));
    expect(oracle.violation).toBeNull();
    // A lighter stored fork that a checkpoint makes final: the head moves onto it.
    const k1 = block('k1', genesisRef, { signer: B, difficulty: 2n });
    const k2 = block('k2', k1, { signer: B, difficulty: 2n });
    feed('sc-1', imported(k1, main[2]!));
    feed('sc-1', imported(k2, main[2]!));
    feed('sc-1', {
      kind: 'sidechain.checkpointFork',
      start: 0n,
      end: 1n,
      fork: k1.hash,
      head: { hash: k2.hash, number: 2n },
    });
    expect(oracle.violation).toBeNull();
    feed('sc-1', {
      kind: 'sidechain.checkpointFork',
      start: 0n,
      end: 1n,
      fork: k1.hash,
      head: { hash: main[2]!.hash, number: 3n },
    });
    expect(oracle.violation?.message).toMatch(/checkpointed fork/);
  });

  it('an import whose parent was never imported is reported', () => {
    const { oracle, feed } = harness();
    feed(
      'sc-1',
      imported(block('orphan', { hash: hash('nowhere'), number: 5n, time: 100n }, { signer: A, difficulty: 3n })),
    );
    expect(oracle.violation?.message).toMatch(/parent .* was never imported/);
  });
});

describe('convergence oracle', () => {
  it('after heal: all nodes on one chain, none far behind', () => {
    const ok = new ConvergenceOracle();
    ok.check(1, [
      { node: 'sc-1', number: 100n, hashAt: '0xh' },
      { node: 'sc-2', number: 99n, hashAt: '0xh' },
    ]);
    expect(ok.violation).toBeNull();
    const split = new ConvergenceOracle();
    split.check(1, [
      { node: 'sc-1', number: 100n, hashAt: '0xh' },
      { node: 'sc-2', number: 100n, hashAt: '0xg' },
    ]);
    expect(split.violation?.message).toMatch(/disagree/);
    const behind = new ConvergenceOracle();
    behind.check(1, [
      { node: 'sc-1', number: 100n, hashAt: '0xh' },
      { node: 'sc-2', number: 90n, hashAt: '0xh' },
    ]);
    expect(behind.violation?.message).toMatch(/10 blocks behind/);
  });
});
