/**
 * What nodes report as they run: raw facts, never conclusions reached with a rule the oracles
 * check. A sidechain node reports the header fields of each block it imported and its head after
 * the import, not whether the block was in turn or which head is heaviest; a service node reports
 * the commit's votes and the state its block wrote, not whether the quorum or the proposer
 * rotation was right. The oracles (sim/oracles) keep their own models of those rules.
 *
 * Values keep their types (bigints stay bigints); only the trace recorder turns them into text.
 * Every observation is plain data (no class instances, no maps), so it crosses worker threads
 * by structured clone unchanged.
 */
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { type DeepReadonly } from '../core/readonly';

export interface Coin {
  denom: string;
  amount: bigint;
}

/** A consensus vote as signed: no signature (the oracles do not check signatures). */
export interface VoteFact {
  type: 'prevote' | 'precommit';
  height: bigint;
  round: number;
  /** null = nil. */
  blockHash: Hex | null;
  validator: Address;
}

/** A span producer as stored on the service or committed on the sidechain. */
export interface ProducerFact {
  id: bigint;
  signer: Address;
  power: bigint;
}

/**
 * A delivered transaction's message, as the node decoded it. The oracles model the messages that
 * move coins or drive checkpoints and spans; the others are named only.
 */
export type TxMsgFact =
  | { type: 'cosmos-sdk/MsgSend'; fromAddress: Address; toAddress: Address; amount: Coin[] }
  | {
      type: 'cosmos-sdk/MsgMultiSend';
      inputs: Array<{ address: Address; coins: Coin[] }>;
      outputs: Array<{ address: Address; coins: Coin[] }>;
    }
  | { type: 'topup/MsgTopup'; fromAddress: Address; id: bigint; txHash: Hex; logIndex: bigint }
  | { type: 'topup/MsgWithdrawFee'; fromAddress: Address; amount: bigint }
  | {
      type: 'checkpoint/MsgCheckpoint';
      proposer: Address;
      startBlock: bigint;
      endBlock: bigint;
      rootHash: Hex;
      accountRootHash: Hex;
    }
  | { type: 'checkpoint/MsgCheckpointACK'; from: Address; headerBlock: bigint; txHash: Hex; logIndex: bigint }
  | { type: 'checkpoint/MsgCheckpointNoACK'; from: Address }
  | { type: 'sidechain/MsgProposeSpan'; spanId: bigint; proposer: Address; startBlock: bigint; endBlock: bigint }
  /** A validator's new signer key (65-byte uncompressed public key). */
  | { type: 'staking/MsgSignerUpdate'; from: Address; id: bigint; pubKey: Hex; txHash: Hex; logIndex: bigint }
  | { type: 'other'; name: string };

/** One transaction of a committed block and its DeliverTx result. */
export interface TxFact {
  index: number;
  hash: Hex;
  /** The message's signer; null when the bytes did not decode. */
  signer: Address | null;
  msg: TxMsgFact | null;
  code: number;
  codespace: string;
  gasUsed: bigint;
}

/** A side transaction's post-handler result at the begin of a block (its votes tallied two blocks later). */
export interface SideTxFact {
  txHash: Hex;
  msgType: string;
  /** The tally as the app counted it. */
  tally: 'yes' | 'no' | 'skip';
  code: number;
}

/**
 * A value the block wrote to the service's store, read back as stored (`what` names the record).
 * A block reports exactly the records it wrote, so a write no rule explains is seen too.
 */
export type StateWrite =
  | { what: 'account'; address: Address; coins: Coin[]; sequence: bigint; accountNumber: bigint }
  | { what: 'dividend'; id: bigint; feeAmount: bigint; slashedAmount: bigint }
  | { what: 'validator'; id: bigint; signer: Address; power: bigint; startEpoch: bigint; endEpoch: bigint }
  /** The stored (checkpoint) validator set: members and powers, and the stored proposer. */
  | { what: 'validatorSet'; validators: Array<{ address: Address; power: bigint }>; proposer: Address | null }
  | { what: 'checkpointBuffer'; checkpoint: CheckpointFact | null }
  | ({ what: 'checkpoint'; number: bigint } & CheckpointFact)
  | { what: 'ackCount'; count: bigint }
  /** The last no-ack's block time, whole seconds. */
  | { what: 'lastNoAck'; seconds: bigint }
  | {
      what: 'span';
      id: bigint;
      startBlock: bigint;
      endBlock: bigint;
      producers: ProducerFact[];
      sidechainChainId: string;
    }
  /** The parent-chain block counter whose hash seeds the next span's producer selection. */
  | { what: 'spanSeedBlock'; block: bigint };

export interface CheckpointFact {
  proposer: Address;
  startBlock: bigint;
  endBlock: bigint;
  rootHash: Hex;
  accountRootHash: Hex;
  /** Block time of the block that buffered it, whole seconds. */
  timestampS: bigint;
}

/** An event a parent-chain block emitted (decoded from its log). */
export type ParentEventFact =
  | { event: 'TopUpFee'; txHash: Hex; logIndex: bigint; user: Address; fee: bigint }
  | { event: 'StateSynced'; txHash: Hex; logIndex: bigint; id: bigint; contract: Address }
  | { event: 'other'; txHash: Hex; logIndex: bigint; name: string };

