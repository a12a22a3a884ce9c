/**
 * The simulated network: every message between nodes is an engine event delivered after a latency
 * drawn from the link's model, unless the link drops it. Links can lose, duplicate and reorder
 * (extra random delay) messages; partitions block them, symmetric or one way. Each link draws from
 * its own seeded stream, so traffic on one link never changes the fate of messages on another.
 *
 * A run has domains (see sim/domain/): each domain has its own Network. A message to a node of
 * another domain is not scheduled here: its fate is decided exactly as for a local message (same
 * link stream, same draws), and it goes to the domain boundary with its delivery time, to be
 * exchanged at the next barrier. A cross-domain latency below the boundary's minimum L is raised
 * to L (the conservative windows are only safe if no cross-domain message is faster than L).
 */
import { type Engine } from '../engine/engine';
import { type Rng } from './rng';
import { TraceText } from '../trace/traceRecorder';
import { StreamSlab } from './streamSlab';
import { assert } from '../../src/core/errors';
import { compareStrings } from '../../src/core/order';
import { type LinkModel, DEFAULT_LINK } from '../core/linkModel';

/**
 * A delivery is an engine event of this kind: its target is the receiver, its source the sender
 * and its payload the message itself (no envelope object per delivery).
 */
export const NET_DELIVER = 'net.deliver';

/** A message to another domain, held for the barrier. */
export interface CrossDomainMessage<M = unknown> {
  /** Virtual ms at which the receiving domain delivers it. */
  deliverAt: number;
  from: string;
  to: string;
  /** The sender's per-sender sequence (as in Envelope). */
  seq: number;
  /** 0, or 1 for the second copy of a duplicated message. */
  copy: number;
  msg: M;
}

/** Where a domain's network hands over messages for nodes it does not hold. */
export interface DomainBoundary {
  /** True when `node` lives in this network's domain. */
  isLocal(node: string): boolean;
  /** L: the minimum cross-domain latency (ms, >= 1); shorter draws are raised to it. */
  readonly minLatencyMs: number;
  /** Called before a cross-domain message is posted (the domain checks its send promise here). */
  post(m: CrossDomainMessage): void;
}

export interface NetworkStats {
  sent: number;
  delivered: number;
  dropped: number;
  blocked: number;
  duplicated: number;
}

/**
 * What a sender knows about one of its links, cached: the model and whether it is blocked, as of
 * configuration `version` (any change to defaults, links, node links or partitions bumps it), and
 * the link's random stream (forked at its first unblocked message, as before).
 */
interface LinkState {
  version: number;
  model: LinkModel;
  blocked: boolean;
  /** The link's stream in its sender's slab, -1 until its first unblocked message. */
  stream: number;
  /** The receiver lives in another domain. */
  remote: boolean;
  /** The receiver's id, for the trace. */
  target: TraceText;
}

interface SenderState {
  /** Per-sender message sequence (orders cross-domain messages at barriers). */
  seq: number;
  /** The random streams of this sender's links. */
  streams: StreamSlab;
  links: Map<string, LinkState>;
  /** The links of the last peer list this sender broadcast to, position by position. */
  peers: readonly string[] | null;
  peerLinks: LinkState[];
}

export class Network {
  private readonly links = new Map<string, LinkModel>();
  /** Blocked directed pairs `from>to`. */
  private readonly blocked = new Set<string>();
  private readonly nodeLink = new Map<string, Partial<LinkModel>>();
  private readonly senders = new Map<string, SenderState>();
  /** One TraceText per receiver, shared by every sender's link to it. */
  private readonly targets = new Map<string, TraceText>();
  /** Bumped by every change of the link configuration; cached LinkStates older than it are refreshed. */
  private version = 0;
  /**
   * Called when a partition between two nodes heals (both ways open again), with the smaller id
   * first: a node that keeps connections (a sidechain node) opens its connection again.
   */
  onReconnect: ((a: string, b: string) => void) | null = null;
  readonly stats: NetworkStats = { sent: 0, delivered: 0, dropped: 0, blocked: 0, duplicated: 0 };

  constructor(
    private readonly engine: Engine,
    private readonly rng: Rng,
    private defaults: LinkModel = DEFAULT_LINK,
    private readonly boundary: DomainBoundary | null = null,
    /**
     * What the engine's NET_DELIVER describer says of a delivery (the same function): given, the
     * network describes each message once per send or broadcast and hands the text to every copy.
     */
    private readonly describe: ((msg: unknown, from: string) => string) | null = null,
  ) {
    validateLink(defaults, 'network');
    assert(
      boundary === null || (Number.isSafeInteger(boundary.minLatencyMs) && boundary.minLatencyMs >= 1),
      'cross-domain latency L is an integer >= 1 ms',
      {
        L: boundary?.minLatencyMs,
      },
    );
  }

