/**
 * The key-value store every module keeps its state in.
 *
 * Keys are strings (module prefix + canonical id, e.g. `staking/validator/0000000000000007`), values
 * are immutable JSON-compatible values. `branch()` gives a copy-on-write view: handlers run on a
 * branch, and the branch is committed into its parent only when the handler succeeds, so a failed
 * transaction leaves no partial writes. Iteration is in key order (code units; keys are ASCII).
 *
 * The app hash is canonical and incremental: keys fall into 256 buckets (FNV-1a of the key), a
 * bucket's hash is keccak over its (key, keccak(canonical value)) pairs in key order, 16 groups of
 * 16 buckets are hashed over their bucket hashes, and the app hash is keccak over the 16 group
 * hashes. A commit re-hashes only the buckets and groups it touched (keccak in JavaScript runs at
 * some 12 MB/s, so hashing 8 KiB of bucket hashes at every commit would dominate a run).
 */
import { boundedMemo } from '../core/memo';
import { keccak256Raw as keccak_256 } from '../core/hash';
import { canonicalJson } from '../core/canonicalJson';
import { latin1Key, toHex, type Hex } from '../core/bytes';
import { assert } from '../core/errors';
import { compareStrings } from '../core/order';

export type StoreValue = unknown;

const DELETED: unique symbol = Symbol('deleted');
type Slot = StoreValue | typeof DELETED;

export interface KVReader {
  get<T = StoreValue>(key: string): T | undefined;
  has(key: string): boolean;
  /** Entries whose key starts with `prefix`, in key order. */
  iterate<T = StoreValue>(prefix: string): Array<[string, T]>;
}

export interface KVStore extends KVReader {
  set(key: string, value: StoreValue): void;
  delete(key: string): void;
  /** A copy-on-write child; writes reach this store only through `commit()`. */
  branch(): Branch;
}

export interface Branch extends KVStore {
  /** Write every change into the parent. A branch may be committed once. */
  commit(): void;
  /** The changes it holds, in write order: a value, or undefined for a delete. */
  changes(): StoreWrites;
  /** Drop every change. */
  discard(): void;
}

/** Writes to replay on a store: key and value, or undefined for a delete. */
export type StoreWrites = ReadonlyArray<readonly [string, StoreValue | undefined]>;

/**
 * What one `hash()` re-computed: the hashes of the buckets and groups the writes since the last
 * call touched, and the value digests it computed. A store in the same state that receives the same
 * writes reaches the same hashes, so it can adopt them instead (see `adopt`).
 */
export interface HashDelta {
  readonly buckets: ReadonlyArray<readonly [number, Uint8Array]>;
  readonly groups: ReadonlyArray<readonly [number, Uint8Array]>;
  readonly digests: ReadonlyArray<readonly [string, Uint8Array]>;
  /** The hash it returned. */
  readonly top: Hex;
}

/** The root store: the committed state of one node. */
const BUCKETS = 256;
const GROUP = 16;
const EMPTY_BUCKET = new Uint8Array(32);

/** FNV-1a over the key's UTF-16 code units, folded to a bucket index. */
function bucketOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h ^ (h >>> 8) ^ (h >>> 16) ^ (h >>> 24)) & (BUCKETS - 1);
}

const ENCODER = new TextEncoder();

/**
 * Every node of a simulation holds (nearly) the same state and hashes the same values and the
 * same group lists after each block: those hashes are shared by the stores of one process, keyed
 * by their input (a pure function, so sharing never changes a result). The digests are shared
 * bytes: never written to.
 */
const sharedValueDigests = boundedMemo<string, Uint8Array>('kvStore.valueDigests', 4096);
const sharedHashes = boundedMemo<string, Uint8Array>('kvStore.bucketHashes', 4096);

/** keccak of a value's canonical JSON. */
function valueDigest(json: string): Uint8Array {
  return sharedValueDigests.getOrCompute(json, () => keccak_256(ENCODER.encode(json)));
}

/** keccak of a bucket's entries or of a list of hashes (a group, the top), looked up by its bytes (one char per byte). */
function sharedKeccak(buf: Uint8Array): Uint8Array {
  return sharedHashes.getOrCompute(latin1Key(buf), () => keccak_256(buf));
}

export class MemoryStore implements KVStore {
  private readonly data = new Map<string, StoreValue>();
  /**
   * The keys in order, as of the last `keys()`, plus the keys added and deleted since: a block
   * adds a few keys to a store of thousands, and iterating a prefix must not sort them all again.
   */
  private sortedKeys: string[] = [];
  private readonly keysAdded = new Set<string>();
  private readonly keysDeleted = new Set<string>();
  private readonly digests = new Map<string, Uint8Array>();
  private readonly buckets: Array<Set<string>> = Array.from({ length: BUCKETS }, () => new Set());
  private readonly bucketHashes: Uint8Array[] = Array.from({ length: BUCKETS }, () => EMPTY_BUCKET);
  private readonly dirty = new Set<number>();
  private readonly groupHashes: Uint8Array[] = Array.from({ length: BUCKETS / GROUP }, () => EMPTY_BUCKET);

