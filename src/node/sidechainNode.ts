/**
 * A sidechain node (Bor): its view of the chain, block production when it is a producer, block
 * gossip with its peers, and the calls to its service node for spans, state-sync records and the
 * last checkpoint (the finality floor). It also answers its service node's header polls.
 *
 * Durable state is the set of blocks it imported (a crash keeps the chain database); the in-memory
 * caches of spans and records are lost and fetched again.
 */
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { type SignatureScheme } from '../core/signatureScheme';
import { type SidechainConfig } from '../sidechain/config';
import { SidechainChain, type ImportResult, type Reorg } from '../sidechain/chain';
import { type SidechainBlock, type SidechainTx } from '../sidechain/block';
import { decodeValidatorBytes, headerValidatorBytes } from '../sidechain/header';
import { buildBlock, jitterBoundMs, planProduction, type ProductionPlan } from '../sidechain/producer';
import { type CommittedSpan, type SpanProducer, type StateSyncRecord, currentSpan } from '../sidechain/systemState';
import { type NodeContext, type SimNode } from './ports';
import { type NodeMessage } from './messages';
import { type HeadFact, type SidechainBlockFact } from './observations';
import { type HeaderSummary } from '../bridge/sidechainView';

export type SidechainTimer =
  | { kind: 'produce'; parentHash: Hex; number: bigint }
  | { kind: 'retry'; block: SidechainBlock; from: string }
  | { kind: 'fetch'; hash: Hex; attempt: number }
  | { kind: 'status' }
  | { kind: 'pollService' };

export interface SidechainNodeConfig {
  statusMs: number;
  servicePollMs: number;
  maxHeadersPerAnswer: number;
  /** Clique-style random delay for out-of-turn producers (off by default, as in Bor). */
  jitter: boolean;
}

/** A missing parent is asked for again after this long, at most this many times in all. */
const FETCH_TIMEOUT_MS = 2_000;
const MAX_FETCH_ATTEMPTS = 6;

/** Bor's cap on a rewind after a checkpoint mismatch (`maxRewindLen`). */
const MAX_REWIND = 126n;
/** Bor's checkpoint fetch-and-verify period: at most one mismatch rewind per this long. */
const CHECKPOINT_RECHECK_MS = 100_000;

export const DEFAULT_SIDECHAIN_NODE_CONFIG: SidechainNodeConfig = {
  statusMs: 4_000,
  servicePollMs: 4_000,
  maxHeadersPerAnswer: 256,
  jitter: false,
};

export interface SidechainIdentity {
  id: string;
  /** Producers have a key; followers do not. */
  producer: { address: Address; privateKey: Hex } | null;
  peers: string[];
  /** The service node this node asks for spans and records (its local Heimdall). */
  serviceNode: string;
}

/** Hooks for faults and oracles. */
export interface SidechainHooks {
  /** Offline or slow producer: return null to skip, or extra seconds to wait. */
  productionDelayS?(node: SidechainNode, plan: ProductionPlan): number | null;
  /** Equivocation: seal a second, different block at the same height for half of the peers. */
  shouldEquivocate?(node: SidechainNode, block: SidechainBlock): boolean;
  /** Early seal: a backup seals as if it were in turn (its block must be refused). */
  sealEarly?(node: SidechainNode, plan: ProductionPlan): boolean;
  onImport?(node: SidechainNode, block: SidechainBlock, result: ImportResult, nowMs: number): void;
}

export class SidechainNode implements SimNode<NodeMessage, SidechainTimer> {
  readonly id: string;
  readonly chain: SidechainChain;
  private spans = new Map<bigint, CommittedSpan>();
  private records = new Map<bigint, StateSyncRecord>();
  private orphans = new Map<Hex, Array<{ block: SidechainBlock; from: string }>>();
  private alive = true;
  /** Pending user transactions (the workload's sidechain traffic). */
  txpool: SidechainTx[] = [];

  constructor(
    readonly identity: SidechainIdentity,
    cfg: SidechainConfig,
    genesis: { timeS: bigint; producers: SpanProducer[] },
    scheme: SignatureScheme,
    readonly nodeCfg: SidechainNodeConfig = DEFAULT_SIDECHAIN_NODE_CONFIG,
    readonly hooks: SidechainHooks = {},
  ) {
    this.id = identity.id;
    this.chain = new SidechainChain(cfg, genesis, scheme);
  }

