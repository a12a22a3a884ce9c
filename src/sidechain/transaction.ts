/**
 * Signed sidechain transactions: value transfers as a wallet sends them, EIP-155 legacy (type 0)
 * and EIP-1559 (type 2), encoded, decoded and checked by ethers' `Transaction` (RLP, the typed
 * envelope, the signing digest). A transaction's hash is keccak256 of its signed encoding, as on
 * any Ethereum chain, so a client re-deriving it (ethers' "hash mismatch" check) agrees.
 *
 * No EVM runs on the sidechain, so only what a transfer needs is accepted: a recipient, no data,
 * no access list, a chain id (EIP-155 replay protection). The sender is recovered from the
 * signature:
 * - `real`: secp256k1 recovery of `r ‖ s ‖ yParity` over the signing digest (cached per process);
 * - `fast` (a fast-crypto simulation's own workload only): the fast scheme's keyed hash, carried as
 *   r = the 32-byte MAC and s = the signer's address left-padded to 32 bytes. A fast-crypto network
 *   still accepts real signatures, so a wallet can send to a fast-crypto devnet.
 *
 * Decoded transactions are immutable values shared by every node that sees them: a decode (and
 * its recovery) is cached by the raw bytes.
 *
 * A devnet can send for an account it impersonates (anvil's `anvil_impersonateAccount`): such a
 * transfer carries no signature but names its sender, r = 0 and s = the sender's address
 * left-padded to 32 bytes (r = 0 is no secp256k1 signature, so it can never pass for one). Only a
 * node told to take them (`{ impersonation: true }`, a devnet's nodes) decodes it; anywhere else it
 * is `invalid transaction v, r, s values`.
 */
import { Signature, Transaction } from 'ethers';
import { boundedMemo } from '../core/memo';
import { minBig } from '../core/amount';
import { type Address } from '../core/address';
import { type Bytes, type Hex, concatBytes, fromHex, toHex } from '../core/bytes';
import { keccak256Bytes } from '../core/hash';
import { type SignatureScheme, fastScheme, realScheme } from '../core/signatureScheme';

/** Gas a plain value transfer uses (and the least any transaction may offer): 21,000. */
export const TRANSFER_GAS = 21_000n;

export type TxType = 0 | 2;

export interface SignedTx {
  /** The signed encoding (a legacy RLP list, or 0x02 ‖ RLP for EIP-1559). */
  readonly raw: Hex;
  /** keccak256(raw). */
  readonly hash: Hex;
  readonly type: TxType;
  readonly chainId: bigint;
  readonly nonce: bigint;
  readonly to: Address;
  readonly value: bigint;
  readonly gasLimit: bigint;
  /** Legacy: the gas price; EIP-1559: maxFeePerGas. */
  readonly maxFeePerGas: bigint;
  /** Legacy: the gas price; EIP-1559: maxPriorityFeePerGas. */
  readonly maxPriorityFeePerGas: bigint;
  /** The recovered sender. */
  readonly from: Address;
  readonly r: Hex;
  readonly s: Hex;
  readonly yParity: 0 | 1;
  /** The `v` a legacy transaction carries (chainId × 2 + 35 + yParity); yParity for EIP-1559. */
  readonly v: bigint;
  /** Sent by a devnet for an account it impersonates: no signature (r = 0, s = the sender). */
  readonly impersonated?: true;
}

/** What a transfer says before it is signed. */
export interface TransferFields {
  type: TxType;
  chainId: bigint;
  nonce: bigint;
  to: Address;
  value: bigint;
  gasLimit: bigint;
  /** Legacy: the gas price; EIP-1559: maxFeePerGas. */
  maxFeePerGas: bigint;
  /** EIP-1559 only (a legacy transaction's tip is its price above the base fee). */
  maxPriorityFeePerGas?: bigint;
}

export type DecodeResult = { ok: true; tx: SignedTx } | { ok: false; error: string };

/** geth's words for what the sidechain refuses before it looks at any state. */
export const TX_ERRORS = {
  typeNotSupported: 'transaction type not supported',
  unprotected: 'only replay-protected (EIP-155) transactions allowed over RPC',
  invalidSender: 'invalid sender',
  /** geth `ErrTipAboveFeeCap`. */
  tipAboveFeeCap: 'max priority fee per gas higher than max fee per gas',
  /** geth's pool wrapping `types.ErrInvalidSig`: r or s out of range, or s in the upper half (EIP-2). */
  invalidSignatureValues: 'invalid sender: invalid transaction v, r, s values',
} as const;

/** The order of secp256k1's group: r and s lie in [1, N), and s in [1, N/2] (EIP-2's low s). */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const decoded = boundedMemo<string, DecodeResult & { ok: true }>('sidechain.decodedTxs', 8192);

export interface DecodeOptions {
  /** Take a devnet's impersonated transfers (r = 0, s = the sender). */
  impersonation?: boolean;
}

