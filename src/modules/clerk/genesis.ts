/** The clerk module's genesis section (`app_state.clerk`): a chain starts with no event records. */
import { emptyGenesis } from '../framework/emptyGenesis';

export const CLERK_GENESIS = emptyGenesis('clerk');
