/**
 * The modules' invariants, checked against a committed state. A broken one is a bug in Lockstep
 * itself, so it throws an InvariantError naming the module, the invariant and the height; a run
 * reports that as a crash with the seed (sim/domain).
 *
 * They run at the end of every block the app executes when checks are on: in test builds (the
 * vitest setup turns the default on) and in `lockstep run --check-invariants` (a run option).
 */
import { InvariantError } from '../core/errors';
import { type KVReader } from '../store/kvStore';
import { MODULES } from './modules';

let checksByDefault = false;

/** Whether apps created from now on check invariants unless told otherwise (test builds turn it on). */
export function setInvariantChecksByDefault(on: boolean): void {
  checksByDefault = on;
}

export function invariantChecksByDefault(): boolean {
  return checksByDefault;
}

/** Throws an InvariantError for the first broken invariant. */
export function checkInvariants(store: KVReader, height: bigint, modules = MODULES): void {
  for (const m of modules)
    for (const inv of m.invariants) {
      const broken = inv.check(store);
      if (broken !== null) throw new InvariantError(`invariant ${m.name}.${inv.name} broken: ${broken}`, { height });
    }
}