/** Decode and check a signed transaction (its bytes as 0x hex or bytes); the error says what is wrong. */
export function decodeSignedTx(
  raw: Hex | Bytes,
  scheme: SignatureScheme = realScheme,
  opts: DecodeOptions = {},
): DecodeResult {
  const hex = typeof raw === 'string' ? (raw.toLowerCase() as Hex) : toHex(raw);
  const key = `${scheme.mode}${opts.impersonation ? '+imp' : ''}:${hex}`;
  const hit = decoded.get(key);
  if (hit) return hit;
  let r: DecodeResult;
  try {
    r = decode(hex, scheme, opts.impersonation === true);
  } catch (e) {
    // Whatever the bytes, an answer that says so, never a crash: ethers' getters throw on
    // combinations its parser let through.
    r = {
      ok: false,
      error: `invalid transaction: ${(e as { shortMessage?: string }).shortMessage ?? (e as Error).message}`,
    };
  }
  // Only what decoded is kept: a fast key registered later could make a refused signature good.
  if (r.ok) decoded.set(key, r);
  return r;
}

function decode(hex: Hex, scheme: SignatureScheme, impersonation: boolean): DecodeResult {
  let t: Transaction;
  try {
    t = Transaction.from(hex);
  } catch (e) {
    const why = (e as { shortMessage?: string }).shortMessage ?? (e as Error).message;
    return { ok: false, error: /unsupported transaction type/.test(why) ? TX_ERRORS.typeNotSupported : `rlp: ${why}` };
  }
  if (t.type !== 0 && t.type !== 2) return { ok: false, error: TX_ERRORS.typeNotSupported };
  if (t.to === null)
    return { ok: false, error: 'contract creation is not supported: the sidechain runs no EVM (value transfers only)' };
  if (t.data !== '0x')
    return {
      ok: false,
      error: `contract calls are not supported: the sidechain runs no EVM (value transfers only), and this transaction carries ${(t.data.length - 2) / 2} bytes of data`,
    };
  if (t.type === 2 && (t.accessList?.length ?? 0) > 0)
    return { ok: false, error: 'access lists are not supported: the sidechain runs no EVM (value transfers only)' };
  if (t.chainId === 0n) return { ok: false, error: TX_ERRORS.unprotected };
  // Before the signing digest: ethers refuses to serialise such a transaction (geth checks it first too).
  if (t.type === 2 && t.maxPriorityFeePerGas! > t.maxFeePerGas!) return { ok: false, error: TX_ERRORS.tipAboveFeeCap };
  const sig = t.signature;
  if (sig === null) return { ok: false, error: TX_ERRORS.invalidSender };
  const digest = fromHex(t.unsignedHash as Hex);
  const impersonated = impersonation ? impersonatedSender(sig) : null;
  const from = impersonated ?? recoverSender(digest, sig, scheme);
  if (from === 'invalid') return { ok: false, error: TX_ERRORS.invalidSignatureValues };
  if (from === null) return { ok: false, error: TX_ERRORS.invalidSender };
  const yParity = sig.yParity;
  const tx: SignedTx = {
    raw: hex,
    hash: toHex(keccak256Bytes(fromHex(hex))),
    type: t.type,
    chainId: t.chainId,
    nonce: BigInt(t.nonce),
    to: t.to.toLowerCase() as Address,
    value: t.value,
    gasLimit: t.gasLimit,
    maxFeePerGas: t.type === 2 ? t.maxFeePerGas! : t.gasPrice!,
    maxPriorityFeePerGas: t.type === 2 ? t.maxPriorityFeePerGas! : t.gasPrice!,
    from,
    r: sig.r.toLowerCase() as Hex,
    s: sig._s.toLowerCase() as Hex,
    yParity,
    v: t.type === 2 ? BigInt(yParity) : t.chainId * 2n + 35n + BigInt(yParity),
    ...(impersonated ? { impersonated: true as const } : {}),
  };
  return { ok: true, tx: Object.freeze(tx) };
}

const ZERO_12 = new Uint8Array(12);

/** The sender an impersonated transfer names (r = 0, yParity 0, s = the address padded), or null. */
function impersonatedSender(sig: Signature): Address | null {
  if (BigInt(sig.r) !== 0n || sig.yParity !== 0) return null;
  const s = fromHex(sig._s as Hex);
  if (!s.subarray(0, 12).every((b) => b === 0)) return null;
  return toHex(s.subarray(12)) as Address;
}

/** A transfer a devnet sends for an impersonated account: unsigned, naming `from` (r = 0, s = from). */
export function impersonatedTransfer(fields: TransferFields, from: Address): SignedTx {
  const t = unsignedTransfer(fields);
  t.signature = Signature.from({
    r: toHex(new Uint8Array(32)),
    s: toHex(concatBytes(ZERO_12, fromHex(from))),
    yParity: 0,
  });
  const r = decodeSignedTx(t.serialized as Hex, realScheme, { impersonation: true });
  if (!r.ok) throw new Error(`an impersonated transfer built here does not decode: ${r.error}`);
  return r.tx;
}

