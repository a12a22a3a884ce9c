/**
 * What a block's balance overrides and transfers did, computed once per block and shared by every
 * node that imports it: the accounts after it, each transaction's outcome, the gas used, and the
 * receipt root and bloom its header must carry.
 *
 * A block's run is a pure function of the block and the accounts after its parent, and the parent
 * is fixed by the block's parent hash: every node that imports the block runs it on the same
 * accounts. The run is kept with the parent's accounts root and reused only when the importing
 * node's parent accounts have that root, so a cached run is always the run this node would compute
 * (a hit or a miss changes the cost, never a result). Nodes that share a run share its accounts
 * state too, so the next block's parent root is one object's cached root.
 */
import { weakMemo } from '../core/memo';
import { type Hex } from '../core/bytes';
import { type AccountState, accountsRoot, applyBalanceOverrides } from './accounts';
import { type SidechainBlock, type SidechainBody, blockBloom, receiptRoot } from './block';
import { type BlockEnv, type TxOutcome, executeTransfers } from './transfers';

export interface BlockRun {
  accounts: AccountState;
  outcomes: readonly TxOutcome[];
  gasUsed: bigint;
  receiptRoot: Hex;
  bloom: Hex;
}

const runs = weakMemo<SidechainBlock, { parentRoot: Hex; run: BlockRun }>('sidechain.blockRuns');

/** The run of `block` on `parentAccounts` (shared when another node ran it on the same accounts). */
export function runBlock(
  block: SidechainBlock,
  parentAccounts: AccountState,
  env: BlockEnv,
): { ok: true; run: BlockRun } | { ok: false; reason: string } {
  const parentRoot = accountsRoot(parentAccounts);
  const hit = runs.get(block);
  if (hit && hit.parentRoot === parentRoot) return { ok: true, run: hit.run };
  const r = executeTransfers(applyBalanceOverrides(parentAccounts, block.body.balances), block.body.txs, env);
  if (!r.ok) return r;
  const run = finishRun(block.body, r);
  runs.set(block, { parentRoot, run });
  return { ok: true, run };
}

/** A run from executed transfers: the roots its header carries. */
export function finishRun(
  body: Pick<SidechainBody, 'txs'>,
  r: { accounts: AccountState; outcomes: readonly TxOutcome[]; gasUsed: bigint },
): BlockRun {
  return {
    accounts: r.accounts,
    outcomes: r.outcomes,
    gasUsed: r.gasUsed,
    receiptRoot: receiptRoot(body.txs, r.outcomes),
    bloom: blockBloom(r.outcomes),
  };
}

/** The producer's own run of the block it sealed, for itself and the nodes it sends the block to. */
export function rememberRun(block: SidechainBlock, parentAccounts: AccountState, run: BlockRun): void {
  runs.set(block, { parentRoot: accountsRoot(parentAccounts), run });
}
