import { describe, expect, it } from 'vitest';
import vectors from './vectors/sidechain.json';
import { type Address } from '../core/address';
import { ValidatorSet } from '../core/validatorSet';
import { sidechainDifficulty } from './difficulty';
import { buildExtra, encodeValidatorBytes, makeHeader } from './header';
import {
  applyHeader,
  genesisSnapshot,
  snapshotDifficulty,
  snapshotFromJSON,
  snapshotProducers,
  snapshotProposer,
  snapshotSuccession,
  snapshotToJSON,
} from './snapshot';
import { GENESIS_HASH, buildSprintChain } from './testing/sprintChain';

const names = vectors.sprintRotation.addresses;
const byName = (n: string) => names[n as keyof typeof names] as Address;
const nameOf = (a: Address) => Object.keys(names).find((k) => names[k as keyof typeof names] === a);

describe('sprint proposer and difficulty maps: public vectors (sidechain.md §2.3, §7)', () => {
  for (const c of vectors.sprintRotation.cases) {
    const label = Object.entries(c.powers)
      .map(([k, v]) => `${k}${v}`)
      .join(' ');
    it(label, () => {
      const sprint = 16;
      const producers = Object.entries(c.powers).map(([k, power], i) => ({ address: byName(k), power, id: i + 1 }));
      const { snapshots, proposers } = buildSprintChain(producers, sprint, sprint * c.proposers.length - 1);
      c.proposers.forEach((expected, s) => {
        // Every block of sprint s (block 0 is genesis, so sprint 0 starts at block 1) has one proposer.
        const blocks = proposers.slice(Math.max(1, s * sprint), (s + 1) * sprint);
        expect(blocks.map(nameOf), `sprint ${s}`).toEqual(blocks.map(() => expected));
      });
      c.difficulties.forEach((map, s) => {
        const snap = snapshots[Math.max(1, s * sprint) - 1]!; // the parent's snapshot of the sprint's first block
        const got = Object.fromEntries(Object.keys(map).map((k) => [k, Number(snapshotDifficulty(snap, byName(k)))]));
        expect(got, `sprint ${s}`).toEqual(map);
        // The library function agrees, from a producer list in any order.
        const list = Object.keys(map).map(byName).reverse();
        for (const k of Object.keys(map))
          expect(Number(sidechainDifficulty(list, snapshotProposer(snap), byName(k)))).toBe(map[k as keyof typeof map]);
      });
    });
  }

  it('a heavier producer is in turn more often (A3 B1: A, A, B, A, …)', () => {
    const producers = [
      { address: byName('A'), power: 3 },
      { address: byName('B'), power: 1 },
    ];
    const { proposers } = buildSprintChain(producers, 4, 4 * 8 - 1);
    const perSprint = Array.from({ length: 8 }, (_, s) => nameOf(proposers[Math.max(1, s * 4)]!));
    const model = new ValidatorSet(producers);
    const expected = [nameOf(model.proposer.address)];
    for (let s = 1; s < 8; s++) {
      model.incrementProposerPriority(1);
      expected.push(nameOf(model.proposer.address));
    }
    expect(perSprint).toEqual(expected);
    expect(perSprint.filter((x) => x === 'A').length).toBe(6);
  });
});

