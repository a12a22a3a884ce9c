/**
 * What a service node reports (observations.ts): raw facts about its genesis, its commits, its
 * votes and proposals, for the oracles and the trace. Built here from what the node holds; the
 * node only says when.
 */
import { type Hex, concatBytes, fromHex, toHex } from '../../core/bytes';
import { keccak256Bytes } from '../../core/hash';
import { type WeakMemo, weakMemo } from '../../core/memo';
import { type ValidatorSet } from '../../core/validatorSet';
import { type DeepReadonly } from '../../core/readonly';
import { type StoreWrites } from '../../store/kvStore';
import { type ServiceApp } from '../../app/serviceApp';
import { type AppliedBlock } from '../../app/sharedExecution';
import { getAuthParams } from '../../modules/auth/keeper';
import { sendEnabled } from '../../modules/bank/keeper';
import { getChainParams } from '../../modules/chain/keeper';
import { getCheckpointParams } from '../../modules/checkpoint/keeper';
import { getLastSpan, getSpanParams } from '../../modules/span/keeper';
import { type CommittedBlock, type Proposal, type Vote } from '../../consensus/types';
import {
  type CommitFact,
  type Observation,
  type SideTxFact,
  type SideVoteFact,
  type StateWrite,
  type TxFact,
  type VoteFact,
} from '../observations';
import { stateWritesOf, txFactOf } from '../stateFacts';
import { type SpanVote } from './sideVoter';

/**
 * A vote's fact, one frozen object per vote object: every node's commit lists the same precommits
 * (votes are shared by the nodes of a process), and a fact per node per vote made a run at a
 * hundred validators hold a hundred copies of each (most of its memory after an hour). Frozen,
 * the trace writes its text once (sim/trace/observationJson.ts).
 */
const voteFacts = weakMemo<Vote, Readonly<VoteFact>>('reporting.voteFacts');

export function voteFact(v: Vote): Readonly<VoteFact> {
  let f = voteFacts.get(v);
  if (f === undefined) {
    f = Object.freeze({
      type: v.type,
      height: v.height,
      round: v.round,
      blockHash: v.blockHash,
      validator: v.validator,
    });
    voteFacts.set(v, f);
  }
  return f;
}

/** A vote signed with the node's key: by its consensus, or by a (Byzantine) wrapper around it. */
export function voteObservation(v: Vote, origin: 'consensus' | 'wrapper'): Observation {
  return { kind: 'consensus.vote', vote: voteFact(v), origin };
}

export function proposalObservation(p: Proposal): Observation {
  return {
    kind: 'consensus.proposal',
    height: p.height,
    round: p.round,
    blockHash: p.blockHash,
    polRound: p.polRound,
    proposer: p.proposer,
  };
}

/** Two votes of one validator for different blocks in one round. */
export function evidenceObservation(votes: readonly Vote[]): Observation {
  const v = votes[0]!;
  return { kind: 'consensus.evidence', validator: v.validator, height: v.height, round: v.round, voteType: v.type };
}

/** The genesis state as stored, and the parameters the oracles' models need. */
export function genesisObservation(app: ServiceApp): Observation {
  const store = app.store;
  const span = getSpanParams(store);
  const auth = getAuthParams(store);
  const checkpoint = getCheckpointParams(store);
  const chain = getChainParams(store);
  return {
    kind: 'service.genesis',
    chainId: app.chainId,
    timeMs: app.genesis.genesisTimeMs,
    params: {
      txFees: auth.txFees,
      maxMemoCharacters: auth.maxMemoCharacters,
      txSigLimit: auth.txSigLimit,
      txSizeCostPerByte: auth.txSizeCostPerByte,
      sigVerifyCostSecp256k1: auth.sigVerifyCostSecp256k1,
      sigVerifyCostEd25519: auth.sigVerifyCostEd25519,
      maxTxGas: auth.maxTxGas,
      checkpointBufferTimeMs: checkpoint.checkpointBufferTimeMs,
      avgCheckpointLength: checkpoint.avgCheckpointLength,
      maxCheckpointLength: checkpoint.maxCheckpointLength,
      childBlockInterval: checkpoint.childBlockInterval,
      sprint: span.sprintDuration,
      spanDuration: span.spanDuration,
      producerCount: span.producerCount,
      parentConfirmations: chain.parentChainTxConfirmations,
      sidechainConfirmations: chain.sidechainTxConfirmations,
      sidechainChainId: chain.sidechainChainId,
      sendEnabled: sendEnabled(store),
    },
    state: stateWritesOf(store.entries()),
  };
}

/** keccak256 of a set's member addresses in ascending order (CommitFact.set), once per member list. */
const setDigests = weakMemo<object, Hex>('reporting.setDigests');

