/**
 * Sprint boundaries (sidechain.md §2.2). A sprint is `sprint` consecutive blocks starting at a
 * multiple of `sprint`. Its last block (the sprint-end) carries the next sprint's producers in
 * extraData, and applying that header rotates the proposer; its first block runs the span commit
 * and the state-sync system calls and waits `producerDelay` instead of `period`.
 */
import { InputError } from '../core/errors';
import { isPlanted } from '../core/plants';

export function isSprintStart(number: bigint, sprint: number | bigint): boolean {
  return number % sprintBig(sprint) === 0n;
}

/** A block that commits state-sync records (by system call): a sprint start. */
export function isStateSyncBlock(number: bigint, sprint: number | bigint): boolean {
  if (isPlanted('sprint-start-syscalls')) return isSprintEnd(number, sprint);
  return isSprintStart(number, sprint);
}

/** Bor's condition `n > 0 && (n+1) % sprint == 0`: block 0 never ends a sprint. */
export function isSprintEnd(number: bigint, sprint: number | bigint): boolean {
  return number > 0n && (number + 1n) % sprintBig(sprint) === 0n;
}

/** Index of the sprint containing `number` (block 0 is in sprint 0). */
export function sprintIndex(number: bigint, sprint: number | bigint): bigint {
  return number / sprintBig(sprint);
}

/** Sprint lengths come as a config number or a bigint; either way a positive integer. */
export function sprintBig(sprint: number | bigint): bigint {
  if (typeof sprint === 'bigint') {
    if (sprint > 0n) return sprint;
  } else if (Number.isSafeInteger(sprint) && sprint > 0) return BigInt(sprint);
  throw new InputError('sprint', `expected a positive integer, got ${String(sprint)}`);
}
