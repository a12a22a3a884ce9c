/**
 * The sidechain's consensus parameters and the producer delay (sidechain.md §2.1, §2.5; reference
 * README item 25).
 *
 * Bor keys every parameter by block number (mainnet changed sprint and producerDelay at Delhi). A
 * simulated chain starts after every fork, so one value per parameter is enough: the defaults are
 * the post-Delhi mainnet / Amoy values. Times are integer seconds because header times are.
 */
import { InputError } from '../core/errors';
import { parseUint64 } from '../core/amount';
import { isPlanted } from '../core/plants';

export interface SidechainConfig {
  /** EIP-155 chain id; also the span's `sidechain_chain_id` (Heimdall's `bor_chain_id`). */
  chainId: bigint;
  /** Minimum gap between a parent's and a child's timestamp (Bor `period`). */
  periodS: number;
  /** The in-turn delay of a sprint's first block (Bor `producerDelay`). */
  producerDelayS: number;
  /** Blocks per sprint: one in-turn producer per sprint. */
  sprint: number;
  /** The spec's wiggle time: extra delay per succession step (Bor `backupMultiplier`). */
  backupMultiplierS: number;
  /** State syncs committed at a sprint start must be older than header.time minus this (Indore). */
  stateSyncDelayS: number;
  /** Last block of span 0, the genesis producers' span (contract `FIRST_END_BLOCK`). */
  firstSpanEnd: bigint;
}

/**
 * Post-Delhi mainnet values (sidechain.md §2.1). The chain id matches the service's default
 * `sidechain_chain_id` (src/modules/chainParams.ts), which this folder may not import.
 */
export const DEFAULT_SIDECHAIN_CONFIG: Readonly<SidechainConfig> = Object.freeze({
  chainId: 15001n,
  periodS: 2,
  producerDelayS: 4,
  sprint: 16,
  backupMultiplierS: 2,
  stateSyncDelayS: 128,
  firstSpanEnd: 255n,
});

/** The defaults with `overrides` applied, validated; a bad value names its field. */
export function sidechainConfig(overrides: Partial<SidechainConfig> = {}): SidechainConfig {
  const c: SidechainConfig = { ...DEFAULT_SIDECHAIN_CONFIG, ...overrides };
  const chainId = parseUint64(c.chainId, 'sidechain.chainId');
  if (chainId === 0n) throw new InputError('sidechain.chainId', 'must be positive');
  nonNegativeInt(c.periodS, 'sidechain.periodS');
  nonNegativeInt(c.producerDelayS, 'sidechain.producerDelayS');
  positiveInt(c.sprint, 'sidechain.sprint');
  nonNegativeInt(c.backupMultiplierS, 'sidechain.backupMultiplierS');
  nonNegativeInt(c.stateSyncDelayS, 'sidechain.stateSyncDelayS');
  const firstSpanEnd = parseUint64(c.firstSpanEnd, 'sidechain.firstSpanEnd');
  // The contract's commitSpan demands whole sprints per span; span 0 is blocks 0..firstSpanEnd.
  if ((firstSpanEnd + 1n) % BigInt(c.sprint) !== 0n) {
    throw new InputError(
      'sidechain.firstSpanEnd',
      `span 0 (0..${firstSpanEnd}) must be a whole number of sprints of ${c.sprint}`,
    );
  }
  return { ...c, chainId, firstSpanEnd };
}

/** The inputs of `calcProducerDelay`, all in seconds (sprint in blocks). */
export interface ProducerDelayParams {
  period: number;
  producerDelay: number;
  sprint: number;
  /** Delay per succession step: Bor's backupMultiplier, the spec's wiggle time. */
  wiggle: number;
}

export function producerDelayParams(c: SidechainConfig): ProducerDelayParams {
  return { period: c.periodS, producerDelay: c.producerDelayS, sprint: c.sprint, wiggle: c.backupMultiplierS };
}

/**
 * Bor `CalcProducerDelay` (§2.5), in seconds: `period`, or `producerDelay` for a sprint's first
 * block, plus `succession × wiggle`. There is no random jitter: a backup's lateness is part of its
 * header time, so verifiers can check it exactly (`header.time >= parent.time + delay`).
 */
export function calcProducerDelay(number: bigint | number, succession: number, params: ProducerDelayParams): number {
  const n = parseUint64(number, 'number');
  nonNegativeInt(succession, 'succession');
  if (typeof params !== 'object' || params === null)
    throw new InputError('params', 'expected { period, producerDelay, sprint, wiggle }');
  nonNegativeInt(params.period, 'params.period');
  nonNegativeInt(params.producerDelay, 'params.producerDelay');
  positiveInt(params.sprint, 'params.sprint');
  nonNegativeInt(params.wiggle, 'params.wiggle');
  const base = n % BigInt(params.sprint) === 0n ? params.producerDelay : params.period;
  const steps = succession > 0 && isPlanted('backup-wiggle') ? succession + 1 : succession;
  const delay = base + (isPlanted('producer-delay') ? 0 : steps * params.wiggle);
  if (!Number.isSafeInteger(delay))
    throw new InputError('succession', `delay overflows: ${succession} × ${params.wiggle}`);
  return delay;
}

function nonNegativeInt(v: unknown, field: string): void {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    throw new InputError(field, `expected a non-negative integer, got ${String(v)}`);
  }
}

function positiveInt(v: unknown, field: string): void {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) {
    throw new InputError(field, `expected a positive integer, got ${String(v)}`);
  }
}
