/**
 * Signed transfers with exactly the fields a test asks for, including ones no wallet library will
 * build: a tip above the fee cap (ethers and viem refuse to sign it) and the high-s twin of a valid
 * signature (s → N − s, the recovery bit flipped: the same signer, a second encoding). The RLP
 * list is assembled with `@ethereumjs/rlp` and signed with the project's secp256k1.
 */
import { RLP } from '@ethereumjs/rlp';
import { Transaction, getBytes, keccak256, toBeArray } from 'ethers';
import { type Address } from '../../core/address';
import { type Hex, fromHex, toHex } from '../../core/bytes';
import { signDigestBytes } from '../../core/secp256k1';

/** secp256k1's group order. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

export interface RawTransferFields {
  type: 0 | 2;
  chainId: bigint;
  nonce: bigint;
  to: Address;
  value: bigint;
  gasLimit: bigint;
  /** Legacy: the gas price. */
  maxFeePerGas: bigint;
  /** EIP-1559 only. */
  tip: bigint;
  /** Sign, then replace s by N − s (and flip the recovery bit). */
  highS?: boolean;
}

const big = (b: bigint): Uint8Array => (b === 0n ? new Uint8Array() : toBeArray(b));

/** The signed encoding (0x hex) of a transfer with exactly these fields. */
export function rawTransfer(f: RawTransferFields, privateKey: Hex): Hex {
  const to = getBytes(f.to);
  const twin = (sig: Uint8Array): { r: bigint; s: bigint; parity: bigint } => {
    const r = BigInt(toHex(sig.subarray(0, 32)));
    const s = BigInt(toHex(sig.subarray(32, 64)));
    const parity = BigInt(sig[64]!);
    return f.highS ? { r, s: N - s, parity: parity ^ 1n } : { r, s, parity };
  };
  if (f.type === 2) {
    const body = [
      big(f.chainId),
      big(f.nonce),
      big(f.tip),
      big(f.maxFeePerGas),
      big(f.gasLimit),
      to,
      big(f.value),
      new Uint8Array(),
      [],
    ];
    const digest = fromHex(keccak256(new Uint8Array([2, ...RLP.encode(body)])) as Hex);
    const { r, s, parity } = twin(signDigestBytes(digest, privateKey));
    return toHex(new Uint8Array([2, ...RLP.encode([...body, big(parity), big(r), big(s)])]));
  }
  const unsigned = Transaction.from({
    type: 0,
    chainId: f.chainId,
    nonce: Number(f.nonce),
    to: f.to,
    value: f.value,
    gasLimit: f.gasLimit,
    gasPrice: f.maxFeePerGas,
    data: '0x',
  });
  const { r, s, parity } = twin(signDigestBytes(fromHex(unsigned.unsignedHash as Hex), privateKey));
  const body = [big(f.nonce), big(f.maxFeePerGas), big(f.gasLimit), to, big(f.value), new Uint8Array()];
  return toHex(RLP.encode([...body, big(f.chainId * 2n + 35n + parity), big(r), big(s)]));
}
