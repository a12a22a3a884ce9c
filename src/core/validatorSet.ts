/**
 * The validator set with Tendermint v0.32 proposer priorities, as Heimdall v1 keeps it
 * (`types/validator-set.go`, heimdall.md §4.4) and as Bor rotates its sprint proposer
 * (sidechain.md §2.3). All arithmetic is bigint and reproduces Go's int64 behaviour:
 * - `RescalePriorities` divides with Go `/` on int64 (truncation toward zero);
 * - `shiftByAvg` averages with `big.Int.Div` (Euclidean, i.e. floor for a positive count);
 * - priority adds and subs saturate at the int64 bounds (`safeAddClip` / `safeSubClip`);
 * - a tie for the highest priority goes to the smaller address (byte order).
 *
 * The stored proposer is a snapshot of the validator picked by the last increment, which is what
 * Heimdall sees after its store round-trip: `updateWithChangeSet` does not touch it (post-Aalborg),
 * so it may name a validator whose power or priority has changed since, or one that was removed.
 *
 * Every node of a simulation keeps the same sets, height after height, and a set of a hundred
 * validators is too big to copy at every height on every node: `copy()` shares the member list
 * until either side changes it (copy on write), lookups by address go through an index shared by
 * every set with the same member list, and `advanced()` (the next height's set) is computed once per
 * member list and shared by every node that asks.
 */
import { type Address, compareAddresses, parseAddress } from './address';
import { INT64_MAX, INT64_MIN, clipInt64, floorDiv } from './amount';
import { InputError } from './errors';

/** Tendermint `MaxTotalVotingPower = MaxInt64 / 8`. */
export const MAX_TOTAL_VOTING_POWER = INT64_MAX / 8n;
/** Tendermint `PriorityWindowSizeFactor`: priorities are kept within 2 * total power. */
export const PRIORITY_WINDOW_SIZE_FACTOR = 2n;

export interface SetValidator {
  readonly address: Address;
  readonly power: bigint;
  readonly proposerPriority: bigint;
  /** Carried along untouched for callers (Heimdall validator id); never used by the algorithm. */
  readonly id?: bigint;
}

/** A member or a change: `power` 0 in a change means removal. */
export interface ValidatorInput {
  readonly address: string;
  readonly power: bigint | number;
  readonly id?: bigint | number;
}

export interface SetValidatorJSON {
  address: string;
  power: string;
  proposerPriority: string;
  id?: string;
}

/** Plain JSON with bigints as decimal strings; `proposer` is the stored snapshot (or null). */
export interface ValidatorSetJSON {
  validators: SetValidatorJSON[];
  proposer: SetValidatorJSON | null;
}

interface Member {
  address: Address;
  power: bigint;
  proposerPriority: bigint;
  id?: bigint;
}

const FIELD = 'validators';

export class ValidatorSet {
  /** Sorted by address, strictly ascending. Never changed in place while `shared`. */
  private members!: Member[];
  /** Snapshot of the last picked proposer; null until the first increment (or when loaded so). Never changed in place. */
  private storedProposer!: Member | null;
  private total!: bigint;
  /** True when another set (or a memo) may hold `members`: clone them before any change. */
  private shared = false;

  /**
   * Reference `NewValidatorSet`: every validator enters through the change-set path (priority
   * -(T + T>>3) with T the new total, whatever the caller had), then rescale + centre, then one
   * `IncrementProposerPriority(1)`. Input order does not matter.
   */
  constructor(validators: ReadonlyArray<ValidatorInput>) {
    this.members = [];
    this.storedProposer = null;
    this.total = 0n;
    if (validators.length === 0) {
      // Go returns an empty set here; a set without a proposer is of no use to any caller.
      throw new InputError(FIELD, 'applying the validator changes would result in empty set');
    }
    this.applyChangeSet(validators, false, FIELD);
    this.incrementProposerPriority(1);
  }

