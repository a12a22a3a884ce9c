/**
 * How blocks travel between sidechain nodes: devp2p's `eth` protocol as go-ethereum implements it
 * and Bor keeps it (eth/handler.go `BroadcastBlock`, eth/fetcher/block_fetcher.go,
 * eth/protocols/eth/peer.go), over the node's peer list (every other sidechain node):
 *
 *  - **propagation**: a node that imports a new block (its own, or one a peer pushed or announced)
 *    sends it in full (`NewBlock`) to ⌊√m⌋ of the m peers not known to have it, picked at random,
 *    and announces only its hash and number (`NewBlockHashes`) to the other m − ⌊√m⌋;
 *  - **knowledge**: a node remembers, per peer, the blocks that peer is known to have: those it
 *    sent or announced to us, and those we sent or announced to it (geth's `knownBlocks`, the
 *    last 1024 blocks);
 *  - **announcements**: a node that hears of a hash it does not have waits `ANNOUNCE_ARRIVE_MS`
 *    for the block to be pushed to it anyway (geth's `arriveTimeout`), then fetches it from the
 *    first peer that announced it (one request for header and body: geth asks for the header,
 *    then the body), and propagates it like a pushed one once imported; announcements of blocks
 *    more than `MAX_UNCLE_DISTANCE` below the head are ignored;
 *  - **ancestors**: a block whose parent is unknown is held (orphanPool.ts) while the parent (or,
 *    when the parent is held too, the oldest missing ancestor) is fetched from the peer the block
 *    came from, and so on back to a known block (geth's
 *    downloader, which syncs from the peer with the higher total difficulty); such catch-up
 *    blocks are not propagated again;
 *  - **status**: at connection a node and its peer exchange their heads and total difficulties
 *    (the `eth` handshake), and a node behind its peer fetches the peer's head (and with it the
 *    ancestors it misses). A node connects to every peer when it starts (at genesis each pair
 *    once), to all of them again after a crash, and to a peer again when a partition between
 *    them heals (the simulator tells it: `SidechainNode.onConnect`). There is no periodic status.
 *
 * Loss, partitions, delays and Byzantine faults act on these messages like on any other: a node
 * does not know a link is cut and sends anyway.
 */
import { type Hex } from '../../core/bytes';
import { compareStrings } from '../../core/order';
import { type SidechainBlock } from '../../sidechain/block';
import { type SidechainChain } from '../../sidechain/chain';
import { type NodeContext } from '../ports';
import { type NodeMessage } from '../messages';

/** geth's `arriveTimeout`: how long an announced block may take to be pushed before it is fetched. */
export const ANNOUNCE_ARRIVE_MS = 500;
/** geth's `maxUncleDist`: announcements of blocks further below the head are not worth a fetch. */
export const MAX_UNCLE_DISTANCE = 7n;
/** geth's `maxKnownBlocks`: the blocks remembered per peer as known to it. */
export const MAX_KNOWN_BLOCKS = 1024;

/** The gossip's timer: an announcement's arrival time passed. */
export type GossipTimer = { kind: 'announced'; hash: Hex };

type Ctx = NodeContext<NodeMessage, GossipTimer>;

/** What the gossip needs of its node. */
export interface GossipHost {
  readonly chain: SidechainChain;
  /** A block came from `from`: import it; `relay`: propagate it when it imports (a fresh block, not catch-up). */
  receive(ctx: Ctx, block: SidechainBlock, from: string, relay: boolean): void;
  /** A block the node already has came again (what import would answer, without its work). */
  known(ctx: Ctx, block: SidechainBlock): void;
  /** The block is held waiting for its own parent (it arrived; no need to fetch it). */
  holds(hash: Hex): boolean;
  /** Fetch `hash` from `from` (asked again, of other peers, after a timeout: the node's fetcher). */
  fetch(ctx: Ctx, hash: Hex, from: string): void;
}

/**
 * Which peers are known to have which recent blocks: per block, one bit per peer (by its position
 * in the peer list). Bounded to the last MAX_KNOWN_BLOCKS blocks met: the oldest goes first.
 *
 * The bits of all remembered blocks live in one slab of MAX_KNOWN_BLOCKS rows, reused as a ring
 * in the order blocks were first met; a block's row is found by its hash. (A typed array per block
 * cost about 150 bytes of object headers for 14 bytes of bits: at 105 nodes, some 20 MB.)
 */
