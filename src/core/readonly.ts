/**
 * A value shared by reference between nodes, runs or caches, typed so that no holder can change
 * it: every property read-only, all the way down. Byte arrays and functions are left as they are
 * (TypeScript cannot make a Uint8Array read-only; code that hands cached bytes out copies them).
 */
export type DeepReadonly<T> = T extends Uint8Array | ((...args: never[]) => unknown)
  ? T
  : T extends ReadonlyArray<infer E>
    ? ReadonlyArray<DeepReadonly<E>>
    : T extends ReadonlyMap<infer K, infer V>
      ? ReadonlyMap<K, DeepReadonly<V>>
      : T extends object
        ? { readonly [P in keyof T]: DeepReadonly<T[P]> }
        : T;
