/**
 * Property tests over whole networks, one per rule family Lockstep is named for: span proposal
 * windows, wiggle-time backups and checkpoint timeouts. Each draws scenarios (a fault that
 * exercises the rule, up to two other faults, a network, parameters), runs them and checks that
 * the oracles guarding the rule never fire. CI runs a few short runs with the fixed fast-check
 * seed; LOCKSTEP_PROPERTY_RUNS=200 LOCKSTEP_PROPERTY_DURATION=20m makes the nightly run long.
 *
 * And each property must catch its rule's planted bug (src/core/plants.ts): with the plant on it
 * fails, shrinks, and writes a small scenario file that reproduces the violation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type PlantName, PLANTS } from '../../src/core/plants';
import { loadScenario } from '../scenario/load';
import { runScenario } from '../run/run';
import { scenario } from './arbitraries';
import {
  type NetworkPropertyOptions,
  assertNetworkProperty,
  checkNetworkProperty,
  propertyDurationMs,
  propertyRuns,
} from './networkProperty';

const durationMs = propertyDurationMs(180_000);
const numRuns = propertyRuns(4);

/** Span proposals are voted for only inside the current span's window, and spans follow on: under a validator proposing spans out of the window or out of sequence. */
const spanWindows: Omit<NetworkPropertyOptions, 'numRuns'> = {
  name: 'span-windows',
  oracles: ['span-window-and-continuity'],
  arbitrary: scenario({
    base: 'smoke',
    durationMs,
    faults: {
      always: ['byzantineTxs'],
      byzantineTxs: ['spanOutsideWindow', 'spanOutOfSequence'],
      kinds: ['crash', 'partition', 'link', 'isolateProducer'],
      maxFaults: 2,
    },
    network: true,
  }),
};

/** A block is no earlier than its parent's time plus period (or producer delay) plus succession × wiggle, and backups step in: under silent, slow, cut-off and early-sealing producers. */
const wiggleBackups: Omit<NetworkPropertyOptions, 'numRuns'> = {
  name: 'wiggle-backups',
  oracles: ['producer-schedule', 'backup-step-in'],
  arbitrary: scenario({
    base: 'smoke',
    durationMs,
    faults: {
      always: ['offlineProducer'],
      kinds: ['slowProducer', 'isolateProducer', 'earlySeal', 'crash'],
      maxFaults: 2,
    },
    network: true,
    params: { producerDelayS: [4, 6], backupMultiplierS: [2, 1, 3] },
  }),
};

/** A no-ack only after the buffer time since the last checkpoint, and the proposer rotates on acks and no-acks: under a validator sending early no-acks, a proposer going down and crashes. */
const checkpointTimeouts: Omit<NetworkPropertyOptions, 'numRuns'> = {
  name: 'checkpoint-timeouts',
  oracles: ['checkpoint-timeouts'],
  arbitrary: scenario({
    base: 'smoke',
    durationMs,
    faults: {
      always: ['byzantineTxs'],
      byzantineTxs: ['earlyNoAck'],
      kinds: ['offlineCheckpointProposer', 'crash', 'pause'],
      maxFaults: 2,
    },
    network: true,
    params: { checkpointBufferTime: ['120s', '60s', '180s'] },
  }),
};

const PROPERTIES = [
  { property: spanWindows, plant: 'span-window' },
  { property: wiggleBackups, plant: 'producer-delay' },
  { property: checkpointTimeouts, plant: 'noack-timing' },
] as const satisfies ReadonlyArray<{ property: Omit<NetworkPropertyOptions, 'numRuns'>; plant: PlantName }>;

const out = mkdtempSync(join(tmpdir(), 'lockstep-properties-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('network properties', () => {
  for (const { property } of PROPERTIES)
    it(`${property.name}: ${property.oracles.join(', ')} never fire`, () => {
      // A failure leaves its shrunk scenario in reports/properties/ (kept by the nightly workflow).
      assertNetworkProperty({ ...property, numRuns });
    }, 600_000);
});

describe('each property catches its planted bug with a shrunk scenario file', () => {
  for (const { property, plant } of PROPERTIES)
    it(`${property.name} fails with ${plant} on`, () => {
      const planted = { ...property, arbitrary: property.arbitrary.map((s) => ({ ...s, plant })) };
      const r = checkNetworkProperty({ ...planted, numRuns: 20, outDir: out });
      expect(r.failed, `${property.name} did not catch ${plant}`).toBe(true);
      if (!r.failed) return;
      expect(r.violation?.oracle).toBe(PLANTS[plant].oracle);
      // The file runs as it is and shows the same violation.
      const { scenario: file } = loadScenario(r.file);
      expect(file.plant).toBe(plant);
      expect(file.expect).toMatchObject({ verdict: 'safety', oracle: PLANTS[plant].oracle });
      const again = runScenario(file, { seed: file.seed! });
      expect(again.violations.map((v) => v.oracle)).toContain(PLANTS[plant].oracle);
      // Shrunk: the rule's own fault at most, on a calm network.
      expect(file.faults.length).toBeLessThanOrEqual(1);
      expect(file.network.loss).toBe(0);
    }, 600_000);
});
