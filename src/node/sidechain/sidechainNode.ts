/**
 * A sidechain node (Bor): its view of the chain, block production when it is a producer, block
 * gossip with its peers, and the calls to its service node for spans, state-sync records and the
 * last checkpoint (the finality floor). It also answers its service node's header polls.
 *
 * This file is the node's ports, message and timer dispatch and lifecycle; the parts are beside
 * it: production, the block gossip (the eth protocol: blockGossip.ts), the orphan pool and parent
 * fetches, the checkpoint whitelist, the data fetched from the service node, the header answers
 * and the facts it reports.
 *
 * Durable state is the set of blocks it imported (a crash keeps the chain database); the in-memory
 * copies of spans and records are lost and fetched again.
 */
import { type Hex } from '../../core/bytes';
import { type SignatureScheme } from '../../core/signatureScheme';
import { type SidechainConfig } from '../../sidechain/config';
import { SidechainChain, type ImportResult, type Reorg, type SidechainGenesis } from '../../sidechain/chain';
import { type SidechainBlock } from '../../sidechain/block';
import { type SignedTx } from '../../sidechain/transaction';
import { type ProductionPlan } from '../../sidechain/producer';
import { type NodeContext, type SimNode } from '../ports';
import { type NodeMessage } from '../messages';
import { DEFAULT_SIDECHAIN_NODE_CONFIG, type SidechainIdentity, type SidechainNodeConfig } from './config';
import { CheckpointWhitelist } from './checkpointWhitelist';
import { headersAnswer } from './headerAnswers';
import { FETCH_TIMEOUT_MS, MAX_FETCH_ATTEMPTS, OrphanPool } from './orphanPool';
import { BlockProduction } from './production';
import { BlockGossip, type GossipHost, type GossipTimer } from './blockGossip';
import { SidechainTxIntake } from './txIntake';
import { ServiceData } from './serviceData';
import { blockFact, headFact, reorgObservation, startedObservation } from './sidechainFacts';

export type SidechainTimer =
  | { kind: 'produce'; parentHash: Hex; number: bigint }
  | { kind: 'retry'; block: SidechainBlock; from: string; relay: boolean }
  | { kind: 'fetch'; hash: Hex; attempt: number }
  | GossipTimer
  | { kind: 'pollService' };

const KNOWN: ImportResult = { status: 'known' };

/** The vanity bytes of an equivocating producer's second block (any other vanity makes another block). */
const EQUIVOCATION_VANITY = new Uint8Array(32).fill(0xee);

/** A block this node seals itself is never "from the future" for it. */
const OWN_BLOCK_FUTURE_S = 1_000_000n;

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

type Ctx = NodeContext<NodeMessage, SidechainTimer>;

export class SidechainNode implements SimNode<NodeMessage, SidechainTimer> {
  readonly id: string;
  readonly chain: SidechainChain;
  private data = new ServiceData();
  private readonly orphans = new OrphanPool();
  private readonly whitelist = new CheckpointWhitelist();
  private readonly production: BlockProduction | null;
  private readonly gossip: BlockGossip;
  private alive = true;
  /** Its connections to the peers are open (false before the first start and after a crash). */
  private connected = false;
  private started = false;
  /** Clients' transactions, the pool, and the operator's wishes for the next block. */
  readonly txs: SidechainTxIntake;

  constructor(
    readonly identity: SidechainIdentity,
    cfg: SidechainConfig,
    genesis: SidechainGenesis,
    scheme: SignatureScheme,
    readonly nodeCfg: SidechainNodeConfig = DEFAULT_SIDECHAIN_NODE_CONFIG,
    readonly hooks: SidechainHooks = {},
  ) {
    this.id = identity.id;
    this.chain = new SidechainChain(cfg, genesis, scheme);
    const p = identity.producer;
    this.production = p
      ? new BlockProduction(
          this.chain,
          [{ address: p.address, privateKey: p.privateKey }, ...(p.laterKeys ?? [])],
          nodeCfg.jitter,
        )
      : null;
    const host: GossipHost = {
      chain: this.chain,
      receive: (ctx, block, from, relay) => this.importBlock(ctx as Ctx, block, from, relay),
      known: (ctx, block) => this.hooks.onImport?.(this, block, KNOWN, ctx.nowMs()),
      holds: (hash) => this.orphans.holds(hash),
      fetch: (ctx, hash, from) => this.fetch(ctx as Ctx, hash, from),
    };
    this.txs = new SidechainTxIntake(this.chain);
    this.gossip = new BlockGossip(identity.id, identity.peers, host);
  }