describe('applyHeader', () => {
  const A = byName('A');
  const B = byName('B');
  const C = byName('C');
  const D = byName('D');
  const three = [
    { address: A, power: 1, id: 1 },
    { address: B, power: 1, id: 2 },
    { address: C, power: 1, id: 3 },
  ];
  const header = (n: bigint, parentHash: `0x${string}`, middle = '0x') =>
    makeHeader({ number: n, parentHash, time: 1000n + n, extraData: buildExtra(middle) });

  it('genesis: NewValidatorSet, first proposer is the highest power (ties: smaller address)', () => {
    const g = genesisSnapshot(three, GENESIS_HASH);
    expect(g.number).toBe(0n);
    expect(g.hash).toBe(GENESIS_HASH);
    expect(snapshotProposer(g)).toBe(A);
    expect(snapshotProducers(g)).toEqual([A, B, C]);
    expect(
      snapshotProposer(
        genesisSnapshot(
          [
            { address: A, power: 1 },
            { address: C, power: 2 },
          ],
          GENESIS_HASH,
        ),
      ),
    ).toBe(C);
  });

  it('returns a new snapshot and leaves its input alone', () => {
    const g = genesisSnapshot(three, GENESIS_HASH);
    const before = JSON.stringify(snapshotToJSON(g));
    const vb = encodeValidatorBytes(three);
    let s = g;
    for (let n = 1n; n <= 3n; n++) s = applyHeader(s, header(n, s.hash, n === 3n ? vb : '0x'), snapshotProposer(s), 4);
    expect(snapshotProposer(s)).toBe(B);
    expect(JSON.stringify(snapshotToJSON(g))).toBe(before);
    expect(snapshotProposer(g)).toBe(A);
  });

  it('recents keep the last `sprint` signers', () => {
    let s = genesisSnapshot(three, GENESIS_HASH);
    const vb = encodeValidatorBytes(three);
    for (let n = 1n; n <= 10n; n++)
      s = applyHeader(s, header(n, s.hash, (n + 1n) % 4n === 0n ? vb : '0x'), snapshotProposer(s), 4);
    expect([...s.recents.keys()]).toEqual([7n, 8n, 9n, 10n]);
    expect(s.number).toBe(10n);
  });

  it('a sprint-end header switches to the producers it announces', () => {
    let s = genesisSnapshot(three, GENESIS_HASH);
    // Sprint 4: blocks 1, 2 in sprint 0; block 3 announces B2 C1 D1 (A leaves, D joins with id 4).
    s = applyHeader(s, header(1n, s.hash), A, 4);
    s = applyHeader(s, header(2n, s.hash), A, 4);
    const announced = encodeValidatorBytes([
      { address: D, power: 1 },
      { address: B, power: 2 },
      { address: C, power: 1 },
    ]);
    s = applyHeader(s, header(3n, s.hash, announced), A, 4, new Map([[D, 4n]]));
    expect(snapshotProducers(s)).toEqual([B, C, D]);
    expect(s.validatorSet.getByAddress(B)).toMatchObject({ power: 2n, id: 2n });
    expect(s.validatorSet.getByAddress(D)).toMatchObject({ power: 1n, id: 4n });
    // The model: the same change set applied to a copy of the old set, then one increment.
    const model = genesisSnapshot(three, GENESIS_HASH).validatorSet.copy();
    model.updateWithChangeSet([
      { address: A, power: 0 },
      { address: B, power: 2 },
      { address: C, power: 1 },
      { address: D, power: 1 },
    ]);
    model.incrementProposerPriority(1);
    expect(snapshotProposer(s)).toBe(model.proposer.address);
    expect(s.validatorSet.toJSON().validators.map((v) => v.proposerPriority)).toEqual(
      model.toJSON().validators.map((v) => v.proposerPriority),
    );
    expect(snapshotSuccession(s, snapshotProposer(s))).toBe(0);
    // A left: it may no longer sign.
    expect(() => applyHeader(s, header(4n, s.hash), A, 4)).toThrow(
      /^signer: Signer 0x0+1 is not a part of the producer set at block 4/,
    );
  });

  it('refuses a header that cannot follow the snapshot', () => {
    const g = genesisSnapshot(three, GENESIS_HASH);
    expect(() => applyHeader(g, header(2n, g.hash), A, 4)).toThrow(
      /^header\.number: out of range or non-contiguous chain/,
    );
    expect(() => applyHeader(g, header(1n, `0x${'cd'.repeat(32)}`), A, 4)).toThrow(/^header\.parentHash:/);
    expect(() => applyHeader(g, header(1n, g.hash), D, 4)).toThrow(/^signer:/);
    expect(() => applyHeader(g, header(1n, g.hash), A, 0)).toThrow(/^sprint:/);
    // A sprint-end header must carry an acceptable producer list.
    let s = applyHeader(g, header(1n, g.hash), A, 3);
    expect(() => applyHeader(s, header(2n, s.hash), A, 3)).toThrow(
      /^header\.extraData: invalid validator list on sprint end block 2/,
    );
    expect(() => applyHeader(s, header(2n, s.hash, '0x' + '01'.repeat(41)), A, 3)).toThrow(
      /validatorBytes: invalid validator list/,
    );
    const dup = '0x' + (A.slice(2) + '00'.repeat(19) + '01').repeat(2);
    expect(() => applyHeader(s, header(2n, s.hash, dup), A, 3)).toThrow(/^header\.extraData: duplicate producer/);
    s = applyHeader(s, header(2n, s.hash, encodeValidatorBytes(three)), A, 3);
    expect(snapshotProposer(s)).toBe(B);
  });

  it('accepts the sprint length as a bigint', () => {
    const g = genesisSnapshot(three, GENESIS_HASH);
    const s = applyHeader(g, header(1n, g.hash, encodeValidatorBytes(three)), A, 2n);
    expect(snapshotProposer(s)).toBe(B);
  });

  it('JSON round trip', () => {
    const { snapshots } = buildSprintChain(three, 4, 9);
    const s = snapshots[9]!;
    const json = JSON.parse(JSON.stringify(snapshotToJSON(s)));
    const back = snapshotFromJSON(json);
    expect(snapshotToJSON(back)).toEqual(snapshotToJSON(s));
    expect(back.recents).toEqual(s.recents);
    expect(snapshotProposer(back)).toBe(snapshotProposer(s));
    expect(() => snapshotFromJSON({ ...json, hash: '0x12' })).toThrow(/^snapshot\.hash/);
    expect(() => snapshotFromJSON({ ...json, recents: [['x', A]] })).toThrow(/^snapshot\.recents\[0\]\[0\]/);
  });
});
