/**
 * 20-byte addresses: written as lower-case `0x` hex, parsed case-insensitively.
 * Everything hashed or listed by address uses the byte order of the address (Go `bytes.Compare`),
 * which for equal-length lower-case hex is the same as string order.
 */
import { type Bytes, fromHex, toHex, describe } from './bytes';
import { InputError } from './errors';

export type Address = `0x${string}`;

export const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000';

const ADDRESS_RE = /^0[xX][0-9a-fA-F]{40}$/;

export function isAddress(value: unknown): value is Address {
  return typeof value === 'string' && ADDRESS_RE.test(value) && value === value.toLowerCase();
}

/** Parse an address in any case; the error names the field and the bad value. */
export function parseAddress(value: unknown, field = 'address'): Address {
  if (typeof value !== 'string' || !ADDRESS_RE.test(value)) {
    throw new InputError(field, `not a 20-byte 0x-hex address: ${describe(value)}`);
  }
  return value.toLowerCase() as Address;
}

export function addressFromBytes(bytes: Uint8Array): Address {
  if (bytes.length !== 20) throw new InputError('address', `expected 20 bytes, got ${bytes.length}`);
  return toHex(bytes) as Address;
}

export function addressToBytes(address: Address): Bytes {
  return fromHex(address, 'address');
}

/** Byte order of two canonical (lower-case) addresses. */
export function compareAddresses(a: Address, b: Address): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