  setDefaults(model: LinkModel): void {
    validateLink(model, 'network');
    this.defaults = model;
    this.version++;
  }

  /** Override the model of the directed link from -> to. */
  setLink(from: string, to: string, model: Partial<LinkModel>): void {
    const m = { ...this.modelOf(from, to), ...model };
    validateLink(m, `link ${from}->${to}`);
    this.links.set(`${from}>${to}`, m);
    this.version++;
  }

  clearLink(from: string, to: string): void {
    this.links.delete(`${from}>${to}`);
    this.version++;
  }

  /** Degrade every link touching `node` (a slow or lossy node). */
  setNodeLink(node: string, model: Partial<LinkModel> | null): void {
    if (model === null) this.nodeLink.delete(node);
    else this.nodeLink.set(node, model);
    this.version++;
  }

  modelOf(from: string, to: string): LinkModel {
    const base = this.links.get(`${from}>${to}`) ?? this.defaults;
    const a = this.nodeLink.get(from);
    const b = this.nodeLink.get(to);
    return a || b ? { ...base, ...a, ...b } : base;
  }

  /** Block traffic between the groups (both ways), or only from `a` to `b` when oneWay. */
  partition(a: readonly string[], b: readonly string[], oneWay = false): void {
    for (const x of a)
      for (const y of b) {
        this.blocked.add(`${x}>${y}`);
        if (!oneWay) this.blocked.add(`${y}>${x}`);
      }
    this.version++;
  }

  unpartition(a: readonly string[], b: readonly string[], oneWay = false): void {
    const healed: Array<[string, string]> = [];
    for (const x of a)
      for (const y of b) {
        const wasCut = this.blocked.has(`${x}>${y}`) || this.blocked.has(`${y}>${x}`);
        this.blocked.delete(`${x}>${y}`);
        if (!oneWay) this.blocked.delete(`${y}>${x}`);
        if (wasCut && !this.blocked.has(`${x}>${y}`) && !this.blocked.has(`${y}>${x}`)) healed.push([x, y]);
      }
    this.version++;
    this.reconnected(healed);
  }

  healAll(): void {
    const healed: Array<[string, string]> = [];
    for (const key of this.blocked) {
      const [x, y] = key.split('>') as [string, string];
      // Each pair once (a pair cut both ways has two entries).
      if (compareStrings(x, y) < 0 || !this.blocked.has(`${y}>${x}`)) healed.push([x, y]);
    }
    this.blocked.clear();
    this.version++;
    this.reconnected(healed);
  }

  /**
   * Tell the listener of the pairs that can reach each other both ways again (a connection between
   * them can be made again), each pair as (smaller id, larger id), in that order.
   */
  private reconnected(pairs: Array<[string, string]>): void {
    if (this.onReconnect === null || pairs.length === 0) return;
    const sorted = pairs
      .map(([x, y]): [string, string] => (compareStrings(x, y) < 0 ? [x, y] : [y, x]))
      .sort((p, q) => compareStrings(p[0], q[0]) || compareStrings(p[1], q[1]));
    for (let i = 0; i < sorted.length; i++) {
      const [x, y] = sorted[i]!;
      if (i > 0 && sorted[i - 1]![0] === x && sorted[i - 1]![1] === y) continue;
      this.onReconnect(x, y);
    }
  }

  isBlocked(from: string, to: string): boolean {
    return this.blocked.has(`${from}>${to}`);
  }

  private sender(from: string): SenderState {
    let s = this.senders.get(from);
    if (s === undefined) {
      s = { seq: 0, streams: new StreamSlab(), links: new Map(), peers: null, peerLinks: [] };
      this.senders.set(from, s);
    }
    return s;
  }

  private link(sender: SenderState, from: string, to: string): LinkState {
    let l = sender.links.get(to);
    if (l === undefined) {
      let target = this.targets.get(to);
      if (target === undefined) {
        target = new TraceText(to);
        this.targets.set(to, target);
      }
      l = {
        version: -1,
        model: this.defaults,
        blocked: false,
        stream: -1,
        remote: this.boundary !== null && !this.boundary.isLocal(to),
        target,
      };
      sender.links.set(to, l);
    }
    if (l.version !== this.version) this.refresh(l, from, to);
    return l;
  }

  private refresh(l: LinkState, from: string, to: string): void {
    l.model = this.modelOf(from, to);
    l.blocked = this.isBlocked(from, to);
    l.version = this.version;
  }

