/**
 * The oracles' own model of Tendermint v0.32 proposer priorities, written from the reference's
 * pseudo-code (heimdall.md §4.4; sidechain.md §2.3 for Bor's sprint rotation), not from the code
 * it checks. It answers one question: who is the proposer after a given history of increments and
 * membership changes. Checked against the public vectors in proposerPriority.test.ts.
 *
 * Go's arithmetic, as the reference spells it out: RescalePriorities divides with truncation
 * toward zero, the average is a floor division (big.Int.Div), adds and subs saturate at int64.
 */

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
const WINDOW_FACTOR = 2n;

interface Member {
  address: string;
  power: bigint;
  priority: bigint;
}

const clip = (v: bigint): bigint => (v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : v);

/** Floor division for a positive divisor (Euclidean, as big.Int.Div). */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

/** Byte order of two 0x addresses (equal length, compared lower-case). */
function byAddress(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export class PrioritySet {
  private members: Member[] = [];
  /** The proposer the last increment picked (kept through membership changes, as stored). */
  private picked: string | null = null;
  /** Its power and priority when it was picked: the stored proposer is a copy of that moment. */
  private pickedAs: { power: bigint; priority: bigint } | null = null;

  /** `NewValidatorSet`: everyone enters through the change-set path, then one increment. */
  static create(validators: ReadonlyArray<{ address: string; power: bigint }>): PrioritySet {
    const s = new PrioritySet();
    s.update(validators);
    s.increment(1);
    return s;
  }

  /** A set as stored: its members with their priorities, and the stored proposer. */
  static restore(
    members: ReadonlyArray<{ address: string; power: bigint; priority: bigint }>,
    proposer: { address: string; power: bigint; priority: bigint } | null,
  ): PrioritySet {
    const s = new PrioritySet();
    s.members = members
      .map((m) => ({ address: m.address.toLowerCase(), power: m.power, priority: m.priority }))
      .sort((x, y) => byAddress(x.address, y.address));
    s.picked = proposer === null ? null : proposer.address.toLowerCase();
    s.pickedAs = proposer === null ? null : { power: proposer.power, priority: proposer.priority };
    return s;
  }

  /** The stored proposer as a copy of the moment it was picked (or the highest priority now). */
  get proposerSnapshot(): { address: string; power: bigint; priority: bigint } | null {
    if (this.picked !== null && this.pickedAs !== null) return { address: this.picked, ...this.pickedAs };
    const p = this.proposer;
    const m = p === null ? undefined : this.members.find((x) => x.address === p);
    return m ? { address: m.address, power: m.power, priority: m.priority } : null;
  }

  copy(): PrioritySet {
    const s = new PrioritySet();
    s.members = this.members.map((m) => ({ ...m }));
    s.picked = this.picked;
    s.pickedAs = this.pickedAs;
    return s;
  }

  get size(): number {
    return this.members.length;
  }

  get total(): bigint {
    let t = 0n;
    for (const m of this.members) t += m.power;
    return t;
  }

  /** `GetProposer`: the stored pick, else the highest priority (ties to the smaller address). */
  get proposer(): string | null {
    if (this.picked !== null) return this.picked;
    return this.members.length ? this.most().address : null;
  }

  /** Address-sorted members with their powers and priorities. */
  get validators(): ReadonlyArray<Readonly<Member>> {
    return this.members;
  }

  indexOf(address: string): number {
    const a = address.toLowerCase();
    return this.members.findIndex((m) => m.address === a);
  }

  powerOf(address: string): bigint {
    return this.members[this.indexOf(address)]?.power ?? 0n;
  }

  /**
   * `UpdateWithChangeSet`: power 0 removes, a known address takes the new power and keeps its
   * priority, a new one enters at -(T + T>>3) where T is the total after the additions and updates
   * but before the removals; then rescale to 2T and centre. An empty change set changes nothing.
   * The stored proposer is not touched.
   */
  update(changes: ReadonlyArray<{ address: string; power: bigint }>): void {
    if (changes.length === 0) return;
    const list = changes
      .map((c) => ({ address: c.address.toLowerCase(), power: c.power }))
      .sort((x, y) => byAddress(x.address, y.address));
    for (let i = 1; i < list.length; i++)
      if (list[i]!.address === list[i - 1]!.address) throw new Error(`duplicate change for ${list[i]!.address}`);
    let newTotal = this.total;
    for (const c of list) {
      if (c.power < 0n) throw new Error(`negative power for ${c.address}`);
      if (c.power === 0n) {
        if (this.indexOf(c.address) < 0) throw new Error(`cannot remove unknown ${c.address}`);
        continue;
      }
      const i = this.indexOf(c.address);
      newTotal += i < 0 ? c.power : c.power - this.members[i]!.power;
    }
    const newcomer = -(newTotal + (newTotal >> 3n));
    const next = new Map(this.members.map((m) => [m.address, { ...m }]));
    for (const c of list) {
      if (c.power === 0n) next.delete(c.address);
      else {
        const old = next.get(c.address);
        next.set(c.address, { address: c.address, power: c.power, priority: old ? old.priority : newcomer });
      }
    }
    if (next.size === 0) throw new Error('the change set would empty the set');
    this.members = [...next.values()].sort((x, y) => byAddress(x.address, y.address));
    this.rescale(WINDOW_FACTOR * this.total);
    this.centre();
  }

  /** `IncrementProposerPriority(times)`: rescale to 2T, centre, then `times` rounds. */
  increment(times: number): void {
    if (times <= 0 || this.members.length === 0) return;
    this.rescale(WINDOW_FACTOR * this.total);
    this.centre();
    let last: Member | null = null;
    for (let i = 0; i < times; i++) last = this.round();
    this.picked = last!.address;
    this.pickedAs = { power: last!.power, priority: last!.priority };
  }

  private rescale(diffMax: bigint): void {
    if (diffMax <= 0n) return;
    let max = INT64_MIN;
    let min = INT64_MAX;
    for (const m of this.members) {
      if (m.priority > max) max = m.priority;
      if (m.priority < min) min = m.priority;
    }
    const diff = max - min;
    if (diff <= diffMax) return;
    const ratio = (diff + diffMax - 1n) / diffMax;
    for (const m of this.members) m.priority = m.priority / ratio;
  }

  private centre(): void {
    let sum = 0n;
    for (const m of this.members) sum += m.priority;
    const avg = floorDiv(sum, BigInt(this.members.length));
    for (const m of this.members) m.priority = clip(m.priority - avg);
  }

  private round(): Member {
    const total = this.total;
    for (const m of this.members) m.priority = clip(m.priority + m.power);
    const most = this.most();
    most.priority = clip(most.priority - total);
    return most;
  }

  private most(): Member {
    let best = this.members[0]!;
    for (const m of this.members) if (m.priority > best.priority) best = m;
    return best;
  }
}
