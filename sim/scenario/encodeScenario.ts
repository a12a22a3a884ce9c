import { durationText } from '../../src/core/duration';
import { encodeLink } from '../core/reader';
import { encodeFault } from '../faults/registry';
import { encodeBalanceOverride } from './balanceOverrides';

import { type Scenario } from './scenario';
import { encodeEvery, encodeRepeats } from './repeats';
import { encodeBuggify } from './buggify';

/** The scenario as a file (the inverse of decodeScenario): durations with units (`4m`, `1500ms`), amounts as strings. */
export function encodeScenario(s: Scenario): Record<string, unknown> {
  const p = s.params;
  const w = s.workload;
  return {
    name: s.name,
    description: s.description,
    crypto: s.crypto,
    duration: durationText(s.durationMs),
    maxEvents: s.maxEvents,
    epoch: s.epochMs,
    validators: s.validators.map((v) => ({ stake: v.stakeTokens.toString(), balance: v.balanceTokens.toString() })),
    params: {
      producerCount: p.producerCount,
      sprint: p.sprint,
      spanDuration: p.spanDuration,
      firstSpanDuration: p.firstSpanDuration,
      checkpointBufferTime: durationText(p.checkpointBufferTimeMs),
      checkpointLength: p.checkpointLength,
      sidechainConfirmations: p.sidechainConfirmations,
      parentConfirmations: p.parentConfirmations,
      parentBlockTime: durationText(p.parentBlockTimeMs),
      periodS: p.periodS,
      producerDelayS: p.producerDelayS,
      backupMultiplierS: p.backupMultiplierS,
      stateSyncDelayS: p.stateSyncDelayS,
      commitTimeout: durationText(p.commitTimeoutMs),
      relayDelayPerRank: durationText(p.relayDelayPerRankMs),
      validatorSlots: p.validatorSlots,
      jitter: p.jitter,
      ...(p.sendEnabled !== undefined ? { sendEnabled: p.sendEnabled } : {}),
      ...(p.sidechainDevAccounts !== undefined ? { sidechainDevAccounts: p.sidechainDevAccounts } : {}),
    },
    network: encodeLink(s.network),
    faults: s.faults.map(encodeFault),
    workload: {
      ...(w.transfers
        ? { transfers: { every: durationText(w.transfers.everyMs), amountWei: w.transfers.amountWei.toString() } }
        : {}),
      ...(w.multiSends
        ? {
            multiSends: {
              every: durationText(w.multiSends.everyMs),
              outputs: w.multiSends.outputs,
              amountWei: w.multiSends.amountWei.toString(),
            },
          }
        : {}),
      ...(w.sidechainTxs
        ? {
            sidechainTxs: {
              every: durationText(w.sidechainTxs.everyMs),
              ...(w.sidechainTxs.fastSignedEveryMs !== undefined
                ? { fastSignedEvery: durationText(w.sidechainTxs.fastSignedEveryMs) }
                : {}),
              ...(w.sidechainTxs.probeEveryMs !== undefined
                ? { probeEvery: durationText(w.sidechainTxs.probeEveryMs) }
                : {}),
            },
          }
        : {}),
      topups: w.topups.map((t) => ({
        at: durationText(t.atMs),
        validator: t.validator,
        amount: t.amountTokens.toString(),
        repeat: t.repeat,
        ...encodeEvery(t),
      })),
      ...((w.withdrawals ?? []).length
        ? {
            withdrawals: w.withdrawals!.map((t) => ({
              at: durationText(t.atMs),
              validator: t.validator,
              amount: t.amountTokens.toString(),
              ...encodeRepeats(t),
            })),
          }
        : {}),
      stateSyncs: w.stateSyncs.map((t) => ({ at: durationText(t.atMs), count: t.count, ...encodeRepeats(t) })),
      stakeUpdates: w.stakeUpdates.map((t) => ({
        at: durationText(t.atMs),
        validator: t.validator,
        amount: t.amountTokens.toString(),
        ...encodeRepeats(t),
      })),
      joins: w.joins.map((t) => ({ at: durationText(t.atMs), stake: t.stakeTokens.toString(), ...encodeRepeats(t) })),
      exits: w.exits.map((t) => ({ at: durationText(t.atMs), validator: t.validator, ...encodeRepeats(t) })),
      ...((w.balanceOverrides ?? []).length
        ? { balanceOverrides: w.balanceOverrides!.map((t) => ({ ...encodeBalanceOverride(t), ...encodeRepeats(t) })) }
        : {}),
      signerChanges: w.signerChanges.map((t) => ({
        at: durationText(t.atMs),
        validator: t.validator,
        ...encodeRepeats(t),
      })),
    },
    expect: {
      verdict: s.expect.verdict,
      ...(s.expect.oracle ? { oracle: s.expect.oracle } : {}),
      min: s.expect.min,
      max: s.expect.max,
      ...(s.expect.metrics ? { metrics: s.expect.metrics } : {}),
    },
    ...(s.plant ? { plant: s.plant } : {}),
    ...(s.seed !== undefined ? { seed: s.seed } : {}),
    ...(s.streams !== undefined ? { streams: s.streams } : {}),
    ...(s.buggify !== undefined ? { buggify: encodeBuggify(s.buggify) } : {}),
  };
}