  get isAlive(): boolean {
    return this.alive;
  }

  start(ctx: NodeContext<NodeMessage, SidechainTimer>): void {
    this.alive = true;
    const g = this.chain.genesis;
    ctx.observe({
      kind: 'sidechain.started',
      genesis: {
        hash: g.block.hash,
        time: g.block.header.time,
        difficulty: g.block.header.difficulty,
        txHash: g.block.header.txHash,
        receiptHash: g.block.header.receiptHash,
        producers: g.state.initialProducers.map((p) => ({ id: p.id, signer: p.address, power: p.power })),
      },
      head: this.headFact(),
    });
    ctx.setTimer(0, { kind: 'pollService' });
    ctx.setTimer(this.nodeCfg.statusMs, { kind: 'status' });
    this.scheduleProduction(ctx);
  }

  crash(): void {
    this.alive = false;
    this.spans = new Map();
    this.records = new Map();
    this.orphans = new Map();
    this.fetching = new Set();
    this.lastMismatchRewindMs = -Infinity;
    this.txpool = [];
  }

  restart(ctx: NodeContext<NodeMessage, SidechainTimer>): void {
    this.start(ctx);
  }

  private nowS(ctx: NodeContext<NodeMessage, SidechainTimer>): bigint {
    return BigInt(Math.floor(ctx.nowMs() / 1000));
  }

  /** Plan this producer's block on the current head. */
  private scheduleProduction(ctx: NodeContext<NodeMessage, SidechainTimer>): void {
    const me = this.identity.producer;
    if (!me || !this.alive) return;
    const head = this.chain.head();
    const plan = planProduction(this.chain.cfg, head, me.address);
    if (!plan) return;
    const extra = this.hooks.productionDelayS ? this.hooks.productionDelayS(this, plan) : 0;
    if (extra === null) return;
    const early = this.hooks.sealEarly?.(this, plan) ?? false;
    const timeS = early ? head.block.header.time + BigInt(this.chain.cfg.periodS) : plan.timeS + BigInt(extra);
    let releaseMs = Number(timeS) * 1000;
    if (this.nodeCfg.jitter && plan.succession > 0)
      releaseMs += Math.floor(ctx.random() * jitterBoundMs(head.snapshot.validatorSet.size));
    ctx.setTimer(Math.max(0, releaseMs - ctx.nowMs()), {
      kind: 'produce',
      parentHash: plan.parentHash,
      number: plan.number,
    });
    this.planned = { ...plan, timeS };
  }

  private planned: ProductionPlan | null = null;
  /** Parents being fetched (with a timeout armed). */
  private fetching = new Set<Hex>();
  private lastMismatchRewindMs = -Infinity;

  private headFact(): HeadFact {
    const h = this.chain.head().block;
    return { hash: h.hash, number: h.header.number };
  }

  private produce(ctx: NodeContext<NodeMessage, SidechainTimer>, parentHash: Hex): void {
    const me = this.identity.producer;
    const plan = this.planned;
    if (!me || !plan || plan.parentHash !== parentHash || this.chain.head().block.hash !== parentHash) return;
    const txs = this.txpool.splice(0, 50);
    const block = buildBlock(
      this.chain,
      plan,
      me.privateKey,
      me.address,
      {
        span: (id) => this.spans.get(id) ?? null,
        stateSyncs: (fromId, toTimeS) => {
          const out: StateSyncRecord[] = [];
          for (let id = fromId; ; id++) {
            const r = this.records.get(id);
            if (!r || !(r.timeS < toTimeS)) break;
            out.push(r);
          }
          return out;
        },
        txs,
      },
      plan.timeS,
    );
    ctx.observe({
      kind: 'sidechain.produced',
      number: block.header.number,
      hash: block.hash,
      signer: me.address,
      difficulty: block.header.difficulty,
    });
    const result = this.chain.import(block, this.nowS(ctx) + 1_000_000n, ctx.nowMs());
    this.afterImport(ctx, block, result, '');
    const twin = this.hooks.shouldEquivocate?.(this, block)
      ? buildBlock(
          this.chain,
          plan,
          me.privateKey,
          me.address,
          {
            span: () => block.body.spanCommit,
            stateSyncs: () => block.body.stateSyncs,
            txs: [...txs, { from: me.address, to: me.address, value: 0n, nonce: block.header.number }],
          },
          plan.timeS,
        )
      : null;
    if (twin) {
      ctx.observe({ kind: 'sidechain.equivocated', number: block.header.number, a: block.hash, b: twin.hash });
      for (const [i, p] of this.identity.peers.entries())
        ctx.send(p, { kind: 'sc.block', block: i % 2 === 0 ? block : twin });
    } else {
      ctx.broadcast(this.identity.peers, { kind: 'sc.block', block });
    }
  }

