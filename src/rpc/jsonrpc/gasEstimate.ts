/**
 * `eth_estimateGas` for a transfer, as geth's `DoEstimateGas` and `gasestimator.Estimate` answer
 * it (no EVM: a transfer uses 21,000 gas or cannot run at all):
 *
 * - the fee fields: `gasPrice` and the EIP-1559 pair together are refused (`both gasPrice and
 *   (maxFeePerGas or maxPriorityFeePerGas) specified`), so is a tip above the fee cap
 *   (`maxFeePerGas (0x…) < maxPriorityFeePerGas (0x…)`);
 * - the ceiling: the call's `gas` when it is at least 21,000, else the block's gas limit; with a
 *   fee cap (`maxFeePerGas`, or `gasPrice`) the sender's balance caps it too: a value at or above
 *   the balance is `insufficient funds for transfer`, otherwise at most (balance − value) / fee cap
 *   gas is fundable; and geth's RPC gas cap (50,000,000);
 * - a transfer that fits under the ceiling is 21,000; one that does not is `gas required exceeds
 *   allowance (CEILING)`; without a fee cap, a value above the balance fails as the execution does
 *   (`failed with CEILING gas: insufficient funds for gas * price + value: address A have B want V`).
 */
import { getAddress } from 'ethers';
import { ZERO_ADDRESS } from '../../core/address';
import { type AccountState, accountOf } from '../../sidechain/accounts';
import { TRANSFER_GAS } from '../../sidechain/transaction';
import { type CallArgs } from './callArgs';
import { toQuantity } from './quantity';
import { handlerError } from './rpcErrors';

/** geth's default `--rpc.gascap`. */
export const RPC_GAS_CAP = 50_000_000n;

/** The gas a transfer needs, or throws geth's error. */
export function estimateTransferGas(a: CallArgs, accounts: AccountState, blockGasLimit: bigint): bigint {
  if (a.gasPrice !== undefined && (a.maxFeePerGas !== undefined || a.maxPriorityFeePerGas !== undefined))
    throw handlerError('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
  if (a.gasPrice === undefined && (a.maxFeePerGas ?? 0n) < (a.maxPriorityFeePerGas ?? 0n))
    // geth prints the two hexutil.Big values as quantities.
    throw handlerError(
      `maxFeePerGas (${toQuantity(a.maxFeePerGas ?? 0n)}) < maxPriorityFeePerGas (${toQuantity(a.maxPriorityFeePerGas ?? 0n)})`,
    );
  const from = a.from ?? ZERO_ADDRESS;
  const balance = accountOf(accounts, from).balance;
  const value = a.value ?? 0n;
  let hi = a.gas !== undefined && a.gas >= TRANSFER_GAS ? a.gas : blockGasLimit;
  const feeCap = a.maxFeePerGas ?? a.gasPrice ?? 0n;
  if (feeCap > 0n) {
    if (value >= balance) throw handlerError('insufficient funds for transfer');
    const allowance = (balance - value) / feeCap;
    if (hi > allowance) hi = allowance;
  }
  if (hi > RPC_GAS_CAP) hi = RPC_GAS_CAP;
  if (feeCap === 0n && value > balance)
    throw handlerError(
      `failed with ${hi} gas: insufficient funds for gas * price + value: address ${getAddress(from)} have ${balance} want ${value}`,
    );
  if (hi < TRANSFER_GAS) throw handlerError(`gas required exceeds allowance (${hi})`);
  return TRANSFER_GAS;
}
