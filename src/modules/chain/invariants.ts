/** What the chain params always satisfy: the sidechain's chain id is a decimal number (it is signed as one). */
import { type Invariant } from '../framework/module';
import { getChainParams } from './keeper';

export const CHAIN_INVARIANTS: readonly Invariant[] = [
  {
    name: 'sidechainChainId',
    check(store) {
      const id = getChainParams(store).sidechainChainId;
      return /^[0-9]+$/.test(id) ? null : `sidechain chain id ${JSON.stringify(id)} is not decimal`;
    },
  },
];
