/**
 * The `buggify` field: decoded with defaults, written back the same, bad values refused with the
 * field named; absent, the scenario holds none.
 */
import { describe, expect, it } from 'vitest';
import { decodeScenario } from './decodeScenario';
import { encodeScenario } from './encodeScenario';
import { restartsNode } from './buggify';

const base = { name: 'b', validators: [{ stake: 100 }, { stake: 100 }, { stake: 100 }, { stake: 100 }] };

describe('buggify', () => {
  it('decodes, defaults and round-trips', () => {
    const s = decodeScenario({
      ...base,
      buggify: { lateTimers: { probability: 0.05, maxDelay: '2s' }, restarts: { probability: 0.01 } },
    });
    expect(s.buggify).toEqual({
      lateTimers: { probability: 0.05, maxMs: 2000 },
      restarts: { probability: 0.01, downMs: 0, nodes: 'all' },
    });
    expect(decodeScenario(JSON.parse(JSON.stringify(encodeScenario(s)))).buggify).toEqual(s.buggify);
    expect(decodeScenario(base).buggify).toBeUndefined();
    expect('buggify' in encodeScenario(decodeScenario(base))).toBe(false);
  });

  it('names the bad field', () => {
    const bad = (b: unknown) => () => decodeScenario({ ...base, buggify: b });
    expect(bad({ lateTimers: { probability: 2, maxDelay: '1s' } })).toThrow(/buggify\.lateTimers\.probability/);
    expect(bad({ lateTimers: { probability: 0.1, maxDelay: '11m' } })).toThrow(
      /buggify\.lateTimers\.maxDelay: must be at most 10m/,
    );
    expect(bad({ restarts: { probability: 0.1, nodes: 'parent' } })).toThrow(/buggify\.restarts\.nodes/);
    expect(bad({ lateTimer: {} })).toThrow(/buggify/);
  });

  it('restarts only the nodes asked for', () => {
    const b = { restarts: { probability: 0.1, downMs: 0, nodes: 'service' as const } };
    expect(restartsNode(b, 'svc-1')).toBe(true);
    expect(restartsNode(b, 'sc-1')).toBe(false);
    expect(restartsNode({ restarts: { ...b.restarts, nodes: 'all' } }, 'parent')).toBe(false);
    expect(restartsNode(undefined, 'svc-1')).toBe(false);
  });
});
