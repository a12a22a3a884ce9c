/**
 * The swarm profile (swarm testing): each seed draws its own mix of fault kinds and knobs, so a
 * campaign explores many different combinations rather than every seed getting every fault.
 * Deterministic: the same seed always gives the same scenario.
 */
import { Rng } from '../env/rng';
import { type Scenario } from '../scenario/scenario';
import { type FaultSpec, faultDef, swarmKinds } from '../faults/registry';

/** A base network for campaigns: small and quick, with every mechanism exercised in minutes. */
export function swarmBase(durationMs: number): Scenario {
  return {
    name: 'swarm',
    description: 'A swarm-testing run: the seed draws the fault mix and the knobs.',
    crypto: 'fast',
    durationMs,
    maxEvents: 5_000_000,
    epochMs: 1_700_000_000_000,
    validators: [
      { stakeTokens: 100n, balanceTokens: 1000n },
      { stakeTokens: 100n, balanceTokens: 1000n },
      { stakeTokens: 100n, balanceTokens: 1000n },
      { stakeTokens: 100n, balanceTokens: 1000n },
      { stakeTokens: 60n, balanceTokens: 1000n },
    ],
    params: {
      producerCount: 4,
      sprint: 16,
      spanDuration: 64,
      firstSpanDuration: 64,
      checkpointBufferTimeMs: 240_000,
      checkpointLength: 32,
      sidechainConfirmations: 10,
      parentConfirmations: 2,
      parentBlockTimeMs: 4_000,
      periodS: 2,
      producerDelayS: 4,
      backupMultiplierS: 2,
      stateSyncDelayS: 10,
      commitTimeoutMs: 2_000,
      relayDelayPerRankMs: 2_000,
      validatorSlots: 32,
      jitter: false,
    },
    network: { latencyMinMs: 20, latencyMaxMs: 100, loss: 0, duplicate: 0, reorder: 0, reorderMaxMs: 0 },
    faults: [],
    workload: {
      transfers: { everyMs: 10_000, amountWei: 10n ** 15n },
      topups: [],
      stateSyncs: [],
      stakeUpdates: [],
      joins: [],
      exits: [],
      signerChanges: [],
      sidechainTxs: null,
    },
    expect: { verdict: 'pass', min: {}, max: {} },
  };
}

export function swarmScenario(seed: number, durationMs = 2 * 3_600_000): Scenario {
  const s = swarmBase(durationMs);
  const rng = Rng.forSeed(`swarm/${seed}`);
  const n = s.validators.length;
  // Swarm: pick a subset of fault kinds for this seed, then draw faults only from it.
  const drawable = swarmKinds();
  const kinds = drawable.filter(() => rng.bool(0.4));
  if (kinds.length === 0) kinds.push(rng.pick(drawable));
  const count = rng.int(1, 6);
  const stakes = s.validators.map((v) => v.stakeTokens);
  const faults: FaultSpec[] = [];
  for (let i = 0; i < count; i++) {
    const kind = rng.pick(kinds);
    const atMs = rng.int(20, Math.max(21, Math.floor(durationMs / 1000) - 120)) * 1000;
    const forMs = rng.int(10, 180) * 1000;
    const validator = rng.int(1, n);
    const fields = faultDef(kind).swarm!.draw(rng, { validatorCount: n, validator, stakes, byzantine: 'belowThird' });
    faults.push({ kind, atMs, forMs, ...fields } as FaultSpec);
  }
  faults.sort((a, b) => (a.atMs ?? 0) - (b.atMs ?? 0));
  s.faults = faults;
  s.network = {
    ...s.network,
    loss: rng.bool(0.3) ? rng.int(0, 5) / 100 : 0,
    duplicate: rng.bool(0.2) ? rng.int(0, 5) / 100 : 0,
  };
  s.workload = {
    ...s.workload,
    topups: rng.bool(0.5)
      ? [{ atMs: rng.int(20, 300) * 1000, validator: rng.int(1, n), amountTokens: 20n, repeat: rng.int(1, 3) }]
      : [],
    stateSyncs: rng.bool(0.5) ? [{ atMs: rng.int(20, 300) * 1000, count: rng.int(1, 20) }] : [],
  };
  return s;
}
