/**
 * The spec's hash rules ("Hash rules" 1-4), with the gaps filled as the reference README says
 * (items 11-13): pad32 for every appended value, the zero-padded keccak Merkle tree, account
 * leaves ordered by validator id.
 */
import { boundedMemo } from './memo';
import { type Bytes, concatBytes, toBytes } from './bytes';
import { pad32, parseUint } from './amount';
import { keccak256Bytes } from './hash';
import { merkleRootBytes } from './merkle';
import { compareBig } from './order';

export interface SidechainHeaderFields {
  number: bigint | number;
  time: bigint | number;
  txHash: Uint8Array | string;
  receiptHash: Uint8Array | string;
}

/** Rule 1: keccak256(pad32(number) ‖ pad32(time) ‖ txHash ‖ receiptHash). */
export function sidechainBlockHashBytes(h: SidechainHeaderFields): Bytes {
  return keccak256Bytes(
    concatBytes(
      pad32(parseUint(h.number, 'number')),
      pad32(parseUint(h.time, 'time')),
      toBytes(h.txHash, 'txHash', 32),
      toBytes(h.receiptHash, 'receiptHash', 32),
    ),
  );
}

/** Rule 2: the Merkle root over the block hashes of the headers, in the given (block) order. */
export function checkpointRootHashBytes(headers: readonly SidechainHeaderFields[]): Bytes {
  // Every validator of a simulation computes the root of the same checkpoint range: the roots
  // of headers given as bigints and hex are remembered per process by their fields.
  const key = rootKey(headers);
  if (key !== null) {
    const hit = rootCache.get(key);
    if (hit !== undefined) return hit.slice();
  }
  const root = merkleRootBytes(headers.map(sidechainBlockHashBytes));
  if (key !== null) rootCache.set(key, root.slice());
  return root;
}

const rootCache = boundedMemo<string, Bytes>('hashRules.checkpointRoots', 256);

function rootKey(headers: readonly SidechainHeaderFields[]): string | null {
  let key = '';
  for (const h of headers) {
    if (
      typeof h.number !== 'bigint' ||
      typeof h.time !== 'bigint' ||
      typeof h.txHash !== 'string' ||
      typeof h.receiptHash !== 'string'
    )
      return null;
    key += `${h.number}|${h.time}|${h.txHash}|${h.receiptHash};`;
  }
  return key;
}

export interface DividendAccountFields {
  id: bigint | number | string;
  feeAmount: bigint | number | string;
  slashedAmount: bigint | number | string;
}

/** Rule 3: keccak256(pad32(id) ‖ pad32(feeAmount) ‖ pad32(slashedAmount)); amounts parsed from decimal. */
export function dividendAccountHashBytes(a: DividendAccountFields): Bytes {
  return keccak256Bytes(
    concatBytes(
      pad32(parseUint(a.id, 'id')),
      pad32(parseUint(a.feeAmount, 'feeAmount')),
      pad32(parseUint(a.slashedAmount, 'slashedAmount')),
    ),
  );
}

/** Rule 4: the Merkle root over every validator's account hash, ordered by validator id. */
export function accountRootHashBytes(accounts: readonly DividendAccountFields[]): Bytes {
  const sorted = accounts.map((a) => ({ id: parseUint(a.id, 'id'), a })).sort((x, y) => compareBig(x.id, y.id));
  return merkleRootBytes(sorted.map((x) => dividendAccountHashBytes(x.a)));
}
