/**
 * Block production (reference §2.9). On each new head, a producer works out its succession in the
 * head's snapshot and the earliest time it may seal: parent.time + delay(number, succession). If
 * the head is unchanged at that time it builds the block — sprint-start system calls included — and
 * seals it with difficulty N - succession. Timing is deterministic (Bor); an optional seeded
 * clique-style jitter delays an out-of-turn producer's release without changing its timestamp.
 */
import { type Address, ZERO_ADDRESS } from '../core/address';
import { assert } from '../core/errors';
import { type Hex, toHex, fromHex } from '../core/bytes';
import { type SidechainConfig, calcProducerDelay, producerDelayParams } from './config';
import {
  type SidechainHeader,
  EXTRA_SEAL_LENGTH,
  EXTRA_VANITY_LENGTH,
  encodeValidatorBytes,
  headerHash,
  sealHeader,
} from './header';
import { type BalanceOverride, type SidechainBlock, type SidechainBody, txRoot } from './block';
import { type SidechainChain, type StoredBlock, executeSystemCalls } from './chain';
import { applyBalanceOverrides } from './accounts';
import { finishRun, rememberRun } from './blockRun';
import { nextBaseFee } from './baseFee';
import { stateRoot } from './stateRoot';
import { type SignedTx } from './transaction';
import { selectTransfers } from './transfers';
import { isSprintEnd, isSprintStart, isStateSyncBlock } from './sprint';
import { snapshotSuccession } from './snapshot';
import {
  type CommittedSpan,
  type StateSyncRecord,
  currentSpan,
  needsSpanCommit,
  producersForBlock,
} from './systemState';

export interface ProductionPlan {
  parentHash: Hex;
  number: bigint;
  succession: number;
  difficulty: bigint;
  /** Header timestamp, seconds. */
  timeS: bigint;
}

/** When `me` may produce on top of `parent`, or null if it is not a producer there. */
export function planProduction(cfg: SidechainConfig, parent: StoredBlock, me: Address): ProductionPlan | null {
  const set = parent.snapshot.validatorSet;
  if (!set.hasAddress(me)) return null;
  const succession = snapshotSuccession(parent.snapshot, me);
  const number = parent.block.header.number + 1n;
  const delay = calcProducerDelay(number, succession, producerDelayParams(cfg));
  return {
    parentHash: parent.block.hash,
    number,
    succession,
    difficulty: BigInt(set.size - succession),
    timeS: parent.block.header.time + BigInt(delay),
  };
}

/** Upper bound (exclusive) of the optional clique-style backup jitter: (floor(N/2)+1) × 500 ms. */
export function jitterBoundMs(producers: number): number {
  return (Math.floor(producers / 2) + 1) * 500;
}

/** What the producer's node supplies from its view of the service. */
export interface ProductionInputs {
  /** The span with this id, if the service has it (fetched over HTTP). */
  span(id: bigint): CommittedSpan | null;
  /** State-sync records with id >= fromId and record time < toTimeS, in id order. */
  stateSyncs(fromId: bigint, toTimeS: bigint): StateSyncRecord[];
  /** Candidate transactions, in the order to try them (each sender's by nonce); those that cannot run are left out. */
  txs: readonly SignedTx[];
  /** Balance overrides to apply (a devnet operator's). */
  balances?: readonly BalanceOverride[];
  /** The extra data's 32 vanity bytes (zeros by default). */
  vanity?: Uint8Array;
}

/** User transactions one block carries at most. */
export const MAX_BLOCK_TXS = 50;

/** Build and seal the block of `plan`; `nowS` may push the timestamp later (never earlier). */
export function buildBlock(
  chain: SidechainChain,
  plan: ProductionPlan,
  privateKey: Hex,
  signer: Address,
  inputs: ProductionInputs,
  nowS: bigint,
): SidechainBlock {
  const cfg = chain.cfg;
  const parent = chain.get(plan.parentHash)!;
  const timeS = plan.timeS > nowS ? plan.timeS : nowS;
  const n = plan.number;
  const sprint = BigInt(cfg.sprint);
  const body: SidechainBody = { spanCommit: null, stateSyncs: [], balances: inputs.balances ?? [], txs: [] };
  if (isSprintStart(n, sprint) && needsSpanCommit(parent.state, n, sprint))
    body.spanCommit = inputs.span(currentSpan(parent.state).id + 1n);
  if (isStateSyncBlock(n, sprint)) {
    const toTime = timeS - BigInt(cfg.stateSyncDelayS);
    let next = parent.state.lastStateId + 1n;
    for (const r of inputs.stateSyncs(next, toTime)) {
      if (r.id !== next || !(r.timeS < toTime)) break;
      body.stateSyncs.push(r);
      next++;
    }
  }
  let exec = executeSystemCalls(parent.state, { header: { number: n, time: timeS }, body }, cfg);
  if (!exec.ok && body.spanCommit) {
    // A span the contract would refuse is left out rather than sealed into an invalid block.
    body.spanCommit = null;
    exec = executeSystemCalls(parent.state, { header: { number: n, time: timeS }, body }, cfg);
  }
  assert(exec.ok, 'the producer only includes system calls that execute', {
    number: n,
    reason: exec.ok ? '' : exec.reason,
  });
  const finalState = exec.state;
  const baseFee = nextBaseFee(parent.block.header);
  const gasLimit = parent.block.header.gasLimit;
  const chosen = selectTransfers(
    applyBalanceOverrides(parent.accounts, body.balances),
    inputs.txs,
    { chainId: cfg.chainId, baseFee, gasLimit, author: signer },
    MAX_BLOCK_TXS,
  );
  body.txs = chosen.txs;
  const run = finishRun(body, chosen);
  const middle = isSprintEnd(n, cfg.sprint)
    ? fromHex(encodeValidatorBytes(producersForBlock(finalState, n + 1n, cfg.firstSpanEnd)))
    : new Uint8Array(0);
  const extra = new Uint8Array(EXTRA_VANITY_LENGTH + middle.length + EXTRA_SEAL_LENGTH);
  if (inputs.vanity) extra.set(inputs.vanity.subarray(0, EXTRA_VANITY_LENGTH), 0);
  extra.set(middle, EXTRA_VANITY_LENGTH);
  const header: SidechainHeader = {
    parentHash: plan.parentHash,
    uncleHash: parent.block.header.uncleHash,
    coinbase: ZERO_ADDRESS,
    stateRoot: stateRoot(finalState, run.accounts),
    txHash: txRoot(body.txs),
    receiptHash: run.receiptRoot,
    bloom: run.bloom,
    difficulty: plan.difficulty,
    number: n,
    gasLimit,
    gasUsed: run.gasUsed,
    time: timeS,
    extraData: toHex(extra),
    mixDigest: parent.block.header.mixDigest,
    nonce: parent.block.header.nonce,
    baseFee,
  };
  const sealed = sealHeader(header, privateKey, chain.scheme);
  const block: SidechainBlock = { header: sealed, hash: headerHash(sealed), signer, body };
  // Its importers (this node first) reuse what the producer ran.
  rememberRun(block, parent.accounts, run);
  return block;
}
