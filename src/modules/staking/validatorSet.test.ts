import { describe, expect, it } from 'vitest';
import { type Address } from '../../core/address';
import { INT64_MAX } from '../../core/amount';
import { InputError } from '../../core/errors';
import { MAX_TOTAL_VOTING_POWER, ValidatorSet } from '../../core/validatorSet';

/** Heimdall right-aligns Tendermint's ASCII test addresses in 20 bytes (heimdall.md §10.5). */
function asciiAddress(name: string): Address {
  return `0x${Buffer.from(name, 'ascii').toString('hex').padStart(40, '0')}`;
}

/** 0x…01, 0x…02, …: A < B < C < D as in sidechain.md §2.3 / §7. */
function numbered(n: number): Address {
  return `0x${n.toString(16).padStart(40, '0')}`;
}

function priorities(set: ValidatorSet): Record<string, bigint> {
  return Object.fromEntries(set.validators.map((v) => [v.address, v.proposerPriority]));
}

describe('ValidatorSet: public vectors', () => {
  it('Tendermint TestProposerSelection1 (heimdall.md §10.5): foo 1000, bar 300, baz 330 over 99 rounds', () => {
    const names = new Map<string, string>(['foo', 'bar', 'baz'].map((n) => [asciiAddress(n), n]));
    const set = new ValidatorSet([
      { address: asciiAddress('foo'), power: 1000 },
      { address: asciiAddress('bar'), power: 300 },
      { address: asciiAddress('baz'), power: 330 },
    ]);
    const seen: string[] = [];
    for (let round = 0; round < 99; round++) {
      seen.push(names.get(set.proposer.address)!);
      set.incrementProposerPriority(1);
    }
    const expected =
      'foo baz foo bar foo foo baz foo bar foo foo baz foo foo bar foo baz foo foo bar foo foo baz foo bar foo foo ' +
      'baz foo bar foo foo baz foo foo bar foo baz foo foo bar foo baz foo foo bar foo baz foo foo bar foo baz foo ' +
      'foo foo baz bar foo foo foo baz foo bar foo foo baz foo bar foo foo baz foo bar foo foo baz foo bar foo foo ' +
      'baz foo foo bar foo baz foo foo bar foo baz foo foo bar foo baz foo foo';
    expect(seen.join(' ')).toBe(expected);
    // Sorted by address bytes: "bar" < "baz" < "foo".
    expect(set.validators.map((v) => names.get(v.address))).toEqual(['bar', 'baz', 'foo']);
  });

  it('Heimdall bor/selection_test.go accums (heimdall.md §10.1): five equal powers after NewValidatorSet', () => {
    const input = [
      { id: 3n, address: '0x1c4f0f054a0d6a1415382dc0fd83c6535188b220' },
      { id: 4n, address: '0x461295d3d9249215e758e939a150ab180950720b' },
      { id: 5n, address: '0x836fe3e3dd0a5f77d9d5b0f67e48048aaafcd5a0' },
      { id: 1n, address: '0x925a91f8003aaeabea6037103123b93c50b86ca3' },
      { id: 2n, address: '0xc787af4624cb3e80ee23ae7faac0f2acea2be34c' },
    ];
    // Reverse the input: NewValidatorSet sorts, and the incoming order must not matter.
    const set = new ValidatorSet([...input].reverse().map((v) => ({ ...v, power: 10000 })));
    expect(set.validators.map((v) => [v.id, v.proposerPriority])).toEqual([
      [3n, -40000n],
      [4n, 10000n],
      [5n, 10000n],
      [1n, 10000n],
      [2n, 10000n],
    ]);
    expect(set.proposer.address).toBe('0x1c4f0f054a0d6a1415382dc0fd83c6535188b220');
    expect(set.proposer.id).toBe(3n);
    expect(set.totalVotingPower()).toBe(50000n);
  });

  describe('Bor proposer and difficulty per sprint (sidechain.md §2.3-§2.4, §7)', () => {
    /** difficulty = N - ((i - p) mod N) over the address-sorted producers. */
    function difficulties(set: ValidatorSet, letters: string[]): Record<string, number> {
      const n = set.size;
      const p = set.indexOfAddress(set.proposer.address);
      return Object.fromEntries(letters.map((l, i) => [l, n - ((i - p + n) % n)]));
    }

    const cases: Array<{ n: number; proposers: string }> = [
      { n: 3, proposers: 'A B C A B C A' },
      { n: 4, proposers: 'A B C D A B C D A' },
    ];
    for (const { n, proposers } of cases) {
      const letters = ['A', 'B', 'C', 'D'].slice(0, n);
      const producers = letters.map((_, i) => ({ address: numbered(i + 1), power: 1 }));
      const letterOf = (a: string): string => letters[Number.parseInt(a.slice(2), 16) - 1]!;

      it(`${letters.map((l) => `${l}1`).join(' ')}: one increment per sprint -> ${proposers}`, () => {
        const set = new ValidatorSet(producers);
        const seen: string[] = [];
        for (let sprint = 0; sprint < proposers.split(' ').length; sprint++) {
          seen.push(letterOf(set.proposer.address));
          set.incrementProposerPriority(1);
        }
        expect(seen.join(' ')).toBe(proposers);
      });

      it(`${letters.map((l) => `${l}1`).join(' ')}: Bor's sprint end (same producers re-announced, then +1) -> ${proposers}`, () => {
        const set = new ValidatorSet(producers);
        const seen: string[] = [];
        for (let sprint = 0; sprint < proposers.split(' ').length; sprint++) {
          seen.push(letterOf(set.proposer.address));
          set.updateWithChangeSet(producers);
          set.incrementProposerPriority(1);
        }
        expect(seen.join(' ')).toBe(proposers);
      });
    }

    it('difficulty maps: {A3,B2,C1}, {A1,B3,C2}, {A2,B1,C3}; {A4,B3,C2,D1}', () => {
      const three = new ValidatorSet(['A', 'B', 'C'].map((_, i) => ({ address: numbered(i + 1), power: 1 })));
      expect(difficulties(three, ['A', 'B', 'C'])).toEqual({ A: 3, B: 2, C: 1 });
      three.incrementProposerPriority(1);
      expect(difficulties(three, ['A', 'B', 'C'])).toEqual({ A: 1, B: 3, C: 2 });
      three.incrementProposerPriority(1);
      expect(difficulties(three, ['A', 'B', 'C'])).toEqual({ A: 2, B: 1, C: 3 });
      const four = new ValidatorSet(['A', 'B', 'C', 'D'].map((_, i) => ({ address: numbered(i + 1), power: 1 })));
      expect(difficulties(four, ['A', 'B', 'C', 'D'])).toEqual({ A: 4, B: 3, C: 2, D: 1 });
    });
  });
});

