/**
 * The sidechain-refused oracle on hand-built records: silent while no node imports a crafted
 * block it must refuse, and when a held one (from the future) comes in at its time; fires, naming
 * the craft, when a node imports a refused block, or a held one well before its time.
 */
import { describe, expect, it } from 'vitest';
import { type RunObservation } from '../core/record';
import { HELD_SLACK_MS, SidechainRefusedOracle } from './sidechainRefused';
import { GENESIS_TIME, imported, inTurnChain, rec, sidechainStarted } from './testing/observations';

const [b1, b2, b3] = inTurnChain(3);

function crafted(b: typeof b1, craft: string, expect: 'refused' | 'held', timeS = b!.time): RunObservation {
  return { kind: 'byzantine.block', craft, hash: b!.hash, number: b!.number, timeS, expect };
}

/** A held craft's stamp: ten minutes after the genesis. */
const FUTURE_S = GENESIS_TIME + 600n;

/** A header time in the run's time (ms since the run began, when the genesis was stamped). */
const runMs = (timeS: bigint) => Number(timeS - GENESIS_TIME) * 1000;

function feed(records: Array<[number, string, RunObservation]>): SidechainRefusedOracle {
  const o = new SidechainRefusedOracle();
  o.observe(rec(0, 'sc-1', sidechainStarted()));
  for (const [t, node, obs] of records) o.observe(rec(t, node, obs));
  return o;
}

describe('sidechain-refused oracle', () => {
  it('silent when crafted blocks are not imported and a held one comes in at its time', () => {
    const dueMs = runMs(FUTURE_S);
    const o = feed([
      [1_000, 'sc-1', imported(b1!)],
      [2_000, 'sc-2', crafted(b2, 'wrongDifficulty', 'refused')],
      [3_000, 'sc-3', crafted(b3, 'fromFuture', 'held', FUTURE_S)],
      [dueMs - HELD_SLACK_MS + 1, 'sc-1', imported(b3!)],
    ]);
    expect(o.violation).toBeNull();
    expect([...o.exercised]).toEqual(['sidechain.header.validity']);
  });

  it('fires when a node imports a block it must refuse, naming the craft', () => {
    const o = feed([
      [2_000, 'sc-2', crafted(b2, 'wrongTxRoot', 'refused')],
      [2_500, 'sc-3', imported(b2!)],
    ]);
    expect(o.violation).toMatchObject({ oracle: 'sidechain-refused', class: 'safety', atMs: 2_500, node: 'sc-3' });
    expect(o.violation!.message).toMatch(/^wrongTxRoot block 2 .* was imported; a node must refuse it/);
    expect(o.violation!.evidence).toMatchObject({ craft: 'wrongTxRoot', number: '2' });
  });

  it('fires when a node imports a block from the future before its time', () => {
    const early = runMs(FUTURE_S) - HELD_SLACK_MS - 1;
    const o = feed([
      [3_000, 'sc-2', crafted(b3, 'fromFuture', 'held', FUTURE_S)],
      [early, 'sc-1', imported(b3!)],
    ]);
    expect(o.violation?.message).toMatch(/^fromFuture block 3 .* before its time/);
  });

  it("reads a header's time (s since 1970) against the run's (ms since its genesis): on time is on time", () => {
    // A held block imported at its time, 600 s into the run (the false alarm of a guided run).
    const o = feed([
      [3_000, 'sc-2', crafted(b3, 'fromFuture', 'held', FUTURE_S)],
      [runMs(FUTURE_S), 'sc-1', imported(b3!)],
    ]);
    expect(o.violation).toBeNull();
  });

  it('judges nothing of blocks it was not told of', () => {
    const o = feed([[1_000, 'sc-1', imported(b1!)]]);
    expect(o.violation).toBeNull();
    expect(o.exercised.size).toBe(0);
  });
});
