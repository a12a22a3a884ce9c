/**
 * The sidechain domain: one sidechain node per validator, the producer faults (offline, slow,
 * equivocating, early seal, isolated; `inTurn` targets resolve here, on the best local head), the
 * crashes, pauses, skews and partitions of sidechain nodes, and the sidechain workload: wallets that
 * sign transfers and send them to a node, as eth_sendRawTransaction does on a devnet (one path),
 * and a client that reads the nodes' JSON-RPC (rpcProbe.ts).
 * It runs inline or in a worker thread (sim/workers/sidechainDomain.worker.ts); what the rest of the
 * run learns from it is plain data: cross-domain messages at barriers and `report()` at the end.
 */
import { type Address } from '../../src/core/address';
import { type Hex } from '../../src/core/bytes';
import { compareBig, compareStrings } from '../../src/core/order';
import { SidechainNode } from '../../src/node/sidechain/sidechainNode';
import { DEFAULT_SIDECHAIN_NODE_CONFIG } from '../../src/node/sidechain/config';
import { NET_DELIVER } from '../env/network';
import { type Rng } from '../env/rng';
import { type NetworkStats } from '../env/network';
import { type Scenario } from '../scenario/scenario';
import { type FaultSite, type ImportListener, type ProducerFlag, type SidechainTarget } from '../faults/targets';

import { type RunSetup, runSetup } from './runSetup';
import { Domain, type DomainOptions } from './domain';
import { type IndexedFaultFired } from './faultBook';
import { RPC_PROBE_EVERY_MS, rpcProbe } from '../workload/rpcProbe';
import { type SidechainClientPort, SidechainWallets, type SidechainWorkloadEvent } from '../workload/sidechainWallets';

/** A reorg as a node saw it (atMs is the node's clock: epoch-based, skew included). */
export interface ReorgRecord {
  node: string;
  atMs: number;
  depth: number;
  oldHead: Hex;
  newHead: Hex;
  commonAncestor: string;
}

/** A block of a node's canonical chain (for reports and oracles). */
export interface CanonicalBlockInfo {
  number: bigint;
  hash: Hex;
  signer: Address;
  difficulty: bigint;
  /** Header time, seconds. */
  time: bigint;
  /** Producers in the parent's snapshot (the producer count this block's difficulty is checked against). */
  producers: number;
  /** Produced by a backup (difficulty below the producer count). */
  backup: boolean;
}

/**
 * A block a node stored that is not on its canonical chain: a losing branch of a fork (for the
 * fork trees of report.html). Its parent is canonical or another side block.
 */
export interface SideBlockInfo {
  number: bigint;
  hash: Hex;
  parentHash: Hex;
  signer: Address;
  difficulty: bigint;
  /** Produced by a backup (difficulty below the parent snapshot's producer count). */
  backup: boolean;
  /** When this node first imported it (the node's clock: epoch-based, skew included). */
  importedAtMs: number;
}

/** At most this many side blocks per node go into the report (the highest numbers; the rest are counted). */
export const MAX_SIDE_BLOCKS = 400;

/** What the end-of-run report may be asked to compute on the best node's chain. */
export interface SidechainReportQuery {
  /** Checkpoint root hashes of these ranges (null where the chain does not reach or the rules refuse). */
  rootRanges?: Array<{ start: bigint; end: bigint }>;
}

/** Everything the main thread learns from the sidechain domain at the end of a run: plain data. */
export interface SidechainReport {
  /**
   * Per node, in node order: head and canonical chain (genesis excluded), and the side blocks it
   * stored (by number then hash; the last MAX_SIDE_BLOCKS, `sideOmitted` counts the older ones).
   */
  nodes: Array<{
    node: string;
    alive: boolean;
    head: { number: bigint; hash: Hex; td: bigint };
    canonical: CanonicalBlockInfo[];
    side: SideBlockInfo[];
    sideOmitted: number;
  }>;
  /** The node with the highest head (the first one on ties). */
  bestNode: string;
  sidechainBlocks: number;
  /** User transfers on the best node's canonical chain. */
  sidechainTransfers: number;
  reorgs: ReorgRecord[];
  maxReorgDepth: number;
  backupBlocks: number;
  /** Answers to `SidechainReportQuery.rootRanges`, in the same order. */
  roots: Array<{ start: bigint; end: bigint; root: Hex | null }>;
  /** Head height per node at each sample time. */
  samples: { timeMs: number[]; height: Record<string, number[]> };
  faultsFired: IndexedFaultFired[];
  network: NetworkStats;
  events: number;
  simulatedMs: number;
  traceDigest: Hex;
}

export class SidechainDomain extends Domain implements SidechainTarget {
  readonly sidechainNodes: SidechainNode[] = [];
  /** Producer faults in force, by 1-based validator index. */
  readonly producerFaults = new Map<number, Set<ProducerFlag>>();
  readonly slowProducerDelayS = new Map<number, number>();
  /** Faults that act when a node imports a block (by fault key; see setImportListener). */
  private readonly importListeners = new Map<string, ImportListener>();
  private readonly heightSamples: { timeMs: number[]; height: Record<string, number[]> } = { timeMs: [], height: {} };
  private readonly wallets: SidechainWallets;

