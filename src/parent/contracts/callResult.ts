/**
 * What a contract call returns, and the `require`/revert discipline that keeps failed calls free of
 * side effects.
 *
 * A contract method first reads and checks every argument and precondition (any failure throws a
 * Revert), and only then mutates state and builds its logs. `execute` turns a Revert into
 * `{ ok: false, error }`; since nothing was written before the throw, a failed call changes nothing,
 * as a reverted EVM transaction. Anything other than a Revert is a bug and propagates.
 */
import { type Address } from '../../core/address';
import { type Hex, isHex } from '../../core/bytes';
import { UINT256_MAX } from '../../core/amount';
import { publicKeyBytes, addressOfPublicKey } from '../../core/secp256k1';
import { secp256k1 } from '@noble/curves/secp256k1.js';

/** A log as the contract emits it; the chain adds its position (logIndex, tx, block). */
export interface ContractLog {
  address: Address;
  topics: Hex[];
  data: Hex;
}

export type CallResult = { ok: true; logs: ContractLog[] } | { ok: false; error: string };

/** A failed `require`: the call is rejected with this message and nothing changes. */
export class Revert extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Revert';
  }
}

export function require_(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Revert(message);
}

export function execute(body: () => ContractLog[]): CallResult {
  try {
    return { ok: true, logs: body() };
  } catch (e) {
    if (e instanceof Revert) return { ok: false, error: e.message };
    throw e;
  }
}

// --- argument readers: calls can come from scenario files, so types are checked at run time ------

/** An address in any case, returned lower-case. */
export function argAddress(value: unknown, field: string): Address {
  require_(typeof value === 'string' && /^0[xX][0-9a-fA-F]{40}$/.test(value), `invalid ${field}`);
  return value.toLowerCase() as Address;
}

/** A uint256 (a bigint in [0, 2^256)). */
export function argUint(value: unknown, field: string): bigint {
  require_(typeof value === 'bigint' && value >= 0n && value <= UINT256_MAX, `invalid ${field}`);
  return value;
}

/** `0x` hex, optionally of an exact byte length, returned lower-case. */
export function argHex(value: unknown, field: string, length?: number): Hex {
  require_(isHex(value), `invalid ${field}`);
  require_(length === undefined || value.length === 2 + 2 * length, `invalid ${field}: expected ${length} bytes`);
  return value.toLowerCase() as Hex;
}

/**
 * A signer public key: the project's 65-byte uncompressed form (0x04 ‖ X ‖ Y), on the curve.
 * The curve check is stricter than the Solidity contract (which only hashes 64 bytes), because a key
 * that is not a point has an address nobody can sign for and the service would refuse to join it.
 */
export function argSignerPubkey(value: unknown, field = 'signer pubkey'): { pubkey: Hex; signer: Address } {
  const hex = argHex(value, field, 65);
  let ok = false;
  try {
    secp256k1.Point.fromBytes(publicKeyBytes(hex, field));
    ok = true;
  } catch {
    ok = false;
  }
  require_(ok, `invalid ${field}: not an uncompressed secp256k1 public key`);
  return { pubkey: hex, signer: addressOfPublicKey(hex) };
}
