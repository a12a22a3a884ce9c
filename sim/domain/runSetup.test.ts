/**
 * The keys validators rotate to: one per scheduled signer change, each drawn from its validator's
 * own stream (so a key depends only on the validator and the rotation), known to both domains, and
 * mapped back to their validator.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../scenario/load';
import { type Scenario } from '../scenario/scenario';
import { runSetup } from './runSetup';

const base = loadScenario('smoke').scenario;
const withChanges = (signerChanges: Scenario['workload']['signerChanges']): Scenario => ({
  ...base,
  workload: { ...base.workload, signerChanges },
});

describe('rotation keys', () => {
  it('one key per scheduled change (repeats count), per validator, mapped back to it', () => {
    const s = runSetup(
      withChanges([
        { atMs: 60_000, validator: 2, repeat: 2, everyMs: 60_000 },
        { atMs: 90_000, validator: 4 },
      ]),
      1,
    );
    expect(s.rotationKeys.map((r) => r.length)).toEqual([0, 2, 0, 1]);
    for (const [i, ring] of s.rotationKeys.entries())
      for (const r of ring) expect(s.validatorOfSigner.get(r.signer)).toBe(i + 1);
    for (const k of s.keys) expect(s.validatorOfSigner.get(k.signer)).toBe(k.index);
    expect(new Set(s.rotationKeys.flat().map((r) => r.signer)).size).toBe(3);
  });

  it("a validator's keys do not depend on the other validators' changes", () => {
    const one = runSetup(withChanges([{ atMs: 60_000, validator: 2 }]), 1);
    const more = runSetup(
      withChanges([
        { atMs: 60_000, validator: 3, repeat: 3 },
        { atMs: 60_000, validator: 2, repeat: 2 },
      ]),
      1,
    );
    expect(more.rotationKeys[1]![0]).toEqual(one.rotationKeys[1]![0]);
    // The genesis keys stay as they were.
    expect(more.keys).toEqual(one.keys);
  });
});
