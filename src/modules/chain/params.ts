/**
 * Chain-wide parameters (Heimdall's chainmanager): confirmation depths the side handlers demand and
 * the sidechain's chain id; their defaults, their genesis decoder and their query JSON.
 */
import { InputError } from '../../core/errors';
import { asObject, noExtraKeys, optUint64, str } from '../framework/decode';

export interface ChainParams {
  /** Parent-chain blocks on top of a log before it counts (MainchainTxConfirmations). */
  parentChainTxConfirmations: bigint;
  /** Sidechain blocks on top of a checkpoint's end block before it is verified (MaticchainTxConfirmations). */
  sidechainTxConfirmations: bigint;
  sidechainChainId: string;
}

export const DEFAULT_CHAIN_PARAMS: ChainParams = {
  parentChainTxConfirmations: 6n,
  sidechainTxConfirmations: 10n,
  sidechainChainId: '15001',
};

/** The genesis form (`app_state.chain`); every field optional, every error names its field. */
export function decodeChainParams(value: unknown, path: string): ChainParams {
  const o = asObject(value, path);
  noExtraKeys(o, ['parent_chain_tx_confirmations', 'sidechain_tx_confirmations', 'sidechain_chain_id'], path);
  const D = DEFAULT_CHAIN_PARAMS;
  const params: ChainParams = {
    parentChainTxConfirmations: optUint64(o, 'parent_chain_tx_confirmations', path, D.parentChainTxConfirmations),
    sidechainTxConfirmations: optUint64(o, 'sidechain_tx_confirmations', path, D.sidechainTxConfirmations),
    sidechainChainId:
      o.sidechain_chain_id === undefined ? D.sidechainChainId : str(o, 'sidechain_chain_id', path, { maxLength: 64 }),
  };
  if (!/^[0-9]+$/.test(params.sidechainChainId))
    throw new InputError(`${path}.sidechain_chain_id`, 'must be a decimal chain id');
  return params;
}

/** The query output; also the genesis form (decodeChainParams reads it back). */
export function chainParamsJson(p: ChainParams): Record<string, unknown> {
  return {
    parent_chain_tx_confirmations: Number(p.parentChainTxConfirmations),
    sidechain_tx_confirmations: Number(p.sidechainTxConfirmations),
    sidechain_chain_id: p.sidechainChainId,
  };
}
