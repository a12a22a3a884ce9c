import { describe, expect, it } from 'vitest';
import { type RunObservation } from '../core/record';
import { FactTable, MAX_FACTS, MIN_FACT_CHARS } from './factTable';
import { observationJson } from './observationJson';

const long = (label: string) => JSON.stringify({ label, pad: 'x'.repeat(MIN_FACT_CHARS) });

describe('fact table', () => {
  it('writes a fact in full the first time, by number afterwards, and short texts as they are', () => {
    const t = new FactTable();
    expect(t.refer(long('a'))).toBe(`{"$fact":0,"value":${long('a')}}`);
    expect(t.refer(long('b'))).toBe(`{"$fact":1,"value":${long('b')}}`);
    expect(t.refer(long('a'))).toBe('{"$fact":0}');
    expect(t.refer('[]')).toBe('[]');
    expect(t.refer('[]')).toBe('[]');
  });

  it('forgets the oldest fact past its bound: met again, it is written in full under a new number', () => {
    const t = new FactTable();
    for (let i = 0; i < MAX_FACTS; i++) t.refer(long(`f${i}`));
    expect(t.refer(long('f1'))).toBe('{"$fact":1}');
    t.refer(long('new'));
    expect(t.refer(long('f0'))).toBe(`{"$fact":${MAX_FACTS + 1},"value":${long('f0')}}`);
  });

  it('refers to a block fact by its text, whichever object holds it; other fields stay in full', () => {
    const t = new FactTable();
    const block = () => ({ number: 7n, hash: `0x${'ab'.repeat(32)}`, stateSyncs: [] });
    const obs = (head: number) =>
      ({ kind: 'sidechain.imported', block: block(), head: { number: BigInt(head) } }) as unknown as RunObservation;
    const text = observationJson(obs(7));
    expect(observationJson(obs(7), t)).toBe(
      text.replace(/^\{"block":(\{.*?\}),"head"/, '{"block":{"$fact":0,"value":$1},"head"'),
    );
    expect(observationJson(obs(8), t)).toBe('{"block":{"$fact":0},"head":{"number":"8"}}');
    // Not a fact field of another kind.
    const other = { kind: 'sidechain.produced', block: block() } as unknown as RunObservation;
    expect(observationJson(other, t)).toBe(observationJson(other));
  });
});
