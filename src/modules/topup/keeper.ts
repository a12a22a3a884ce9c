/**
 * Top-up replay keys and dividend accounts. A dividend account per validator id carries the fees
 * withdrawn so far (cumulative) and a slashed amount that stays 0 (slashing is not modelled,
 * README item 11); every validator ever known has a leaf in the account root.
 */
import { isPlanted } from '../../core/plants';
import { assert } from '../../core/errors';
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

/**
 * Whether minting this top-up again would be a replay. The one place the rule is stated (the
 * handler and the keeper's assertion both ask here), so a planted slip bends both.
 */
export function isTopupReplay(store: KVReader, txHash: string, logIndex: bigint): boolean {
  return !isPlanted('topup-replay') && isTopupSeen(store, txHash, logIndex);
}

export function markTopup(store: KVStore, txHash: string, logIndex: bigint): void {
  assert(!isTopupReplay(store, txHash, logIndex), 'a top-up is minted once', { txHash, logIndex });
  store.set(seqKey(txHash, logIndex), true);
}

export function getDividendAccount(store: KVReader, id: bigint): DividendAccount {
  const a = store.get<DividendAccount>(dividendKey(id));
  if (a !== undefined)
    assert(a.id === id && a.feeAmount >= 0n, 'a dividend account is stored under its id, its fees not negative', {
      id,
      stored: a.id,
      feeAmount: a.feeAmount,
    });
  return a ?? { id, feeAmount: 0n, slashedAmount: 0n };
}

/** Withdrawn fees are cumulative: an account's fee amount only grows. */
export function addFeeToDividendAccount(store: KVStore, id: bigint, amount: bigint): DividendAccount {
  assert(amount > 0n, 'a withdrawal adds a positive amount', { id, amount });
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
