/**
 * How a run signs and verifies: `real` is secp256k1 with public-key recovery (what the spec's auth
 * and seals require); `fast` is a deterministic keyed-hash signer with the same interface, for
 * breadth campaigns. Either way a node can sign only with its own private key. The scheme is part
 * of a run's identity (and so of its trace hash).
 */
import { boundedMemo } from './memo';
import { type DeepReadonly } from './readonly';
import { type Address, addressFromBytes } from './address';
import { type Bytes, concatBytes, latin1Key, toHex } from './bytes';
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
 * the MAC; a forger without the private key cannot produce it. The registry is not a cache (a
 * signature made with a registered key must stay verifiable), so clearCaches leaves it alone.
 */
const fastKeys = new Map<Address, { privateKey: Bytes; publicKey: Bytes }>();

export function registerFastKey(privateKey: Bytes | string): Address {
  const sk = typeof privateKey === 'string' ? fromHex(privateKey, 'privateKey') : privateKey;
  const publicKey = publicKeyBytesFromPrivateKey(sk);
  const address = addressOfPublicKey(publicKey);
  fastKeys.set(address, { privateKey: sk, publicKey });
  return address;
}

/** A registered key by its address (what a checker of fast signatures needs besides the scheme). */
export function fastKeyOf(address: string): { privateKey: Bytes; publicKey: Bytes } | undefined {
  return fastKeys.get(address.toLowerCase() as Address);
}

export const fastScheme: SignatureScheme = {
  mode: 'fast',
  sign(digest, privateKey) {
    const key = signingKeyOf(privateKey);
    const input = new Uint8Array(key.privateKey.length + digest.length);
    input.set(key.privateKey, 0);
    input.set(digest, key.privateKey.length);
    const sig = new Uint8Array(65);
    sig.set(keccak256Bytes(input), 0);
    sig.set(key.addressBytes, 32);
    // Its receivers will check it: remember the answer (as the real scheme's cache does).
    fastVerified.set(cacheKey(digest, sig), key.signer);
    return sig;
  },
  recover(digest, sig) {
    if (sig.length !== 65) return null;
    // Every node of a simulation checks the same signatures: valid ones are remembered by
    // (digest, signature). (A key registered later can make an invalid one valid: not cached.)
    const key = cacheKey(digest, sig);
    const hit = fastVerified.get(key);
    if (hit !== undefined) return hit;
    const address = addressFromBytes(sig.subarray(32, 52));
    const entry = fastKeys.get(address);
    if (!entry) return null;
    const mac = keccak256Bytes(concatBytes(entry.privateKey, digest));
    for (let i = 0; i < 32; i++) if (mac[i] !== sig[i]) return null;
    const signer = { address, publicKey: entry.publicKey };
    fastVerified.set(key, signer);
    return signer;
  },
};

// Every node checks a signature within the message latency of the others (votes, headers, txs of
// the same moment): 32,768 entries cover many heights of a 105-validator network, and a miss only
// recomputes a keccak.
const fastVerified = boundedMemo<string, DeepReadonly<{ address: Address; publicKey: Bytes }>>(
  'signatureScheme.fastVerified',
  32_768,
);

/** (digest, signature) as a string key: one char per byte. */
function cacheKey(digest: Bytes, sig: Bytes): string {
  return latin1Key(digest) + latin1Key(sig);
}

/** What signing with a key needs, by the key's hex (registering the key on first use). */
interface SigningKey {
  privateKey: Bytes;
  addressBytes: Bytes;
  signer: { address: Address; publicKey: Bytes };
}
/** A campaign draws new keys for every seed: this lookup is bounded (the registry is not). */
const signingKeys = boundedMemo<string, DeepReadonly<SigningKey>>('signatureScheme.signingKeys', 4096);

function signingKeyOf(privateKey: Bytes | string): DeepReadonly<SigningKey> {
  const hex = typeof privateKey === 'string' ? privateKey.toLowerCase() : toHex(privateKey);
  return signingKeys.getOrCompute(hex, () => {
    const sk = typeof privateKey === 'string' ? fromHex(privateKey, 'privateKey') : Uint8Array.from(privateKey);
    const address = registerFastKey(sk);
    return {
      privateKey: sk,
      addressBytes: fromHex(address),
      signer: { address, publicKey: fastKeys.get(address)!.publicKey },
    };
  });
}

export function schemeFor(mode: CryptoMode): SignatureScheme {
  return mode === 'real' ? realScheme : fastScheme;
}