function setDigest(set: ValidatorSet): Hex {
  let d = setDigests.get(set.membershipKey);
  if (d === undefined) {
    d = toHex(keccak256Bytes(concatBytes(...set.validators.map((v) => fromHex(v.address)))));
    setDigests.set(set.membershipKey, d);
  }
  return d;
}

/**
 * A commit's fact: its precommits as a bitmap over `set`, the votes that do not fit listed as they
 * are. Each node's commit is its own list (the precommits it collected), so nothing is cached.
 */
export function commitFact(
  height: bigint,
  blockHash: Hex,
  votes: readonly Vote[],
  set: ValidatorSet,
): DeepReadonly<CommitFact> {
  const round = votes.find((v) => v.type === 'precommit' && v.blockHash === blockHash)?.round ?? 0;
  const bits = new Uint8Array((set.size + 7) >> 3);
  const others: Array<Readonly<VoteFact>> = [];
  for (const v of votes) {
    const i = set.indexOfAddress(v.validator);
    if (v.type === 'precommit' && v.height === height && v.round === round && v.blockHash === blockHash && i >= 0)
      bits[i >> 3]! |= 1 << (i & 7);
    else others.push(voteFact(v));
  }
  // Vote facts are frozen already: freezing the list and the fact makes it immutable all the way down.
  return Object.freeze({
    height,
    round,
    blockHash,
    set: setDigest(set),
    signers: toHex(bits),
    others: Object.freeze(others),
  });
}

/**
 * A committed block: its txs and side txs with their results, the records it wrote, and its
 * commit as a bitmap over `set`, the validator set it was checked against.
 */
export function commitObservation(
  cb: CommittedBlock,
  applied: AppliedBlock,
  appHash: Hex,
  writes: StoreWrites,
  set: ValidatorSet,
): Observation {
  const b = cb.block;
  return {
    kind: 'service.commit',
    height: applied.commit.height,
    blockHash: cb.blockHash,
    appHash,
    proposer: b.proposer,
    timeMs: b.timeMs,
    commit: commitFact(applied.commit.height, cb.blockHash, cb.commit, set),
    sideVotes: sharedFacts(sideVoteFactLists, b, () => sideVoteFactsOf(b.lastCommit)),
    txs: sharedFacts(txFactLists, applied.results, () => b.txs.map((t, i) => txFactOf(i, t, applied.results[i]!))),
    sideTxs: sharedFacts(sideTxFactLists, applied.end, () =>
      applied.end.sideTxResults.map((r) => ({
        txHash: r.txHash,
        msgType: r.msgType,
        tally: r.tally.result,
        code: r.code,
      })),
    ),
    writes: sharedFacts(writeFactLists, writes, () => stateWritesOf(writes)),
  };
}

/**
 * The facts of a block's results, end-block response and writes, one frozen list per object: the
 * nodes that adopt a block's shared execution record (src/app/sharedExecution.ts) hold the same
 * results, response and writes, and without this each kept its own copy of every fact in the
 * run's records (a node that ran the block itself has objects of its own, and facts of its own).
 */
const txFactLists = weakMemo<object, DeepReadonly<TxFact[]>>('reporting.txFacts');
const sideTxFactLists = weakMemo<object, DeepReadonly<SideTxFact[]>>('reporting.sideTxFacts');
const writeFactLists = weakMemo<object, DeepReadonly<StateWrite[]>>('reporting.writeFacts');
const sideVoteFactLists = weakMemo<object, DeepReadonly<SideVoteFact[]>>('reporting.sideVoteFacts');

/** Every side-tx vote the precommits of a last commit carry, in commit order, as voted. */
function sideVoteFactsOf(lastCommit: readonly Vote[]): SideVoteFact[] {
  const out: SideVoteFact[] = [];
  for (const v of lastCommit)
    for (const e of v.sideTxVotes ?? [])
      out.push({
        validator: v.validator,
        txHash: e.txHash,
        result: e.vote.result,
        observation: e.vote.result === 'yes' ? (e.vote.observation ?? null) : null,
      });
  return out;
}

function sharedFacts<T>(memo: WeakMemo<object, DeepReadonly<T>>, key: object, compute: () => T): DeepReadonly<T> {
  let f = memo.get(key);
  if (f === undefined) {
    f = deepFreeze(compute());
    memo.set(key, f);
  }
  return f;
}

function deepFreeze<T>(value: T): DeepReadonly<T> {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value as DeepReadonly<T>;
}

/** A vote on a span proposal, with the sidechain head the node saw and the current span as stored. */
export function spanVoteObservation(app: ServiceApp, v: SpanVote, head: bigint | null): Observation {
  const current = getLastSpan(app.store);
  return {
    kind: 'side.vote',
    height: app.height,
    ...v,
    head,
    currentStart: current?.startBlock ?? 0n,
    currentEnd: current?.endBlock ?? 0n,
  };
}
