/**
 * The BFT oracles on hand-built votes: a commit needs precommits of more than 2/3 of the power
 * (exactly 2/3 is not enough), a precommit needs a polka, and a locked node prevotes another
 * block only for a proposal whose POL round is at least its lock round.
 */
import { describe, expect, it } from 'vitest';
import { type Address } from '../../src/core/address';
import { type Hex } from '../../src/core/bytes';
import { type Observation, type VoteFact } from '../../src/node/observations';
import { BftLockOracle, BftQuorumOracle } from './bft';
import { type Oracle } from './oracle';
import { VALIDATORS, commit, commitFactOf, hash, precommits, rec, serviceGenesis } from './testing/observations';

const V = VALIDATORS.map((v) => v.signer) as Address[];
const H = 1n;
const blockA = hash('A');
const blockB = hash('B');

function feed(o: Oracle, items: Array<[string, Observation]>): void {
  items.forEach(([node, obs], i) => {
    o.observe(rec(i + 1, node, obs));
  });
}
const vote = (
  type: VoteFact['type'],
  round: number,
  blockHash: Hex | null,
  validator: Address,
  origin: 'consensus' | 'wrapper' = 'consensus',
): Observation => ({
  kind: 'consensus.vote',
  vote: { type, height: H, round, blockHash, validator },
  origin,
});
const nodeOf = (a: Address) => `svc-${V.indexOf(a) + 1}`;
const prevotes = (round: number, b: Hex, who: Address[]): Array<[string, Observation]> =>
  who.map((a) => [nodeOf(a), vote('prevote', round, b, a)]);
const genesisAll = (): Array<[string, Observation]> => V.map((a) => [nodeOf(a), serviceGenesis()]);

describe('bft-quorum oracle', () => {
  it('a commit of 3 of 4 equal validators passes; 2 of 4 fires', () => {
    const ok = new BftQuorumOracle();
    feed(ok, [
      ...genesisAll(),
      [
        'svc-1',
        commit(H, { blockHash: blockA, commit: commitFactOf(H, blockA, precommits(H, 0, blockA, V.slice(0, 3))) }),
      ],
    ]);
    expect(ok.violation).toBeNull();
    const bad = new BftQuorumOracle();
    feed(bad, [
      ...genesisAll(),
      [
        'svc-1',
        commit(H, { blockHash: blockA, commit: commitFactOf(H, blockA, precommits(H, 0, blockA, V.slice(0, 2))) }),
      ],
    ]);
    expect(bad.violation).toMatchObject({ oracle: 'bft-quorum', class: 'safety' });
    expect(bad.violation!.message).toMatch(/committed with precommits of 20 of 40 voting power/);
  });

  it('judges a commit against the powers of the node that made it, whatever equal commits passed before', () => {
    // svc-1 stores equal powers (3 of 4 signers hold 30 of 40); svc-2 the same members with the
    // fourth holding most of the power (the same three hold 30 of 100).
    const heavy = VALIDATORS.map((v, i) => (i === 3 ? { ...v, power: 70n } : v));
    const signed = commitFactOf(H, blockA, precommits(H, 0, blockA, V.slice(0, 3)));
    const o = new BftQuorumOracle();
    feed(o, [
      ['svc-1', serviceGenesis()],
      ['svc-2', serviceGenesis([], heavy)],
      ['svc-1', commit(H, { blockHash: blockA, commit: signed })],
      ['svc-3', serviceGenesis()],
      ['svc-3', commit(H, { blockHash: blockA, commit: signed })],
    ]);
    expect(o.violation).toBeNull();
    feed(o, [['svc-2', commit(H, { blockHash: blockA, commit: signed })]]);
    expect(o.violation).toMatchObject({ oracle: 'bft-quorum', node: 'svc-2' });
    expect(o.violation!.message).toMatch(/precommits of 30 of 100 voting power/);
  });

  it('exactly 2/3 of the power is not a quorum (a >= 2/3 threshold fires)', () => {
    const three = VALIDATORS.slice(0, 3);
    const bad = new BftQuorumOracle();
    feed(bad, [
      ['svc-1', serviceGenesis([], three)],
      [
        'svc-1',
        commit(H, {
          blockHash: blockA,
          commit: commitFactOf(
            H,
            blockA,
            precommits(H, 0, blockA, V.slice(0, 2)),
            three.map((v) => v.signer),
          ),
        }),
      ],
    ]);
    expect(bad.violation?.message).toMatch(/20 of 30 voting power \(not more than 2\/3\)/);
  });

  it('a commit carrying votes of another kind, block or round fires; a duplicate signer counts once', () => {
    const mixed = new BftQuorumOracle();
    const votes: VoteFact[] = [
      ...precommits(H, 0, blockA, V.slice(0, 3)),
      { type: 'prevote', height: H, round: 0, blockHash: blockA, validator: V[3]! },
    ];
    feed(mixed, [...genesisAll(), ['svc-1', commit(H, { blockHash: blockA, commit: commitFactOf(H, blockA, votes) })]]);
    expect(mixed.violation?.message).toMatch(/carries a vote that is not a precommit for it/);
    const dup = new BftQuorumOracle();
    feed(dup, [
      ...genesisAll(),
      [
        'svc-1',
        commit(H, {
          blockHash: blockA,
          commit: commitFactOf(H, blockA, precommits(H, 0, blockA, [V[0]!, V[0]!, V[1]!])),
        }),
      ],
    ]);
    expect(dup.violation?.message).toMatch(/20 of 40/);
  });

  it('a commit named over another validator set, or for another block, fires; an outsider counts nothing', () => {
    const otherSet = new BftQuorumOracle();
    feed(otherSet, [
      ...genesisAll(),
      [
        'svc-1',
        commit(H, {
          blockHash: blockA,
          commit: commitFactOf(H, blockA, precommits(H, 0, blockA, V), V, hash('another set')),
        }),
      ],
    ]);
    expect(otherSet.violation?.message).toMatch(/names its signers over a validator set other than the stored one/);
    const otherBlock = new BftQuorumOracle();
    feed(otherBlock, [
      ...genesisAll(),
      ['svc-1', commit(H, { blockHash: blockA, commit: commitFactOf(H, hash('B'), precommits(H, 0, hash('B'), V)) })],
    ]);
    expect(otherBlock.violation?.message).toMatch(/carries precommits for another block or height/);
    // Two members and an outsider (listed as it is, no power): 20 of 40.
    const outsider = new BftQuorumOracle();
    const votes = precommits(H, 0, blockA, [V[0]!, V[1]!, hash('x').slice(0, 42) as Address]);
    feed(outsider, [
      ...genesisAll(),
      ['svc-1', commit(H, { blockHash: blockA, commit: commitFactOf(H, blockA, votes) })],
    ]);
    expect(outsider.violation?.message).toMatch(/20 of 40/);
  });

  it('a precommit needs more than 2/3 of the power prevoting its block in its round', () => {
    const ok = new BftQuorumOracle();
    feed(ok, [...genesisAll(), ...prevotes(0, blockA, V.slice(0, 3)), ['svc-1', vote('precommit', 0, blockA, V[0]!)]]);
    expect(ok.violation).toBeNull();
    const half = new BftQuorumOracle();
    feed(half, [
      ...genesisAll(),
      ...prevotes(0, blockA, V.slice(0, 2)),
      ['svc-1', vote('precommit', 0, blockA, V[0]!)],
    ]);
    expect(half.violation?.message).toMatch(/precommitted .* without prevotes of more than 2\/3 of the power/);
  });
});

