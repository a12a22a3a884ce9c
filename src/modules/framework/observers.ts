/**
 * What a validator observes of the other chains, as ports. Side handlers read only these; the node
 * implements them by calling the parent chain and the sidechain over the (simulated) network.
 * Reading another chain yields a vote; the agreed observation is then applied by a pure post handler.
 */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';

interface EventBase {
  txHash: Hex;
  logIndex: bigint;
  blockNumber: bigint;
}

export interface StakedEvent extends EventBase {
  name: 'Staked';
  signer: Address;
  validatorId: bigint;
  activationEpoch: bigint;
  amount: bigint;
  total: bigint;
  /** 64 bytes: the uncompressed public key without its 0x04 prefix. */
  signerPubkey: Hex;
}

export interface StakeUpdateEvent extends EventBase {
  name: 'StakeUpdate';
  validatorId: bigint;
  newAmount: bigint;
}

export interface UnstakeInitEvent extends EventBase {
  name: 'UnstakeInit';
  user: Address;
  validatorId: bigint;
  deactivationEpoch: bigint;
  amount: bigint;
}

export interface SignerChangeEvent extends EventBase {
  name: 'SignerChange';
  validatorId: bigint;
  oldSigner: Address;
  newSigner: Address;
  signerPubkey: Hex;
}

export interface TopUpFeeEvent extends EventBase {
  name: 'TopUpFee';
  user: Address;
  fee: bigint;
}

export interface StateSyncedEvent extends EventBase {
  name: 'StateSynced';
  id: bigint;
  contractAddress: Address;
  data: Hex;
}

export type ParentEvent =
  | StakedEvent
  | StakeUpdateEvent
  | UnstakeInitEvent
  | SignerChangeEvent
  | TopUpFeeEvent
  | StateSyncedEvent;

/** The root chain's record of a submitted checkpoint (header block). */
export interface HeaderBlockRecord {
  number: bigint;
  proposer: Address;
  startBlock: bigint;
  endBlock: bigint;
  rootHash: Hex;
  accountRootHash: Hex;
}

export interface ParentChainObserver {
  /** The decoded log at (txHash, logIndex) if its block has at least `confirmations` confirmations. */
  event(txHash: Hex, logIndex: bigint, confirmations: bigint): ParentEvent | null;
  /** The hash of parent-chain block `number`, if that block exists. */
  blockHash(number: bigint): Hex | null;
  /** The root chain's header block for checkpoint number `number`, if submitted. */
  headerBlock(number: bigint): HeaderBlockRecord | null;
}

export interface SidechainObserver {
  /** The number of the sidechain head this validator sees. */
  headNumber(): bigint | null;
  /** The checkpoint root of blocks start..end, if block end + confirmations exists locally. */
  rootHash(start: bigint, end: bigint, confirmations: bigint): Hex | null;
}

export interface Observers {
  parent: ParentChainObserver;
  sidechain: SidechainObserver;
}
