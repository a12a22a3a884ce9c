/**
 * What a node may touch of the world: its own clock (possibly skewed), the network, timers, a
 * seeded random stream and an observer. The simulator implements these over the engine; nothing in
 * a node reads the wall clock or another node's memory.
 */
import { type Hex } from '../core/bytes';
import { type Observation } from './observations';

export interface NodeContext<M = unknown, T = unknown> {
  /** This node's clock, virtual ms (skew included). */
  nowMs(): number;
  send(to: string, msg: M): void;
  /** `send(p, msg)` for each p of `to` in order, but `except` (a broadcast; one message object for all). */
  broadcast(to: readonly string[], msg: M, except?: string): void;
  /** `send(to[i], msg)` for each i whose bit is set in `mask` (bit i & 7 of byte i >> 3), in order. */
  multicast(to: readonly string[], msg: M, mask: Uint8Array): void;
  /** Fire `tag` after `afterMs` of this node's time. */
  setTimer(afterMs: number, tag: T): void;
  /** A deterministic uniform draw in [0, 1) from this node's stream. */
  random(): number;
  /** Report a raw fact for the trace, the oracles and the reports. */
  observe(o: Observation): void;
}

export interface SimNode<M = unknown, T = unknown> {
  readonly id: string;
  start(ctx: NodeContext<M, T>): void;
  onMessage(from: string, msg: M, ctx: NodeContext<M, T>): void;
  onTimer(tag: T, ctx: NodeContext<M, T>): void;
  /** Lose everything not committed to this node's disk. */
  crash(): void;
  /** Rebuild from the disk and rejoin. */
  restart(ctx: NodeContext<M, T>): void;
  /**
   * A connection to `peer` came back (a partition between them healed): this node opens it again.
   * Nodes that keep no connections state leave it out.
   */
  onConnect?(peer: string, ctx: NodeContext<M, T>): void;
}

/**
 * A service node's answer to a client that submitted a transaction (what its broadcast endpoint
 * replies): the CheckTx result when the tx arrives, and the DeliverTx result once a block carried
 * it. Answers go to the client, not into the observations.
 */
export type ClientReply =
  | {
      kind: 'checked';
      /** null when the submitted bytes were not even hex. */
      hash: Hex | null;
      code: number;
      codespace: string;
      log: string;
      gasWanted: bigint | null;
      gasUsed: bigint | null;
    }
  | {
      kind: 'delivered';
      hash: Hex;
      height: bigint;
      code: number;
      codespace: string;
      log: string;
      gasWanted: bigint;
      gasUsed: bigint;
    };

/** Where a service node's client answers go (the devnet's REST layer listens here). */
export interface ClientReplyPort {
  reply(r: ClientReply): void;
}
