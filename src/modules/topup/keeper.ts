/**
 * Top-up replay keys and dividend accounts. A dividend account per validator id carries the fees
 * withdrawn so far (cumulative) and a slashed amount that stays 0 (slashing is not modelled,
 * README item 11); every validator ever known has a leaf in the account root.
 */
import { type KVReader, type KVStore } from '../../store/kvStore';
import { idKey } from '../framework/storeKeys';
import { allValidators } from '../staking/keeper';

export interface DividendAccount {
  id: bigint;
  feeAmount: bigint;
  slashedAmount: bigint;
}

const seqKey = (txHash: string, logIndex: bigint) => `topup/seq/${txHash}/${logIndex}`;
const dividendKey = (id: bigint) => `topup/dividend/${idKey(id)}`;

export function isTopupSeen(store: KVReader, txHash: string, logIndex: bigint): boolean {
  return store.has(seqKey(txHash, logIndex));
}

export function markTopup(store: KVStore, txHash: string, logIndex: bigint): void {
  store.set(seqKey(txHash, logIndex), true);
}

export function getDividendAccount(store: KVReader, id: bigint): DividendAccount {
  return store.get<DividendAccount>(dividendKey(id)) ?? { id, feeAmount: 0n, slashedAmount: 0n };
}

export function addFeeToDividendAccount(store: KVStore, id: bigint, amount: bigint): DividendAccount {
  const a = getDividendAccount(store, id);
  const next = { ...a, feeAmount: a.feeAmount + amount };
  store.set(dividendKey(id), next);
  return next;
}

/** One account per validator id known to the service, in id order (README item 12). */
export function allDividendAccounts(store: KVReader): DividendAccount[] {
  return allValidators(store).map((v) => getDividendAccount(store, v.id));
}

/** The dividend accounts written so far (a validator without one has the zero account). */
export function storedDividendAccounts(store: KVReader): DividendAccount[] {
  return store.iterate<DividendAccount>('topup/dividend/').map(([, a]) => a);
}
