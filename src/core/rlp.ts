/**
 * RLP over bytes, for the hashes the project computes itself (sidechain headers, transaction and
 * receipt roots, the accounts root, a block's size). The encoder is @ethereumjs/rlp's: it works on
 * Uint8Arrays end to end, where ethers' `encodeRlp` builds a hex string through arrays of numbers
 * (about 9x the time and tens of kilobytes of garbage per header). ethers still encodes the
 * transactions it signs.
 *
 * Only bytes and lists of them go in: the library would also read strings (hex or UTF-8) and
 * numbers, and which one a string means is a guess this project never wants it to make.
 */
import { RLP } from '@ethereumjs/rlp';

export type RlpItem = Uint8Array | readonly RlpItem[];

/** The RLP encoding of `item`. */
export function rlpEncode(item: RlpItem): Uint8Array {
  return RLP.encode(item as Parameters<typeof RLP.encode>[0]);
}

/** The item an RLP encoding holds (throws on malformed input; callers pass their own encodings). */
export function rlpDecode(encoded: Uint8Array): RlpItem {
  return RLP.decode(encoded);
}
