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
import { type BankMsgFact } from '../modules/bank/msgs';
import { type CheckpointMsgFact } from '../modules/checkpoint/msgs';
import { type SpanMsgFact } from '../modules/span/msgs';
import { type StakingMsgFact } from '../modules/staking/msgs';
import { type TopupMsgFact } from '../modules/topup/msgs';
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

/**
 * The precommits a block was committed with, each signer named once (as Tendermint's commit does
 * it): the height, round and block they are precommits for, and who signed them as a bitmap over
 * the validator set the node checked them against (its consensus set of that height), its members
 * in ascending address order: bit i (bit `i & 7` of byte `i >> 3`) is the i-th smallest address.
 * `set` is keccak256 of those addresses (20 bytes each, in that order), so a reader can tell which
 * set the bits index. A vote that does not fit (another type, height, round or block, or a signer
 * outside the set: none in a correct commit) is listed in `others` as it is.
 */
export interface CommitFact {
  height: bigint;
  round: number;
  blockHash: Hex;
  set: Hex;
  /** The bitmap as 0x hex, one byte per eight members. */
  signers: Hex;
  others: ReadonlyArray<Readonly<VoteFact>>;
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
/**
 * A delivered message as a fact: what each module's messages report (declared beside them, see
 * MsgDef.fact), or only the type of a message that reports nothing more.
 */
export type TxMsgFact =
  | BankMsgFact
  | TopupMsgFact
  | CheckpointMsgFact
  | SpanMsgFact
  | StakingMsgFact
  | { type: 'other'; name: string };

/** One transaction of a committed block and its DeliverTx result. */
export interface TxFact {
  index: number;
  hash: Hex;
  /** The transaction as it stood in the block (hex of its bytes, or whatever the block held). */
  raw: Hex;
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
 * A side-tx vote carried by a precommit of a block's last commit: the raw votes the block's begin
 * tallies (one per validator and side tx; duplicates and non-members are left for the tally).
 */
export interface SideVoteFact {
  validator: Address;
  txHash: Hex;
  result: 'yes' | 'no' | 'skip';
  /** What a yes vote observed (plain data, as the vote carried it); null for no and skip. */
  observation: unknown;
}

/** The service's parameters at genesis, as stored (what the oracles' models need). */
export interface ServiceParamsFact {
  txFees: bigint;
  maxMemoCharacters: bigint;
  txSigLimit: bigint;
  txSizeCostPerByte: bigint;
  sigVerifyCostSecp256k1: bigint;
  sigVerifyCostEd25519: bigint;
  maxTxGas: bigint;
  checkpointBufferTimeMs: bigint;
  avgCheckpointLength: bigint;
  maxCheckpointLength: bigint;
  childBlockInterval: bigint;
  sprint: bigint;
  spanDuration: bigint;
  producerCount: bigint;
  parentConfirmations: bigint;
  sidechainConfirmations: bigint;
  sidechainChainId: string;
  sendEnabled: boolean;
}

/**
 * A value the block wrote to the service's store, read back as stored (`what` names the record).
 * A block reports exactly the records it wrote, so a write no rule explains is seen too.
 */
export type StateWrite =
  | {
      what: 'account';
      address: Address;
      coins: Coin[];
      sequence: bigint;
      accountNumber: bigint;
      /** The public key recorded by the account's first successful transaction. */
      pubKey: Hex | null;
    }
  /** The number the next new account gets. */
  | { what: 'nextAccountNumber'; next: bigint }
  | { what: 'dividend'; id: bigint; feeAmount: bigint; slashedAmount: bigint }
  | {
      what: 'validator';
      id: bigint;
      signer: Address;
      power: bigint;
      startEpoch: bigint;
      endEpoch: bigint;
      pubKey: Hex;
      /** The parent-chain event sequence of its last change; null for a genesis validator never changed. */
      lastUpdated: bigint | null;
      jailed: boolean;
    }
  /** The stored (checkpoint) validator set: members, powers and proposer priorities, and the stored proposer. */
  | {
      what: 'validatorSet';
      validators: Array<{ address: Address; power: bigint; priority: bigint }>;
      proposer: Address | null;
      /** The stored proposer as it stood when it was picked (its power and priority then). */
      proposerPower: bigint | null;
      proposerPriority: bigint | null;
    }
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
      /** The validator set frozen with the span: members, powers and priorities, and its proposer. */
      validators: Array<{ address: Address; power: bigint; priority: bigint }>;
      proposer: Address | null;
      proposerPower: bigint | null;
      proposerPriority: bigint | null;
      /** The records of the set's members and the producers as they stood when the span was frozen. */
      members: Array<{ id: bigint; startEpoch: bigint; endEpoch: bigint; pubKey: Hex; signer: Address }>;
    }
  /** A state-sync record (clerk), as stored. */
  | {
      what: 'record';
      id: bigint;
      contract: Address;
      data: Hex;
      txHash: Hex;
      logIndex: bigint;
      sidechainChainId: string;
      recordTimeMs: number;
    }
  /** A parent-chain event (tx hash, log index) a module marked as processed (its replay key). */
  | { what: 'replayKey'; module: 'staking' | 'topup' | 'clerk'; txHash: Hex; logIndex: bigint }
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
  | { event: 'StateSynced'; txHash: Hex; logIndex: bigint; id: bigint; contract: Address; data: Hex }
  | {
      event: 'Staked';
      txHash: Hex;
      logIndex: bigint;
      signer: Address;
      validatorId: bigint;
      activationEpoch: bigint;
      amount: bigint;
      /** 64 bytes: the uncompressed key without its 0x04 prefix. */
      signerPubkey: Hex;
    }
  | { event: 'StakeUpdate'; txHash: Hex; logIndex: bigint; validatorId: bigint; newAmount: bigint }
  | { event: 'UnstakeInit'; txHash: Hex; logIndex: bigint; validatorId: bigint; deactivationEpoch: bigint }
  | {
      event: 'SignerChange';
      txHash: Hex;
      logIndex: bigint;
      validatorId: bigint;
      oldSigner: Address;
      newSigner: Address;
      signerPubkey: Hex;
    }
  /** The root chain stored a checkpoint as header block `headerBlockId` (number × child block interval). */
  | {
      event: 'NewHeaderBlock';
      txHash: Hex;
      logIndex: bigint;
      proposer: Address;
      headerBlockId: bigint;
      start: bigint;
      end: bigint;
      root: Hex;
    }
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
  /** The header's logs bloom (256 bytes), as the header carries it. */
  bloom: Hex;
  /** State-sync records committed by this block's system calls, in body order. */
  stateSyncs: Array<{ id: bigint; timeS: bigint }>;
  /** The span committed by this block's system call, as the body carries it. */
  spanCommit: { id: bigint; startBlock: bigint; endBlock: bigint; producers: ProducerFact[] } | null;
  /** A sprint-end header's producer list (extra data), as written; null on other blocks. */
  announced: Array<{ address: Address; power: bigint }> | null;
  /** The header's EIP-1559 base fee (wei per gas; null: the header has none). */
  baseFee: bigint | null;
  gasLimit: bigint;
  gasUsed: bigint;
  /** What the block's body did to the accounts; absent when it carries no transaction and no override. */
  transfers?: SidechainTransfersFact;
}

