/** The dividend account root a checkpoint carries (hash rule 4 over every known validator's account). */
import { type Hex, toHex } from '../../core/bytes';
import { accountRootHashBytes } from '../../core/hashRules';
import { type KVReader } from '../../store/kvStore';
import { allDividendAccounts } from './keeper';

export function dividendAccountRoot(store: KVReader): Hex {
  return toHex(accountRootHashBytes(allDividendAccounts(store)));
}