  /** Send a message; its fate (drop, delay, duplicate) is decided now, from the link's stream. */
  send<M>(from: string, to: string, msg: M): void {
    const sender = this.sender(from);
    this.sendOn(sender, this.link(sender, from, to), from, to, msg, this.traceTextOf(msg, from));
  }

  /** The delivery's description for the trace, once for all copies (null without a trace or describer). */
  private traceTextOf(msg: unknown, from: string): TraceText | null {
    return this.describe !== null && this.engine.trace !== null ? new TraceText(this.describe(msg, from)) : null;
  }

  /**
   * Send the same message to each of `to` in order, but `except` (exactly as `send` to each, with
   * the same draws). A node broadcasts to the same peer list again and again: its links are looked
   * up once per list, not once per message.
   */
  broadcast<M>(from: string, to: readonly string[], msg: M, except?: string): void {
    const sender = this.sender(from);
    const links = this.peerLinks(sender, from, to);
    const data = this.traceTextOf(msg, from);
    for (let i = 0; i < to.length; i++) {
      const t = to[i]!;
      if (t === except) continue;
      const l = links[i]!;
      if (l.version !== this.version) this.refresh(l, from, t);
      this.sendOn(sender, l, from, t, msg, data);
    }
  }

  /** `broadcast` to the members of `to` whose bit is set in `mask` (bit i & 7 of byte i >> 3). */
  multicast<M>(from: string, to: readonly string[], msg: M, mask: Uint8Array): void {
    const sender = this.sender(from);
    const links = this.peerLinks(sender, from, to);
    const data = this.traceTextOf(msg, from);
    for (let i = 0; i < to.length; i++) {
      if ((mask[i >> 3]! & (1 << (i & 7))) === 0) continue;
      const t = to[i]!;
      const l = links[i]!;
      if (l.version !== this.version) this.refresh(l, from, t);
      this.sendOn(sender, l, from, t, msg, data);
    }
  }

  /** The links of a peer list, looked up once per list (a node sends to the same list again and again). */
  private peerLinks(sender: SenderState, from: string, to: readonly string[]): LinkState[] {
    if (sender.peers !== to) {
      sender.peers = to;
      sender.peerLinks = to.map((t) => this.link(sender, from, t));
    }
    return sender.peerLinks;
  }

  private sendOn<M>(
    sender: SenderState,
    link: LinkState,
    from: string,
    to: string,
    msg: M,
    data: TraceText | null,
  ): void {
    this.stats.sent++;
    const seq = ++sender.seq;
    if (link.blocked) {
      this.stats.blocked++;
      return;
    }
    const m = link.model;
    // The link's own stream (as rng.fork(`link:from->to`) would give), forked at its first unblocked message.
    if (link.stream < 0) link.stream = sender.streams.add(this.rng.forkState(`link:${from}->${to}`));
    const s = sender.streams;
    const k = link.stream;
    if (m.loss > 0 && s.bool(k, m.loss)) {
      this.stats.dropped++;
      return;
    }
    const copies = m.duplicate > 0 && s.bool(k, m.duplicate) ? 2 : 1;
    if (copies === 2) this.stats.duplicated++;
    for (let c = 0; c < copies; c++) {
      let delay = s.int(k, m.latencyMinMs, m.latencyMaxMs);
      if (m.reorder > 0 && s.bool(k, m.reorder)) delay += s.int(k, 0, m.reorderMaxMs);
      if (link.remote) {
        // Same draws as a local message; only the floor differs (L, see the header comment).
        this.boundary!.post({
          deliverAt: this.engine.nowMs() + Math.max(delay, this.boundary!.minLatencyMs),
          from,
          to,
          seq,
          copy: c,
          msg,
        });
        continue;
      }
      this.engine.deliverAfter(delay, NET_DELIVER, to, msg, from, link.target, data);
    }
  }

  /** Count a delivery (the cluster calls it when a delivered message reaches a live node). */
  noteDelivered(): void {
    this.stats.delivered++;
  }
}

export function validateLink(m: LinkModel, where: string): void {
  const p = (x: number) => x >= 0 && x <= 1;
  assert(
    Number.isSafeInteger(m.latencyMinMs) &&
      Number.isSafeInteger(m.latencyMaxMs) &&
      0 <= m.latencyMinMs &&
      m.latencyMinMs <= m.latencyMaxMs,
    `${where}: latency bounds`,
    { ...m },
  );
  assert(p(m.loss) && p(m.duplicate) && p(m.reorder), `${where}: probabilities in [0, 1]`, { ...m });
  assert(Number.isSafeInteger(m.reorderMaxMs) && m.reorderMaxMs >= 0, `${where}: reorderMaxMs`, { ...m });
}
