/**
 * The population leaves out exactly the mutants that write down a plant switch's value while no
 * plant is on (the same program in every bench run), and keeps every other mutant of a switch's line.
 */
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { instrument, isPlantSwitchEquivalent } from './population';

const ROOT = resolve(import.meta.dirname, '../..');

describe('isPlantSwitchEquivalent', () => {
  it.each([
    ["isPlanted('round-skip')", 'false'],
    ["!isPlanted('early-block')", 'true'],
    ["succession > 0 && isPlanted('backup-wiggle')", 'false'],
    ["isPlanted('sequence-on-failure') && result.gasWanted > 0n", 'false'],
  ])('%s → %s: the program without a plant', (original, replacement) => {
    expect(isPlantSwitchEquivalent({ original, replacement })).toBe(true);
  });

  it.each([
    // The switch's opposite value: the planted bug itself, in every run.
    ["isPlanted('round-skip')", 'true'],
    ["!isPlanted('early-block')", 'false'],
    ["!isPlanted('early-block')", "isPlanted('early-block')"],
    // A disjunction or a ternary around the switch: false is not its value without a plant.
    ["isPlanted('span-window') || current.startBlock <= head", 'false'],
    ["a && isPlanted('x') ? b : c", 'false'],
    // The rule's own condition beside the switch.
    ["!set.hasAddress(signer) && !isPlanted('unauthorised-signer')", 'false'],
    ['h.time > nowS', 'false'],
  ])('%s → %s: a mutant of the product', (original, replacement) => {
    expect(isPlantSwitchEquivalent({ original, replacement })).toBe(false);
  });

  it('leaves the equivalent ones out of an instrumented file and keeps the rest of its switch lines', async () => {
    const file = 'src/sidechain/chain.ts';
    const { mutants } = await instrument(ROOT, [file]);
    expect(mutants.some((m) => isPlantSwitchEquivalent(m))).toBe(false);
    const onSwitches = mutants.filter((m) => m.original.includes("isPlanted('early-block')"));
    expect(onSwitches.length).toBeGreaterThan(0);
    expect(onSwitches.map((m) => m.replacement)).toContain("isPlanted('early-block')");
  }, 60_000);
});
