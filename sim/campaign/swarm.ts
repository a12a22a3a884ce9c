/**
 * The swarm profile (swarm testing): each seed draws its own mix of fault kinds and knobs, so a
 * campaign explores many different combinations rather than every seed getting every fault.
 * Deterministic: the same seed always gives the same scenario.
 */
import { Rng } from '../env/rng';
import { type Scenario, emptyWorkload } from '../scenario/scenario';
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
    workload: { ...emptyWorkload(), transfers: { everyMs: 10_000, amountWei: 10n ** 15n } },
    expect: { verdict: 'pass', min: {}, max: {} },
  };
}

/**
 * The swarm profiles. `swarm`: every drawable fault kind, Byzantine ones by a coalition holding
 * less than 1/3 of the power (there safety must hold: any safety violation is a bug).
 * `byzantine-third`: seven equal validators, a coalition of three (3/7 of the power, at least 1/3)
 * that attacks consensus (twin blocks, each voted for by one half of the honest validators) from
 * 20 s to the end, besides the usual mix: there the safety oracles must fire.
 */
export const SWARM_PROFILES = ['swarm', 'byzantine-third'] as const;
export type SwarmProfile = (typeof SWARM_PROFILES)[number];

export function swarmScenario(seed: number, durationMs = 2 * 3_600_000, profile: SwarmProfile = 'swarm'): Scenario {
  const s = swarmBase(durationMs);
  if (profile === 'byzantine-third')
    s.validators = Array.from({ length: 7 }, () => ({ stakeTokens: 100n, balanceTokens: 1000n }));
  const rng = Rng.forSeed(`swarm/${seed}`);
  const n = s.validators.length;
  const stakes = s.validators.map((v) => v.stakeTokens);
  // The seed's coalition, from its own stream (the other draws do not move with it).
  const coalition = drawCoalition(Rng.forSeed(`swarm/${seed}`).fork('coalition'), stakes, profile);
  // Swarm: pick a subset of fault kinds for this seed, then draw faults only from it.
  const drawable = swarmKinds();
  const kinds = drawable.filter(() => rng.bool(0.4));
  if (kinds.length === 0) kinds.push(rng.pick(drawable));
  const count = rng.int(1, 6);
  const faults: FaultSpec[] = [];
  for (let i = 0; i < count; i++) {
    const kind = rng.pick(kinds);
    const atMs = rng.int(20, Math.max(21, Math.floor(durationMs / 1000) - 120)) * 1000;
    const forMs = rng.int(10, 180) * 1000;
    const validator = rng.int(1, n);
    const fields = faultDef(kind).swarm!.draw(rng, { validatorCount: n, validator, stakes, coalition });
    faults.push({ kind, atMs, forMs, ...fields } as FaultSpec);
  }
  // The coordinated attack: the coalition's twin blocks, each voted for by one half of the honest.
  if (profile === 'byzantine-third')
    faults.push({ kind: 'byzantineValidators', atMs: 20_000, validators: [...coalition] });
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
      ? [
          {
            atMs: rng.int(20, 300) * 1000,
            validator: rng.int(1, n),
            amountTokens: 20n,
            repeat: rng.int(1, 3),
            everyMs: 0,
          },
        ]
      : [],
    stateSyncs: rng.bool(0.5) ? [{ atMs: rng.int(20, 300) * 1000, count: rng.int(1, 20), repeat: 1, everyMs: 0 }] : [],
  };
  drawMessageWorkload(rng, s, coalition);
  // A Byzantine sender besides the fault mix (last in the list, its draws last): half the seeds
  // have one for a few minutes, so a campaign reaches every kind it crafts.
  if (rng.bool(0.5)) {
    const atMs = rng.int(20, Math.max(21, Math.floor(durationMs / 2000))) * 1000;
    const forMs = rng.int(120, 400) * 1000;
    const validator = rng.int(1, n);
    const fields = faultDef('byzantineTxs').swarm!.draw(rng, { validatorCount: n, validator, stakes, coalition });
    s.faults.push({ kind: 'byzantineTxs', atMs, forMs, ...fields } as FaultSpec);
  }
  // Signed sidechain transfers in half the seeds, from a stream of their own (every draw above
  // stays as it was): without them the sidechain's transaction rules (nonce, funds, fee cap, the
  // tip to the author, the burnt base fee) are judged by the suite only.
  const sc = Rng.forSeed(`swarm/${seed}`).fork('sidechainTxs');
  if (sc.bool(0.5))
    s.workload.sidechainTxs = {
      everyMs: sc.int(2, 10) * 1000,
      ...(sc.bool(0.3) ? { fastSignedEveryMs: sc.int(5, 30) * 1000 } : {}),
    };
  return s;
}

