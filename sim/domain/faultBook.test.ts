import { describe, expect, it } from 'vitest';
import { InvariantError } from '../../src/core/errors';
import { Engine } from '../engine/engine';
import { type FaultSpec } from '../faults/registry';
import { TraceRecorder } from '../trace/traceRecorder';
import { FaultBook, faultDomains } from './faultBook';
import { HeightTriggers } from './heightTriggers';
import { CrossBoundary } from './windowProtocol';

function book(domain: 'main' | 'sidechain') {
  const engine = new Engine(new TraceRecorder());
  const boundary = new CrossBoundary(domain, () => engine.nowMs());
  const heights = new HeightTriggers();
  const faults = new FaultBook({
    domain,
    engine,
    boundary,
    heights,
    record: () => {},
    site: () => {
      throw new Error('no fault is applied in these tests');
    },
  });
  return { engine, boundary, heights, faults };
}

const crash = (node: string, timing: Partial<FaultSpec>): FaultSpec =>
  ({ kind: 'crash', node, ...timing }) as FaultSpec;

describe('faultDomains', () => {
  it('applies a fault where its nodes live; the main domain owns one that spans both', () => {
    expect(faultDomains(crash('svc-1', {}))).toEqual({ applies: new Set(['main']), owner: 'main' });
    expect(faultDomains(crash('sc-2', {}))).toEqual({ applies: new Set(['sidechain']), owner: 'sidechain' });
    const both = faultDomains({ kind: 'partition', groups: [['svc-1', 'sc-1'], ['svc-2']] } as FaultSpec);
    expect(both).toEqual({ applies: new Set(['main', 'sidechain']), owner: 'main' });
  });
});

describe('FaultBook', () => {
  it("schedules this domain's timed faults (start and end), arms the height-triggered ones, skips the rest", () => {
    const { engine, boundary, heights, faults } = book('sidechain');
    faults.plan([
      crash('svc-1', { atMs: 10 }),
      crash('sc-1', { atMs: 500, forMs: 1_000 }),
      crash('sc-2', { atHeight: { chain: 'sidechain', height: 5 } }),
      crash('sc-3', { atMs: 200 }),
    ]);
    // sc-1's start and end, sc-3's start; svc-1 is the main domain's.
    expect(engine.pending).toBe(3);
    expect(heights.anyArmed).toBe(true);
    expect(boundary.nextTriggers(-1).requestMs).toBe(200);
    expect(boundary.nextTriggers(500).requestMs).toBe(1_500);
  });

  it('refuses a height trigger on the other domain’s chain', () => {
    const { faults } = book('main');
    expect(() => faults.plan([crash('svc-1', { atHeight: { chain: 'sidechain', height: 5 } })])).toThrow(
      InvariantError,
    );
  });

  it('injects a fault only after the windows already run, and only where it applies', () => {
    const { engine, faults } = book('main');
    expect(() => faults.inject(crash('svc-1', {}), 0, 100, 100)).toThrow(/after the windows already run/);
    faults.inject(crash('sc-1', {}), 0, 101, 100);
    expect(engine.pending).toBe(0);
    faults.inject(crash('svc-1', { forMs: 50 }), 0, 101, 100);
    expect(engine.pending).toBe(2);
  });

  it('gives a fault’s end what its start resolved to', () => {
    const { faults } = book('main');
    let draws = 0;
    expect(faults.resolveAtStart(4, true, () => ++draws)).toBe(1);
    expect(faults.resolveAtStart(4, false, () => ++draws)).toBe(1);
    expect(faults.resolveAtStart(4, true, () => ++draws)).toBe(2);
    expect(draws).toBe(2);
  });
});
