/**
 * The oracle's own logs bloom, written from the yellow paper (§4.3.1, the bloom function M) and
 * geth's `types.CreateBloom` / `bloom9`, not from the sidechain's code:
 *
 * - the bloom is a 2048-bit number; every log puts in its address (20 bytes) and each of its topics
 *   (32 bytes), each item on its own, never the data;
 * - an item sets three bits: keccak256(item)'s bytes 0-1, 2-3 and 4-5, each read as a big-endian
 *   16-bit number, keep their low 11 bits (0..2047), and that is the number of the bit to set;
 * - the header carries the number as 256 big-endian bytes: bit 0 is the lowest bit of the LAST byte.
 *
 * Written as one bigint of 2048 bits rather than as byte arithmetic on purpose: it is the paper's
 * reading, and it cannot share an indexing slip with code that computes byte offsets.
 */
import { fromHex } from '../../../src/core/bytes';
import { keccak256Raw } from '../../../src/core/hash';

export const BLOOM_BITS = 2048;
/** The bloom of no logs: 256 zero bytes. */
export const EMPTY_BLOOM = `0x${'00'.repeat(BLOOM_BITS / 8)}` as const;

/** A log as the bloom reads it: only its address and topics. */
export interface BloomLog {
  readonly address: string;
  readonly topics: readonly string[];
}

/** The three bit numbers one item sets (0..2047). */
export function bloomBits(item: Uint8Array): [number, number, number] {
  const h = keccak256Raw(item);
  const pair = (i: number) => (h[i]! * 256 + h[i + 1]!) % BLOOM_BITS;
  return [pair(0), pair(2), pair(4)];
}

/** The bloom of raw items (geth's `Bloom.Add` of each), as 0x and 512 hex digits. */
export function bloomOfItems(items: Iterable<Uint8Array>): `0x${string}` {
  let bits = 0n;
  for (const item of items) for (const k of bloomBits(item)) bits |= 1n << BigInt(k);
  return `0x${bits.toString(16).padStart(BLOOM_BITS / 4, '0')}`;
}

/** The bloom of logs: every address and every topic (a receipt's `logsBloom`, a header's over its receipts). */
export function logsBloom(logs: readonly BloomLog[]): `0x${string}` {
  if (logs.length === 0) return EMPTY_BLOOM;
  const items: Uint8Array[] = [];
  for (const l of logs) {
    items.push(fromHex(l.address, 'log.address'));
    for (const t of l.topics) items.push(fromHex(t, 'log.topic'));
  }
  return bloomOfItems(items);
}

/** Where two blooms first differ: the byte (0 = the first of the 256, as written) and both values, or null. */
export function firstDifferingByte(
  expected: string,
  got: string,
): { byte: number; expected: string; got: string } | null {
  const e = expected.toLowerCase().replace(/^0x/, '');
  const g = got.toLowerCase().replace(/^0x/, '');
  if (e === g) return null;
  const bytes = Math.ceil(Math.max(e.length, g.length) / 2);
  for (let i = 0; i < bytes; i++) {
    const a = e.slice(2 * i, 2 * i + 2);
    const b = g.slice(2 * i, 2 * i + 2);
    if (a !== b) return { byte: i, expected: a === '' ? 'none' : `0x${a}`, got: b === '' ? 'none' : `0x${b}` };
  }
  return null;
}
