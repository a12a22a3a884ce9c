/**
 * secp256k1 keys and Ethereum-style recoverable signatures, with libsecp256k1 (the `secp256k1`
 * package: bitcoin-core's C library, prebuilt for Node; it falls back to a JavaScript curve where no
 * binary fits). It signs about ten times and recovers about twenty times faster than a
 * JavaScript curve, and a real-crypto run is mostly signatures. Its answers are @noble/curves'
 * bit for bit (RFC 6979 nonces, the same refusals: secp256k1.native.prop.test.ts), and the
 * oracles' own models keep noble.
 *
 * - public key: 65-byte uncompressed `0x04 ‖ X ‖ Y`
 * - address: keccak256(pub[1:])[12:]
 * - signature over a 32-byte digest: 65 bytes `r ‖ s ‖ v`, v ∈ {0,1} (go-ethereum crypto.Sign);
 *   v = 27/28 is rejected, as in the reference.
 *
 * Recovery is the expensive step, so verified (digest, signature) pairs are cached per process.
 */
import { boundedMemo } from './memo';
import { type DeepReadonly } from './readonly';
import nativeSecp from 'secp256k1';
import { keccak256Raw as keccak_256 } from './hash';
import { type Bytes, type BytesLike, toBytes, toHex } from './bytes';
import { type Address, addressFromBytes } from './address';
import { InputError } from './errors';

export const SIGNATURE_LENGTH = 65;

export function privateKeyBytes(sk: BytesLike, field = 'privateKey'): Bytes {
  const bytes = toBytes(sk, field, 32);
  if (!nativeSecp.privateKeyVerify(bytes)) throw new InputError(field, 'not a valid secp256k1 private key');
  return bytes;
}

/**
 * Public keys by private key (hex): a run derives each of its keys several times (each domain's
 * setup, the fast scheme's registry), and a point multiplication costs about a millisecond.
 */
const publicKeys = boundedMemo<string, Bytes>('secp256k1.publicKeys', 4096);

export function publicKeyBytesFromPrivateKey(sk: BytesLike): Bytes {
  const bytes = privateKeyBytes(sk);
  return publicKeys.getOrCompute(toHex(bytes), () => nativeSecp.publicKeyCreate(bytes, false)).slice();
}

export function publicKeyBytes(pub: BytesLike, field = 'publicKey'): Bytes {
  const bytes = toBytes(pub, field, 65);
  if (bytes[0] !== 0x04) throw new InputError(field, 'uncompressed public key must start with 0x04');
  return bytes;
}

export function addressBytesFromPublicKey(pub: BytesLike): Bytes {
  return keccak_256(publicKeyBytes(pub).subarray(1)).subarray(12);
}

export function addressOfPublicKey(pub: BytesLike): Address {
  return addressFromBytes(addressBytesFromPublicKey(pub));
}

export function signDigestBytes(digest: BytesLike, sk: BytesLike): Bytes {
  const d = toBytes(digest, 'digest', 32);
  // Ethereum's signature is `r ‖ s ‖ v` (libsecp256k1 gives r ‖ s and the recovery id apart).
  const { signature, recid } = nativeSecp.ecdsaSign(d, privateKeyBytes(sk));
  const out = new Uint8Array(SIGNATURE_LENGTH);
  out.set(signature, 0);
  out[64] = recid;
  rememberSigned(d, out, sk);
  return out;
}

/** Recover the 65-byte public key, or throw an InputError (bad length, bad v, invalid point). */
export function recoverPublicKeyBytes(digest: BytesLike, signature: BytesLike): Bytes {
  const d = toBytes(digest, 'digest', 32);
  const sig = toBytes(signature, 'signature', SIGNATURE_LENGTH);
  const v = sig[64]!;
  if (v !== 0 && v !== 1) throw new InputError('signature', `recovery id must be 0 or 1, got ${v}`);
  try {
    return nativeSecp.ecdsaRecover(sig.subarray(0, 64), v, d, false);
  } catch (e) {
    throw new InputError('signature', `cannot recover a public key: ${(e as Error).message}`);
  }
}

// --- verified-signature cache --------------------------------------------------------------

interface Recovered {
  address: Address;
  publicKey: Bytes;
}
const recovered = boundedMemo<string, DeepReadonly<Recovered> | null>('secp256k1.recoveredSigners', 200_000);

/**
 * The signer address of `signature` over `digest`, or null when nothing can be recovered.
 * Results are cached per process by (digest, signature): a block's worth of transactions is
 * verified by every node of a simulation, and the answer never changes.
 */
export function recoverSignerCached(digest: Bytes, signature: Bytes): Address | null {
  return recoverCached(digest, signature)?.address ?? null;
}

/** Like recoverSignerCached, with the recovered 65-byte public key. */
export function recoverCached(digest: Bytes, signature: Bytes): DeepReadonly<Recovered> | null {
  return recovered.getOrCompute(toHex(digest) + toHex(signature).slice(2), () => {
    try {
      const publicKey = recoverPublicKeyBytes(digest, signature);
      return { address: addressFromBytes(keccak_256(publicKey.subarray(1)).subarray(12)), publicKey };
    } catch {
      return null;
    }
  });
}

/**
 * A signature made in this process recovers to its signer's key: the signer puts that answer in
 * the cache, so the nodes that receive it (every peer, in a simulation) never run the recovery.
 * The key's public key and address are derived once per private key.
 */
const signers = boundedMemo<string, DeepReadonly<Recovered>>('secp256k1.signersByKey', 10_000);

function rememberSigned(digest: Bytes, signature: Bytes, sk: BytesLike): void {
  const skHex = typeof sk === 'string' ? sk.toLowerCase() : toHex(sk);
  const signer = signers.getOrCompute(skHex, () => {
    const publicKey = publicKeyBytesFromPrivateKey(sk);
    return { address: addressFromBytes(keccak_256(publicKey.subarray(1)).subarray(12)), publicKey };
  });
  const key = toHex(digest) + toHex(signature).slice(2);
  if (!recovered.has(key)) recovered.set(key, signer);
}

export function signatureCacheStats(): { size: number; hits: number; misses: number } {
  const s = recovered.stats();
  return { size: s.size ?? 0, hits: s.hits, misses: s.misses };
}

/** Forget the verified signatures (benchmarks measure cold verification). */
export function clearSignatureCache(): void {
  recovered.clear();
}
