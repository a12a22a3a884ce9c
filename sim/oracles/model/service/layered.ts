/**
 * A table of immutable values by string key with branches: a transaction reads through to its
 * block and the block to the committed state, writes stay in its own layer, and a branch is
 * committed into its parent or dropped. That is how the model runs a transaction that may be
 * refused (nothing it wrote survives) without copying the whole state for each.
 */
const GONE = Symbol('deleted');

export class Layered<V> {
  private readonly own = new Map<string, V | typeof GONE>();

  constructor(private readonly parent: Layered<V> | null = null) {}

  get(key: string): V | undefined {
    const v = this.own.get(key);
    if (v === GONE) return undefined;
    if (v !== undefined) return v;
    return this.parent?.get(key);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, value: V): void {
    this.own.set(key, value);
  }

  delete(key: string): void {
    this.own.set(key, GONE);
  }

  /** Every live entry, in key order (string order). */
  entries(): Array<[string, V]> {
    const all = new Map<string, V>();
    this.collect(all);
    return [...all.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  private collect(into: Map<string, V>): void {
    this.parent?.collect(into);
    for (const [k, v] of this.own) {
      if (v === GONE) into.delete(k);
      else into.set(k, v);
    }
  }

  values(): V[] {
    return this.entries().map(([, v]) => v);
  }

  /**
   * The live value with the smallest key among those `pred` accepts: what `entries().find` gives,
   * without building and sorting every entry (a lookup by a field other than the key, asked many
   * times per block and per query).
   */
  findFirst(pred: (v: V) => boolean): V | undefined {
    let bestKey: string | undefined;
    let best: V | undefined;
    for (let layer: Layered<V> | null = this; layer !== null; layer = layer.parent)
      for (const [k, v] of layer.own) {
        if (v === GONE || (bestKey !== undefined && k >= bestKey) || !pred(v) || this.shadows(layer, k)) continue;
        bestKey = k;
        best = v;
      }
    return best;
  }

  /** Whether a layer above `layer` (from this one down) wrote `key`: `layer`'s entry for it is not live. */
  private shadows(layer: Layered<V>, key: string): boolean {
    for (let l: Layered<V> | null = this; l !== null && l !== layer; l = l.parent) if (l.own.has(key)) return true;
    return false;
  }

  /** Keys written in this layer (set or deleted). */
  written(): string[] {
    return [...this.own.keys()];
  }

  branch(): Layered<V> {
    return new Layered(this);
  }

  /** Move this layer's writes into its parent. */
  commit(): void {
    if (this.parent === null) throw new Error('a root table has nothing to commit into');
    for (const [k, v] of this.own) this.parent.own.set(k, v);
    this.own.clear();
  }

  /** The value a key had in the parent (before this layer's writes). */
  before(key: string): V | undefined {
    return this.parent?.get(key);
  }
}