  get isAlive(): boolean {
    return this.alive;
  }

  start(ctx: Ctx): void {
    this.alive = true;
    ctx.observe(startedObservation(this.chain, this.identity.serviceNode));
    ctx.setTimer(0, { kind: 'pollService' });
    this.scheduleProduction(ctx);
    if (!this.connected) {
      // At genesis each pair of nodes connects once; after a crash this node reconnects to all.
      this.gossip.connect(ctx, this.started);
      this.connected = true;
    } else {
      // A re-plan (restarted while alive): the timers of its fetches and announcements were dropped.
      this.gossip.dropPending();
      this.orphans.endFetches();
    }
    this.started = true;
  }

  crash(): void {
    this.alive = false;
    this.connected = false;
    this.data = new ServiceData();
    this.orphans.clear({ fetches: true });
    this.gossip.reset();
    this.whitelist.reset();
    this.txs.clear();
  }

  restart(ctx: Ctx): void {
    this.start(ctx);
  }

  private nowS(ctx: Ctx): bigint {
    return BigInt(Math.floor(ctx.nowMs() / 1000));
  }

  /** Plan this producer's block on the current head. */
  private scheduleProduction(ctx: Ctx): void {
    if (!this.production || !this.alive) return;
    const t = this.production.plan(ctx.nowMs(), () => ctx.random(), {
      delayS: (plan) => (this.hooks.productionDelayS ? this.hooks.productionDelayS(this, plan) : 0),
      sealEarly: (plan) => this.hooks.sealEarly?.(this, plan) ?? false,
      notBeforeS: (plan) => {
        const t = this.txs.nextBlockTime;
        return t && t.number === plan.number ? t.timeS : null;
      },
    });
    if (t) ctx.setTimer(t.afterMs, { kind: 'produce', parentHash: t.parentHash, number: t.number });
  }

  private produce(ctx: Ctx, parentHash: Hex): void {
    const plan = this.production?.due(parentHash) ?? null;
    if (!plan || !this.production) return;
    const me = plan.key;
    const txs = this.txs.candidates();
    const balances = this.txs.pendingOverrides();
    const data = this.data;
    const block = this.production.build(plan, {
      span: (id) => data.span(id),
      stateSyncs: (fromId, toTimeS) => data.stateSyncs(fromId, toTimeS),
      txs,
      balances,
    });
    ctx.observe({
      kind: 'sidechain.produced',
      number: block.header.number,
      hash: block.hash,
      signer: me.address,
      difficulty: block.header.difficulty,
    });
    const result = this.chain.import(block, this.nowS(ctx) + OWN_BLOCK_FUTURE_S, ctx.nowMs());
    this.afterImport(ctx, block, result, '', false);
    const twin = this.hooks.shouldEquivocate?.(this, block)
      ? this.production.build(plan, {
          span: () => block.body.spanCommit,
          stateSyncs: () => block.body.stateSyncs,
          txs,
          balances,
          // The same block with other vanity bytes: a second, different block at the height.
          vanity: EQUIVOCATION_VANITY,
        })
      : null;
    if (twin) {
      // A Byzantine producer: each half of its peers gets one of the two blocks, in full.
      ctx.observe({ kind: 'sidechain.equivocated', number: block.header.number, a: block.hash, b: twin.hash });
      for (const [i, p] of this.identity.peers.entries()) this.gossip.push(ctx, p, i % 2 === 0 ? block : twin);
    } else if (result.status === 'imported') {
      this.gossip.propagate(ctx, block);
    }
  }

