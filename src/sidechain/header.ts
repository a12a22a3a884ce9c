/**
 * The sidechain block header, its two hashes and its seal (sidechain.md §1.2, §2.6).
 *
 * The header is geth's (pre-Shanghai) with a Bor-style extraData:
 *   extra = vanity(32) ‖ middle ‖ seal(65)
 * where `middle` is the next sprint's producer list on a sprint-end block and empty otherwise. This is
 * the pre-Cancun layout; Bor's post-Cancun RLP wrapper (`BlockExtraData`) only adds tx dependency
 * metadata that a simulated chain has no use for.
 *
 * - seal hash: keccak256(rlp(the 15 fields with extra minus the seal [, baseFee])); this is what the
 *   producer signs, so the seal cannot cover itself.
 * - header hash (the block hash): keccak256(rlp(all fields, the full extra included)).
 * RLP integers are minimal big-endian byte strings (0 is the empty string), as geth encodes *big.Int
 * and uint64.
 *
 * Byte fields are `0x` hex so that headers cross the worker boundary and land in the store as they
 * are; they are checked for length whenever they are hashed.
 */
import { weakMemo } from '../core/memo';
import { type SignatureScheme, realScheme } from '../core/signatureScheme';
import { type Bytes, type BytesLike, type Hex, concatBytes, fromHex, toBytes, toHex } from '../core/bytes';
import { type Address, ZERO_ADDRESS, addressFromBytes, compareAddresses, parseAddress } from '../core/address';
import { UINT64_MAX } from '../core/amount';
import { InputError } from '../core/errors';
import { keccak256Bytes } from '../core/hash';
import { rlpEncode } from '../core/rlp';
import { SIGNATURE_LENGTH } from '../core/secp256k1';

export const EXTRA_VANITY_LENGTH = 32;
export const EXTRA_SEAL_LENGTH = SIGNATURE_LENGTH;
/** Bor `validatorHeaderBytesLength`: 20-byte address ‖ 20-byte big-endian power. */
export const VALIDATOR_HEADER_BYTES_LENGTH = 40;

export const ZERO_HASH: Hex = `0x${'00'.repeat(32)}`;
/** keccak256(rlp([])): headers never have uncles. */
export const UNCLE_HASH: Hex = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';
/** keccak256(rlp("")): the root of an empty trie (no transactions, no receipts). */
export const EMPTY_TRIE_ROOT: Hex = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
export const EMPTY_BLOOM: Hex = `0x${'00'.repeat(256)}`;
/** Bor never votes through the nonce (Clique's NONCE_DROP is also "no vote"). */
export const ZERO_NONCE: Hex = '0x0000000000000000';

export interface SidechainHeader {
  parentHash: Hex;
  uncleHash: Hex;
  /** Always the zero address on Bor: the author is the seal's signer, not the coinbase. */
  coinbase: Address;
  stateRoot: Hex;
  /** transactionsRoot */
  txHash: Hex;
  /** receiptsRoot */
  receiptHash: Hex;
  bloom: Hex;
  difficulty: bigint;
  number: bigint;
  gasLimit: bigint;
  gasUsed: bigint;
  /** Integer seconds. */
  time: bigint;
  extraData: Hex;
  mixDigest: Hex;
  nonce: Hex;
  /** Present from London on; part of both hashes when present. */
  baseFee?: bigint;
}

/**
 * A header with Bor's fixed fields filled in (zero coinbase, mixDigest and nonce, the uncle hash,
 * empty roots and bloom, an unsealed extra) and `fields` on top.
 */
export function makeHeader(
  fields: Partial<SidechainHeader> & Pick<SidechainHeader, 'number' | 'parentHash' | 'time'>,
): SidechainHeader {
  return {
    uncleHash: UNCLE_HASH,
    coinbase: ZERO_ADDRESS,
    stateRoot: EMPTY_TRIE_ROOT,
    txHash: EMPTY_TRIE_ROOT,
    receiptHash: EMPTY_TRIE_ROOT,
    bloom: EMPTY_BLOOM,
    difficulty: 0n,
    gasLimit: 30_000_000n,
    gasUsed: 0n,
    extraData: buildExtra(),
    mixDigest: ZERO_HASH,
    nonce: ZERO_NONCE,
    ...fields,
  };
}

// --- hashes -------------------------------------------------------------------------------------

/** The digest the producer signs: extra without its last 65 bytes (Clique/Bor `SealHash`). */
// Headers are immutable values, and in a simulation every node imports the same header object:
// hashes are cached by object identity so each header is hashed once per process.
const sealHashCache = weakMemo<SidechainHeader, Bytes>('sidechain.sealHashes');
const headerHashCache = weakMemo<SidechainHeader, Bytes>('sidechain.headerHashes');

export function sealHashBytes(header: SidechainHeader): Bytes {
  return sealHashCache.getOrCompute(header, () => computeSealHash(header));
}