  get validators(): readonly SetValidator[] {
    return this.members.map(snapshot);
  }

  get size(): number {
    return this.members.length;
  }

  /** Reference `GetProposer`: the stored proposer, else the highest priority (ties: smaller address). */
  get proposer(): SetValidator {
    if (this.storedProposer !== null) return snapshot(this.storedProposer);
    return snapshot(this.mostPriority());
  }

  totalVotingPower(): bigint {
    return this.total;
  }

  getByAddress(address: string): SetValidator | undefined {
    const i = this.lookup(address);
    return i < 0 ? undefined : snapshot(this.members[i]!);
  }

  hasAddress(address: string): boolean {
    return this.lookup(address) >= 0;
  }

  /** The voting power of `address`, 0 when it is not in the set (a consensus tally's hot path: no snapshot). */
  powerOf(address: string): bigint {
    const i = this.lookup(address);
    return i < 0 ? 0n : this.members[i]!.power;
  }

  /**
   * An object that stands for this set's members and powers (not their priorities): two sets with
   * the same key have the same members with the same powers. For caches of work that depends on
   * membership and power only (checking a commit's +2/3); different keys say nothing.
   */
  get membershipKey(): object {
    return this.members;
  }

  /** The power of the member at `index` of the address-sorted list. */
  powerAt(index: number): bigint {
    const m = this.members[index];
    if (m === undefined) throw new InputError('index', `no member at ${index} (the set has ${this.members.length})`);
    return m.power;
  }

  /** Index in the address-sorted list, -1 if absent (Bor's succession uses this index). */
  indexOfAddress(address: string): number {
    return this.lookup(address);
  }

  /** Reference `IncrementProposerPriority(times)`: rescale to 2T, centre, then `times` rounds. */
  incrementProposerPriority(times: number): void {
    if (!Number.isSafeInteger(times) || times <= 0) {
      throw new InputError('times', `Cannot call IncrementProposerPriority with non-positive times: ${times}`);
    }
    this.own();
    this.rescalePriorities(PRIORITY_WINDOW_SIZE_FACTOR * this.total);
    this.shiftByAvg();
    let proposer: Member | undefined;
    for (let i = 0; i < times; i++) proposer = this.incrementOnce();
    this.storedProposer = { ...proposer! };
  }

  /**
   * Reference `UpdateWithChangeSet`: power 0 removes (the validator must exist), an existing
   * address is updated and keeps its priority, a new one enters at -(T + T>>3) with T the total
   * after additions and updates but before removals; then rescale(2T) and centre.
   * The stored proposer is left as it is. On error nothing changes.
   * A change without `id` keeps the member's id (Go would replace the record wholesale).
   */
  updateWithChangeSet(changes: ReadonlyArray<ValidatorInput>): void {
    this.applyChangeSet(changes, true, 'changes');
  }

  /** An independent copy (it shares the member list until either set changes). */
  copy(): ValidatorSet {
    this.shared = true;
    return ValidatorSet.raw(this.members, this.storedProposer, this.total, true);
  }

  /**
   * The set of the next height: a copy, with `changes` applied when there are any
   * (`updateWithChangeSet`), then `incrementProposerPriority(times)`. The result is a function of
   * the member list and the arguments, so it is computed once per member list and shared (copy on
   * write) by every set that asks; this set is left as it is.
   */
  advanced(changes: ReadonlyArray<ValidatorInput>, times: number): ValidatorSet {
    let memo = advancedMemo.get(this.members);
    const key = `${times}|${changes.map((c) => `${c.address}:${c.power}:${c.id ?? ''}`).join(',')}`;
    let hit = memo?.get(key);
    if (hit === undefined) {
      const next = this.copy();
      if (changes.length) next.updateWithChangeSet(changes);
      next.incrementProposerPriority(times);
      next.shared = true;
      hit = { members: next.members, proposer: next.storedProposer, total: next.total };
      if (memo === undefined) {
        memo = new Map();
        advancedMemo.set(this.members, memo);
      }
      // The key list is this set's members, which are never changed in place once shared.
      this.shared = true;
      memo.set(key, hit);
    }
    return ValidatorSet.raw(hit.members, hit.proposer, hit.total, true);
  }

