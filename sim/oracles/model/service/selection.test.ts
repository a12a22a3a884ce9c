import { describe, expect, it } from 'vitest';
import { eligible, selectProducers, shuffleList, sourcesOf } from './selection';
import { type ModelValidator } from './state';

const seed = (...bytes: number[]) => {
  const s = new Uint8Array(32);
  s.set(bytes);
  return s;
};

describe("the model's producer selection", () => {
  it('shuffles as the public vectors say (heimdall.md §10.4)', () => {
    const list = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    expect(shuffleList(list, seed(1, 128, 12))).toEqual([0, 7, 8, 6, 3, 9, 4, 5, 2, 1]);
    expect(shuffleList(list, seed(2, 128, 12))).toEqual([0, 5, 2, 1, 6, 8, 7, 3, 4, 9]);
  });

  it('traces the first positions back to the slots that land there', () => {
    const s = seed(7, 7, 7);
    const list = Array.from({ length: 300 }, (_, i) => i);
    const shuffled = shuffleList(list, s);
    expect(sourcesOf([0, 1, 2, 3, 299], 300, s)).toEqual([0, 1, 2, 3, 299].map((j) => shuffled[j]));
  });

  const v = (id: number, signer: string, power: bigint, over: Partial<ModelValidator> = {}): ModelValidator => ({
    id: BigInt(id),
    signer,
    pubKey: '0x04',
    power,
    startEpoch: 0n,
    endEpoch: 0n,
    lastUpdated: null,
    jailed: false,
    ...over,
  });

  it('keeps only validators that are current at the next epoch and not leaving, by signer', () => {
    const vs = [
      v(1, '0xc0', 5n),
      v(2, '0xa0', 5n, { endEpoch: 9n }),
      v(3, '0xb0', 5n, { startEpoch: 3n }),
      v(4, '0x90', 0n),
      v(5, '0x80', 5n, { startEpoch: 2n }),
    ];
    expect(eligible(vs, 1n).map((x) => x.id)).toEqual([5n, 1n]);
    expect(eligible(vs, 2n).map((x) => x.id)).toEqual([5n, 3n, 1n]);
  });

  it('takes everyone with real power when there are few, else slots won', () => {
    const few = [v(1, '0xa0', 5n), v(2, '0xb0', 9n)];
    expect(selectProducers(few, seed(1), 4n)).toEqual([
      { id: 1n, signer: '0xa0', power: 5n },
      { id: 2n, signer: '0xb0', power: 9n },
    ]);
    const many = [v(1, '0xa0', 3n), v(2, '0xb0', 3n), v(3, '0xc0', 3n), v(4, '0xd0', 3n), v(5, '0xe0', 3n)];
    const picked = selectProducers(many, seed(9, 9), 4n);
    let slots = 0n;
    for (const p of picked) slots += p.power;
    expect(slots).toBe(4n);
    const s = seed(9, 9);
    const ids = shuffleList([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5], s).slice(0, 4);
    const counts = new Map<number, number>();
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect(picked.map((p) => [Number(p.id), Number(p.power)])).toEqual(
      [...counts.entries()].sort((a, b) => a[0] - b[0]),
    );
  });
});