export class PeerKnowledge {
  private readonly position = new Map<string, number>();
  /** Hash → its row in `bits`. */
  private rows = new Map<Hex, number>();
  /** The hash of each row, in ring order (undefined: free). */
  private readonly hashOfRow: Array<Hex | undefined> = new Array(MAX_KNOWN_BLOCKS).fill(undefined);
  /** The row the next new block takes: the oldest once the ring is full. */
  private nextRow = 0;
  private readonly bits: Uint8Array;
  private readonly bytes: number;

  constructor(readonly peers: readonly string[]) {
    for (const [i, p] of peers.entries()) this.position.set(p, i);
    this.bytes = Math.ceil(peers.length / 8);
    this.bits = new Uint8Array(MAX_KNOWN_BLOCKS * this.bytes);
  }

  indexOf(peer: string): number {
    return this.position.get(peer) ?? -1;
  }

  /** Where `hash`'s bits start in the slab, taking the oldest row for a block met first now. */
  private rowOf(hash: Hex): number {
    let row = this.rows.get(hash);
    if (row === undefined) {
      row = this.nextRow;
      const old = this.hashOfRow[row];
      if (old !== undefined) this.rows.delete(old);
      this.bits.fill(0, row * this.bytes, (row + 1) * this.bytes);
      this.hashOfRow[row] = hash;
      this.rows.set(hash, row);
      this.nextRow = (row + 1) % MAX_KNOWN_BLOCKS;
    }
    return row * this.bytes;
  }

  /** `peer` has (or has been told of) `hash`. */
  mark(peer: string, hash: Hex): void {
    const i = this.position.get(peer);
    if (i !== undefined) this.bits[this.rowOf(hash) + (i >> 3)]! |= 1 << (i & 7);
  }

  knows(peer: string, hash: Hex): boolean {
    const i = this.position.get(peer);
    const row = this.rows.get(hash);
    return i !== undefined && row !== undefined && (this.bits[row * this.bytes + (i >> 3)]! & (1 << (i & 7))) !== 0;
  }

  /** The positions of the peers not known to have `hash`, in peer order. */
  without(hash: Hex): number[] {
    const row = this.rows.get(hash);
    const out: number[] = [];
    if (row === undefined) {
      for (let i = 0; i < this.peers.length; i++) out.push(i);
      return out;
    }
    const o = row * this.bytes;
    for (let i = 0; i < this.peers.length; i++) if ((this.bits[o + (i >> 3)]! & (1 << (i & 7))) === 0) out.push(i);
    return out;
  }

  /** Mark the peers at `positions` as knowing `hash`, and return them as a mask over the peer list. */
  markAll(hash: Hex, positions: readonly number[]): Uint8Array {
    const o = this.rowOf(hash);
    const mask = new Uint8Array(this.bytes);
    for (const i of positions) {
      this.bits[o + (i >> 3)]! |= 1 << (i & 7);
      mask[i >> 3]! |= 1 << (i & 7);
    }
    return mask;
  }

  /** A new connection to `peer`: nothing is known of what it has. */
  forgetPeer(peer: string): void {
    const i = this.position.get(peer);
    if (i === undefined) return;
    const clear = ~(1 << (i & 7));
    for (let o = i >> 3; o < this.bits.length; o += this.bytes) this.bits[o]! &= clear;
  }

  clear(): void {
    this.rows = new Map();
    this.hashOfRow.fill(undefined);
    this.nextRow = 0;
    this.bits.fill(0);
  }
}

export class BlockGossip {
  readonly knowledge: PeerKnowledge;
  /** Announced blocks not yet here: who announced them (in order), until their arrival time passes. */
  private announced = new Map<Hex, string[]>();
  /** Announced blocks being fetched: an answer to these is a fresh block (propagated on import). */
  private fetching = new Map<Hex, string[]>();

  constructor(
    private readonly self: string,
    readonly peers: readonly string[],
    private readonly host: GossipHost,
  ) {
    this.knowledge = new PeerKnowledge(peers);
  }

  /** Forget everything (a crash: none of it is on disk). */
  reset(): void {
    this.knowledge.clear();
    this.announced = new Map();
    this.fetching = new Map();
  }

  /** The node's timers were dropped (a re-plan): announcements waiting for theirs are forgotten. */
  dropPending(): void {
    this.announced = new Map();
  }

  /**
   * Connect to peers: `all` after a crash, else (at genesis) only to the peers after this node
   * in id order, so each pair connects once. Each connection starts with a status exchange.
   */
  connect(ctx: Ctx, all: boolean): void {
    for (const p of this.peers) if (all || compareStrings(p, this.self) > 0) this.connectTo(ctx, p);
  }

  /** A (new) connection to `peer`: nothing known of what it has; send it our status. */
  connectTo(ctx: Ctx, peer: string): void {
    this.knowledge.forgetPeer(peer);
    ctx.send(peer, this.status(false));
  }

