/**
 * The 2048-bit logs bloom of a receipt (Ethereum yellow paper §4.3.1, geth `types.CreateBloom`):
 * for the address and every topic of every log, three bits chosen by the first three 16-bit pairs
 * of its keccak256 hash, each modulo 2048, numbered from the last byte. A receipt's JSON carries it
 * as `logsBloom`, and a block header over its transfers' logs; Bor recomputes it from the logs when it
 * reads the state-sync receipt (whose logs no header bloom covers).
 */
import { type Hex, fromHex, toHex } from '../core/bytes';
import { keccak256Bytes } from '../core/hash';

export const BLOOM_BYTES = 256;

function addToBloom(bloom: Uint8Array, value: Hex): void {
  const h = keccak256Bytes(fromHex(value));
  for (let i = 0; i < 6; i += 2) {
    const bit = ((h[i]! << 8) | h[i + 1]!) & 2047;
    const byte = BLOOM_BYTES - 1 - (bit >> 3);
    bloom[byte] = (bloom[byte] ?? 0) | (1 << (bit & 7));
  }
}

export function logsBloom(logs: ReadonlyArray<{ address: Hex; topics: readonly Hex[] }>): Hex {
  const bloom = new Uint8Array(BLOOM_BYTES);
  for (const log of logs) {
    addToBloom(bloom, log.address);
    for (const t of log.topics) addToBloom(bloom, t);
  }
  return toHex(bloom);
}