/** A sidechain transaction as the node decoded it, with what its run came to on the importing node. */
export interface SidechainTxFact {
  hash: Hex;
  /** 0: EIP-155 legacy (gasPrice), 2: EIP-1559 (maxFeePerGas, maxPriorityFeePerGas). */
  type: number;
  chainId: bigint;
  nonce: bigint;
  /** The sender recovered from the signature. */
  from: Address;
  /** The signature as the transaction carries it (32-byte r and s, 0x hex; the y parity bit). */
  r: Hex;
  s: Hex;
  yParity: 0 | 1;
  to: Address;
  value: bigint;
  gasLimit: bigint;
  gasPrice?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  /** The node's outcome. */
  gasUsed: bigint;
  effectiveGasPrice: bigint;
}

/** A transaction as a pool holds it: what admission reads of it (a legacy transaction's gas price is both fees). */
export interface PooledTxFact {
  hash: Hex;
  from: Address;
  nonce: bigint;
  chainId: bigint;
  gasLimit: bigint;
  value: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/**
 * What a node's pool answered a client's transaction on: the transaction (its bytes, and the fields
 * the node read from them), the head it was checked
 * against (its gas limit, the sender's account there), the sender's transactions in the pool just
 * before the answer and just after it (by nonce), and how many the whole pool held before.
 */
export interface PoolAdmissionFact {
  /** The transaction's bytes as the client sent them. */
  raw: Hex;
  /** The transaction as the node read it from them. */
  tx: PooledTxFact;
  head: HeadFact;
  headGasLimit: bigint;
  account: { nonce: bigint; balance: bigint };
  before: PooledTxFact[];
  after: PooledTxFact[];
  poolSize: number;
}

/** An account as a block left it. */
export interface SidechainAccountFact {
  address: Address;
  nonce: bigint;
  balance: bigint;
}

export interface SidechainTransfersFact {
  /** The balance overrides the body carries (a devnet's `anvil_setBalance`), applied before its transactions. */
  balances: Array<{ address: Address; balance: bigint }>;
  txs: SidechainTxFact[];
  /** Every account whose nonce or balance after the block differs from the parent's, sorted by address. */
  accounts: SidechainAccountFact[];
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
      params: ServiceParamsFact;
      /** Every record of the genesis state, as stored. */
      state: StateWrite[];
    }
  /** The genesis document every service node of the run starts from (the run's input), once. */
  | { kind: 'service.genesisDocument'; document: unknown }
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
      commit: DeepReadonly<CommitFact>;
      /** The side-tx votes of the block's last commit (what its begin block tallied). */
      sideVotes: DeepReadonly<SideVoteFact[]>;
      txs: DeepReadonly<TxFact[]>;
      sideTxs: DeepReadonly<SideTxFact[]>;
      writes: DeepReadonly<StateWrite[]>;
    }
  | { kind: 'service.synced'; height: bigint }
  /** A client's GET of the service's REST API (the path with its query string) and the node's answer. */
  | {
      kind: 'service.query';
      height: bigint;
      path: string;
      answer: { ok: true; result: unknown } | { ok: false; kind: string; message: string };
    }
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
  /**
   * A call the bridge sent to the parent chain: its sender, and for a checkpoint submission the
   * proposer the checkpoint names.
   */
  | { kind: 'bridge.parentCall'; method: string; key: string; from: Address; proposer: Address | null }
  | {
      kind: 'bridge.tx';
      msgType: string;
      key: string;
      /** A relay of a parent-chain event: the block that holds it and the bridge's view of the parent head. */
      parent?: { eventBlock: bigint; head: bigint | null };
      /** A checkpoint proposal: the range's end and the bridge's view of the sidechain head. */
      sidechain?: { endBlock: bigint; head: bigint | null };
    }
  /**
   * A side-tx vote the node cast on a tx of block `height`, with what it read to cast it: for a
   * message that names a parent-chain event (tx hash and log index), the block its parent view
   * holds the event in (null: not held) and its view of the parent head; for a checkpoint, the
   * range's end and its view of the sidechain head.
   */
  | {
      kind: 'side.voteRead';
      height: bigint;
      txHash: Hex;
      msgType: string;
      vote: 'yes' | 'no' | 'skip';
      parent: { eventBlock: bigint | null; head: bigint | null } | null;
      sidechain: { endBlock: bigint; head: bigint | null } | null;
    }
  /** The node's consensus entered round `round` > 0 of `height` (round 0 starts with the height). */
  | { kind: 'consensus.round'; height: bigint; round: number }
  /**
   * The changes the consensus set of `height` takes in: the validator updates block `height - 1`
   * returned (for height 1, the genesis set's members). Reported only when there are any.
   */
  | { kind: 'consensus.setChange'; height: bigint; changes: Array<{ address: Address; power: bigint }> }
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
        /** The sidechain's chain id (EIP-155), and the genesis header's gas fields. */
        chainId: bigint;
        baseFee: bigint | null;
        gasLimit: bigint;
        gasUsed: bigint;
        /** The accounts the genesis funds (nonce 0), sorted by address. */
        alloc: Array<{ address: Address; balance: bigint }>;
      };
      head: Readonly<HeadFact>;
      /** The service node this node reads spans, records and checkpoints from. */
      serviceNode?: string;
    }
  | { kind: 'sidechain.produced'; number: bigint; hash: Hex; signer: Address; difficulty: bigint }
  | { kind: 'sidechain.imported'; block: DeepReadonly<SidechainBlockFact>; head: Readonly<HeadFact> }
  | { kind: 'sidechain.rejected'; number: bigint; hash: Hex; reason: string }
  /**
   * A client's JSON-RPC read of the node (sim/workload/rpcProbe.ts): the method and its params, the
   * node's head when it answered, and the answer as a client reads it (JSON text parsed: hex
   * quantities, null for "not found"), or the error object.
   */
  | {
      kind: 'sidechain.query';
      head: Readonly<HeadFact>;
      method: string;
      params: readonly unknown[];
      answer: { ok: true; result: unknown } | { ok: false; code: number; message: string };
    }
  /**
   * A client's transaction the node admitted to its pool or refused (hash null when it did not
   * decode), or one a reorg or rewind returned to its pool (`origin: 'reorg'`). A client's
   * transaction that decoded carries what the answer was given on (`admission`).
   */
  | {
      kind: 'sidechain.tx';
      hash: Hex | null;
      ok: boolean;
      error: string | null;
      origin: 'client' | 'reorg';
      admission?: DeepReadonly<PoolAdmissionFact>;
    }
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