/** The header fields of a sidechain block and the system-call inputs its body carries. */
export interface SidechainBlockFact {
  number: bigint;
  hash: Hex;
  parentHash: Hex;
  /** Header time, seconds. */
  time: bigint;
  difficulty: bigint;
  /** Recovered from the seal. */
  signer: Address;
  txHash: Hex;
  receiptHash: Hex;
  /** State-sync records committed by this block's system calls, in body order. */
  stateSyncs: Array<{ id: bigint; timeS: bigint }>;
  /** The span committed by this block's system call, as the body carries it. */
  spanCommit: { id: bigint; startBlock: bigint; endBlock: bigint; producers: ProducerFact[] } | null;
  /** A sprint-end header's producer list (extra data), as written; null on other blocks. */
  announced: Array<{ address: Address; power: bigint }> | null;
}

export interface HeadFact {
  hash: Hex;
  number: bigint;
}

export type Observation =
  // --- the parent chain
  | { kind: 'parent.block'; number: bigint; hash: Hex; timeMs: number; txs: number; events: ParentEventFact[] }
  | { kind: 'parent.callFailed'; txHash: Hex; error: string }
  // --- a service node
  | {
      kind: 'service.genesis';
      chainId: string;
      timeMs: number;
      params: {
        txFees: bigint;
        checkpointBufferTimeMs: bigint;
        sprint: bigint;
        spanDuration: bigint;
        producerCount: bigint;
      };
      /** Every record of the genesis state, as stored. */
      state: StateWrite[];
    }
  /** The node (re)started at this committed height: its consensus state starts afresh. */
  | { kind: 'service.started'; height: bigint }
  | {
      kind: 'service.commit';
      height: bigint;
      blockHash: Hex;
      appHash: Hex;
      proposer: Address;
      timeMs: number;
      /** The precommits the block was committed with. */
      commit: ReadonlyArray<Readonly<VoteFact>>;
      txs: DeepReadonly<TxFact[]>;
      sideTxs: DeepReadonly<SideTxFact[]>;
      writes: DeepReadonly<StateWrite[]>;
    }
  | { kind: 'service.synced'; height: bigint }
  /** A side-tx vote on a span proposal, with the sidechain head the node saw and the current span as stored. */
  | {
      kind: 'side.vote';
      height: bigint;
      txHash: Hex;
      spanId: bigint;
      vote: 'yes' | 'no' | 'skip';
      head: bigint | null;
      currentStart: bigint;
      currentEnd: bigint;
    }
  /** A proposal the node's consensus took in (its own included). */
  | { kind: 'consensus.proposal'; height: bigint; round: number; blockHash: Hex; polRound: number; proposer: Address }
  /** A vote signed with the node's key: by its consensus, or by a (Byzantine) wrapper around it. */
  | { kind: 'consensus.vote'; vote: Readonly<VoteFact>; origin: 'consensus' | 'wrapper' }
  | { kind: 'consensus.evidence'; validator: Address; height: bigint; round: number; voteType: 'prevote' | 'precommit' }
  | { kind: 'bridge.parentCall'; method: string; key: string }
  | { kind: 'bridge.tx'; msgType: string; key: string }
  // --- a sidechain node
  | {
      kind: 'sidechain.started';
      genesis: {
        hash: Hex;
        time: bigint;
        difficulty: bigint;
        txHash: Hex;
        receiptHash: Hex;
        producers: ProducerFact[];
      };
      head: Readonly<HeadFact>;
    }
  | { kind: 'sidechain.produced'; number: bigint; hash: Hex; signer: Address; difficulty: bigint }
  | { kind: 'sidechain.imported'; block: DeepReadonly<SidechainBlockFact>; head: Readonly<HeadFact> }
  | { kind: 'sidechain.rejected'; number: bigint; hash: Hex; reason: string }
  /**
   * A client's transaction the node admitted to its pool or refused (hash null when it did not
   * decode), or one a reorg or rewind returned to its pool (`origin: 'reorg'`).
   */
  | { kind: 'sidechain.tx'; hash: Hex | null; ok: boolean; error: string | null; origin: 'client' | 'reorg' }
  | { kind: 'sidechain.equivocated'; number: bigint; a: Hex; b: Hex }
  | { kind: 'sidechain.reorg'; depth: number; oldHead: Hex; newHead: Hex; ancestor: bigint }
  /** The finality floor moved to this canonical block (a checkpoint verified on the node's chain). */
  | { kind: 'sidechain.finalized'; number: bigint; hash: Hex }
  /** The node switched to a checkpointed fork: `fork` (numbered `end`) is final now. */
  | { kind: 'sidechain.checkpointFork'; start: bigint; end: bigint; fork: Hex; head: Readonly<HeadFact> }
  /** A checkpoint its chain disagrees with and no stored fork matches: maybe a rewind. */
  | {
      kind: 'sidechain.checkpointMismatch';
      start: bigint;
      end: bigint;
      headBefore: bigint;
      rewoundTo: bigint | null;
      removed: number;
      head: Readonly<HeadFact>;
    }
  /** The operator's debug.setHead: every block above `number` forgotten (or the error). */
  | {
      kind: 'sidechain.setHead';
      number: bigint;
      removed: number | null;
      error: string | null;
      head: Readonly<HeadFact>;
    };
