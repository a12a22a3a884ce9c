/**
 * The oracle stage's campaign: a fast subset of the scenario suite, then a short swarm for the
 * mutants that survive it.
 *
 * The subset: every scenario expected to pass whose run takes at most about 3 s of wall time with
 * fast crypto. All but one run fast crypto here: the runs' timing is virtual, and the whole suite
 * passes with it (`default` and `devnet` are written for real crypto and pass with fast crypto
 * too). The exception, `sidechain-fast-signed` (OWN_CRYPTO_SCENARIOS), runs in its own real crypto:
 * it sends fast-format signatures to a real-crypto network, which must refuse them, and a mutant
 * that lets a real node accept one (a forged sender) shows only there; with fast crypto those
 * transfers are ordinary ones. It costs about 5 s of CPU per run. Measured on the unmodified code with every mutant of the target folders instrumented, the
 * subset reaches 2,688 of the 3,380 mutants, the same as the whole suite with a few swarm seeds
 * (measured before every-message, send-disabled and bft-round-skip joined it; every-message, which
 * sends every message type and every Byzantine transaction kind, now runs first):
 * bridge-relays alone reaches 2,431 (every transaction type of the bridge at once), default adds
 * 107 (no-acks, an offline producer), lost-parent-fetch 55, signer-rotation 35, byzantine-consensus
 * 34 (rounds skipped), checkpoint-vote-after-unfetched-ack 25. The rest add no reach but other
 * faults (partitions, crashes, equivocation, outsiders, Byzantine transactions), which is what
 * makes an oracle fire. They run broadest first, so a mutant meets its likeliest killer early;
 * each mutant runs only the scenarios whose unmodified run executed its code (coverage).
 *
 * Left out: mainnet-105 (105 validators, about 20x the cost per simulated second),
 * checkpoint-fork-switch-back (2 simulated hours) and isolated-slow-producer (1 hour), the
 * scenarios that expect a violation (byzantine-over-third) or carry a planted bug.
 */
export const DEFAULT_SCENARIOS: readonly string[] = [
  'scenarios/every-message.json',
  'scenarios/bridge-relays.json',
  'scenarios/default.json',
  'scenarios/smoke.json',
  'scenarios/join-exit.json',
  'scenarios/signer-rotation.json',
  'scenarios/byzantine-sender.json',
  'scenarios/state-sync-burst.json',
  'scenarios/regressions/checkpoint-ack-before-fetch-at-end.json',
  'scenarios/regressions/checkpoint-vote-after-unfetched-ack.json',
  'scenarios/regressions/lost-parent-fetch.json',
  'scenarios/byzantine-consensus.json',
  'scenarios/checkpoint-proposer-offline.json',
  'scenarios/checkpoint-minority-fork.json',
  'scenarios/height-triggered.json',
  'scenarios/devnet.json',
  'scenarios/bft-double-sign.json',
  'scenarios/bft-no-quorum.json',
  'scenarios/bft-two-crashed.json',
  'scenarios/bft-two-partitioned.json',
  'scenarios/early-seal.json',
  'scenarios/equivocating-producer.json',
  'scenarios/even-split-tie.json',
  'scenarios/long-sprint-64.json',
  'scenarios/outsider-blocks.json',
  'scenarios/parent-outage.json',
  'scenarios/producer-flapping.json',
  'scenarios/producer-offline-sprint.json',
  'scenarios/sidechain-partition.json',
  'scenarios/span-late-proposal.json',
  'scenarios/first-span-late.json',
  'scenarios/sidechain-halt-at-span-start.json',
  'scenarios/checkpoint-end-adjust.json',
  'scenarios/operator-console.json',
  'scenarios/regressions/checkpoint-resubmit-after-signer-change.json',
  'scenarios/sprint-16.json',
  'scenarios/send-disabled.json',
  'scenarios/bft-round-skip.json',
  'scenarios/sidechain-fast-signed.json',
  // A Byzantine producer's crafted headers and the pools' probes: the only runs that test the
  // sidechain's header checks and the pool's admission checks other than for honest input.
  'scenarios/byzantine-blocks.json',
  'scenarios/pool-probes.json',
];

/** Scenarios of the subset that run in the crypto their file names (real), not fast crypto: see above. */
export const OWN_CRYPTO_SCENARIOS: ReadonlySet<string> = new Set(['scenarios/sidechain-fast-signed.json']);

/** Swarm seeds 1..N of this many simulated minutes, for the survivors of the scenarios. */
export const DEFAULT_SWARM_SEEDS = 8;
export const DEFAULT_SWARM_DURATION_MS = 600_000;

export interface Campaign {
  scenarios: string[];
  swarmSeeds: number;
  swarmDurationMs: number;
}

export type CampaignRun =
  | { kind: 'scenario'; file: string; fastCrypto: boolean }
  | { kind: 'swarm'; seed: number; durationMs: number };

/** Every run of the campaign, scenarios first, in order. */
export function campaignRuns(c: Campaign): CampaignRun[] {
  return [
    ...c.scenarios.map((file) => ({ kind: 'scenario' as const, file, fastCrypto: !OWN_CRYPTO_SCENARIOS.has(file) })),
    ...Array.from({ length: c.swarmSeeds }, (_, i) => ({
      kind: 'swarm' as const,
      seed: i + 1,
      durationMs: c.swarmDurationMs,
    })),
  ];
}

export function runLabel(r: CampaignRun): string {
  return r.kind === 'scenario' ? r.file.replace(/^scenarios\//, '').replace(/\.json$/, '') : `swarm seed ${r.seed}`;
}

/**
 * The positive control: a mutant known to be wrong (the checkpoint's block time in seconds
 * computed as milliseconds times 1,000, so every checkpoint's timestamp, and with it the buffer
 * time, is off by a factor of a million), found by its text rather than its position so it
 * survives edits elsewhere in the file. Every run of the bench runs it first, outside the sample;
 * if the campaign does not kill it, the oracle stage is not testing what it claims and the bench
 * stops.
 */
export const CONTROL_MUTANT = {
  file: 'src/modules/checkpoint/bufferTime.ts',
  mutator: 'ArithmeticOperator',
  original: 'timeMs / 1000',
  replacement: 'timeMs * 1000',
} as const;
