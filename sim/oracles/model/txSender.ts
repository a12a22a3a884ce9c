/**
 * A sidechain transaction's sender, recovered by the oracle itself: the transaction rebuilt from
 * the fields a node reported (a value transfer: no data, no access list) with the signature it
 * carried, and the signer recovered by ethers (the EIP-155 / EIP-1559 signing digest, then
 * secp256k1 public-key recovery). A library, not the node's decoder: the node's rule for which
 * signatures name which sender (src/sidechain) is what this checks.
 *
 * Real crypto only: a fast-crypto run's keyed-hash signatures are not secp256k1, so there is
 * nothing to recover them with here.
 */
import { Transaction } from 'ethers';
import { type DeepReadonly } from '../../../src/core/readonly';
import { type SidechainTxFact } from '../../../src/node/observations';

export type SenderRecovery = { ok: true; from: string } | { ok: false; why: string };

/** The lower-case address that signed `tx`, or why no address did. */
export function recoverTxSender(tx: DeepReadonly<SidechainTxFact>): SenderRecovery {
  const fees =
    tx.type === 2
      ? { maxFeePerGas: tx.maxFeePerGas ?? null, maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? null }
      : { gasPrice: tx.gasPrice ?? null };
  try {
    const from = Transaction.from({
      type: tx.type,
      chainId: tx.chainId,
      nonce: Number(tx.nonce),
      to: tx.to,
      value: tx.value,
      gasLimit: tx.gasLimit,
      data: '0x',
      ...fees,
      signature: { r: tx.r, s: tx.s, yParity: tx.yParity },
    }).from;
    return from === null ? { ok: false, why: 'no signature' } : { ok: true, from: from.toLowerCase() };
  } catch (e) {
    return { ok: false, why: (e as { shortMessage?: string }).shortMessage ?? (e as Error).message };
  }
}