  private importBlock(ctx: NodeContext<NodeMessage, SidechainTimer>, block: SidechainBlock, from: string): void {
    const result = this.chain.import(block, this.nowS(ctx), ctx.nowMs());
    this.afterImport(ctx, block, result, from);
  }

  private afterImport(
    ctx: NodeContext<NodeMessage, SidechainTimer>,
    block: SidechainBlock,
    result: ImportResult,
    from: string,
  ): void {
    this.hooks.onImport?.(this, block, result, ctx.nowMs());
    switch (result.status) {
      case 'imported': {
        ctx.observe({ kind: 'sidechain.imported', block: blockFact(block), head: this.headFact() });
        if (from !== '') ctx.broadcast(this.identity.peers, { kind: 'sc.block', block }, from);
        if (result.reorg) recordReorg(ctx, result.reorg);
        if (result.newHead) this.scheduleProduction(ctx);
        const waiting = this.orphans.get(block.hash);
        if (waiting) {
          this.orphans.delete(block.hash);
          for (const o of waiting) this.importBlock(ctx, o.block, o.from);
        }
        return;
      }
      case 'orphan': {
        const list = this.orphans.get(result.parentHash) ?? [];
        if (list.length < 64 && !list.some((o) => o.block.hash === block.hash)) list.push({ block, from });
        this.orphans.set(result.parentHash, list);
        if (from !== '') {
          ctx.send(from, { kind: 'sc.getBlock', hash: result.parentHash });
          this.armFetch(ctx, result.parentHash, 1);
        }
        return;
      }
      case 'future':
        ctx.setTimer(Math.max(1, Number(result.retryAtS) * 1000 - ctx.nowMs()), { kind: 'retry', block, from });
        return;
      case 'rejected':
        ctx.observe({
          kind: 'sidechain.rejected',
          number: block.header.number,
          hash: block.hash,
          reason: result.reason,
        });
        return;
      case 'known':
        return;
    }
  }

  onMessage(from: string, msg: NodeMessage, ctx: NodeContext<NodeMessage, SidechainTimer>): void {
    if (!this.alive) return;
    switch (msg.kind) {
      case 'sc.block':
        // Most copies of a gossiped block arrive after the first: what import would answer, without its work.
        if (this.chain.has(msg.block.hash)) {
          this.hooks.onImport?.(this, msg.block, KNOWN, ctx.nowMs());
          return;
        }
        this.importBlock(ctx, msg.block, from);
        return;
      case 'sc.getBlock': {
        const b = this.chain.get(msg.hash);
        if (b) ctx.send(from, { kind: 'sc.block', block: b.block });
        return;
      }
      case 'sc.status': {
        const head = this.chain.head();
        if (msg.td > head.td && !this.chain.has(msg.head)) ctx.send(from, { kind: 'sc.getBlock', hash: msg.head });
        return;
      }
      case 'sc.getHeaders': {
        ctx.send(from, this.headersFrom(msg.from));
        return;
      }
      case 'svc.span':
        if (msg.span) this.spans.set(msg.id, msg.span);
        return;
      case 'svc.stateSyncs':
        for (const r of msg.records) this.records.set(r.id, r);
        return;
      case 'svc.checkpoint':
        if (msg.checkpoint) this.whitelistCheckpoint(ctx, msg.checkpoint);
        return;
      case 'op.setHead': {
        // The operator rewinds this node; its peers' status messages bring it back.
        const r = this.rewind(ctx, msg.number);
        ctx.observe({
          kind: 'sidechain.setHead',
          number: msg.number,
          removed: r.ok ? r.removed : null,
          error: r.ok ? null : r.error,
          head: this.headFact(),
        });
        return;
      }
      default:
        return;
    }
  }

