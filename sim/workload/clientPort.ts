/**
 * What a simulated client of the service and the parent chain may do, and nothing more: read the
 * run's keys and the service nodes' state (as a client reads an account before signing), send
 * transactions to a service node and calls to the parent chain over the simulated network, record
 * what it did, and come back later. The main domain (sim/domain/mainDomain.ts) implements it for
 * the workload (serviceWorkload.ts).
 */
import { type Hex } from '../../src/core/bytes';
import { type SignatureScheme } from '../../src/core/signatureScheme';
import { type ServiceNode } from '../../src/node/service/serviceNode';
import { type ParentCall } from '../../src/parent/parentChain';
import { type SimObservation } from '../core/record';
import { type Rng } from '../env/rng';
import { type RotationKey, type UserKey, type ValidatorKeys } from '../core/runKeys';

/** A workload event: what it does, the item's index in its list, and which repeat of it (0 = the first). */
export interface WorkloadEvent {
  what:
    | 'transfer'
    | 'multiSend'
    | 'topup'
    | 'withdrawal'
    | 'stateSync'
    | 'stakeUpdate'
    | 'join'
    | 'exit'
    | 'signerChange';
  index: number;
  round?: number;
}

export interface ServiceClientPort {
  readonly scheme: SignatureScheme;
  readonly keys: readonly ValidatorKeys[];
  readonly users: readonly UserKey[];
  /** Each validator's rotation keys, in order (index 0 = validator 1). */
  readonly rotationKeys: readonly (readonly RotationKey[])[];
  readonly serviceNodes: readonly ServiceNode[];
  /** Validator `v`'s service node, or a live one when it is down (a client retries elsewhere). */
  nodeOf(v: number): ServiceNode;
  /** A signed transaction to a service node, as `lockstep tx` sends one. */
  sendTx(to: string, tx: Hex): void;
  /** A call submitted to the parent chain. */
  callParent(call: ParentCall): void;
  /** What the client did (a `workload.*` record). */
  record(obs: SimObservation): void;
  /** The workload's own random stream. */
  rng(): Rng;
  /** Come back with `ev` at virtual time `atMs`, or `ms` from now. */
  at(atMs: number, ev: WorkloadEvent): void;
  after(ms: number, ev: WorkloadEvent): void;
}
