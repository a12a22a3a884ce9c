/**
 * No params: the staking module follows the parent chain's staking events; the confirmation depth a
 * side handler waits for is the chain module's param, not this module's.
 */
import { type ModuleParams } from '../framework/module';

export const STAKING_PARAMS: ModuleParams<null> | null = null;