  /**
   * Bor's checkpoint whitelisting (sidechain.md §3.2, borVerify): the acked checkpoint's end block
   * becomes the finality floor only if this node's canonical chain has the checkpoint's root hash
   * over its range. A node still below the end waits (errChainOutOfSync). On a mismatch the node is
   * on a losing fork: it switches to the checkpointed fork if it stores it; otherwise it rewinds to
   * its floor (else the block before the range), at most 126 blocks below its head, and its peers
   * bring the checkpointed chain back.
   */
  private whitelistCheckpoint(
    ctx: NodeContext<NodeMessage, SidechainTimer>,
    cp: { start: bigint; end: bigint; rootHash: Hex },
  ): void {
    const floor = this.chain.finalityFloor();
    if (floor && floor.number >= cp.end) return;
    const head = this.chain.head().block.header.number;
    if (head < cp.end) return;
    const local = this.chain.rootHash(cp.start, cp.end);
    // A root this node cannot compute (a range over Bor's limit) is neither whitelisted nor a mismatch.
    if (!local.ok) return;
    const root = cp.rootHash.replace(/^0x/i, '').toLowerCase();
    if (local.root === root) {
      this.chain.setFinalized(cp.end);
      const now = this.chain.finalityFloor();
      if (now && (!floor || now.number !== floor.number))
        ctx.observe({ kind: 'sidechain.finalized', number: now.number, hash: now.hash });
      return;
    }
    // The checkpointed fork lost the fork choice here (a reorg below a checkpoint voted but not yet
    // acked). If its blocks are stored, switch back to it and make it final (Bor re-inserts them).
    const fork = this.chain.findCheckpointFork(cp.start, cp.end, root);
    if (fork) {
      const reorg = this.chain.finalizeFork(fork, ctx.nowMs());
      ctx.observe({
        kind: 'sidechain.checkpointFork',
        start: cp.start,
        end: cp.end,
        fork: fork.block.hash,
        head: this.headFact(),
      });
      if (reorg) recordReorg(ctx, reorg);
      this.planned = null;
      this.scheduleProduction(ctx);
      return;
    }
    // Bor checks its checkpoint every 100 s; rewinding at every poll would undo the catch-up.
    if (ctx.nowMs() - this.lastMismatchRewindMs < CHECKPOINT_RECHECK_MS) return;
    this.lastMismatchRewindMs = ctx.nowMs();
    let target = floor ? floor.number : cp.start - 1n;
    if (target < head - MAX_REWIND) target = head - MAX_REWIND;
    // Blocks waiting for their parents came from peers (the checkpointed fork, most likely): kept.
    const r = target >= 0n && target < head ? this.rewind(ctx, target, { keepOrphans: true }) : null;
    ctx.observe({
      kind: 'sidechain.checkpointMismatch',
      start: cp.start,
      end: cp.end,
      headBefore: head,
      rewoundTo: r?.ok ? target : null,
      removed: r?.ok ? r.removed : 0,
      head: this.headFact(),
    });
  }

  /**
   * A parent asked for must arrive: a lost request or answer would otherwise stall the walk back
   * to a known block for good (nothing asks again until a new block needs the same parent). Like
   * geth's block fetcher, ask again after a timeout, each time another peer, a few times.
   */
  private armFetch(ctx: NodeContext<NodeMessage, SidechainTimer>, hash: Hex, attempt: number): void {
    if (this.fetching.has(hash)) return;
    this.fetching.add(hash);
    ctx.setTimer(FETCH_TIMEOUT_MS, { kind: 'fetch', hash, attempt });
  }

  private onFetchTimeout(ctx: NodeContext<NodeMessage, SidechainTimer>, hash: Hex, attempt: number): void {
    this.fetching.delete(hash);
    // Arrived (stored, or held as an orphan itself), or no longer wanted.
    if (this.chain.has(hash) || this.holdsOrphan(hash) || !this.orphans.has(hash)) return;
    if (attempt >= MAX_FETCH_ATTEMPTS) return;
    const peers = this.identity.peers;
    if (peers.length === 0) return;
    ctx.send(peers[attempt % peers.length]!, { kind: 'sc.getBlock', hash });
    this.armFetch(ctx, hash, attempt + 1);
  }

  /** Is the block `hash` waiting in the orphan pool (it arrived; its own parent is missing)? */
  private holdsOrphan(hash: Hex): boolean {
    for (const list of this.orphans.values()) if (list.some((o) => o.block.hash === hash)) return true;
    return false;
  }

