/**
 * How a run signs and verifies: `real` is secp256k1 with public-key recovery (what the spec's auth
 * and seals require); `fast` is a deterministic keyed-hash signer with the same interface, for
 * breadth campaigns. Either way a node can sign only with its own private key. The scheme is part
 * of a run's identity (and so of its trace hash).
 */
import { type Address, addressFromBytes } from './address';
import { type Bytes, concatBytes, toHex } from './bytes';
import { keccak256Bytes } from './hash';
import { addressOfPublicKey, publicKeyBytesFromPrivateKey, recoverCached, signDigestBytes } from './secp256k1';
import { fromHex } from './bytes';

export type CryptoMode = 'real' | 'fast';

export interface SignatureScheme {
  readonly mode: CryptoMode;
  /** A 65-byte signature over a 32-byte digest. */
  sign(digest: Bytes, privateKey: Bytes | string): Bytes;
  /** The signer's address and public key, or null if the signature is not valid. */
  recover(digest: Bytes, signature: Bytes): { address: Address; publicKey: Bytes } | null;
}

export const realScheme: SignatureScheme = {
  mode: 'real',
  sign: (digest, sk) => signDigestBytes(digest, sk),
  recover: (digest, sig) => recoverCached(digest, sig),
};

/**
 * The fast scheme: signature = keccak(privateKey ‖ digest) (32) ‖ address (20) ‖ 13 zero bytes.
 * Verification looks the address up in the registry of keys this process created and recomputes
 * the MAC; a forger without the private key cannot produce it.
 */
const fastKeys = new Map<Address, { privateKey: Bytes; publicKey: Bytes }>();

export function registerFastKey(privateKey: Bytes | string): Address {
  const sk = typeof privateKey === 'string' ? fromHex(privateKey, 'privateKey') : privateKey;
  const publicKey = publicKeyBytesFromPrivateKey(sk);
  const address = addressOfPublicKey(publicKey);
  fastKeys.set(address, { privateKey: sk, publicKey });
  return address;
}

export const fastScheme: SignatureScheme = {
  mode: 'fast',
  sign(digest, privateKey) {
    const sk = typeof privateKey === 'string' ? fromHex(privateKey, 'privateKey') : privateKey;
    const address = registeredAddressOf(sk);
    const sig = concatBytes(keccak256Bytes(concatBytes(sk, digest)), fromHex(address), new Uint8Array(13));
    // Its receivers will check it: remember the answer (as the real scheme's cache does).
    const entry = fastKeys.get(address)!;
    if (fastVerified.size >= FAST_CACHE_LIMIT) fastVerified.clear();
    fastVerified.set(toHex(digest) + toHex(sig).slice(2), { address, publicKey: entry.publicKey });
    return sig;
  },
  recover(digest, sig) {
    if (sig.length !== 65) return null;
    // Every node of a simulation checks the same signatures: valid ones are remembered by
    // (digest, signature). (A key registered later can make an invalid one valid: not cached.)
    const key = toHex(digest) + toHex(sig).slice(2);
    const hit = fastVerified.get(key);
    if (hit !== undefined) return hit;
    const address = addressFromBytes(sig.subarray(32, 52));
    const entry = fastKeys.get(address);
    if (!entry) return null;
    const mac = keccak256Bytes(concatBytes(entry.privateKey, digest));
    for (let i = 0; i < 32; i++) if (mac[i] !== sig[i]) return null;
    const signer = { address, publicKey: entry.publicKey };
    if (fastVerified.size >= FAST_CACHE_LIMIT) fastVerified.clear();
    fastVerified.set(key, signer);
    return signer;
  },
};

const FAST_CACHE_LIMIT = 100_000;
const fastVerified = new Map<string, { address: Address; publicKey: Bytes }>();

const skToAddress = new Map<string, Address>();

function registeredAddressOf(sk: Bytes): Address {
  const key = toHex(sk);
  let a = skToAddress.get(key);
  if (a === undefined) {
    a = registerFastKey(sk);
    skToAddress.set(key, a);
  }
  return a;
}

export function schemeFor(mode: CryptoMode): SignatureScheme {
  return mode === 'real' ? realScheme : fastScheme;
}
