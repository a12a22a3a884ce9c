/** Auth parameters: the spec's defaults and query keys (JSON keys as the reference prints them). */
import { type Obj, asObject, noExtraKeys, uint64, str } from '../framework/decode';
import { parseUint } from '../../core/amount';

export interface AuthParams {
  maxMemoCharacters: bigint;
  txSigLimit: bigint;
  txSizeCostPerByte: bigint;
  sigVerifyCostEd25519: bigint;
  sigVerifyCostSecp256k1: bigint;
  maxTxGas: bigint;
  txFees: bigint;
}

export const DEFAULT_AUTH_PARAMS: AuthParams = {
  maxMemoCharacters: 256n,
  txSigLimit: 7n,
  txSizeCostPerByte: 10n,
  sigVerifyCostEd25519: 590n,
  sigVerifyCostSecp256k1: 1000n,
  maxTxGas: 1_000_000n,
  txFees: 1_000_000_000_000_000n,
};

/** The fixed fee's denomination and the gas of a checkpoint transaction (spec "Limits"). */
export const FEE_DENOM = 'matic';
export const CHECKPOINT_TX_GAS = 10_000_000n;

const AUTH_PARAM_KEYS = [
  'max_memo_characters',
  'tx_sig_limit',
  'tx_size_cost_per_byte',
  'sig_verify_cost_ed25519',
  'sig_verify_cost_secp256k1',
  'max_tx_gas',
  'tx_fees',
] as const;

/** The query output (spec: max_memo_characters, …, tx_fees as a string); also the genesis form. */
export function authParamsJson(p: AuthParams): Obj {
  return {
    max_memo_characters: Number(p.maxMemoCharacters),
    tx_sig_limit: Number(p.txSigLimit),
    tx_size_cost_per_byte: Number(p.txSizeCostPerByte),
    sig_verify_cost_ed25519: Number(p.sigVerifyCostEd25519),
    sig_verify_cost_secp256k1: Number(p.sigVerifyCostSecp256k1),
    max_tx_gas: Number(p.maxTxGas),
    tx_fees: p.txFees.toString(),
  };
}

/** The genesis form: every field optional (the default), an unknown field refused by name. */
export function decodeAuthParams(value: unknown, path: string): AuthParams {
  const o = asObject(value, path);
  noExtraKeys(o, AUTH_PARAM_KEYS, path);
  const get = (k: string, d: bigint) => (o[k] === undefined ? d : uint64(o, k, path));
  return {
    maxMemoCharacters: get('max_memo_characters', DEFAULT_AUTH_PARAMS.maxMemoCharacters),
    txSigLimit: get('tx_sig_limit', DEFAULT_AUTH_PARAMS.txSigLimit),
    txSizeCostPerByte: get('tx_size_cost_per_byte', DEFAULT_AUTH_PARAMS.txSizeCostPerByte),
    sigVerifyCostEd25519: get('sig_verify_cost_ed25519', DEFAULT_AUTH_PARAMS.sigVerifyCostEd25519),
    sigVerifyCostSecp256k1: get('sig_verify_cost_secp256k1', DEFAULT_AUTH_PARAMS.sigVerifyCostSecp256k1),
    maxTxGas: get('max_tx_gas', DEFAULT_AUTH_PARAMS.maxTxGas),
    txFees:
      o.tx_fees === undefined ? DEFAULT_AUTH_PARAMS.txFees : parseUint(str(o, 'tx_fees', path), `${path}.tx_fees`),
  };
}