  /** Forget the blocks above `n` (every branch) and plan production on the new head. */
  private rewind(
    ctx: NodeContext<NodeMessage, SidechainTimer>,
    n: bigint,
    opts: { keepOrphans?: boolean } = {},
  ): ReturnType<SidechainChain['rewindTo']> {
    const r = this.chain.rewindTo(n);
    if (r.ok) {
      if (!opts.keepOrphans) this.orphans = new Map();
      this.planned = null;
      this.scheduleProduction(ctx);
    }
    return r;
  }

  private headersFrom(from: bigint): NodeMessage {
    const head = this.chain.head().block.header.number;
    const start = from > head ? head : from;
    const headers: HeaderSummary[] = [];
    for (let n = start; n <= head && headers.length < this.nodeCfg.maxHeadersPerAnswer; n++)
      headers.push(summaryOf(this.chain.byNumber(n)!.block));
    const anchorBlock = start > 0n ? this.chain.byNumber(start - 1n) : undefined;
    const reported = headers.length ? headers[headers.length - 1]!.number : head;
    return {
      kind: 'sc.headers',
      anchor: anchorBlock ? { number: start - 1n, hash: anchorBlock.block.hash } : null,
      headers,
      head: reported,
    };
  }

  onTimer(tag: SidechainTimer, ctx: NodeContext<NodeMessage, SidechainTimer>): void {
    if (!this.alive) return;
    switch (tag.kind) {
      case 'produce':
        this.produce(ctx, tag.parentHash);
        return;
      case 'retry':
        this.importBlock(ctx, tag.block, tag.from);
        return;
      case 'fetch':
        this.onFetchTimeout(ctx, tag.hash, tag.attempt);
        return;
      case 'status': {
        const head = this.chain.head();
        ctx.broadcast(this.identity.peers, {
          kind: 'sc.status',
          head: head.block.hash,
          number: head.block.header.number,
          td: head.td,
        });
        ctx.setTimer(this.nodeCfg.statusMs, { kind: 'status' });
        return;
      }
      case 'pollService': {
        const state = this.chain.head().state;
        const next = currentSpan(state).id + 1n;
        if (!this.spans.has(next)) ctx.send(this.identity.serviceNode, { kind: 'svc.getSpan', id: next });
        ctx.send(this.identity.serviceNode, { kind: 'svc.getStateSyncs', fromId: state.lastStateId + 1n });
        ctx.send(this.identity.serviceNode, { kind: 'svc.getCheckpoint' });
        ctx.setTimer(this.nodeCfg.servicePollMs, { kind: 'pollService' });
        return;
      }
    }
  }
}

/**
 * A block's header summary (what `sc.headers` answers carry): immutable, so made once per block
 * and shared by every answer that includes it (each poll re-sends the last 32 headers).
 */
const summaries = new WeakMap<SidechainBlock, HeaderSummary>();

const KNOWN: ImportResult = { status: 'known' };

function summaryOf(block: SidechainBlock): HeaderSummary {
  let s = summaries.get(block);
  if (s === undefined) {
    const h = block.header;
    s = { number: h.number, hash: block.hash, time: h.time, txHash: h.txHash, receiptHash: h.receiptHash };
    summaries.set(block, s);
  }
  return s;
}

function recordReorg(ctx: NodeContext<NodeMessage, SidechainTimer>, r: Reorg): void {
  ctx.observe({
    kind: 'sidechain.reorg',
    depth: r.depth,
    oldHead: r.oldHead,
    newHead: r.newHead,
    ancestor: r.commonAncestor,
  });
}

/** What a block's header says and its body carries (no rule applied: the oracles judge it). */
function blockFact(block: SidechainBlock): SidechainBlockFact {
  const h = block.header;
  let announced: SidechainBlockFact['announced'] = null;
  try {
    const bytes = headerValidatorBytes(h);
    if (bytes.length > 0) announced = decodeValidatorBytes(bytes);
  } catch {
    announced = null;
  }
  const span = block.body.spanCommit;
  return {
    number: h.number,
    hash: block.hash,
    parentHash: h.parentHash,
    time: h.time,
    difficulty: h.difficulty,
    signer: block.signer,
    txHash: h.txHash,
    receiptHash: h.receiptHash,
    stateSyncs: block.body.stateSyncs.map((r) => ({ id: r.id, timeS: r.timeS })),
    spanCommit: span
      ? {
          id: span.id,
          startBlock: span.startBlock,
          endBlock: span.endBlock,
          producers: span.producers.map((p) => ({ id: p.id, signer: p.address, power: p.power })),
        }
      : null,
    announced,
  };
}
