/** The chain module's read: the chain params (Heimdall's chainmanager `/chainmanager/params`). */
import { found, type QueryRoute } from '../framework/query';
import { getChainParams } from './keeper';
import { chainParamsJson } from './params';

export const CHAIN_QUERIES: readonly QueryRoute[] = [
  { name: 'chain.params', path: /^\/chain\/params$/, handle: (q) => found(chainParamsJson(getChainParams(q.store))) },
];
