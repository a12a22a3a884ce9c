/**
 * The key-value store every module keeps its state in.
 *
 * Keys are strings (module prefix + canonical id, e.g. `staking/validator/0000000000000007`), values
 * are immutable JSON-compatible values. `branch()` gives a copy-on-write view: handlers run on a
 * branch, and the branch is committed into its parent only when the handler succeeds, so a failed
 * transaction leaves no partial writes. Iteration is in key order (code units; keys are ASCII).
 *
 * The app hash is a keccak over every (key, value) in key order; values are hashed once and the
 * per-key digest is cached until the key is written again.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { canonicalJson } from '../core/canonicalJson';
import { toHex, type Hex } from '../core/bytes';
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
  /** Drop every change. */
  discard(): void;
}

/** The root store: the committed state of one node. */
export class MemoryStore implements KVStore {
  private readonly data = new Map<string, StoreValue>();
  private sortedKeys: string[] | null = [];
  private readonly digests = new Map<string, Uint8Array>();

  get<T = StoreValue>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }

  has(key: string): boolean {
    return this.data.has(key);
  }

  set(key: string, value: StoreValue): void {
    assert(value !== undefined, 'store values are never undefined; use delete', { key });
    if (!this.data.has(key)) this.sortedKeys = null;
    this.data.set(key, value);
    this.digests.delete(key);
  }

  delete(key: string): void {
    if (this.data.delete(key)) this.sortedKeys = null;
    this.digests.delete(key);
  }

  private keys(): string[] {
    if (this.sortedKeys === null) this.sortedKeys = [...this.data.keys()].sort(compareStrings);
    return this.sortedKeys;
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

  /** keccak over `key ‖ 0x00 ‖ keccak(canonicalJson(value))` for every key in order. */
  hash(): Hex {
    const h = keccak_256.create();
    const enc = new TextEncoder();
    const sep = new Uint8Array([0]);
    for (const k of this.keys()) {
      let d = this.digests.get(k);
      if (d === undefined) {
        d = keccak_256(enc.encode(canonicalJson(this.data.get(k))));
        this.digests.set(k, d);
      }
      h.update(enc.encode(k));
      h.update(sep);
      h.update(d);
    }
    return toHex(h.digest());
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
    }
    this.done = true;
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
