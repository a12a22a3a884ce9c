/** Argument parsing shared by the modules' queries: uint64 ids, addresses, pages, replay checks. */
import { type Address, parseAddress, ZERO_ADDRESS } from '../../core/address';
import { parseUint64 } from '../../core/amount';
import { fromHex, type Hex } from '../../core/bytes';
import { type KVReader } from '../../store/kvStore';
import { failed, found, type QueryCtx, type QueryOutcome } from './query';

/** A decimal uint64, or null when it does not parse (the caller names the failure). */
export function uintArg(value: string | null | undefined): bigint | null {
  if (value === null || value === undefined) return null;
  try {
    return parseUint64(value, 'value');
  } catch {
    return null;
  }
}

export function notUint(s: string): QueryOutcome {
  return failed('badArgument', `'${s}' is not a valid uint64`);
}

/** A non-zero address, or null. */
export function addressArg(s: string): Address | null {
  try {
    const a = parseAddress(s);
    return a === ZERO_ADDRESS ? null : a;
  } catch {
    return null;
  }
}

/** `page` and `limit`, both required uint64s. */
export function pageArgs(q: QueryCtx): { page: bigint; limit: bigint } | QueryOutcome {
  const page = q.params.get('page');
  const limit = q.params.get('limit');
  if (page === null || limit === null) return failed('missingArgument', 'page and limit query params required');
  const p = uintArg(page);
  if (p === null) return notUint(page);
  const l = uintArg(limit);
  if (l === null) return notUint(limit);
  return { page: p, limit: l };
}

/** Page `page` (from 1) of `limit` items; null for page or limit 0 and for a page past the end. */
export function paged<T>(items: readonly T[], page: bigint, limit: bigint): T[] | null {
  if (page === 0n || limit === 0n) return null;
  const start = Number((page - 1n) * limit);
  const slice = items.slice(start, start + Number(limit));
  return slice.length ? slice : null;
}

/** `…/isoldtx?txhash=&logindex=`: whether the module has seen that parent-chain event. */
export function isOldTx(q: QueryCtx, seen: (s: KVReader, txHash: string, logIndex: bigint) => boolean): QueryOutcome {
  const txHash = q.params.get('txhash');
  const logIndex = q.params.get('logindex');
  if (txHash === null || logIndex === null)
    return failed('missingArgument', 'txhash and logindex query params required');
  let hash: Hex;
  try {
    const b = fromHex(txHash, 'txhash');
    if (b.length !== 32) return failed('badArgument', 'txhash: expected 32 bytes');
    hash = txHash.toLowerCase() as Hex;
  } catch (e) {
    return failed('badArgument', (e as Error).message);
  }
  const li = uintArg(logIndex);
  if (li === null) return notUint(logIndex);
  return found(seen(q.store, hash, li));
}