/**
 * The rest of the client table under load, drawn after everything above (so a seed keeps its
 * faults, network and the draws before): multi-sends, fee withdrawals, and the parent-chain
 * actions the bridges turn into MsgStakeUpdate, MsgValidatorJoin, MsgValidatorExit and
 * MsgSignerUpdate, each possibly repeated, several in one seed. The draws keep the power budget
 * of the profile: stake is added only outside the coalition, at most one validator outside it
 * exits, and joined validators (who run no node) hold a few tokens.
 */
function drawMessageWorkload(rng: Rng, s: Scenario, coalition: readonly number[]): void {
  const n = s.validators.length;
  const at = () => rng.int(20, 300) * 1000;
  const honest = s.validators.map((_, i) => i + 1).filter((v) => !coalition.includes(v));
  const w = s.workload;
  w.multiSends = rng.bool(0.5)
    ? { everyMs: rng.int(8, 30) * 1000, outputs: rng.int(1, 4), amountWei: 10n ** 15n }
    : null;
  w.withdrawals = rng.bool(0.5)
    ? [
        {
          atMs: at(),
          validator: rng.int(1, n),
          // Now and then the whole balance (amount 0).
          amountTokens: rng.bool(0.3) ? 0n : BigInt(rng.int(1, 50)),
          repeat: rng.int(1, 4),
          everyMs: rng.int(20, 90) * 1000,
        },
      ]
    : [];
  w.stakeUpdates =
    honest.length > 0 && rng.bool(0.4)
      ? [
          {
            atMs: at(),
            validator: rng.pick(honest),
            amountTokens: BigInt(rng.int(1, 50)),
            repeat: rng.int(1, 3),
            everyMs: rng.int(20, 120) * 1000,
          },
        ]
      : [];
  w.joins = rng.bool(0.3)
    ? [{ atMs: at(), stakeTokens: BigInt(rng.int(1, 5)), repeat: rng.int(1, 3), everyMs: rng.int(30, 120) * 1000 }]
    : [];
  w.exits =
    honest.length > 1 && rng.bool(0.25) ? [{ atMs: at(), validator: rng.pick(honest), repeat: 1, everyMs: 0 }] : [];
  w.signerChanges = rng.bool(0.4)
    ? [{ atMs: at(), validator: rng.int(1, n), repeat: rng.int(1, 3), everyMs: rng.int(40, 150) * 1000 }]
    : [];
}

/**
 * A seed's Byzantine coalition (1-based indexes, ascending): in the `swarm` profile one or two
 * validators whose power stays below 1/3 of the total; in `byzantine-third` validators taken in
 * random order until they hold at least 1/3 and more than the honest can outvote in two halves
 * (3 of 7 equal validators).
 */
export function drawCoalition(rng: Rng, stakes: readonly bigint[], profile: SwarmProfile): number[] {
  let total = 0n;
  for (const st of stakes) total += st;
  const order = rng.shuffle(stakes.map((_, i) => i + 1));
  const out: number[] = [];
  let power = 0n;
  if (profile === 'byzantine-third') {
    for (const v of order) {
      if (power * 3n > total) break;
      out.push(v);
      power += stakes[v - 1]!;
    }
  } else {
    const size = rng.int(1, 2);
    for (const v of order) {
      if (out.length === size) break;
      if ((power + stakes[v - 1]!) * 3n >= total) continue;
      out.push(v);
      power += stakes[v - 1]!;
    }
  }
  return out.sort((a, b) => a - b);
}
