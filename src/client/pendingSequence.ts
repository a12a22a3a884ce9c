/**
 * The sequence a new transaction should take when earlier ones of the same account are still
 * pending: the committed sequence says nothing of them, and reusing a pending transaction's
 * sequence either sends the very same transaction again (same bytes, same hash) or one the node
 * refuses. The node's unconfirmed transactions (Tendermint's `/unconfirmed_txs` on the status port)
 * tell: a StdTx carries no sequence, so each is matched to the account by recovering its signature
 * over the sign documents of the next few sequences, as the ante handler checks it.
 */
import { type Address } from '../core/address';
import { fromHex } from '../core/bytes';
import { type SignatureScheme } from '../core/signatureScheme';
import { decodeTxBytes } from '../app/decodedTx';
import { type MsgDef } from '../modules/framework/msgDef';
import { signDigestOf } from '../modules/auth/stdTx';
import { tendermintHash } from '../rpc/rest/txResponse';

/** How far past the committed sequence a pending transaction is looked for. */
const LOOK_AHEAD = 16n;

export interface PendingOfAccount {
  /** The sequence the next transaction should take. */
  next: bigint;
  /** The account's pending transactions found (hash, sequence), in sequence order. */
  pending: Array<{ hash: string; sequence: bigint }>;
}

/** The pending transactions of `address` among `txs`, and the sequence after them. */
export function pendingOfAccount(
  txs: readonly Uint8Array[],
  who: { address: Address; chainId: string; accountNumber: bigint; committed: bigint },
  scheme: SignatureScheme,
): PendingOfAccount {
  const pending: PendingOfAccount['pending'] = [];
  for (const bytes of txs) {
    const decoded = decodeTxBytes(bytes);
    const tx = decoded.tx;
    if (tx === null) continue;
    for (let s = who.committed; s < who.committed + LOOK_AHEAD; s++) {
      const digest = signDigestOf(tx.def as MsgDef, tx.msg, {
        chainId: who.chainId,
        accountNumber: who.accountNumber,
        sequence: s,
        memo: tx.memo,
      });
      if (scheme.recover(digest, fromHex(tx.signature, 'signature'))?.address === who.address) {
        pending.push({ hash: tendermintHash(decoded.hash), sequence: s });
        break;
      }
    }
  }
  pending.sort((a, b) => (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0));
  let next = who.committed;
  for (const p of pending) if (p.sequence >= next) next = p.sequence + 1n;
  return { next, pending };
}