  private status(answer: boolean): NodeMessage {
    const head = this.host.chain.head();
    return { kind: 'sc.status', head: head.block.hash, number: head.block.header.number, td: head.td, answer };
  }

  /**
   * Propagate a block this node just imported (or sealed): in full to ⌊√m⌋ of the m peers not
   * known to have it, picked at random, and by hash to the others.
   */
  propagate(ctx: Ctx, block: SidechainBlock): void {
    const hash = block.hash;
    const without = this.knowledge.without(hash);
    const m = without.length;
    if (m === 0) return;
    const k = Math.floor(Math.sqrt(m));
    // A partial Fisher–Yates shuffle: the first k of `without` become a uniform random choice.
    for (let i = 0; i < k; i++) {
      const j = i + Math.floor(ctx.random() * (m - i));
      const t = without[i]!;
      without[i] = without[j]!;
      without[j] = t;
    }
    const full = without.slice(0, k);
    const rest = without.slice(k);
    if (full.length > 0) ctx.multicast(this.peers, { kind: 'sc.newBlock', block }, this.knowledge.markAll(hash, full));
    if (rest.length > 0)
      ctx.multicast(
        this.peers,
        { kind: 'sc.newBlockHashes', hash, number: block.header.number },
        this.knowledge.markAll(hash, rest),
      );
  }

  /** Send `block` in full to `peer` (a Byzantine producer chooses who gets which block). */
  push(ctx: Ctx, peer: string, block: SidechainBlock): void {
    this.knowledge.mark(peer, block.hash);
    ctx.send(peer, { kind: 'sc.newBlock', block });
  }

  /** Whether an answer for `hash` is awaited for an announcement, and whom to ask next. */
  fetchSource(hash: Hex, attempt: number): string | null {
    const sources = this.fetching.get(hash);
    return sources && sources.length > 0 ? sources[attempt % sources.length]! : null;
  }

  /** The block arrived (or is no longer wanted): not awaited any more. */
  settled(hash: Hex): void {
    this.announced.delete(hash);
    this.fetching.delete(hash);
  }

  onMessage(from: string, msg: NodeMessage, ctx: Ctx): void {
    const chain = this.host.chain;
    switch (msg.kind) {
      case 'sc.newBlock':
      case 'sc.block': {
        const block = msg.block;
        this.knowledge.mark(from, block.hash);
        if (chain.has(block.hash)) {
          this.host.known(ctx, block);
          return;
        }
        // A pushed block is fresh; an answer is fresh only if it was fetched for an announcement.
        const relay = msg.kind === 'sc.newBlock' || this.fetching.has(block.hash);
        this.settled(block.hash);
        this.host.receive(ctx, block, from, relay);
        return;
      }
      case 'sc.newBlockHashes': {
        const hash = msg.hash;
        this.knowledge.mark(from, hash);
        if (chain.has(hash) || this.host.holds(hash) || this.fetching.has(hash)) return;
        if (msg.number + MAX_UNCLE_DISTANCE < chain.head().block.header.number) return;
        const announcers = this.announced.get(hash);
        if (announcers !== undefined) {
          if (!announcers.includes(from)) announcers.push(from);
          return;
        }
        this.announced.set(hash, [from]);
        ctx.setTimer(ANNOUNCE_ARRIVE_MS, { kind: 'announced', hash });
        return;
      }
      case 'sc.getBlock': {
        const b = chain.get(msg.hash);
        if (!b) return;
        this.knowledge.mark(from, msg.hash);
        ctx.send(from, { kind: 'sc.block', block: b.block });
        return;
      }
      case 'sc.status': {
        // A status that opens a connection is answered with ours (the handshake goes both ways).
        if (!msg.answer) {
          this.knowledge.forgetPeer(from);
          ctx.send(from, this.status(true));
        }
        this.knowledge.mark(from, msg.head);
        const head = chain.head();
        if (msg.td > head.td && !chain.has(msg.head) && !this.host.holds(msg.head))
          this.host.fetch(ctx, msg.head, from);
        return;
      }
      default:
        return;
    }
  }

  /** An announcement's arrival time passed: fetch the block from its first announcer if it is still missing. */
  onTimer(tag: GossipTimer, ctx: Ctx): void {
    const announcers = this.announced.get(tag.hash);
    if (announcers === undefined) return;
    this.announced.delete(tag.hash);
    if (this.host.chain.has(tag.hash) || this.host.holds(tag.hash)) return;
    this.fetching.set(tag.hash, announcers);
    this.host.fetch(ctx, tag.hash, announcers[0]!);
  }
}