function computeSealHash(header: SidechainHeader): Bytes {
  const extra = toBytes(header.extraData, 'header.extraData');
  if (extra.length < EXTRA_SEAL_LENGTH) {
    throw new InputError('header.extraData', `shorter than the ${EXTRA_SEAL_LENGTH}-byte seal: ${extra.length} bytes`);
  }
  return keccak256Bytes(rlpEncode(headerRlpFields(header, extra.subarray(0, extra.length - EXTRA_SEAL_LENGTH))));
}

export function sealHash(header: SidechainHeader): Hex {
  return toHex(sealHashBytes(header));
}

/** The block hash: every field, the seal included. */
export function headerHashBytes(header: SidechainHeader): Bytes {
  return headerHashCache.getOrCompute(header, () =>
    keccak256Bytes(rlpEncode(headerRlpFields(header, toBytes(header.extraData, 'header.extraData')))),
  );
}

export function headerHash(header: SidechainHeader): Hex {
  return toHex(headerHashBytes(header));
}

/** The header as the RLP list the block hash is taken over (every field, the full extra). */
export function headerRlpList(header: SidechainHeader): Bytes[] {
  return headerRlpFields(header, toBytes(header.extraData, 'header.extraData'));
}

/** geth's header field order; `extra` is passed in because the two hashes differ only there. */
function headerRlpFields(h: SidechainHeader, extra: Bytes): Bytes[] {
  const fields: Bytes[] = [
    toBytes(h.parentHash, 'header.parentHash', 32),
    toBytes(h.uncleHash, 'header.uncleHash', 32),
    toBytes(h.coinbase, 'header.coinbase', 20),
    toBytes(h.stateRoot, 'header.stateRoot', 32),
    toBytes(h.txHash, 'header.txHash', 32),
    toBytes(h.receiptHash, 'header.receiptHash', 32),
    toBytes(h.bloom, 'header.bloom', 256),
    quantity(h.difficulty, 'header.difficulty'),
    quantity(h.number, 'header.number'),
    quantity(h.gasLimit, 'header.gasLimit', UINT64_MAX),
    quantity(h.gasUsed, 'header.gasUsed', UINT64_MAX),
    quantity(h.time, 'header.time', UINT64_MAX),
    extra,
    toBytes(h.mixDigest, 'header.mixDigest', 32),
    toBytes(h.nonce, 'header.nonce', 8),
  ];
  // A header with a baseFee of 0 hashes differently from one without: presence is what counts.
  if (h.baseFee !== undefined) fields.push(quantity(h.baseFee, 'header.baseFee'));
  return fields;
}

/** RLP integer: minimal big-endian bytes, 0 as the empty string. */
function quantity(value: bigint, field: string, max?: bigint): Bytes {
  if (typeof value !== 'bigint') throw new InputError(field, `expected a bigint, got ${typeof value}`);
  if (value < 0n) throw new InputError(field, `must not be negative: ${value}`);
  if (max !== undefined && value > max) throw new InputError(field, `out of range (max ${max}): ${value}`);
  return bigToMinimalBytes(value);
}

function bigToMinimalBytes(value: bigint): Bytes {
  if (value === 0n) return new Uint8Array(0);
  let hex = value.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  return fromHex(`0x${hex}`);
}

// --- seal -----------------------------------------------------------------------------------------

/**
 * A copy of `header` with the 65-byte `r ‖ s ‖ v` signature over its seal hash written into the
 * last 65 bytes of extraData. The extra must already have room for vanity and seal (`buildExtra`).
 */
export function sealHeader(
  header: SidechainHeader,
  privateKey: BytesLike,
  scheme: SignatureScheme = realScheme,
): SidechainHeader {
  const extra = toBytes(header.extraData, 'header.extraData');
  if (extra.length < EXTRA_VANITY_LENGTH + EXTRA_SEAL_LENGTH) {
    throw new InputError(
      'header.extraData',
      `needs ${EXTRA_VANITY_LENGTH} bytes of vanity and ${EXTRA_SEAL_LENGTH} of seal, got ${extra.length} bytes`,
    );
  }
  const digest = sealHashBytes(header);
  const signature = scheme.sign(digest, toBytes(privateKey, 'privateKey', 32));
  const sealed = Uint8Array.from(extra);
  sealed.set(signature, extra.length - EXTRA_SEAL_LENGTH);
  const out: SidechainHeader = { ...header, extraData: toHex(sealed) };
  // The seal hash leaves the seal out: the sealed header has the same one (its importers ask for it).
  sealHashCache.set(out, digest);
  return out;
}

/**
 * The signer recovered from the seal (Bor `ecrecover`, Bor's block author), or null when the extra
 * has no room for a seal or nothing can be recovered from it. Recoveries are cached per process.
 */
