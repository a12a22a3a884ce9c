/**
 * Who signed a transaction, by the model's own sign bytes (heimdall.md §6.1): keccak256 of the
 * canonical JSON of `{account_number, chain_id, memo, msg, sequence}`, so a signature made for
 * another chain id, account number, sequence, memo or message recovers to someone else (or to
 * nobody) and the transaction must be refused with sdk code 4.
 *
 * Two schemes, as a run's crypto mode says: `real` is secp256k1 recovery of a 65-byte `r ‖ s ‖ v`
 * (v ∈ {0,1}); `fast` is the simulation's keyed-hash signature `keccak(privateKey ‖ digest) ‖
 * address ‖ 13 zero bytes`, checked with the signer's key, which the run hands the model (a key
 * the run never made cannot sign).
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak256Raw } from '../../../../src/core/hash';
import { canonical } from './canonical';
import { type ModelTx } from './txDecode';

export type CryptoMode = 'real' | 'fast';

export interface SigningKey {
  privateKey: Uint8Array;
  /** 65-byte uncompressed public key. */
  publicKey: Uint8Array;
}

/** The keys a run made, by address (lower-case 0x hex): what `fast` signatures are checked with. */
export type KeyLookup = (address: string) => SigningKey | undefined;

export interface SignDoc {
  chainId: string;
  accountNumber: bigint;
  sequence: bigint;
}

const enc = new TextEncoder();

function hexOf(b: Uint8Array): string {
  let s = '0x';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

export function signDigest(tx: ModelTx, doc: SignDoc): Uint8Array {
  const text = canonical({
    account_number: doc.accountNumber,
    chain_id: doc.chainId,
    memo: tx.memo,
    msg: tx.signedMsg,
    sequence: doc.sequence,
  });
  return keccak256Raw(enc.encode(text));
}

export function addressOfPublicKey(pub: Uint8Array): string {
  return hexOf(keccak256Raw(pub.subarray(1)).subarray(12));
}

/** The signer's address and public key (hex), or null when the signature is not valid for `digest`. */
export function recoverSigner(
  mode: CryptoMode,
  keys: KeyLookup,
  digest: Uint8Array,
  sig: Uint8Array,
): { address: string; publicKey: string } | null {
  if (sig.length !== 65) return null;
  if (mode === 'fast') {
    const address = hexOf(sig.subarray(32, 52));
    const key = keys(address);
    if (!key) return null;
    const input = new Uint8Array(key.privateKey.length + digest.length);
    input.set(key.privateKey, 0);
    input.set(digest, key.privateKey.length);
    const mac = keccak256Raw(input);
    for (let i = 0; i < 32; i++) if (mac[i] !== sig[i]) return null;
    return { address, publicKey: hexOf(key.publicKey) };
  }
  const v = sig[64]!;
  if (v !== 0 && v !== 1) return null;
  const rec = new Uint8Array(65);
  rec[0] = v;
  rec.set(sig.subarray(0, 64), 1);
  try {
    const raw = secp256k1.recoverPublicKey(rec, digest, { prehash: false });
    const pub = raw.length === 65 ? raw : secp256k1.Point.fromBytes(raw).toBytes(false);
    return { address: addressOfPublicKey(pub), publicKey: hexOf(pub) };
  } catch {
    return null;
  }
}
