/**
 * geth's block `size`: the length of the block's RLP encoding, [header, transactions, uncles]
 * (sidechain.md §4.3), over the header's own field list.
 *
 * A legacy transaction sits in the list as its own RLP list, a typed one as the byte string of its
 * envelope (EIP-2718). The state-sync transaction is not in the body, as in Bor, so it adds
 * nothing. Uncles are always empty.
 */
import { fromHex } from '../../core/bytes';
import { rlpDecode, rlpEncode } from '../../core/rlp';
import { type SidechainHeader, headerRlpList } from '../../sidechain/header';
import { type SignedTx } from '../../sidechain/transaction';

export function blockSize(header: SidechainHeader, txs: readonly SignedTx[]): number {
  const body = txs.map((t) => (t.type === 0 ? rlpDecode(fromHex(t.raw)) : fromHex(t.raw)));
  return rlpEncode([headerRlpList(header), body, []]).length;
}
