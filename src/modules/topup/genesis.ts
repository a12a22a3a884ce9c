/** The topup module's genesis section (`app_state.topup`): a chain starts with no dividends or replay keys. */
import { emptyGenesis } from '../framework/emptyGenesis';

export const TOPUP_GENESIS = emptyGenesis('topup');