  toJSON(): ValidatorSetJSON {
    return {
      validators: this.members.map(memberToJSON),
      proposer: this.storedProposer === null ? null : memberToJSON(this.storedProposer),
    };
  }

  /** Load what `toJSON` wrote; the result behaves exactly like the set that was saved. */
  static fromJSON(json: unknown): ValidatorSet {
    if (typeof json !== 'object' || json === null) throw new InputError('validatorSet', 'expected an object');
    const obj = json as Record<string, unknown>;
    const list = obj.validators;
    if (!Array.isArray(list) || list.length === 0) {
      throw new InputError('validatorSet.validators', 'expected a non-empty array');
    }
    const members = list.map((v, i) => memberFromJSON(v, `validatorSet.validators[${i}]`));
    let total = 0n;
    members.forEach((m, i) => {
      if (m.power <= 0n) throw new InputError(`validatorSet.validators[${i}].power`, `must be positive: ${m.power}`);
      if (i > 0 && compareAddresses(members[i - 1]!.address, m.address) >= 0) {
        throw new InputError(
          `validatorSet.validators[${i}].address`,
          'validators must be sorted by address without duplicates',
        );
      }
      total += m.power;
    });
    if (total > MAX_TOTAL_VOTING_POWER) {
      throw new InputError(
        'validatorSet.validators',
        `total voting power ${total} exceeds the max allowed ${MAX_TOTAL_VOTING_POWER}`,
      );
    }
    const p = obj.proposer;
    const proposer = p === null || p === undefined ? null : memberFromJSON(p, 'validatorSet.proposer');
    return ValidatorSet.raw(members, proposer, total, false);
  }

  // ---------------------------------------------------------------------------------------------

  private static raw(members: Member[], proposer: Member | null, total: bigint, shared: boolean): ValidatorSet {
    const set = Object.create(ValidatorSet.prototype) as ValidatorSet;
    set.members = members;
    set.storedProposer = proposer;
    set.total = total;
    set.shared = shared;
    return set;
  }

  /** Take the member list for this set alone before changing it (copy on write). */
  private own(): void {
    if (!this.shared) return;
    this.members = this.members.map((m) => ({ ...m }));
    this.shared = false;
  }

  /** Position of `address` (any case; an invalid one throws as parseAddress does), -1 if absent. */
  private lookup(address: string): number {
    let index = addressIndex.get(this.members);
    if (index === undefined) {
      // Positions do not change while a member list lives (changes of membership make a new list).
      index = new Map(this.members.map((m, i) => [m.address as string, i]));
      addressIndex.set(this.members, index);
    }
    const i = index.get(address);
    if (i !== undefined) return i;
    return index.get(parseAddress(address)) ?? -1;
  }

