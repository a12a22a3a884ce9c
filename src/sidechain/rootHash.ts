/**
 * The checkpoint root the sidechain reports (`bor_getRootHash`, sidechain.md §4.2; spec hash rules
 * 1-2 through core's `checkpointRootHashBytes`).
 *
 * The result is hex without `0x`, because that is what Bor returns and what the service compares
 * byte-for-byte with a proposed checkpoint's root.
 */
import { toBareHex } from '../core/bytes';
import { UINT64_MAX, parseUint64 } from '../core/amount';
import { type Result, type ResultError, fail, ok } from '../core/errors';
import { checkpointRootHashBytes, type SidechainHeaderFields } from '../core/hashRules';

/** Bor `MaxCheckpointLength`: 2^15 blocks. */
export const MAX_CHECKPOINT_LENGTH = 1n << 15n;

/** geth's JSON-RPC code for a handler error; the RPC adapter passes code and message through. */
export const ROOT_HASH_ERROR_CODE = -32000;

/** The Merkle root over the headers' checkpoint leaves, in the given (block) order, without 0x. */
export function sidechainRootHash(headers: readonly SidechainHeaderFields[]): string {
  return toBareHex(checkpointRootHashBytes(headers));
}

/** What `rootHashOf` needs from a node's canonical chain. */
export interface RootHashChainView {
  headNumber(): bigint;
  /** The canonical header at `number`, or undefined if the node does not have it. */
  headerByNumber(number: bigint): SidechainHeaderFields | undefined;
}

/**
 * Bor `GetRootHash(start, end)` with its checks in its order, including its uint64 quirk: the length
 * `end - start + 1` wraps, so `start >= end + 2` reports the length error, not the start/end one.
 * Bor's 10-entry result cache is left out: it only saves work (and would answer a stale root after a
 * reorg below `end`).
 */
export function rootHashOf(chain: RootHashChainView, start: bigint | number, end: bigint | number): Result<string> {
  const s = parseUint64(start, 'start');
  const e = parseUint64(end, 'end');
  const length = (e - s + 1n) & UINT64_MAX;
  if (length > MAX_CHECKPOINT_LENGTH) {
    return fail(
      rootHashError(`Start: ${s} and end block: ${e} exceed max allowed checkpoint length: ${MAX_CHECKPOINT_LENGTH}`),
    );
  }
  if (s > e || e > chain.headNumber()) {
    return fail(rootHashError(`Invalid parameters start: ${s} and end block: ${e} params`));
  }
  const headers: SidechainHeaderFields[] = [];
  for (let n = s; n <= e; n++) {
    const h = chain.headerByNumber(n);
    if (h === undefined) return fail(rootHashError('unknown block'));
    headers.push(h);
  }
  return ok(sidechainRootHash(headers));
}

function rootHashError(message: string): ResultError {
  return { codespace: 'jsonrpc', code: ROOT_HASH_ERROR_CODE, message };
}
