import { describe, expect, it } from 'vitest';
import { type RunResult } from '../run/run';
import { loadScenario } from '../scenario/load';
import { type Scenario } from '../scenario/scenario';
import { checkExpectations, runOutcome } from './outcome';

const base = loadScenario('smoke').scenario;
const scenario: Scenario = {
  ...base,
  expect: { verdict: 'pass', min: { serviceBlocks: 50, backupBlocks: 1 }, max: { reorgs: 2, reorgDepth: 5 } },
};

/** The parts of a run result the judging reads. */
function result(over: Partial<RunResult> = {}): RunResult {
  return {
    verdict: 'pass',
    message: 'completed',
    violation: null,
    interrupted: false,
    counts: { serviceBlocks: 80, sidechainBlocks: 81, spans: 3, checkpointsAcked: 4, noAcks: 0, reorgs: 1 },
    reach: { messages: {}, byzantine: {} },
    backupBlocks: 2,
    maxReorgDepth: 3,
    ...over,
  } as RunResult;
}

const statuses = (s: Scenario, r: RunResult, partial: boolean) =>
  Object.fromEntries(checkExpectations(s, r, { partial }).map((c) => [c.what, c.status]));

describe('the outcome of a run', () => {
  it('passes only when the oracles pass and every expectation holds', () => {
    expect(runOutcome(scenario, result()).verdict).toBe('pass');
    const low = runOutcome(scenario, result({ backupBlocks: 0 }));
    expect(low.verdict).toBe('expectations');
    expect(low.message).toBe('backupBlocks expected >= 1 got 0');
    expect(low.failed.map((c) => c.what)).toEqual(['backupBlocks']);
  });

  it('bounds by message type and Byzantine kind: delivered, accepted, refused, refused as the reference says', () => {
    const s: Scenario = {
      ...base,
      expect: {
        verdict: 'pass',
        min: { accepted: { MsgSend: 2 }, refused: { MsgSend: 1 }, byzantine: { wrongChainId: 1 } },
        max: { delivered: { MsgWithdrawFee: 0 } },
      },
    };
    const reach: RunResult['reach'] = {
      messages: { MsgSend: { delivered: 5, accepted: 3, refused: { 'sdk/4': 1 }, pending: 1 } },
      byzantine: {
        wrongChainId: { crafted: 1, delivered: 1, asExpected: 1, unjudged: 0, pending: 0, gossiped: 0, results: {} },
      },
    };
    expect(runOutcome(s, result({ reach })).verdict).toBe('pass');
    // Refused counts what was neither accepted nor pending: 5 - 3 - 1.
    expect(checkExpectations(s, result({ reach })).find((c) => c.what === 'refused.MsgSend')?.actual).toBe(1);
    const none = runOutcome(s, result());
    expect(none.verdict).toBe('expectations');
    expect(none.failed.map((c) => c.what)).toEqual(['accepted.MsgSend', 'refused.MsgSend', 'byzantine.wrongChainId']);
    expect(none.message).toContain('accepted.MsgSend expected >= 2 got 0');
    const withdrawn = {
      ...reach,
      messages: { ...reach.messages, MsgWithdrawFee: { delivered: 1, accepted: 1, refused: {}, pending: 0 } },
    };
    expect(runOutcome(s, result({ reach: withdrawn })).message).toBe('delivered.MsgWithdrawFee expected <= 0 got 1');
  });

  it('an oracle violation is the verdict, and failed expectations are still listed', () => {
    const r = result({
      verdict: 'safety',
      message: 'service-safety: two blocks',
      violation: { oracle: 'service-safety' } as RunResult['violation'],
      backupBlocks: 0,
    });
    const o = runOutcome(scenario, r);
    expect(o.verdict).toBe('safety');
    expect(o.failed.map((c) => c.what)).toEqual(['verdict', 'backupBlocks']);
  });

  it('interrupted beats everything; judged like a shortened run', () => {
    const o = runOutcome(scenario, result({ interrupted: true, message: 'interrupted at 5000 ms' }));
    expect(o.verdict).toBe('interrupted');
    expect(o.notJudged.map((c) => c.what)).toEqual([
      'verdict',
      'serviceBlocks',
      'backupBlocks',
      'reorgs',
      'reorgDepth',
    ]);
    expect(runOutcome(scenario, result({ interrupted: true, verdict: 'safety' })).verdict).toBe('interrupted');
  });

  it('a shortened run judges only what the rest of the run could not change', () => {
    expect(runOutcome(scenario, result(), { untilMs: 30_000 })).toMatchObject({ shortened: true, verdict: 'pass' });
    expect(runOutcome(scenario, result(), { untilMs: scenario.durationMs }).shortened).toBe(false);
    // Nothing happened yet: the verdict and the bounds within reach are not judged.
    expect(statuses(scenario, result(), true)).toEqual({
      verdict: 'not judged',
      serviceBlocks: 'not judged',
      backupBlocks: 'not judged',
      reorgs: 'not judged',
      reorgDepth: 'not judged',
    });
    // A max bound exceeded stays exceeded; a min bound is never judged; a violation is judged.
    const r = result({
      counts: { ...result().counts, reorgs: 3 },
      verdict: 'liveness',
      violation: { oracle: 'liveness' } as RunResult['violation'],
    });
    expect(statuses(scenario, r, true)).toEqual({
      verdict: 'failed',
      serviceBlocks: 'not judged',
      backupBlocks: 'not judged',
      reorgs: 'failed',
      reorgDepth: 'not judged',
    });
    const o = runOutcome(scenario, result({ counts: { ...result().counts, reorgs: 3 } }), { untilMs: 30_000 });
    expect(o.verdict).toBe('expectations');
    expect(o.message).toBe('reorgs expected <= 2 got 3');
    // An expected violation found early holds, the oracle too.
    const expectSafety: Scenario = { ...scenario, expect: { verdict: 'safety', oracle: 'x', min: {}, max: {} } };
    const found = result({ verdict: 'safety', violation: { oracle: 'x' } as RunResult['violation'] });
    expect(statuses(expectSafety, found, true)).toEqual({ verdict: 'ok', oracle: 'ok' });
    expect(statuses(expectSafety, result(), true)).toEqual({ verdict: 'not judged', oracle: 'not judged' });
  });
});