  get<T = StoreValue>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }

  has(key: string): boolean {
    return this.data.has(key);
  }

  set(key: string, value: StoreValue): void {
    assert(value !== undefined, 'store values are never undefined; use delete', { key });
    const b = bucketOf(key);
    if (!this.data.has(key)) {
      // Deleted and written again since the last sort: it is still in sortedKeys.
      if (!this.keysDeleted.delete(key)) this.keysAdded.add(key);
      this.buckets[b]!.add(key);
    }
    this.data.set(key, value);
    this.digests.delete(key);
    this.dirty.add(b);
  }

  delete(key: string): void {
    if (this.data.delete(key)) {
      if (!this.keysAdded.delete(key)) this.keysDeleted.add(key);
      const b = bucketOf(key);
      this.buckets[b]!.delete(key);
      this.dirty.add(b);
    }
    this.digests.delete(key);
  }

  private keys(): string[] {
    if (this.keysAdded.size === 0 && this.keysDeleted.size === 0) return this.sortedKeys;
    const deleted = this.keysDeleted;
    const kept = deleted.size === 0 ? this.sortedKeys : this.sortedKeys.filter((k) => !deleted.has(k));
    const added = [...this.keysAdded].sort(compareStrings);
    // Merge two sorted lists.
    const out: string[] = new Array(kept.length + added.length);
    let i = 0;
    let j = 0;
    let o = 0;
    while (i < kept.length && j < added.length)
      out[o++] = compareStrings(kept[i]!, added[j]!) < 0 ? kept[i++]! : added[j++]!;
    while (i < kept.length) out[o++] = kept[i++]!;
    while (j < added.length) out[o++] = added[j++]!;
    this.sortedKeys = out;
    this.keysAdded.clear();
    this.keysDeleted.clear();
    return out;
  }

  iterate<T = StoreValue>(prefix: string): Array<[string, T]> {
    const keys = this.keys();
    const out: Array<[string, T]> = [];
    for (let i = lowerBound(keys, prefix); i < keys.length; i++) {
      const k = keys[i]!;
      if (!k.startsWith(prefix)) break;
      out.push([k, this.data.get(k) as T]);
    }
    return out;
  }

  branch(): Branch {
    return new BranchStore(this);
  }

  get size(): number {
    return this.data.size;
  }

  /** The app hash: keccak over the group hashes; only buckets and groups written since the last call are re-hashed. */
  hash(): Hex {
    return this.rehash(null);
  }

  /** `hash()`, also returning what it re-computed (for stores that will receive the same writes). */
  hashWithDelta(): { hash: Hex; delta: HashDelta } {
    const parts = { buckets: [], groups: [], digests: [] };
    const hash = this.rehash(parts);
    return { hash, delta: { ...parts, top: hash } };
  }

  /**
   * Apply `writes` and take their hashes from `delta` instead of computing them. The caller
   * guarantees that this store holds exactly the state of the store that produced `delta` when it
   * received the same writes (the same app hash, and nothing written since its last hash).
   */
  adopt(writes: StoreWrites, delta: HashDelta): Hex {
    assert(this.dirty.size === 0, 'adopt: the store has writes since its last hash', { dirty: this.dirty.size });
    for (const [k, v] of writes) {
      if (v === undefined) this.delete(k);
      else this.set(k, v);
    }
    assert(
      this.dirty.size === delta.buckets.length && delta.buckets.every(([b]) => this.dirty.has(b)),
      'adopt: the writes touch other buckets than the delta',
      {
        dirty: this.dirty.size,
        delta: delta.buckets.length,
      },
    );
    for (const [b, h] of delta.buckets) this.bucketHashes[b] = h;
    for (const [g, h] of delta.groups) this.groupHashes[g] = h;
    for (const [k, d] of delta.digests) this.digests.set(k, d);
    this.dirty.clear();
    // Same groups, same top (the property test re-hashes adopted stores from scratch).
    return delta.top;
  }

  private rehash(
    delta: {
      buckets: Array<[number, Uint8Array]>;
      groups: Array<[number, Uint8Array]>;
      digests: Array<[string, Uint8Array]>;
    } | null,
  ): Hex {
    const dirtyGroups = new Set<number>();
    for (const b of this.dirty) {
      const keys = [...this.buckets[b]!].sort(compareStrings);
      dirtyGroups.add(Math.floor(b / GROUP));
      if (keys.length === 0) {
        this.bucketHashes[b] = EMPTY_BUCKET;
        continue;
      }
      // keccak(key ‖ 0 ‖ digest ‖ key ‖ 0 ‖ digest ‖ …) in one call over one buffer.
      const parts: Uint8Array[] = [];
      let length = 0;
      for (const k of keys) {
        let d = this.digests.get(k);
        if (d === undefined) {
          d = valueDigest(canonicalJson(this.data.get(k)));
          this.digests.set(k, d);
          delta?.digests.push([k, d]);
        }
        const kb = ENCODER.encode(k);
        parts.push(kb, d);
        length += kb.length + 1 + d.length;
      }
      const buf = new Uint8Array(length);
      let at = 0;
      for (let i = 0; i < parts.length; i += 2) {
        buf.set(parts[i]!, at);
        at += parts[i]!.length + 1; // the 0 separator is already there
        buf.set(parts[i + 1]!, at);
        at += parts[i + 1]!.length;
      }
      this.bucketHashes[b] = sharedKeccak(buf);
    }
    if (delta) for (const b of this.dirty) delta.buckets.push([b, this.bucketHashes[b]!]);
    this.dirty.clear();
    for (const g of dirtyGroups) {
      const buf = new Uint8Array(32 * GROUP);
      let empty = true;
      for (let i = 0; i < GROUP; i++) {
        const bh = this.bucketHashes[g * GROUP + i]!;
        if (bh !== EMPTY_BUCKET) empty = false;
        buf.set(bh, 32 * i);
      }
      // A group emptied by deletes must hash like one never written.
      this.groupHashes[g] = empty ? EMPTY_BUCKET : sharedKeccak(buf);
      delta?.groups.push([g, this.groupHashes[g]!]);
    }
    return this.topHash();
  }

  private topHash(): Hex {
    const top = new Uint8Array(32 * this.groupHashes.length);
    for (let i = 0; i < this.groupHashes.length; i++) top.set(this.groupHashes[i]!, 32 * i);
    return toHex(sharedKeccak(top));
  }

  /** Every entry in key order (for exports and snapshots). */
  entries(): Array<[string, StoreValue]> {
    return this.keys().map((k) => [k, this.data.get(k)]);
  }
}

