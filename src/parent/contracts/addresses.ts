/**
 * The fixed addresses of the parent-chain contracts. Short, readable constants rather than
 * CREATE-derived ones: they appear in traces and reports, and nothing depends on how a real
 * deployment would have chosen them.
 *
 * The staking events are emitted by StakingInfo, the logger contract the StakeManager calls, as on
 * Polygon's L1 (the spec's event table names StakingInfo as the emitter of SignerChange; Polygon's
 * StakeManager emits Staked, StakeUpdate, UnstakeInit and TopUpFee through the same logger). So a
 * bridge watches one address for every staking event.
 */
import { type Address } from '../../core/address';

export const PARENT_CONTRACTS = {
  stakeManager: '0x0000000000000000000000000000000000001001',
  stakingInfo: '0x0000000000000000000000000000000000001002',
  rootChain: '0x0000000000000000000000000000000000001003',
  stateSender: '0x0000000000000000000000000000000000001004',
} as const satisfies Record<string, Address>;
