/**
 * The chain module (Heimdall's chainmanager): chain-wide params, the confirmation depths the side
 * handlers demand and the sidechain's chain id. No messages and no error codes of its own.
 */
import { type Module } from '../framework/module';
import { ChainErrors } from './errors';
import { CHAIN_GENESIS } from './genesis';
import { CHAIN_INVARIANTS } from './invariants';
import { getChainParams } from './keeper';
import { CHAIN_MSGS } from './msgs';
import { type ChainParams, chainParamsJson, DEFAULT_CHAIN_PARAMS } from './params';
import { CHAIN_QUERIES } from './queries';

export const chainModule: Module<ChainParams, ChainParams> = {
  name: 'chain',
  msgs: CHAIN_MSGS,
  queries: CHAIN_QUERIES,
  genesis: CHAIN_GENESIS,
  errors: ChainErrors,
  params: { defaults: DEFAULT_CHAIN_PARAMS, read: getChainParams, json: chainParamsJson },
  invariants: CHAIN_INVARIANTS,
};