describe('bft-lock oracle', () => {
  const proposal = (round: number, b: Hex, polRound: number): Observation => ({
    kind: 'consensus.proposal',
    height: H,
    round,
    blockHash: b,
    polRound,
    proposer: V[round % 4]!,
  });
  // svc-1 locks on A in round 0 (a polka for A, its precommit).
  const locked = (): Array<[string, Observation]> => [
    ...genesisAll(),
    ['svc-1', proposal(0, blockA, -1)],
    ...prevotes(0, blockA, V.slice(0, 3)),
    ['svc-1', vote('precommit', 0, blockA, V[0]!)],
  ];

  it('fires when a locked node prevotes a new proposal (no POL)', () => {
    const o = new BftLockOracle();
    feed(o, [...locked(), ['svc-1', proposal(1, blockB, -1)], ['svc-1', vote('prevote', 1, blockB, V[0]!)]]);
    expect(o.violation).toMatchObject({ oracle: 'bft-lock', class: 'safety', node: 'svc-1' });
    expect(o.violation!.message).toMatch(/while locked on .* since round 0/);
  });

  it('silent when it prevotes nil or its locked block, or unlocks on a POL round at least its lock round', () => {
    const o = new BftLockOracle();
    feed(o, [
      ...locked(),
      ['svc-1', proposal(1, blockB, -1)],
      ['svc-1', vote('prevote', 1, null, V[0]!)],
      // A polka for B in round 1 (the others), then a proposal of B carrying POL round 1.
      ...prevotes(1, blockB, V.slice(1, 4)),
      ['svc-1', proposal(2, blockB, 1)],
      ['svc-1', vote('prevote', 2, blockB, V[0]!)],
    ]);
    expect(o.violation).toBeNull();
  });

  it('a POL round without 2/3 prevotes, or below the lock round, does not unlock', () => {
    const thin = new BftLockOracle();
    feed(thin, [
      ...locked(),
      ...prevotes(1, blockB, V.slice(1, 3)),
      ['svc-1', proposal(2, blockB, 1)],
      ['svc-1', vote('prevote', 2, blockB, V[0]!)],
    ]);
    expect(thin.violation?.message).toMatch(/while locked/);
    const old = new BftLockOracle();
    feed(old, [
      ...genesisAll(),
      ...prevotes(0, blockB, V.slice(1, 4)),
      ...prevotes(1, blockA, V.slice(0, 3)),
      ['svc-1', vote('precommit', 1, blockA, V[0]!)],
      ['svc-1', proposal(2, blockB, 0)],
      ['svc-1', vote('prevote', 2, blockB, V[0]!)],
    ]);
    expect(old.violation?.message).toMatch(/since round 1/);
  });

  it('a restart forgets the lock; a wrapper-signed vote is not judged', () => {
    const o = new BftLockOracle();
    feed(o, [
      ...locked(),
      ['svc-1', { kind: 'service.started', height: 0n }],
      ['svc-1', proposal(1, blockB, -1)],
      ['svc-1', vote('prevote', 1, blockB, V[0]!)],
      ['svc-2', vote('precommit', 0, blockA, V[1]!)],
      ['svc-2', vote('prevote', 1, blockB, V[1]!, 'wrapper')],
    ]);
    expect(o.violation).toBeNull();
  });
});
