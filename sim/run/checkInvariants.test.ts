/**
 * `checkInvariants` in a whole run: a service node whose committed state breaks a module invariant
 * ends the run as a crash naming the invariant, the height and the seed; with the checks off the
 * same run goes on (and its divergence is the oracles' business).
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../scenario/load';
import { prepareRun, type RunOptions } from './run';

function runBreakingNode0(checkInvariants: boolean) {
  const { scenario } = loadScenario('smoke');
  // Node 0 must run its blocks itself (not adopt another node's record) to meet its broken state.
  const opts: RunOptions = { seed: 3, untilMs: 60_000, checkInvariants, sharedExecution: false };
  const run = prepareRun({ ...scenario, crypto: 'fast' }, opts);
  let broken = false;
  while (run.step() === 'more') {
    const node = run.main.serviceNodes[0]!;
    if (!broken && node.app.height >= 3n) {
      // As a bug would: the ack count no longer matches the acked checkpoints.
      node.app.store.set('checkpoint/ack_count', 5n);
      broken = true;
    }
  }
  expect(broken).toBe(true);
  return run.finish();
}

describe('a run with invariant checks', () => {
  it('a broken invariant is a crash with the invariant, the height and the seed in the message', () => {
    const r = runBreakingNode0(true);
    expect(r.verdict).toBe('crash');
    expect(r.message).toMatch(
      /^invariant checkpoint\.contiguous broken: 0 acked checkpoints, ack count 5 \(height=\d+\) \[scenario smoke, seed 3, at \d+ ms, main domain\]$/,
    );
  });

  it('with the checks off, the same run is not a crash', () => {
    const r = runBreakingNode0(false);
    expect(r.verdict).not.toBe('crash');
  });
});
