/**
 * The EIP-1559 base fee (London, which Bor runs from genesis on a new chain): each block's base fee
 * follows from its parent's gas use, up when the parent used more than half its gas limit, down
 * when it used less, by at most 1/16 per block (Bor raised geth's change denominator from 8 to 16
 * at Delhi to make fee swings, and with them reorg incentives, smaller; sidechain.md §2.1). The
 * base fee is burnt; only the tip above it goes to the block's producer.
 *
 * A quiet devnet's base fee therefore falls block by block to a few wei, as it does on any London
 * devnet; a wallet that asks `eth_gasPrice` or `eth_feeHistory` gets the fee the next block needs.
 */

/** geth's `params.InitialBaseFee`: the genesis block's base fee (1 gwei). */
export const INITIAL_BASE_FEE = 1_000_000_000n;
/** Bor after Delhi (geth: 8). */
export const BASE_FEE_CHANGE_DENOMINATOR = 16n;
/** The gas target is half the gas limit. */
export const ELASTICITY_MULTIPLIER = 2n;

/** The base fee of the child of `parent` (geth `eip1559.CalcBaseFee`). */
export function nextBaseFee(parent: { baseFee?: bigint; gasUsed: bigint; gasLimit: bigint }): bigint {
  const base = parent.baseFee ?? INITIAL_BASE_FEE;
  const target = parent.gasLimit / ELASTICITY_MULTIPLIER;
  if (target === 0n || parent.gasUsed === target) return base;
  if (parent.gasUsed > target) {
    const delta = (base * (parent.gasUsed - target)) / target / BASE_FEE_CHANGE_DENOMINATOR;
    return base + (delta > 1n ? delta : 1n);
  }
  const delta = (base * (target - parent.gasUsed)) / target / BASE_FEE_CHANGE_DENOMINATOR;
  return base > delta ? base - delta : 0n;
}

/**
 * The lowest base fee a chain that starts above it ever has: at or below DENOMINATOR − 1 the
 * downward change rounds to zero, and from above an idle chain comes down to exactly this (15 wei;
 * geth's denominator gives 7). A transaction whose fee cap is below it can never be included.
 */
export const MIN_BASE_FEE = BASE_FEE_CHANGE_DENOMINATOR - 1n;

/** The tip a wallet is told to pay (`eth_maxPriorityFeePerGas`): 1 gwei, geth's and anvil's default suggestion. */
export const SUGGESTED_TIP = 1_000_000_000n;
