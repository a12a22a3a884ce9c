import { describe, expect, it } from 'vitest';
import { ANTE_CRAFTS } from './ante';
import { BANK_CRAFTS } from './bank';
import { BLOCK_CRAFTS } from './block';
import { CHECKPOINT_CRAFTS } from './checkpoint';
import { CLERK_CRAFTS } from './clerk';
import { DECODING_CRAFTS } from './decoding';
import { BYZANTINE_TXS, DEFAULT_BYZANTINE_TXS, FIRST_BYZANTINE_TXS } from './index';
import { SPAN_CRAFTS } from './span';
import { STAKING_CRAFTS } from './staking';
import { TOPUP_CRAFTS } from './topup';

const MODULES: Record<string, Record<string, unknown>> = {
  ante: ANTE_CRAFTS,
  block: BLOCK_CRAFTS,
  decoding: DECODING_CRAFTS,
  bank: BANK_CRAFTS,
  topup: TOPUP_CRAFTS,
  staking: STAKING_CRAFTS,
  checkpoint: CHECKPOINT_CRAFTS,
  span: SPAN_CRAFTS,
  clerk: CLERK_CRAFTS,
};

describe('the Byzantine craft registry', () => {
  it('no kind is crafted by two module files (a merge would silently keep one)', () => {
    const owner = new Map<string, string>();
    const twice: string[] = [];
    for (const [module, crafts] of Object.entries(MODULES))
      for (const kind of Object.keys(crafts)) {
        const first = owner.get(kind);
        if (first !== undefined) twice.push(`${kind} (${first}, ${module})`);
        owner.set(kind, module);
      }
    expect(twice).toEqual([]);
  });

  it('the written order names every module file kind exactly once', () => {
    const kinds = Object.values(MODULES).flatMap((c) => Object.keys(c));
    expect(new Set(BYZANTINE_TXS).size).toBe(BYZANTINE_TXS.length);
    expect([...BYZANTINE_TXS].sort()).toEqual([...kinds].sort());
  });

  it('the first version kinds come first, in their order (the swarm profiles draw them by position)', () => {
    expect(FIRST_BYZANTINE_TXS).toEqual([
      'earlyNoAck',
      'spanOutsideWindow',
      'spanOutOfSequence',
      'wrongRootCheckpoint',
      'wrongRangeCheckpoint',
      'replayedTopup',
    ]);
  });

  it('the default list is frozen: the kinds up to stateSyncNoEvent, then only kinds a file must name', () => {
    // 76 kinds when the list was frozen: a file without `txs` and the swarm's draws keep to them, so
    // the suite's and the swarm's trace hashes do not move when a kind is added.
    expect(DEFAULT_BYZANTINE_TXS).toHaveLength(76);
    expect(DEFAULT_BYZANTINE_TXS.at(-1)).toBe('stateSyncNoEvent');
    expect(BYZANTINE_TXS.slice(0, 76)).toEqual(DEFAULT_BYZANTINE_TXS);
    expect(BYZANTINE_TXS.slice(76)).toEqual(['noAckTooFar']);
  });
});
