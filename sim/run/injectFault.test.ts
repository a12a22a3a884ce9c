/**
 * Faults injected into a running run between two windows (a devnet's `lockstep node fault`):
 * they fire as a scenario fault with the same start time does (same record, same effect, in the
 * domains the placement rules give them), and a run that injects the same faults at the same
 * barriers is the same run (same trace hash).
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../scenario/load';
import { type FaultSpec, type Scenario } from '../scenario/scenario';
import { type PreparedRun, prepareRun } from './run';

const scenario: Scenario = { ...loadScenario('default').scenario, crypto: 'fast', faults: [] };
const UNTIL_MS = 60_000;

/** Run to the first barrier at or past `atMs`, inject, then run to the end. */
function runInjecting(faults: Array<{ atMs: number; fault: FaultSpec }>, seed = 3) {
  const run = prepareRun(scenario, { seed, untilMs: UNTIL_MS });
  const injected: Array<{ index: number; atMs: number }> = [];
  let next = 0;
  while (run.window() === 'more') {
    while (next < faults.length && run.ranToMs() >= faults[next]!.atMs)
      injected.push(run.injectFault(faults[next++]!.fault));
  }
  return { run, result: run.finish(), injected };
}

function faultRecords(run: PreparedRun) {
  return [...run.main.records, ...run.sidechain.records]
    .flatMap((r) =>
      r.obs.kind === 'fault.start' || r.obs.kind === 'fault.end'
        ? [{ t: r.t, kind: r.obs.kind, index: r.obs.index, detail: r.obs.detail }]
        : [],
    )
    .sort((a, b) => a.t - b.t || (a.kind < b.kind ? -1 : 1));
}

describe('injecting a fault between windows', () => {
  const crash: FaultSpec = { kind: 'crash', node: 'sc-2', forMs: 10_000 };
  const partition: FaultSpec = {
    kind: 'partition',
    groups: [
      ['svc-1', 'sc-1'],
      ['svc-2', 'sc-2', 'svc-3', 'sc-3', 'svc-4', 'sc-4'],
    ],
    forMs: 8_000,
  };

  it('fires like a scheduled fault: index after the scenario’s, start and end records, the node down between', () => {
    const { run, result, injected } = runInjecting([{ atMs: 20_000, fault: crash }]);
    expect(injected).toHaveLength(1);
    const { index, atMs } = injected[0]!;
    expect(index).toBe(scenario.faults.length);
    expect(atMs).toBeGreaterThan(20_000);
    expect(result.faultsFired).toEqual([{ kind: 'crash', atMs, detail: 'sc-2', index }]);
    expect(faultRecords(run)).toEqual([
      { t: atMs, kind: 'fault.start', index, detail: 'sc-2' },
      { t: atMs + 10_000, kind: 'fault.end', index, detail: 'sc-2' },
    ]);
    // sc-2 imported nothing while it was down, and caught up after.
    const imported = run.sidechain.records.filter((r) => r.node === 'sc-2' && r.obs.kind === 'sidechain.imported');
    expect(imported.some((r) => r.t > atMs && r.t < atMs + 10_000)).toBe(false);
    expect(imported.some((r) => r.t > atMs + 10_000)).toBe(true);
    expect(result.verdict, result.message).toBe('pass');
  });

  it('has the effect of the same fault scheduled in the scenario at that time', () => {
    const { result: injected, injected: at } = runInjecting([{ atMs: 20_000, fault: crash }]);
    const atMs = at[0]!.atMs;
    const scheduled = prepareRun({ ...scenario, faults: [{ ...crash, atMs }] }, { seed: 3, untilMs: UNTIL_MS });
    while (scheduled.window() === 'more');
    const r = scheduled.finish();
    expect(r.faultsFired).toEqual(injected.faultsFired);
    expect(r.counts).toEqual(injected.counts);
    expect(r.verdict).toBe(injected.verdict);
  });

  it('a fault on nodes of both domains applies in both (a partition of service and sidechain nodes)', () => {
    const { run, result, injected } = runInjecting([{ atMs: 15_000, fault: partition }]);
    expect(injected).toHaveLength(1);
    expect(run.main.network.stats.blocked).toBeGreaterThan(0);
    expect(run.sidechain.network.stats.blocked).toBeGreaterThan(0);
    // Recorded once, by the main domain (the owner of a fault that touches it).
    expect(faultRecords(run).filter((r) => r.kind === 'fault.start')).toHaveLength(1);
    expect(result.faultsFired).toHaveLength(1);
  });

  it('the same injections at the same barriers give the same run; another barrier gives another', () => {
    const a = runInjecting([
      { atMs: 12_000, fault: crash },
      { atMs: 30_000, fault: partition },
    ]);
    const b = runInjecting([
      { atMs: 12_000, fault: crash },
      { atMs: 30_000, fault: partition },
    ]);
    const c = runInjecting([
      { atMs: 14_000, fault: crash },
      { atMs: 30_000, fault: partition },
    ]);
    expect(b.result.traceHash).toBe(a.result.traceHash);
    expect(b.injected).toEqual(a.injected);
    expect(c.result.traceHash).not.toBe(a.result.traceHash);
  });

  it('peekRanToMs tells where the next window ends, and window() goes exactly there', () => {
    const run = prepareRun(scenario, { seed: 3, untilMs: UNTIL_MS });
    for (let i = 0; i < 50; i++) {
      const next = run.peekRanToMs();
      const b = run.barriers();
      expect(run.window()).toBe('more');
      expect(run.ranToMs()).toBe(next);
      expect(run.barriers()).toBe(b + 1);
    }
  });
});
