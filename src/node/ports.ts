/**
 * What a node may touch of the world: its own clock (possibly skewed), the network, timers, a
 * seeded random stream and a recorder. The simulator implements these over the engine; nothing in
 * a node reads the wall clock or another node's memory.
 */
export interface NodeContext<M = unknown, T = unknown> {
  /** This node's clock, virtual ms (skew included). */
  nowMs(): number;
  send(to: string, msg: M): void;
  /** `send(p, msg)` for each p of `to` in order, but `except` (a broadcast; one message object for all). */
  broadcast(to: readonly string[], msg: M, except?: string): void;
  /** Fire `tag` after `afterMs` of this node's time. */
  setTimer(afterMs: number, tag: T): void;
  /** A deterministic uniform draw in [0, 1) from this node's stream. */
  random(): number;
  /** Record a fact for the trace, oracles and reports. */
  record(kind: string, data: Record<string, unknown>): void;
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
}
