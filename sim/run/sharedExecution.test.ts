/**
 * Shared block execution is a per-run option that never changes a result: the same scenario and
 * seed give the same trace hash with it on (the default) and off, and with it on the nodes do
 * adopt each other's block records.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../scenario/load';
import { prepareRun } from './run';

function run(name: string, seed: number, untilMs: number, sharedExecution?: boolean) {
  const { scenario } = loadScenario(name);
  const r = prepareRun(
    { ...scenario, crypto: 'fast' },
    {
      seed,
      untilMs,
      ...(sharedExecution !== undefined ? { sharedExecution } : {}),
    },
  );
  while (r.step() === 'more');
  const share = r.main.sharedExecution;
  return { result: r.finish(), hits: share?.hits ?? null, misses: share?.misses ?? null };
}

describe('shared block execution, on and off', () => {
  it.each([
    ['smoke', 1, 90_000],
    ['bft-two-crashed', 2, 120_000],
  ] as const)('%s seed %i: the same trace hash, events and verdict', (name, seed, untilMs) => {
    const on = run(name, seed, untilMs);
    const off = run(name, seed, untilMs, false);
    expect(on.result.traceHash).toBe(off.result.traceHash);
    expect(on.result.events).toBe(off.result.events);
    expect(on.result.verdict).toBe(off.result.verdict);
    // On by default, and used: most blocks are adopted rather than run again.
    expect(on.hits).toBeGreaterThan(on.misses!);
    expect(off.hits).toBeNull();
  });
});
