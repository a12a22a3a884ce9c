/**
 * The explorer's workload draws: each kind of workload item the suite uses (transfers, top-ups,
 * stake updates, joins, exits, balance overrides...), drawn one at a time, and how often each is
 * in a fresh scenario. space.ts draws a whole scenario with them; mutate.ts changes the mix.
 */
import { type Rng } from '../../env/rng';
import { type WorkloadSpec } from '../../scenario/scenario';
import { USER_COUNT } from '../../scenario/balanceOverrides';
import { type DrawContext } from './faultDraws';

/** Workload items, each kind present with its own chance (names as WorkloadSpec's). */
export const WORKLOAD_KINDS = [
  'transfers',
  'multiSends',
  'topups',
  'withdrawals',
  'stateSyncs',
  'stakeUpdates',
  'joins',
  'exits',
  'signerChanges',
  'balanceOverrides',
  'sidechainTxs',
] as const;
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

/** Draw one workload item of `kind` into `w` (replacing what was there). */
export function drawWorkloadItem(rng: Rng, w: WorkloadSpec, kind: WorkloadKind, ctx: DrawContext): void {
  const n = ctx.validatorCount;
  const endS = Math.max(30, Math.floor(ctx.durationMs / 1000) - 30);
  const at = () => rng.int(10, Math.min(endS, 400)) * 1000;
  const repeat = () => (rng.bool(0.5) ? 1 : rng.int(2, 4));
  const every = () => rng.int(20, 180) * 1000;
  const honest = Array.from({ length: n }, (_, i) => i + 1).filter((v) => !ctx.coalition.includes(v));
  switch (kind) {
    case 'transfers':
      w.transfers = { everyMs: rng.int(2, 30) * 1000, amountWei: 10n ** 15n };
      return;
    case 'multiSends':
      w.multiSends = { everyMs: rng.int(8, 30) * 1000, outputs: rng.int(1, 4), amountWei: 10n ** 15n };
      return;
    case 'topups':
      w.topups = [
        {
          atMs: at(),
          validator: rng.int(1, n),
          amountTokens: BigInt(rng.int(1, 40)),
          repeat: repeat(),
          everyMs: every(),
        },
      ];
      return;
    case 'withdrawals':
      w.withdrawals = [
        {
          atMs: at(),
          validator: rng.int(1, n),
          amountTokens: rng.bool(0.3) ? 0n : BigInt(rng.int(1, 50)),
          repeat: repeat(),
          everyMs: every(),
        },
      ];
      return;
    case 'stateSyncs':
      w.stateSyncs = [{ atMs: at(), count: rng.int(1, 20), repeat: repeat(), everyMs: every() }];
      return;
    case 'stakeUpdates':
      // Stake only outside the coalition: its share of the power never grows.
      w.stakeUpdates = honest.length
        ? [
            {
              atMs: at(),
              validator: rng.pick(honest),
              amountTokens: BigInt(rng.pick([1, 20, 50, 250])),
              repeat: repeat(),
              everyMs: every(),
            },
          ]
        : [];
      return;
    case 'joins':
      w.joins = [{ atMs: at(), stakeTokens: BigInt(rng.pick([1, 2, 5, 20])), repeat: repeat(), everyMs: every() }];
      return;
    case 'exits':
      // At most one honest validator exits (the coalition's budget counts it).
      w.exits = honest.length > 1 ? [{ atMs: at(), validator: rng.pick(honest), repeat: 1, everyMs: 0 }] : [];
      return;
    case 'signerChanges':
      w.signerChanges = [{ atMs: at(), validator: rng.int(1, n), repeat: repeat(), everyMs: every() }];
      return;
    case 'balanceOverrides':
      w.balanceOverrides = [
        {
          atMs: at(),
          target: rng.bool(0.7)
            ? { user: rng.int(1, USER_COUNT) }
            : { address: '0x00000000000000000000000000000000000000aa' },
          balanceWei: rng.pick([1n, 10n ** 15n, 5n * 10n ** 18n]),
          repeat: repeat(),
          everyMs: every(),
        },
      ];
      return;
    case 'sidechainTxs':
      w.sidechainTxs = {
        everyMs: rng.int(2, 10) * 1000,
        ...(rng.bool(0.3) ? { fastSignedEveryMs: rng.int(5, 30) * 1000 } : {}),
        // Probes of the nodes' pools (sidechainWallets.ts POOL_PROBES), judged by the sidechain-pool oracle.
        ...(rng.bool(0.5) ? { probeEveryMs: rng.int(1, 10) * 1000 } : {}),
      };
      return;
  }
}

/** How often each workload kind is in a fresh draw. */
export const WORKLOAD_CHANCE: Record<WorkloadKind, number> = {
  transfers: 0.6,
  multiSends: 0.3,
  topups: 0.4,
  withdrawals: 0.3,
  stateSyncs: 0.4,
  stakeUpdates: 0.3,
  joins: 0.25,
  exits: 0.2,
  signerChanges: 0.3,
  balanceOverrides: 0.15,
  sidechainTxs: 0.4,
};