  constructor(scenario: Scenario, seed: number, opts: DomainOptions, setup: RunSetup = runSetup(scenario, seed)) {
    super('sidechain', scenario, seed, setup, opts);
    const { keys, scIds, svcIds } = setup;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const idx = k.index;
      const node = new SidechainNode(
        {
          id: scIds[i]!,
          producer: {
            address: k.signer,
            privateKey: k.signerKey,
            laterKeys: setup.rotationKeys[i]!.map((r) => ({ address: r.signer, privateKey: r.key })),
          },
          peers: scIds.filter((_, j) => j !== i),
          serviceNode: svcIds[i]!,
        },
        setup.scCfg,
        { timeS: BigInt(Math.floor(scenario.epochMs / 1000)), producers: setup.producers, alloc: setup.sidechainAlloc },
        setup.scheme,
        { ...DEFAULT_SIDECHAIN_NODE_CONFIG, jitter: scenario.params.jitter },
        {
          productionDelayS: () => {
            const f = this.producerFaults.get(idx);
            if (f?.has('offline')) return null;
            if (f?.has('slow')) return this.slowProducerDelayS.get(idx) ?? 0;
            return 0;
          },
          shouldEquivocate: () => this.producerFaults.get(idx)?.has('equivocate') ?? false,
          sealEarly: (_node, plan) => (this.producerFaults.get(idx)?.has('earlySeal') ?? false) && plan.succession > 0,
          onImport: (node, block, result) => {
            // Every copy of every gossiped block comes here: no iterator when nobody listens.
            if (this.importListeners.size === 0) return;
            for (const listen of this.importListeners.values()) listen(node, block, result);
          },
        },
      );
      this.sidechainNodes.push(node);
      this.heightSamples.height[node.id] = [];
      this.addNode(node);
    }
    this.wallets = new SidechainWallets(scenario.workload, this.clientPort());
    this.engine.on<SidechainWorkloadEvent>(
      'workload',
      (ev) => this.wallets.run(ev.payload),
      (p) => `{"w":"${p.what}","i":${p.index}}`,
    );
    this.engine.on<{ round: number }>(
      'rpcProbe',
      (ev) => this.rpcProbe(ev.payload.round),
      (p) => `{"r":${p.round}}`,
    );
  }

  /** A client reading the JSON-RPC of one live sidechain node in turn (sim/workload/rpcProbe.ts). */
  private rpcProbe(round: number): void {
    const alive = this.sidechainNodes.filter((n) => this.slot(n.id).alive);
    const node = alive[round % Math.max(1, alive.length)];
    if (node) for (const obs of rpcProbe(node, round)) this.record(node.id, obs);
    this.engine.after(RPC_PROBE_EVERY_MS, 'rpcProbe', '', { round: round + 1 });
  }

  protected scheduleWorkload(): void {
    this.engine.at(RPC_PROBE_EVERY_MS, 'rpcProbe', '', { round: 0 });
    this.wallets.schedule();
  }

  /** What the wallets and the operator may do here (sim/workload/sidechainWallets.ts). */
  private clientPort(): SidechainClientPort {
    let rng: Rng | undefined;
    return {
      scheme: this.setup.scheme,
      users: this.setup.users,
      sidechainNodes: this.sidechainNodes,
      isAlive: (id) => this.slot(id).alive,
      deliverNow: (to, msg, from) => this.engine.at(this.engine.nowMs(), NET_DELIVER, to, msg, from),
      rng: () => {
        rng ??= this.rng.fork('workload-sidechain');
        return rng;
      },
      at: (atMs, ev) => this.engine.at(atMs, 'workload', '', ev),
      after: (ms, ev) => this.engine.after(ms, 'workload', '', ev),
    };
  }

  protected takeSample(timeMs: number): void {
    this.heightSamples.timeMs.push(timeMs);
    for (const n of this.sidechainNodes)
      this.heightSamples.height[n.id]!.push(Number(n.chain.head().block.header.number));
  }

  protected faultSite(): FaultSite {
    return { name: 'sidechain', domain: this };
  }

  /** A fault's target validator: `inTurn` resolves, when the fault starts, to the producer in turn on the best head. */
  resolveTarget(validator: number | 'inTurn', index: number, start: boolean): number {
    if (typeof validator === 'number') return validator;
    return this.resolveAtStart(index, start, () => this.inTurnValidator());
  }

  /**
   * Turn a producer fault's flag on or off for validator `v` (a slow producer's delay with it),
   * and re-plan its node so an offline producer stops now and a healed one resumes at once.
   */
  setProducerFlag(v: number, flag: ProducerFlag, on: boolean, delayS?: number): void {
    const set = this.producerFaults.get(v) ?? new Set();
    if (on) set.add(flag);
    else set.delete(flag);
    this.producerFaults.set(v, set);
    if (flag === 'slow') this.slowProducerDelayS.set(v, delayS!);
    this.restartNow(this.sidechainNodes[v - 1]!.id);
  }

  /** Act on every block a node imports (`key` names the fault; null ends it). */
  setImportListener(key: string, listen: ImportListener | null): void {
    if (listen === null) this.importListeners.delete(key);
    else this.importListeners.set(key, listen);
  }

  /**
   * The validator in turn for the next block on the best sidechain head. A producer without a node
   * (a validator that joined on the parent chain) cannot be bent: then the first backup in
   * succession that has a node, the one that steps in for it.
   */
  inTurnValidator(): number {
    let best = this.sidechainNodes[0]!;
    for (const n of this.sidechainNodes) if (n.chain.head().td > best.chain.head().td) best = n;
    const set = best.chain.head().snapshot.validatorSet;
    const p = set.indexOfAddress(set.proposer.address);
    for (let k = 0; k < set.size; k++) {
      const v = this.setup.validatorOfSigner.get(set.validators[(p + k) % set.size]!.address);
      if (v !== undefined) return v;
    }
    // No producer of the span has a node here: the fault bends a node that produces nothing anyway.
    return 1;
  }

  /** The end-of-run summary of this domain (plain data: it crosses threads). */
  report(query: SidechainReportQuery = {}): SidechainReport {
    let best = this.sidechainNodes[0]!;
    let sidechainBlocks = 0;
    const reorgs: ReorgRecord[] = [];
    let maxReorgDepth = 0;
    for (const n of this.sidechainNodes) {
      const h = Number(n.chain.head().block.header.number);
      if (h > sidechainBlocks) {
        sidechainBlocks = h;
        best = n;
      }
      for (const r of n.chain.reorgs) {
        reorgs.push({
          node: n.id,
          atMs: r.atMs,
          depth: r.depth,
          oldHead: r.oldHead,
          newHead: r.newHead,
          commonAncestor: String(r.commonAncestor),
        });
        maxReorgDepth = Math.max(maxReorgDepth, r.depth);
      }
    }
    const canonicalOf = (n: SidechainNode): CanonicalBlockInfo[] =>
      n.chain.canonicalRange(1n).map((b) => {
        const h = b.block.header;
        const producers = n.chain.get(h.parentHash)?.snapshot.validatorSet.size ?? 0;
        return {
          number: h.number,
          hash: b.block.hash,
          signer: b.block.signer,
          difficulty: h.difficulty,
          time: h.time,
          producers,
          backup: producers > 0 && h.difficulty < BigInt(producers),
        };
      });
    const sideOf = (n: SidechainNode): { side: SideBlockInfo[]; sideOmitted: number } => {
      const side: SideBlockInfo[] = [];
      for (const b of n.chain.allBlocks()) {
        const h = b.block.header;
        if (n.chain.byNumber(h.number)?.block.hash === b.block.hash) continue;
        const producers = n.chain.get(h.parentHash)?.snapshot.validatorSet.size ?? 0;
        side.push({
          number: h.number,
          hash: b.block.hash,
          parentHash: h.parentHash,
          signer: b.block.signer,
          difficulty: h.difficulty,
          backup: producers > 0 && h.difficulty < BigInt(producers),
          importedAtMs: b.importedAtMs,
        });
      }
      side.sort((a, b) => compareBig(a.number, b.number) || compareStrings(a.hash, b.hash));
      const sideOmitted = Math.max(0, side.length - MAX_SIDE_BLOCKS);
      return { side: side.slice(sideOmitted), sideOmitted };
    };
    const nodes = this.sidechainNodes.map((n) => {
      const h = n.chain.head();
      return {
        node: n.id,
        alive: n.isAlive,
        head: { number: h.block.header.number, hash: h.block.hash, td: h.td },
        canonical: canonicalOf(n),
        ...sideOf(n),
      };
    });
    const backupBlocks = nodes.find((x) => x.node === best.id)!.canonical.filter((b) => b.backup).length;
    const roots = (query.rootRanges ?? []).map(({ start, end }) => {
      const r = best.chain.rootHash(start, end);
      return { start, end, root: r.ok ? (`0x${r.root}` as Hex) : null };
    });
    return {
      nodes,
      bestNode: best.id,
      sidechainBlocks,
      sidechainTransfers: best.chain.canonicalRange(1n).reduce((n, b) => n + b.block.body.txs.length, 0),
      reorgs,
      maxReorgDepth,
      backupBlocks,
      roots,
      samples: this.heightSamples,
      faultsFired: this.faultsFired,
      network: this.networkStats(),
      events: this.engine.eventsDelivered,
      simulatedMs: this.engine.nowMs(),
      traceDigest: this.traceDigest(),
    };
  }
}
