/** The chain module's genesis section: its params (`app_state.chain`). */
import { type ModuleGenesis } from '../framework/module';
import { getChainParams, setChainParams } from './keeper';
import { type ChainParams, chainParamsJson, DEFAULT_CHAIN_PARAMS, decodeChainParams } from './params';

export const CHAIN_GENESIS: ModuleGenesis<ChainParams> = {
  key: 'chain',
  defaults: () => DEFAULT_CHAIN_PARAMS,
  decode: (value, path) => decodeChainParams(value ?? {}, path),
  init: (store, params) => setChainParams(store, params),
  export: (store) => chainParamsJson(getChainParams(store)),
};
