/**
 * What executing a service block answers (ABCI's shapes): each transaction's result, each side
 * transaction's result, the validator updates of end block, the commit. Block execution
 * (serviceApp.ts) produces them; shared execution (sharedExecution.ts) hands them on.
 */
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { type AppEvent } from '../modules/framework/msgDef';
import { type ValidatorUpdate } from '../modules/staking/currentValidators';
import { type SideTxVotes, type Tally } from './sideTx';
export interface TxResult {
  code: number;
  codespace: string;
  /** ABCI log: the error JSON for a failure, '' on success. */
  log: string;
  gasWanted: bigint;
  gasUsed: bigint;
  events: AppEvent[];
  hash: Hex;
}

export interface SideTxResult {
  txHash: Hex;
  msgType: string;
  tally: Tally;
  code: number;
  codespace: string;
  log: string;
  events: AppEvent[];
}

export interface BeginBlockRequest {
  /** Defaults to the next height. */
  height?: bigint;
  timeMs: number;
  /** The block proposer's signer address (receives the block's fees). */
  proposer: Address;
  /** Votes on pending side txs, gathered by consensus. */
  sideTxVotes?: readonly SideTxVotes[];
}

export interface EndBlockResponse {
  validatorUpdates: ValidatorUpdate[];
  sideTxResults: SideTxResult[];
}

export interface CommitResponse {
  height: bigint;
  appHash: Hex;
}