  private importBlock(ctx: Ctx, block: SidechainBlock, from: string, relay: boolean): void {
    this.afterImport(ctx, block, this.chain.import(block, this.nowS(ctx), ctx.nowMs()), from, relay);
  }

  /** What follows an import; `relay`: a fresh block from a peer, passed on once it imports. */
  private afterImport(ctx: Ctx, block: SidechainBlock, result: ImportResult, from: string, relay: boolean): void {
    this.hooks.onImport?.(this, block, result, ctx.nowMs());
    switch (result.status) {
      case 'imported': {
        const stored = this.chain.get(block.hash)!;
        const parent = this.chain.get(block.header.parentHash)!;
        const run = { parentAccounts: parent.accounts, accounts: stored.accounts, outcomes: stored.outcomes };
        ctx.observe({ kind: 'sidechain.imported', block: blockFact(block, run), head: headFact(this.chain) });
        if (relay) this.gossip.propagate(ctx, block);
        if (result.reorg) ctx.observe(reorgObservation(result.reorg));
        if (result.newHead) {
          this.headMoved(ctx, result.reorg);
          this.scheduleProduction(ctx);
        }
        for (const o of this.orphans.release(block.hash)) this.importBlock(ctx, o.block, o.from, o.relay);
        return;
      }
      case 'orphan': {
        this.orphans.hold(result.parentHash, { block, from, relay });
        // Its ancestors come from the peer that sent it (the eth downloader syncs from such a peer):
        // the oldest one missing, as its parent may already be held (orphanPool.ts).
        if (from !== '') this.fetch(ctx, this.orphans.missingAncestor(result.parentHash), from);
        return;
      }
      case 'future':
        ctx.setTimer(Math.max(1, Number(result.retryAtS) * 1000 - ctx.nowMs()), {
          kind: 'retry',
          block,
          from,
          relay,
        });
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

  onMessage(from: string, msg: NodeMessage, ctx: Ctx): void {
    if (!this.alive) return;
    switch (msg.kind) {
      case 'sc.newBlock':
      case 'sc.newBlockHashes':
      case 'sc.getBlock':
      case 'sc.block':
      case 'sc.status':
        this.gossip.onMessage(from, msg, ctx);
        return;
      case 'sc.getHeaders':
        ctx.send(from, headersAnswer(this.chain, msg.from, this.nodeCfg.maxHeadersPerAnswer));
        return;
      case 'svc.span':
        if (msg.span) this.data.addSpan(msg.id, msg.span);
        return;
      case 'svc.stateSyncs':
        this.data.addRecords(msg.records);
        return;
      case 'svc.checkpoint':
        if (msg.checkpoint)
          this.whitelist.apply(this.chain, msg.checkpoint, ctx.nowMs(), {
            observe: (o) => ctx.observe(o),
            replan: (reorg) => {
              this.headMoved(ctx, reorg);
              this.production?.forget();
              this.scheduleProduction(ctx);
            },
            // Blocks waiting for their parents came from peers (the checkpointed fork, most likely): kept.
            rewind: (n) => this.rewind(ctx, n, { keepOrphans: true }),
          });
        return;
      case 'sc.txs':
        this.txs.receive(msg.txs);
        return;
      case 'sc.submit': {
        const { verdict, gossip, admission } = this.txs.submit(msg.raw);
        ctx.observe({ kind: 'sidechain.tx', ...verdict, origin: 'client', ...(admission ? { admission } : {}) });
        if (gossip) ctx.broadcast(this.identity.peers, { kind: 'sc.txs', txs: [gossip] });
        return;
      }
      case 'op.setBalance':
        this.txs.setBalance({ address: msg.address, balance: msg.balance });
        return;
      case 'op.nextBlockTime':
        this.txs.nextBlockTime = { number: this.chain.head().block.header.number + 1n, timeS: msg.timeS };
        this.production?.forget();
        this.scheduleProduction(ctx);
        return;
      case 'op.setHead': {
        // The operator rewinds this node; the next block its peers gossip brings it back (its ancestors fetched).
        const r = this.rewind(ctx, msg.number);
        ctx.observe({
          kind: 'sidechain.setHead',
          number: msg.number,
          removed: r.ok ? r.removed : null,
          error: r.ok ? null : r.error,
          head: headFact(this.chain),
        });
        return;
      }
      default:
        return;
    }
  }

  /** Ask `from` for a block, unless a fetch of it is under way; asked again after a timeout (orphanPool.ts). */
  private fetch(ctx: Ctx, hash: Hex, from: string, attempt = 1): void {
    if (!this.orphans.startFetch(hash)) return;
    ctx.send(from, { kind: 'sc.getBlock', hash });
    ctx.setTimer(FETCH_TIMEOUT_MS, { kind: 'fetch', hash, attempt });
  }

  /** The head moved: the pool follows it, and what a reorg took out of the chain goes back to the peers. */
  private headMoved(ctx: Ctx, reorg: Reorg | null): void {
    this.gossipAgain(ctx, this.txs.headMoved(reorg));
  }

  private gossipAgain(ctx: Ctx, txs: SignedTx[]): void {
    for (const tx of txs) ctx.observe({ kind: 'sidechain.tx', hash: tx.hash, ok: true, error: null, origin: 'reorg' });
    if (txs.length) ctx.broadcast(this.identity.peers, { kind: 'sc.txs', txs });
  }

  private onFetchTimeout(ctx: Ctx, hash: Hex, attempt: number): void {
    this.orphans.endFetch(hash);
    // The peers that announced it are asked in turn; a missing parent, every peer in turn.
    const source = this.gossip.fetchSource(hash, attempt);
    // Arrived (stored, or held as an orphan itself), or no longer wanted.
    if (this.chain.has(hash) || this.orphans.holds(hash) || (!this.orphans.wants(hash) && source === null)) return;
    const peers = this.identity.peers;
    if (attempt >= MAX_FETCH_ATTEMPTS || peers.length === 0) {
      this.gossip.settled(hash);
      return;
    }
    this.fetch(ctx, hash, source ?? peers[attempt % peers.length]!, attempt + 1);
  }

  /** A partition between this node and `peer` healed: it opens the connection again (a status exchange). */
  onConnect(peer: string, ctx: Ctx): void {
    if (this.alive) this.gossip.connectTo(ctx, peer);
  }

  /** Forget the blocks above `n` (every branch) and plan production on the new head. */
  private rewind(ctx: Ctx, n: bigint, opts: { keepOrphans?: boolean } = {}): ReturnType<SidechainChain['rewindTo']> {
    const forgotten = this.txs.above(n);
    const r = this.chain.rewindTo(n);
    if (r.ok) {
      this.gossipAgain(ctx, this.txs.rewound(forgotten));
      if (!opts.keepOrphans) this.orphans.clear({ fetches: false });
      this.production?.forget();
      this.scheduleProduction(ctx);
    }
    return r;
  }

  onTimer(tag: SidechainTimer, ctx: Ctx): void {
    if (!this.alive) return;
    switch (tag.kind) {
      case 'produce':
        this.produce(ctx, tag.parentHash);
        return;
      case 'retry':
        this.importBlock(ctx, tag.block, tag.from, tag.relay);
        return;
      case 'fetch':
        this.onFetchTimeout(ctx, tag.hash, tag.attempt);
        return;
      case 'announced':
        this.gossip.onTimer(tag, ctx);
        return;
      case 'pollService': {
        for (const m of this.data.polls(this.chain.head().state)) ctx.send(this.identity.serviceNode, m);
        ctx.setTimer(this.nodeCfg.servicePollMs, { kind: 'pollService' });
        return;
      }
    }
  }
}
