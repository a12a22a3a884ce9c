/**
 * The gas a transaction counts against its block (spec "Limits"): its size at
 * `tx_size_cost_per_byte` plus one secp256k1 signature check; a checkpoint transaction takes the
 * fixed checkpoint gas instead (a block holding one holds nothing else). The ante handler charges
 * it and the block builder budgets with it: one formula for both.
 */
import { CHECKPOINT_TX_GAS, type AuthParams } from './params';

/** The size part alone (what the ante handler checks first against the gas wanted). */
export function txSizeGas(params: AuthParams, sizeBytes: number): bigint {
  return BigInt(sizeBytes) * params.txSizeCostPerByte;
}

export function txGas(params: AuthParams, sizeBytes: number, checkpoint: boolean): bigint {
  return checkpoint ? CHECKPOINT_TX_GAS : txSizeGas(params, sizeBytes) + params.sigVerifyCostSecp256k1;
}