class BranchStore implements Branch {
  private readonly writes = new Map<string, Slot>();
  private done = false;

  constructor(private readonly parent: KVStore) {}

  get<T = StoreValue>(key: string): T | undefined {
    this.live();
    const w = this.writes.get(key);
    if (w === DELETED) return undefined;
    if (w !== undefined) return w as T;
    return this.parent.get<T>(key);
  }

  has(key: string): boolean {
    this.live();
    const w = this.writes.get(key);
    if (w === DELETED) return false;
    return w !== undefined || this.parent.has(key);
  }

  set(key: string, value: StoreValue): void {
    this.live();
    assert(value !== undefined, 'store values are never undefined; use delete', { key });
    this.writes.set(key, value);
  }

  delete(key: string): void {
    this.live();
    this.writes.set(key, DELETED);
  }

  iterate<T = StoreValue>(prefix: string): Array<[string, T]> {
    this.live();
    const merged = new Map<string, T>(this.parent.iterate<T>(prefix));
    let added = false;
    for (const [k, v] of this.writes) {
      if (!k.startsWith(prefix)) continue;
      if (v === DELETED) merged.delete(k);
      else {
        if (!merged.has(k)) added = true;
        merged.set(k, v as T);
      }
    }
    const out = [...merged.entries()];
    if (added) out.sort((a, b) => compareStrings(a[0], b[0]));
    return out;
  }

  branch(): Branch {
    this.live();
    return new BranchStore(this);
  }

  commit(): void {
    this.live();
    for (const [k, v] of this.writes) {
      if (v === DELETED) this.parent.delete(k);
      else this.parent.set(k, v);
      // The write reads back from the store it went to (a parent that dropped it would lose a handler's write).
      if (this.parent.get(k) !== (v === DELETED ? undefined : v))
        assert(false, 'a committed write reads back from the store it went to', { key: k });
    }
    this.done = true;
  }

  changes(): StoreWrites {
    this.live();
    return [...this.writes].map(([k, v]) => [k, v === DELETED ? undefined : v] as const);
  }

  discard(): void {
    this.live();
    this.writes.clear();
    this.done = true;
  }

  private live(): void {
    assert(!this.done, 'a branch is used after it was committed or discarded');
  }
}

function lowerBound(sorted: string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Run `fn` on a branch of `store`: commit if it returns ok, discard otherwise. */
export function withBranch<R extends { ok: boolean }>(store: KVStore, fn: (branch: KVStore) => R): R {
  const b = store.branch();
  let result: R;
  try {
    result = fn(b);
  } catch (e) {
    b.discard();
    throw e;
  }
  if (result.ok) b.commit();
  else b.discard();
  return result;
}
