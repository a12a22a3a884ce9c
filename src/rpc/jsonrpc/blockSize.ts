/**
 * geth's block `size`: the length of the block's RLP encoding, [header, transactions, uncles]
 * (sidechain.md §4.3), encoded with ethers' RLP encoder over the header's own field list.
 *
 * A transfer counts as the unsigned legacy transaction it stands for: [nonce, gasPrice 0,
 * gas 21000, to, value, empty data, v 0, r 0, s 0]. The state-sync transaction is not in the
 * body, as in Bor, so it adds nothing. Uncles are always empty.
 */
import { encodeRlp, toBeArray } from 'ethers';
import { fromHex } from '../../core/bytes';
import { type SidechainTx, TRANSFER_GAS } from '../../sidechain/block';
import { type SidechainHeader, headerRlpList } from '../../sidechain/header';

const EMPTY = new Uint8Array(0);

/** RLP integer: minimal big-endian bytes, 0 as the empty string. */
const quantity = (v: bigint): Uint8Array => toBeArray(v);

function transferRlpList(tx: SidechainTx): Uint8Array[] {
  return [
    quantity(tx.nonce),
    quantity(0n),
    quantity(TRANSFER_GAS),
    fromHex(tx.to),
    quantity(tx.value),
    EMPTY,
    quantity(0n),
    quantity(0n),
    quantity(0n),
  ];
}

export function blockSize(header: SidechainHeader, txs: readonly SidechainTx[]): number {
  const encoded = encodeRlp([headerRlpList(header), txs.map(transferRlpList), []]);
  return (encoded.length - 2) / 2;
}