/**
 * The sender: the fast scheme's signer (fast networks only), else secp256k1 recovery; null if
 * neither, or `invalid` when r and s are not a canonical secp256k1 signature (geth
 * `ValidateSignatureValues` with EIP-2's low s: a signature's high-s twin is refused, not recovered).
 */
function recoverSender(digest: Bytes, sig: Signature, scheme: SignatureScheme): Address | null | 'invalid' {
  // `_s`: ethers' `s` getter throws on a high s; the range is checked here instead.
  const r = fromHex(sig.r as Hex);
  const s = fromHex(sig._s as Hex);
  if (scheme.mode === 'fast' && s.subarray(0, 12).every((b) => b === 0)) {
    const fast = fastScheme.recover(digest, concatBytes(r, s.subarray(12), new Uint8Array(13)));
    if (fast) return fast.address;
  }
  const rn = BigInt(sig.r);
  const sn = BigInt(sig._s);
  if (rn < 1n || rn >= SECP256K1_N || sn < 1n || sn > SECP256K1_N / 2n) return 'invalid';
  return realScheme.recover(digest, concatBytes(r, s, new Uint8Array([sig.yParity])))?.address ?? null;
}

/**
 * Sign a transfer with `privateKey` under `scheme` (a wallet's `real` signature, or the fast
 * scheme's). What the signer knows is what decoding its bytes gives (the fields it signed, the
 * signature it made, the key's address): the transaction is built from that, not parsed back from
 * its own bytes (transaction.test.ts holds it equal to a cold decode). A `real` signature is still
 * recovered once, as the wallet's check that it signed what it meant to. It is not remembered as
 * the decode of its bytes: the node it goes to decodes them itself, once per process (the cache),
 * so that every simulated transfer goes through the node's decoder, the input check a wallet's
 * bytes meet on a real node.
 */
export function signTransfer(fields: TransferFields, privateKey: Hex, scheme: SignatureScheme): SignedTx {
  const t = unsignedTransfer(fields);
  const digest = fromHex(t.unsignedHash as Hex);
  const signature = scheme.sign(digest, privateKey);
  const fast = scheme.mode === 'fast';
  const r = toHex(signature.subarray(0, 32));
  const s = fast ? toHex(concatBytes(ZERO_12, signature.subarray(32, 52))) : toHex(signature.subarray(32, 64));
  const yParity: 0 | 1 = !fast && signature[64] === 1 ? 1 : 0;
  t.signature = Signature.from({ r, s, yParity });
  const raw = (t.serialized as Hex).toLowerCase() as Hex;
  const from = fast
    ? fastScheme.recover(digest, concatBytes(signature.subarray(0, 52), new Uint8Array(13)))?.address
    : realScheme.recover(digest, signature)?.address;
  if (from === undefined) throw new Error('a transfer signed here does not recover to its signer');
  const type = fields.type;
  const maxFeePerGas = fields.maxFeePerGas;
  const tx: SignedTx = Object.freeze({
    raw,
    hash: toHex(keccak256Bytes(fromHex(raw))),
    type,
    chainId: fields.chainId,
    nonce: fields.nonce,
    to: fields.to.toLowerCase() as Address,
    value: fields.value,
    gasLimit: fields.gasLimit,
    maxFeePerGas,
    maxPriorityFeePerGas: type === 2 ? (fields.maxPriorityFeePerGas ?? 0n) : maxFeePerGas,
    from,
    r: r.toLowerCase() as Hex,
    s: s.toLowerCase() as Hex,
    yParity,
    v: type === 2 ? BigInt(yParity) : fields.chainId * 2n + 35n + BigInt(yParity),
  });
  return tx;
}

function unsignedTransfer(fields: TransferFields): Transaction {
  return Transaction.from({
    type: fields.type,
    chainId: fields.chainId,
    nonce: Number(fields.nonce),
    to: fields.to,
    value: fields.value,
    gasLimit: fields.gasLimit,
    data: '0x',
    ...(fields.type === 2
      ? { maxFeePerGas: fields.maxFeePerGas, maxPriorityFeePerGas: fields.maxPriorityFeePerGas ?? 0n }
      : { gasPrice: fields.maxFeePerGas }),
  });
}

/** The price per gas a transaction pays under `baseFee`, or null when its fee cap is below it. */
export function effectiveGasPrice(tx: SignedTx, baseFee: bigint): bigint | null {
  if (tx.maxFeePerGas < baseFee) return null;
  return minBig(baseFee + tx.maxPriorityFeePerGas, tx.maxFeePerGas);
}

/** What the sender must hold for a transaction to be valid: gas at its fee cap, plus the value. */
export function maxCost(tx: SignedTx): bigint {
  return tx.gasLimit * tx.maxFeePerGas + tx.value;
}