  private indexOf(address: Address): number {
    let lo = 0;
    let hi = this.members.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = compareAddresses(this.members[mid]!.address, address);
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** `updateWithChangeSet(changes, allowDeletes)` of the reference; validates everything first. */
  private applyChangeSet(input: ReadonlyArray<ValidatorInput>, allowDeletes: boolean, field: string): void {
    if (input.length === 0) return; // the reference returns before rescaling

    // processChanges: normalise, sort by address, reject duplicates / negative / oversized powers.
    const changes = input.map((v, i) => normaliseInput(v, `${field}[${i}]`)).sort(byAddress);
    const updates: Member[] = [];
    const removals: Member[] = [];
    for (let i = 0; i < changes.length; i++) {
      const c = changes[i]!;
      if (i > 0 && changes[i - 1]!.address === c.address) {
        throw new InputError(field, `duplicate entry ${describeMember(c)} in ${describeList(changes)}`);
      }
      if (c.power < 0n) throw new InputError(field, `voting power can't be negative: ${describeMember(c)}`);
      if (c.power > MAX_TOTAL_VOTING_POWER) {
        throw new InputError(
          field,
          `to prevent clipping/ overflow, voting power can't be higher than ${MAX_TOTAL_VOTING_POWER}, got ${c.power}`,
        );
      }
      (c.power === 0n ? removals : updates).push(c);
    }
    if (!allowDeletes && removals.length > 0) {
      throw new InputError(field, `cannot process validators with voting power 0: ${describeList(removals)}`);
    }

    // verifyRemovals
    for (const r of removals) {
      if (this.indexOf(r.address) < 0) {
        throw new InputError(field, `failed to find validator ${r.address.slice(2).toUpperCase()} to remove`);
      }
    }

    // verifyUpdates: the running total (before removals) must never exceed the maximum.
    let newTotal = this.total;
    let added = 0;
    for (const u of updates) {
      const i = this.indexOf(u.address);
      if (i < 0) {
        newTotal += u.power;
        added++;
      } else {
        newTotal += u.power - this.members[i]!.power;
      }
      if (newTotal > MAX_TOTAL_VOTING_POWER) {
        throw new InputError(
          field,
          `failed to add/update validator ${describeMember(u)}, total voting power would exceed the max allowed ${MAX_TOTAL_VOTING_POWER}`,
        );
      }
    }
    if (added === 0 && this.members.length === removals.length) {
      throw new InputError(field, 'applying the validator changes would result in empty set');
    }

    // computeNewPriorities: newcomers start at -1.125 * newTotal, updated ones keep theirs.
    const newcomerPriority = -(newTotal + (newTotal >> 3n));
    for (const u of updates) {
      const i = this.indexOf(u.address);
      if (i < 0) {
        u.proposerPriority = newcomerPriority;
      } else {
        const old = this.members[i]!;
        u.proposerPriority = old.proposerPriority;
        if (u.id === undefined && old.id !== undefined) u.id = old.id;
      }
    }

    // applyUpdates (merge of two sorted lists) and applyRemovals. The merged list is new, but it
    // holds this set's member objects, which rescaling then changes: take them first.
    this.own();
    const removed = new Set(removals.map((r) => r.address));
    const merged: Member[] = [];
    let a = 0;
    let b = 0;
    while (a < this.members.length || b < updates.length) {
      const e = this.members[a];
      const u = updates[b];
      if (u === undefined || (e !== undefined && compareAddresses(e.address, u.address) < 0)) {
        if (!removed.has(e!.address)) merged.push(e!);
        a++;
      } else {
        merged.push(u);
        if (e !== undefined && e.address === u.address) a++;
        b++;
      }
    }
    this.members = merged;
    this.total = sumPowers(merged);

    this.rescalePriorities(PRIORITY_WINDOW_SIZE_FACTOR * this.total);
    this.shiftByAvg();
  }

  private rescalePriorities(diffMax: bigint): void {
    if (diffMax <= 0n) return;
    let max = INT64_MIN;
    let min = INT64_MAX;
    for (const m of this.members) {
      if (m.proposerPriority > max) max = m.proposerPriority;
      if (m.proposerPriority < min) min = m.proposerPriority;
    }
    // Priorities stay within a few times the total (≤ MaxInt64/8), so Go's int64 never wraps here.
    const diff = max - min;
    if (diff > diffMax) {
      const ratio = (diff + diffMax - 1n) / diffMax;
      for (const m of this.members) m.proposerPriority = m.proposerPriority / ratio; // truncates, as Go
    }
  }

  private shiftByAvg(): void {
    let sum = 0n;
    for (const m of this.members) sum += m.proposerPriority;
    const avg = floorDiv(sum, BigInt(this.members.length)); // big.Int.Div: floor, not truncation
    for (const m of this.members) m.proposerPriority = clipInt64(m.proposerPriority - avg);
  }

  private incrementOnce(): Member {
    for (const m of this.members) m.proposerPriority = clipInt64(m.proposerPriority + m.power);
    const most = this.mostPriority();
    most.proposerPriority = clipInt64(most.proposerPriority - this.total);
    return most;
  }

  /** Highest priority; members are address-sorted, so the first maximum has the smaller address. */
  private mostPriority(): Member {
    let best = this.members[0]!;
    for (let i = 1; i < this.members.length; i++) {
      const m = this.members[i]!;
      if (m.proposerPriority > best.proposerPriority) best = m;
    }
    return best;
  }
}

/** Address -> position, per member list (shared by the sets that share the list). */
const addressIndex = new WeakMap<readonly Member[], Map<string, number>>();
/** The results of `advanced`, per member list and arguments. */
const advancedMemo = new WeakMap<
  readonly Member[],
  Map<string, { members: Member[]; proposer: Member | null; total: bigint }>
>();

function normaliseInput(v: ValidatorInput, field: string): Member {
  if (typeof v !== 'object' || v === null) throw new InputError(field, 'expected an object');
  const address = parseAddress(v.address, `${field}.address`);
  const power = toInteger(v.power, `${field}.power`);
  const m: Member = { address, power, proposerPriority: 0n };
  if (v.id !== undefined) m.id = toInteger(v.id, `${field}.id`);
  return m;
}

function toInteger(value: unknown, field: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw new InputError(field, `expected an integer, got ${typeof value === 'number' ? value : typeof value}`);
}

function byAddress(a: Member, b: Member): number {
  return compareAddresses(a.address, b.address);
}

function sumPowers(members: readonly Member[]): bigint {
  let t = 0n;
  for (const m of members) t += m.power;
  return t;
}

function snapshot(m: Member): SetValidator {
  const s: { address: Address; power: bigint; proposerPriority: bigint; id?: bigint } = {
    address: m.address,
    power: m.power,
    proposerPriority: m.proposerPriority,
  };
  if (m.id !== undefined) s.id = m.id;
  return s;
}

function describeMember(m: Member): string {
  return `Validator{${m.address} VP:${m.power}${m.id === undefined ? '' : ` ID:${m.id}`}}`;
}

function describeList(ms: readonly Member[]): string {
  return `[${ms.map(describeMember).join(' ')}]`;
}

function memberToJSON(m: Member): SetValidatorJSON {
  const j: SetValidatorJSON = {
    address: m.address,
    power: m.power.toString(),
    proposerPriority: m.proposerPriority.toString(),
  };
  if (m.id !== undefined) j.id = m.id.toString();
  return j;
}

const UINT_RE = /^(0|[1-9][0-9]*)$/;
const INT_RE = /^(0|-?[1-9][0-9]*)$/;

function memberFromJSON(value: unknown, field: string): Member {
  if (typeof value !== 'object' || value === null) throw new InputError(field, 'expected an object');
  const v = value as Record<string, unknown>;
  const address = parseAddress(v.address, `${field}.address`);
  const power = decimal(v.power, `${field}.power`, UINT_RE, INT64_MAX);
  const proposerPriority = decimal(v.proposerPriority, `${field}.proposerPriority`, INT_RE, INT64_MAX);
  const m: Member = { address, power, proposerPriority };
  if (v.id !== undefined) m.id = decimal(v.id, `${field}.id`, UINT_RE, (1n << 64n) - 1n);
  return m;
}

function decimal(value: unknown, field: string, re: RegExp, max: bigint): bigint {
  if (typeof value !== 'string' || !re.test(value)) throw new InputError(field, 'expected a decimal integer string');
  const n = BigInt(value);
  if (n > max || n < INT64_MIN) throw new InputError(field, `out of range: ${n}`);
  return n;
}