describe('ValidatorSet: construction', () => {
  it('ties for the highest priority go to the smaller address; addresses are parsed case-insensitively', () => {
    const set = new ValidatorSet([
      { address: numbered(0xbb).toUpperCase().replace('0X', '0x'), power: 5 },
      { address: numbered(0xaa), power: 5 },
    ]);
    expect(set.proposer.address).toBe(numbered(0xaa));
    expect(set.hasAddress(numbered(0xbb))).toBe(true);
    expect(set.getByAddress(numbered(0xcc))).toBeUndefined();
  });

  it('the highest power proposes first; incoming priorities are ignored', () => {
    const set = new ValidatorSet([
      { address: numbered(1), power: 1n },
      { address: numbered(2), power: 7n },
      { address: numbered(3), power: 2n },
    ]);
    expect(set.proposer.address).toBe(numbered(2));
    // All start centred at 0, then +power, and the proposer pays the total (10).
    expect(priorities(set)).toEqual({ [numbered(1)]: 1n, [numbered(2)]: -3n, [numbered(3)]: 2n });
  });

  it('the validators getter returns copies: mutating them does not touch the set', () => {
    const set = new ValidatorSet([{ address: numbered(1), power: 1 }]);
    const list = set.validators as unknown as Array<{ power: bigint }>;
    list[0]!.power = 99n;
    expect(set.validators[0]!.power).toBe(1n);
  });

  const errorCases: Array<{
    name: string;
    input: Array<{ address: string; power: bigint | number }>;
    message: RegExp;
  }> = [
    { name: 'empty set', input: [], message: /would result in empty set/ },
    {
      name: 'duplicate entry (even in another case)',
      input: [
        { address: '0x00000000000000000000000000000000000000AA', power: 1 },
        { address: numbered(0xaa), power: 2 },
      ],
      message: /duplicate entry/,
    },
    { name: 'negative power', input: [{ address: numbered(1), power: -1 }], message: /voting power can't be negative/ },
    {
      name: 'power 0',
      input: [
        { address: numbered(1), power: 1 },
        { address: numbered(2), power: 0 },
      ],
      message: /cannot process validators with voting power 0/,
    },
    {
      name: 'one power above MaxTotalVotingPower',
      input: [{ address: numbered(1), power: MAX_TOTAL_VOTING_POWER + 1n }],
      message: /voting power can't be higher than/,
    },
    {
      name: 'total above MaxTotalVotingPower',
      input: [
        { address: numbered(1), power: MAX_TOTAL_VOTING_POWER },
        { address: numbered(2), power: 1n },
      ],
      message: /total voting power would exceed the max allowed/,
    },
    { name: 'bad address', input: [{ address: '0x1234', power: 1 }], message: /validators\[0\]\.address/ },
    {
      name: 'unsafe number power',
      input: [{ address: numbered(1), power: 2 ** 60 }],
      message: /validators\[0\]\.power/,
    },
  ];
  for (const c of errorCases) {
    it(`rejects: ${c.name}`, () => {
      expect(() => new ValidatorSet(c.input)).toThrow(InputError);
      expect(() => new ValidatorSet(c.input)).toThrow(c.message);
    });
  }

  it('accepts exactly MaxTotalVotingPower = MaxInt64 / 8', () => {
    expect(MAX_TOTAL_VOTING_POWER).toBe(INT64_MAX / 8n);
    const set = new ValidatorSet([
      { address: numbered(1), power: MAX_TOTAL_VOTING_POWER - 1n },
      { address: numbered(2), power: 1n },
    ]);
    expect(set.totalVotingPower()).toBe(MAX_TOTAL_VOTING_POWER);
    set.incrementProposerPriority(5);
  });

  it('incrementProposerPriority rejects non-positive times', () => {
    const set = new ValidatorSet([{ address: numbered(1), power: 1 }]);
    expect(() => set.incrementProposerPriority(0)).toThrow(/non-positive times/);
    expect(() => set.incrementProposerPriority(-1)).toThrow(InputError);
    expect(() => set.incrementProposerPriority(1.5)).toThrow(InputError);
  });

  it('incrementProposerPriority(k) equals k calls of (1) when no rescale is needed', () => {
    const make = (): ValidatorSet =>
      new ValidatorSet([
        { address: numbered(1), power: 3 },
        { address: numbered(2), power: 5 },
        { address: numbered(3), power: 11 },
      ]);
    const once = make();
    const many = make();
    many.incrementProposerPriority(7);
    for (let i = 0; i < 7; i++) once.incrementProposerPriority(1);
    expect(many.proposer).toEqual(once.proposer);
  });
});

describe('ValidatorSet: updateWithChangeSet', () => {
  /** A 10, B 10 after construction: A proposed (tie) -> A -10, B 10. */
  function twoEqual(): ValidatorSet {
    const set = new ValidatorSet([
      { address: numbered(0xa), power: 10, id: 1n },
      { address: numbered(0xb), power: 10, id: 2n },
    ]);
    expect(priorities(set)).toEqual({ [numbered(0xa)]: -10n, [numbered(0xb)]: 10n });
    return set;
  }

  it('add: the newcomer starts at -(T + T>>3), then the set is centred with floor division', () => {
    const set = twoEqual();
    set.updateWithChangeSet([{ address: numbered(0xc), power: 11, id: 3n }]);
    // T' = 31, C = -(31 + 3) = -34; sum -34, avg = floor(-34/3) = -12 (truncation would give -11).
    expect(priorities(set)).toEqual({ [numbered(0xa)]: 2n, [numbered(0xb)]: 22n, [numbered(0xc)]: -22n });
    expect(set.totalVotingPower()).toBe(31n);
    expect(set.getByAddress(numbered(0xc))?.id).toBe(3n);
    // The stored proposer is untouched (post-Aalborg) and stale until the next increment.
    expect(set.proposer).toEqual({ address: numbered(0xa), power: 10n, proposerPriority: -10n, id: 1n });
    set.incrementProposerPriority(1);
    // No rescale (44 <= 62), avg floor(2/3) = 0; +power: A 12, B 32, C -11 -> B pays 31.
    expect(set.proposer.address).toBe(numbered(0xb));
    expect(priorities(set)).toEqual({ [numbered(0xa)]: 12n, [numbered(0xb)]: 1n, [numbered(0xc)]: -11n });
  });

  it('update: the validator keeps its priority and its id unless the change names one', () => {
    const set = twoEqual();
    set.updateWithChangeSet([{ address: numbered(0xb), power: 30 }]);
    expect(set.validators).toEqual([
      { address: numbered(0xa), power: 10n, proposerPriority: -10n, id: 1n },
      { address: numbered(0xb), power: 30n, proposerPriority: 10n, id: 2n },
    ]);
    expect(set.totalVotingPower()).toBe(40n);
    set.updateWithChangeSet([{ address: numbered(0xb), power: 30, id: 9n }]);
    expect(set.getByAddress(numbered(0xb))?.id).toBe(9n);
  });

  it('remove: power 0 drops the validator; the removed proposer stays stored until the next increment', () => {
    const set = twoEqual();
    set.updateWithChangeSet([{ address: numbered(0xa), power: 0 }]);
    expect(set.validators.map((v) => v.address)).toEqual([numbered(0xb)]);
    expect(set.validators[0]!.proposerPriority).toBe(0n); // centred: 10 - 10
    expect(set.totalVotingPower()).toBe(10n);
    expect(set.proposer.address).toBe(numbered(0xa));
    set.incrementProposerPriority(1);
    expect(set.proposer.address).toBe(numbered(0xb));
  });

  it('rescale truncates toward zero, then the average is floored', () => {
    // A prio -31, B prio 20, T = 3: diffMax 6, diff 51, ratio ceil(51/6) = 9:
    // A -31/9 = -3 (floor: -4), B 20/9 = 2; sum -1, avg floor(-1/2) = -1 (trunc: 0) -> A -2, B 3.
    const set = ValidatorSet.fromJSON({
      validators: [
        { address: numbered(0xa), power: '1', proposerPriority: '-31' },
        { address: numbered(0xb), power: '2', proposerPriority: '20' },
      ],
      proposer: null,
    });
    set.updateWithChangeSet([{ address: numbered(0xa), power: 1 }]);
    expect(priorities(set)).toEqual({ [numbered(0xa)]: -2n, [numbered(0xb)]: 3n });
  });

  it('an empty change set is a no-op (no rescale, no centring)', () => {
    const set = ValidatorSet.fromJSON({
      validators: [{ address: numbered(0xa), power: '1', proposerPriority: '-31' }],
      proposer: null,
    });
    set.updateWithChangeSet([]);
    expect(set.validators[0]!.proposerPriority).toBe(-31n);
  });

  it('mixed: add, update and remove in one change set (unsorted input)', () => {
    const set = twoEqual();
    set.updateWithChangeSet([
      { address: numbered(0xc), power: 5 },
      { address: numbered(0xb), power: 0 },
      { address: numbered(0xa), power: 20 },
    ]);
    // T before removals = 20 + 10 + 5 = 35 -> C = -(35 + 4) = -39. A keeps -10. After removing B:
    // T = 25, diff 29 <= 50; sum -49, avg floor(-49/2) = -25 -> A 15, C -14.
    expect(priorities(set)).toEqual({ [numbered(0xa)]: 15n, [numbered(0xc)]: -14n });
  });

  const failing: Array<{ name: string; changes: Array<{ address: string; power: number }>; message: RegExp }> = [
    {
      name: 'removal of an unknown validator',
      changes: [{ address: numbered(0xee), power: 0 }],
      message: /^changes: failed to find validator 00000000000000000000000000000000000000EE to remove$/,
    },
    {
      name: 'removing everyone',
      changes: [
        { address: numbered(0xa), power: 0 },
        { address: numbered(0xb), power: 0 },
      ],
      message: /applying the validator changes would result in empty set/,
    },
    {
      name: 'duplicate entry',
      changes: [
        { address: numbered(0xc), power: 1 },
        { address: numbered(0xc), power: 2 },
      ],
      message: /duplicate entry/,
    },
    {
      name: 'negative power',
      changes: [{ address: numbered(0xa), power: -5 }],
      message: /voting power can't be negative/,
    },
  ];
  for (const c of failing) {
    it(`rejects ${c.name} and leaves the set unchanged`, () => {
      const set = twoEqual();
      const before = JSON.stringify(set.toJSON());
      expect(() => set.updateWithChangeSet(c.changes)).toThrow(InputError);
      expect(() => set.updateWithChangeSet(c.changes)).toThrow(c.message);
      expect(JSON.stringify(set.toJSON())).toBe(before);
    });
  }

  it('the total may not exceed the maximum even transiently (before removals)', () => {
    const set = new ValidatorSet([
      { address: numbered(1), power: MAX_TOTAL_VOTING_POWER - 10n },
      { address: numbered(2), power: 10n },
    ]);
    expect(() =>
      set.updateWithChangeSet([
        { address: numbered(2), power: 0 },
        { address: numbered(3), power: 11 },
      ]),
    ).toThrow(/total voting power would exceed the max allowed/);
  });
});

describe('ValidatorSet: copy and JSON', () => {
  it('copy is independent', () => {
    const set = new ValidatorSet([
      { address: numbered(1), power: 3 },
      { address: numbered(2), power: 4 },
    ]);
    const c = set.copy();
    c.incrementProposerPriority(3);
    c.updateWithChangeSet([{ address: numbered(3), power: 1 }]);
    expect(set.size).toBe(2);
    expect(set.proposer.address).toBe(numbered(2));
    expect(c.toJSON()).not.toEqual(set.toJSON());
  });

  it('toJSON / fromJSON round-trips, including a stale proposer, and behaves the same afterwards', () => {
    const set = new ValidatorSet([
      { address: numbered(1), power: 3, id: 7n },
      { address: numbered(2), power: 4 },
    ]);
    set.updateWithChangeSet([{ address: numbered(2), power: 0 }]); // proposer 0x…02 now stale
    const json = JSON.parse(JSON.stringify(set.toJSON())) as unknown;
    const loaded = ValidatorSet.fromJSON(json);
    expect(loaded.toJSON()).toEqual(set.toJSON());
    expect(loaded.proposer).toEqual(set.proposer);
    expect(loaded.proposer.address).toBe(numbered(2));
    loaded.incrementProposerPriority(2);
    set.incrementProposerPriority(2);
    expect(loaded.toJSON()).toEqual(set.toJSON());
  });

  it('a set stored without a proposer falls back to the highest priority (ties: smaller address)', () => {
    const set = ValidatorSet.fromJSON({
      validators: [
        { address: numbered(1), power: '1', proposerPriority: '5' },
        { address: numbered(2), power: '1', proposerPriority: '5' },
        { address: numbered(3), power: '1', proposerPriority: '-10' },
      ],
      proposer: null,
    });
    expect(set.proposer.address).toBe(numbered(1));
    expect(set.toJSON().proposer).toBeNull();
  });

  const badJson: Array<{ name: string; json: unknown; field: RegExp }> = [
    { name: 'not an object', json: 3, field: /^validatorSet:/ },
    { name: 'empty validators', json: { validators: [], proposer: null }, field: /validatorSet\.validators/ },
    {
      name: 'unsorted',
      json: {
        validators: [
          { address: numbered(2), power: '1', proposerPriority: '0' },
          { address: numbered(1), power: '1', proposerPriority: '0' },
        ],
        proposer: null,
      },
      field: /validators\[1\]\.address/,
    },
    {
      name: 'numeric power',
      json: { validators: [{ address: numbered(1), power: 1, proposerPriority: '0' }], proposer: null },
      field: /validators\[0\]\.power/,
    },
    {
      name: 'zero power',
      json: { validators: [{ address: numbered(1), power: '0', proposerPriority: '0' }], proposer: null },
      field: /validators\[0\]\.power/,
    },
    {
      name: 'priority out of int64',
      json: {
        validators: [{ address: numbered(1), power: '1', proposerPriority: `${INT64_MAX + 1n}` }],
        proposer: null,
      },
      field: /proposerPriority/,
    },
  ];
  for (const c of badJson) {
    it(`fromJSON rejects ${c.name}`, () => {
      expect(() => ValidatorSet.fromJSON(c.json)).toThrow(InputError);
      expect(() => ValidatorSet.fromJSON(c.json)).toThrow(c.field);
    });
  }
});
