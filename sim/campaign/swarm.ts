/**
 * The swarm profile (swarm testing): each seed draws its own mix of fault kinds and knobs, so a
 * campaign explores many different combinations rather than every seed getting every fault.
 * Deterministic: the same seed always gives the same scenario.
 */
import { Rng } from '../env/rng';
import { type FaultKind, type FaultSpec, type Scenario } from '../scenario/scenario';

const SWARM_KINDS: FaultKind[] = [
  'crash',
  'pause',
  'partition',
  'link',
  'clockSkew',
  'offlineProducer',
  'slowProducer',
  'isolateProducer',
  'offlineCheckpointProposer',
  'equivocatingProducer',
  'earlySeal',
];

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
  const kinds = SWARM_KINDS.filter(() => rng.bool(0.4));
  if (kinds.length === 0) kinds.push(rng.pick(SWARM_KINDS));
  const count = rng.int(1, 6);
  const faults: FaultSpec[] = [];
  for (let i = 0; i < count; i++) {
    const kind = rng.pick(kinds);
    const atMs = rng.int(20, Math.max(21, Math.floor(durationMs / 1000) - 120)) * 1000;
    const forMs = rng.int(10, 180) * 1000;
    const v = rng.int(1, n);
    const f: FaultSpec = { kind, atMs, forMs };
    switch (kind) {
      case 'crash':
      case 'pause':
        f.node = rng.bool(0.6) ? `svc-${v}` : rng.bool(0.8) ? `sc-${v}` : 'parent';
        break;
      case 'clockSkew':
        f.node = rng.bool() ? `svc-${v}` : `sc-${v}`;
        f.skewMs = rng.int(-3000, 3000);
        break;
      case 'partition': {
        const ids = Array.from({ length: n }, (_, i) => (rng.bool() ? `svc-${i + 1}` : `sc-${i + 1}`));
        const cut = rng.int(1, ids.length - 1);
        f.groups = [ids.slice(0, cut), ids.slice(cut)];
        break;
      }
      case 'link':
        f.from = [`svc-${v}`];
        f.to = Array.from({ length: n }, (_, i) => `svc-${i + 1}`).filter((x) => x !== f.from![0]);
        f.link = {
          loss: rng.int(0, 50) / 100,
          duplicate: rng.int(0, 20) / 100,
          reorder: rng.int(0, 30) / 100,
          reorderMaxMs: rng.int(0, 500),
        };
        break;
      case 'offlineProducer':
      case 'isolateProducer':
      case 'equivocatingProducer':
      case 'earlySeal':
        f.validator = rng.bool(0.5) ? 'inTurn' : v;
        break;
      case 'slowProducer':
        f.validator = rng.bool(0.5) ? 'inTurn' : v;
        f.delayS = rng.int(1, 8);
        break;
      case 'offlineCheckpointProposer':
        break;
      default:
        break;
    }
    faults.push(f);
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