export function recoverSigner(header: SidechainHeader, scheme: SignatureScheme = realScheme): Address | null {
  const extra = toBytes(header.extraData, 'header.extraData');
  if (extra.length < EXTRA_SEAL_LENGTH) return null; // errMissingSignature
  return scheme.recover(sealHashBytes(header), extra.subarray(extra.length - EXTRA_SEAL_LENGTH))?.address ?? null;
}

// --- extra data and the producer list -----------------------------------------------------------

export interface HeaderValidator {
  readonly address: string;
  readonly power: bigint | number;
}

const MAX_HEADER_POWER = (1n << 160n) - 1n;

/**
 * Bor `Validator.HeaderBytes` over the producers sorted by address: `address(20) ‖ power(20)` each.
 * The sort makes the bytes canonical whatever order the span listed them in.
 */
export function encodeValidatorBytes(validators: readonly HeaderValidator[]): Hex {
  const parsed = validators.map((v, i) => {
    const field = `validators[${i}]`;
    if (typeof v !== 'object' || v === null) throw new InputError(field, 'expected { address, power }');
    const address = parseAddress(v.address, `${field}.address`);
    const power = typeof v.power === 'number' && Number.isSafeInteger(v.power) ? BigInt(v.power) : v.power;
    if (typeof power !== 'bigint')
      throw new InputError(`${field}.power`, `expected an integer, got ${String(v.power)}`);
    if (power <= 0n) throw new InputError(`${field}.power`, `must be positive: ${power}`);
    if (power > MAX_HEADER_POWER) throw new InputError(`${field}.power`, `does not fit in 20 bytes: ${power}`);
    return { address, power };
  });
  parsed.sort((a, b) => compareAddresses(a.address, b.address));
  for (let i = 1; i < parsed.length; i++) {
    if (parsed[i - 1]!.address === parsed[i]!.address)
      throw new InputError('validators', `duplicate producer ${parsed[i]!.address}`);
  }
  const out = new Uint8Array(parsed.length * VALIDATOR_HEADER_BYTES_LENGTH);
  parsed.forEach((v, i) => {
    const at = i * VALIDATOR_HEADER_BYTES_LENGTH;
    out.set(fromHex(v.address), at);
    let p = v.power;
    for (let k = at + VALIDATOR_HEADER_BYTES_LENGTH - 1; k >= at + 20 && p > 0n; k--) {
      out[k] = Number(p & 0xffn);
      p >>= 8n;
    }
  });
  return toHex(out);
}

/**
 * Bor `ParseValidators`: structure only (a length that is not a multiple of 40 is Bor's
 * errInvalidSpanValidators); whether the list is acceptable is the validator set's business.
 */
export function decodeValidatorBytes(bytes: BytesLike): Array<{ address: Address; power: bigint }> {
  const b = toBytes(bytes, 'validatorBytes');
  if (b.length % VALIDATOR_HEADER_BYTES_LENGTH !== 0) {
    throw new InputError(
      'validatorBytes',
      `invalid validator list on sprint end block: ${b.length} bytes is not a multiple of ${VALIDATOR_HEADER_BYTES_LENGTH}`,
    );
  }
  const out: Array<{ address: Address; power: bigint }> = [];
  for (let at = 0; at < b.length; at += VALIDATOR_HEADER_BYTES_LENGTH) {
    const address = addressFromBytes(b.subarray(at, at + 20));
    let power = 0n;
    for (let k = at + 20; k < at + VALIDATOR_HEADER_BYTES_LENGTH; k++) power = (power << 8n) | BigInt(b[k]!);
    out.push({ address, power });
  }
  return out;
}

/** `vanity ‖ validatorBytes ‖ 65 zero bytes` (the seal is written by `sealHeader`). */
export function buildExtra(
  validatorBytes: BytesLike = new Uint8Array(0),
  vanity: BytesLike = new Uint8Array(EXTRA_VANITY_LENGTH),
): Hex {
  return toHex(
    concatBytes(
      toBytes(vanity, 'vanity', EXTRA_VANITY_LENGTH),
      toBytes(validatorBytes, 'validatorBytes'),
      new Uint8Array(EXTRA_SEAL_LENGTH),
    ),
  );
}

/** The middle of the extra: the producer list of a sprint-end header, empty elsewhere. */
export function headerValidatorBytes(header: SidechainHeader): Bytes {
  const extra = toBytes(header.extraData, 'header.extraData');
  if (extra.length < EXTRA_VANITY_LENGTH + EXTRA_SEAL_LENGTH) {
    throw new InputError(
      'header.extraData',
      `needs ${EXTRA_VANITY_LENGTH} bytes of vanity and ${EXTRA_SEAL_LENGTH} of seal, got ${extra.length} bytes`,
    );
  }
  return extra.slice(EXTRA_VANITY_LENGTH, extra.length - EXTRA_SEAL_LENGTH);
}
