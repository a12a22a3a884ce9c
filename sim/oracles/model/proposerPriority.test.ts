/**
 * The oracles' proposer-priority model against the reference's public vectors: Tendermint's
 * TestProposerSelection1 (heimdall.md §10.5), Heimdall's NewValidatorSet priorities (§10.1), and
 * Bor's per-sprint proposer and difficulty maps (sidechain.md §2.3, §7).
 */
import { describe, expect, it } from 'vitest';
import { PrioritySet } from './proposerPriority';

/** A name right-aligned in 20 bytes, as Heimdall turns Tendermint's test addresses into addresses. */
const addr = (name: string): string => `0x${Buffer.from(name, 'utf8').toString('hex').padStart(40, '0')}`;
const short = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;

describe('proposer priority model: public vectors', () => {
  it('TestProposerSelection1: foo 1000, bar 300, baz 330 over 99 rounds (heimdall.md §10.5)', () => {
    const names = new Map([addr('foo'), addr('bar'), addr('baz')].map((a, i) => [a, ['foo', 'bar', 'baz'][i]!]));
    const set = PrioritySet.create([
      { address: addr('foo'), power: 1000n },
      { address: addr('bar'), power: 300n },
      { address: addr('baz'), power: 330n },
    ]);
    const seen: string[] = [];
    for (let i = 0; i < 99; i++) {
      seen.push(names.get(set.proposer!)!);
      set.increment(1);
    }
    expect(seen.join(' ')).toBe(
      'foo baz foo bar foo foo baz foo bar foo foo baz foo foo bar foo baz foo foo bar foo foo baz foo bar foo foo baz foo bar foo foo baz foo foo bar foo baz foo foo bar foo baz foo foo bar foo baz foo foo bar foo baz foo foo foo baz bar foo foo foo baz foo bar foo foo baz foo bar foo foo baz foo bar foo foo baz foo bar foo foo baz foo foo bar foo baz foo foo bar foo baz foo foo bar foo baz foo foo',
    );
  });

  it("Heimdall's five equal validators after NewValidatorSet: -40000 for the lowest address, 10000 for the others (§10.1)", () => {
    const signers = [
      '0x1c4f0f054a0d6a1415382dc0fd83c6535188b220',
      '0x461295d3d9249215e758e939a150ab180950720b',
      '0x836fe3e3dd0a5f77d9d5b0f67e48048aaafcd5a0',
      '0x925a91f8003aaeabea6037103123b93c50b86ca3',
      '0xc787af4624cb3e80ee23ae7faac0f2acea2be34c',
    ];
    const set = PrioritySet.create(signers.map((address) => ({ address, power: 10000n })));
    expect(set.proposer).toBe(signers[0]);
    expect(set.validators.map((v) => v.priority)).toEqual([-40000n, 10000n, 10000n, 10000n, 10000n]);
  });

  /** Bor: the same producers re-announced at every sprint end, one rotation each (sidechain.md §7). */
  function sprints(powers: bigint[], count: number): Array<{ proposer: string; difficulty: Record<string, bigint> }> {
    const producers = powers.map((power, i) => ({ address: short(i + 1), power }));
    const letter = (a: string) => 'ABCD'[Number(BigInt(a)) - 1]!;
    let set = PrioritySet.create(producers);
    const out = [];
    for (let s = 0; s < count; s++) {
      const p = set.indexOf(set.proposer!);
      const difficulty: Record<string, bigint> = {};
      set.validators.forEach((v, i) => {
        difficulty[letter(v.address)] = BigInt(set.size - ((i - p + set.size) % set.size));
      });
      out.push({ proposer: letter(set.proposer!), difficulty });
      const next = set.copy();
      next.update(producers);
      next.increment(1);
      set = next;
    }
    return out;
  }

  it('Bor sprints, A1 B1 C1: proposers A, B, C, A and the difficulty maps (sidechain.md §7)', () => {
    const s = sprints([1n, 1n, 1n], 4);
    expect(s.map((x) => x.proposer)).toEqual(['A', 'B', 'C', 'A']);
    expect(s[0]!.difficulty).toEqual({ A: 3n, B: 2n, C: 1n });
    expect(s[1]!.difficulty).toEqual({ A: 1n, B: 3n, C: 2n });
    expect(s[2]!.difficulty).toEqual({ A: 2n, B: 1n, C: 3n });
  });

  it('Bor sprints, A1 B1 C1 D1: proposers A, B, C, D, A; s0 {A4, B3, C2, D1}', () => {
    const s = sprints([1n, 1n, 1n, 1n], 5);
    expect(s.map((x) => x.proposer)).toEqual(['A', 'B', 'C', 'D', 'A']);
    expect(s[0]!.difficulty).toEqual({ A: 4n, B: 3n, C: 2n, D: 1n });
  });

  it('membership changes keep the stored proposer; newcomers start at -1.125 T; removals leave', () => {
    const set = PrioritySet.create([
      { address: short(1), power: 10n },
      { address: short(2), power: 10n },
    ]);
    const before = set.proposer;
    set.update([{ address: short(3), power: 20n }]);
    expect(set.proposer).toBe(before);
    // T after the addition = 40: the newcomer enters at -(40 + 5) before centring.
    expect(set.validators.find((v) => v.address === short(3))!.priority).toBeLessThan(0n);
    set.update([{ address: short(1), power: 0n }]);
    expect(set.indexOf(short(1))).toBe(-1);
    expect(() => set.update([{ address: short(9), power: 0n }])).toThrow(/unknown/);
  });
});
