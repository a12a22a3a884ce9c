/**
 * A live devnet: the whole simulated network (service nodes, parent chain, sidechain nodes) run
 * inline and paced to the wall clock, with the ports the servers need (REST, node status,
 * sidechain JSON-RPC and console) answered by validator 1's nodes.
 *
 * Determinism: reads happen between simulation steps and change nothing. Writes (client txs, the
 * console's debug.setHead) wait in a queue until the next window barrier; there they are
 * journaled (fsynced) and delivered to the node at the barrier's time. A restart replays genesis +
 * seed + journal, delivering each input at its barrier, so it reaches the same state; only the
 * pace of the wall clock is not replayed.
 *
 * Answers come from the simulation itself: the node answers a client's tx on its client-reply port
 * with the CheckTx result and, once a block carried it, the DeliverTx result; a broadcast waits for
 * the answer it needs.
 */
import { txHash } from '../../modules/auth/stdTx';
import { type Hex, fromHex, toHex } from '../../core/bytes';
import { getValidatorSet } from '../../modules/staking/keeper';
import { type QueryAnswer } from '../../app/queryRouter';
import { chainReadPort } from '../../sidechain/readPort';
import {
  type BroadcastMode,
  type BroadcastResult,
  BroadcastTimeoutError,
  type NodeStatusPort,
  type OperatorResult,
  type PeerInfo,
  type ServicePort,
  type SidechainPort,
  type SidechainView,
} from '../../rpc/ports';
import { tendermintHash } from '../../rpc/rest/txResponse';
import { prepareRun, type PreparedRun } from '../../../sim/run';
import { type RunRecord } from '../../../sim/domain/domain';
import { observationJson } from '../../../sim/trace/observationJson';
import { type ClientReply } from '../../node/ports';
import { type ServiceNode } from '../../node/serviceNode';
import { type SidechainNode } from '../../node/sidechainNode';
import { Journal, readJournal, type JournalEntry } from './journal';
import { type DevnetConfig, devnetScenario, paths } from './home';
import { rfc3339FromUnixMs } from '../../core/time';
import { writeFileSync } from 'node:fs';

export const VERSION = '0.1.0';

export interface LiveOptions {
  /** Simulated seconds per wall second (default 1). */
  speed?: number;
  /** Wall ms a block-mode broadcast waits for its tx to commit (default 60 s). */
  blockTimeoutMs?: number;
  /** Where the node's records go, by service log (the caller writes them to files). */
  log?: (service: 'daemon' | 'bridge' | 'sidechain', line: string) => void;
  /** Progress while replaying the journal. */
  onReplayProgress?: (done: number, total: number) => void;
}

type Pending =
  | { k: 'tx'; tx: Hex; mode: BroadcastMode; resolve: (r: BroadcastResult) => void }
  | { k: 'setHead'; n: bigint; resolve: (r: OperatorResult) => void };

interface TxWaiter {
  mode: 'sync' | 'block';
  resolve: (r: BroadcastResult) => void;
}

const SIM_STEP_MS = 100;
const REACHED_EVERY_WALL_MS = 1_000;

export class LiveNetwork implements ServicePort, NodeStatusPort, SidechainPort {
  readonly chainId: string;
  readonly run: PreparedRun;
  private readonly journal: Journal;
  private readonly replay = new Map<number, JournalEntry[]>();
  private replayToBarrier = 0;
  private replayToMs = 0;
  private barrier = 0;
  private pending: Pending[] = [];
  private readonly txWaiters = new Map<Hex, TxWaiter[]>();
  private readonly setHeadWaiters: Array<(r: OperatorResult) => void> = [];
  private readonly svcId: string;
  private readonly scId: string;
  private stopped = false;
  private lastReachedWall = 0;
  private runDone: Promise<void> | null = null;
  /** Inputs accepted since start (for the status line). */
  readonly stats = { txs: 0, setHeads: 0, replayedInputs: 0 };

  constructor(
    readonly config: DevnetConfig,
    private readonly opts: LiveOptions = {},
  ) {
    this.chainId = config.chainId;
    this.svcId = `svc-${config.nodeIndex}`;
    this.scId = `sc-${config.nodeIndex}`;
    const p = paths(config.home);
    const { entries, tornTail } = readJournal(p.journal);
    // A torn last line was never acknowledged: drop it so appends start on a clean line.
    if (tornTail) writeFileSync(p.journal, entries.map((e) => JSON.stringify(e) + '\n').join(''));
    for (const e of entries) {
      if (e.k === 'reached') this.replayToMs = Math.max(this.replayToMs, e.t);
      else (this.replay.get(e.b) ?? this.replay.set(e.b, []).get(e.b)!).push(e);
      this.replayToBarrier = Math.max(this.replayToBarrier, e.b);
    }
    this.journal = new Journal(p.journal);
    this.run = prepareRun(devnetScenario(config.scenario), {
      seed: config.seed,
      stepMs: SIM_STEP_MS,
      sampleEveryMs: 60_000,
      onBarrier: (b) => this.onBarrier(b),
      onRecord: (r) => this.onRecord(r),
    });
    this.run.main.onClientReply((node, reply) => {
      if (node !== this.svcId) return;
      this.opts.log?.('daemon', replyLine(this.config.scenario.epochMs, this.run.main.engine.nowMs(), reply));
      this.answerTx(reply);
    });
  }

  /** True until the journal has been replayed. */
  get replaying(): boolean {
    return this.barrier < this.replayToBarrier || this.run.ranToMs() < this.replayToMs;
  }

  private get serviceNode(): ServiceNode {
    return this.run.main.serviceNodes[this.config.nodeIndex - 1]!;
  }

  private get sidechainNode(): SidechainNode {
    return this.run.sidechain.sidechainNodes[this.config.nodeIndex - 1]!;
  }

  // --- the simulation loop ---------------------------------------------------------------------

  /** Replay the journal as fast as possible, then run paced until `stop()`. */
  start(): Promise<void> {
    this.runDone ??= this.loop();
    return this.runDone;
  }

  private async loop(): Promise<void> {
    while (!this.stopped && this.replaying) {
      if (this.run.step() === 'done') return;
      this.opts.onReplayProgress?.(Math.min(this.run.ranToMs(), this.replayToMs), this.replayToMs);
      await yieldToIo();
    }
    const speed = this.opts.speed ?? 1;
    const wallStart = Date.now();
    const simStart = this.run.ranToMs();
    while (!this.stopped) {
      const target = simStart + (Date.now() - wallStart) * speed;
      const ran = this.run.ranToMs();
      if (ran < target) {
        if (this.run.step() === 'done') break;
        await yieldToIo();
      } else {
        await sleep(Math.max(1, Math.min(50, (ran - target) / speed)));
      }
    }
  }

  /** Stop at the next step; journal how far the network ran. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.runDone;
    this.journal.append([{ k: 'reached', b: this.barrier, t: this.run.ranToMs() }]);
    this.journal.close();
    const fail = 'the devnet stopped';
    for (const p of this.pending)
      p.k === 'tx' ? p.resolve(txError(p.tx, 1, fail)) : p.resolve({ ok: false, error: fail });
    this.pending = [];
    for (const [hash, ws] of this.txWaiters) for (const w of ws) w.resolve(txError(hash, 1, fail));
    this.txWaiters.clear();
  }

  private onBarrier(b: number): void {
    this.barrier = b;
    const replayed = this.replay.get(b);
    if (replayed) {
      this.replay.delete(b);
      for (const e of replayed) this.inject(e);
      this.stats.replayedInputs += replayed.length;
    }
    if (this.replaying) return;
    const now = Date.now();
    if (this.pending.length) {
      const batch = this.pending;
      this.pending = [];
      const entries: JournalEntry[] = batch.map((p) =>
        p.k === 'tx'
          ? { k: 'tx', b, node: this.svcId, tx: p.tx }
          : { k: 'setHead', b, node: this.scId, n: p.n.toString() },
      );
      // Journaled and synced before the input enters the network (and so before any answer).
      this.journal.append(entries);
      this.lastReachedWall = now;
      batch.forEach((p, i) => {
        this.inject(entries[i]!);
        if (p.k === 'setHead') {
          this.stats.setHeads++;
          this.setHeadWaiters.push(p.resolve);
          return;
        }
        this.stats.txs++;
        const hash = txHash(fromHex(p.tx));
        if (p.mode === 'async') p.resolve({ height: '0', txhash: tendermintHash(hash), code: 0, raw_log: '' });
        else
          (this.txWaiters.get(hash) ?? this.txWaiters.set(hash, []).get(hash)!).push({
            mode: p.mode,
            resolve: p.resolve,
          });
      });
    } else if (now - this.lastReachedWall >= REACHED_EVERY_WALL_MS) {
      this.journal.append([{ k: 'reached', b, t: this.run.ranToMs() }], false);
      this.lastReachedWall = now;
    }
  }

  private inject(e: JournalEntry): void {
    if (e.k === 'tx') this.run.main.deliverExternal(e.node, { kind: 'client.tx', tx: e.tx as Hex });
    else if (e.k === 'setHead') this.run.sidechain.deliverExternal(e.node, { kind: 'op.setHead', number: BigInt(e.n) });
  }

  private onRecord(r: RunRecord): void {
    const kind = r.obs.kind;
    if (r.node === this.svcId) {
      if (kind.startsWith('bridge.')) this.opts.log?.('bridge', logLine(this.config.scenario.epochMs, r));
      else if (kind.startsWith('service.') || kind.startsWith('side.') || kind.startsWith('consensus.'))
        this.opts.log?.('daemon', logLine(this.config.scenario.epochMs, r));
    } else if (r.node === this.scId) {
      if (r.obs.kind === 'sidechain.setHead') {
        const error = r.obs.error;
        this.setHeadWaiters.shift()?.(error === null ? { ok: true } : { ok: false, error });
      }
      this.opts.log?.('sidechain', logLine(this.config.scenario.epochMs, r));
    } else if (r.node === '' && kind.startsWith('fault.')) {
      this.opts.log?.('daemon', logLine(this.config.scenario.epochMs, r));
    }
  }

  private answerTx(d: ClientReply): void {
    if (d.hash === null) return;
    const waiters = this.txWaiters.get(d.hash);
    if (!waiters) return;
    const result: BroadcastResult = {
      height: d.kind === 'delivered' ? d.height.toString() : '0',
      txhash: tendermintHash(d.hash),
      code: d.code,
      ...(d.codespace ? { codespace: d.codespace } : {}),
      raw_log: d.log,
      ...(d.gasWanted !== null ? { gas_wanted: d.gasWanted.toString() } : {}),
      ...(d.gasUsed !== null ? { gas_used: d.gasUsed.toString() } : {}),
    };
    const checked = d.kind === 'checked';
    const keep: TxWaiter[] = [];
    for (const w of waiters) {
      // A block-mode waiter hears at CheckTx only when the tx was refused there.
      if (checked && w.mode === 'block' && d.code === 0) keep.push(w);
      else w.resolve(result);
    }
    if (keep.length) this.txWaiters.set(d.hash, keep);
    else this.txWaiters.delete(d.hash);
  }

  // --- ServicePort -----------------------------------------------------------------------------

  query(pathWithQuery: string): QueryAnswer {
    const node = this.serviceNode;
    return node.app.query(pathWithQuery, node.observers());
  }

  broadcast(tx: Uint8Array, mode: BroadcastMode): Promise<BroadcastResult> {
    if (this.stopped) return Promise.resolve(txError(txHash(tx), 1, 'the devnet is stopping'));
    return new Promise<BroadcastResult>((resolve, reject) => {
      const hex = toHex(tx);
      let settled = false;
      const done = (r: BroadcastResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(r);
      };
      const timeoutMs = this.opts.blockTimeoutMs ?? 60_000;
      const timer = setTimeout(() => {
        const hash = txHash(tx);
        const ws = this.txWaiters.get(hash);
        if (ws)
          this.txWaiters.set(
            hash,
            ws.filter((w) => w.resolve !== done),
          );
        settled = true;
        reject(
          new BroadcastTimeoutError(
            `timed out after ${timeoutMs} ms waiting for tx ${tendermintHash(hash)} (mode ${mode}); it may still be committed`,
          ),
        );
      }, timeoutMs);
      this.pending.push({ k: 'tx', tx: hex, mode, resolve: done });
    });
  }

  // --- NodeStatusPort --------------------------------------------------------------------------

  status(): ReturnType<NodeStatusPort['status']> {
    const node = this.serviceNode;
    const last = node.disk[node.disk.length - 1];
    const key = this.run.main.keys[this.config.nodeIndex - 1]!;
    const v = getValidatorSet(node.app.store).validators.find((x) => x.address === key.signer);
    let best = node.height;
    for (const n of this.run.main.serviceNodes) if (n.height > best) best = n.height;
    return {
      nodeId: this.svcId,
      moniker: this.config.moniker,
      network: this.chainId,
      version: VERSION,
      latestBlockHeight: node.height,
      latestBlockHash: last ? last.blockHash : '',
      latestAppHash: node.app.appHash,
      latestBlockTimeMs: last ? last.block.timeMs : this.config.scenario.epochMs,
      catchingUp: this.replaying || node.height + 1n < best,
      validatorAddress: key.signer,
      votingPower: v ? v.power : 0n,
    };
  }

  netInfo(): { listening: boolean; peers: PeerInfo[] } {
    const peers: PeerInfo[] = [];
    this.run.main.serviceNodes.forEach((n, i) => {
      if (n.id !== this.svcId && this.run.main.slots.get(n.id)?.alive)
        peers.push({ id: n.id, moniker: `validator-${i + 1}` });
    });
    return { listening: true, peers };
  }

  // --- SidechainPort ---------------------------------------------------------------------------

  view(): SidechainView {
    const me = this.sidechainNode;
    const head = me.chain.head().block.header.number;
    let highest = head;
    let peers = 0;
    for (const n of this.run.sidechain.sidechainNodes) {
      if (n === me || !this.run.sidechain.slots.get(n.id)?.alive) continue;
      peers++;
      const h = n.chain.head().block.header.number;
      if (h > highest) highest = h;
    }
    // geth reports syncing while it is more than a block or two behind the best peer.
    const syncing = highest > head + 2n ? { startingBlock: 0n, currentBlock: head, highestBlock: highest } : null;
    return {
      chain: chainReadPort(me.chain),
      chainId: BigInt(this.run.main.setup.sidechainChainId),
      peerCount: peers,
      syncing,
      nodeKey: this.run.main.keys[this.config.nodeIndex - 1]!.pubKey,
    };
  }

  setHead(n: bigint): Promise<OperatorResult> {
    if (this.stopped) return Promise.resolve({ ok: false, error: 'the devnet is stopping' });
    return new Promise((resolve) => this.pending.push({ k: 'setHead', n, resolve }));
  }

  /** One line for the terminal. */
  statusLine(): string {
    const s = this.status();
    const sc = this.sidechainNode.chain.head().block.header.number;
    return `service height ${s.latestBlockHeight}, sidechain block ${sc}, ${(this.run.ranToMs() / 1000).toFixed(0)} s simulated, ${this.stats.txs} txs received`;
  }
}

function txError(hash: string, code: number, message: string): BroadcastResult {
  return {
    height: '0',
    txhash: tendermintHash(hash),
    code,
    codespace: 'sdk',
    raw_log: JSON.stringify({ codespace: 'sdk', code, message }),
  };
}

function logLine(epochMs: number, r: RunRecord): string {
  return `${rfc3339FromUnixMs(epochMs + r.t)} ${r.obs.kind} ${observationJson(r.obs)}`;
}

/** A client answer in the daemon log (as the node's broadcast endpoint would log it). */
function replyLine(epochMs: number, t: number, r: ClientReply): string {
  const fields = {
    hash: r.hash,
    ...(r.kind === 'delivered' ? { height: r.height.toString() } : {}),
    code: r.code,
    codespace: r.codespace,
    log: r.log,
  };
  return `${rfc3339FromUnixMs(epochMs + t)} service.${r.kind === 'checked' ? 'clientTx' : 'clientTxResult'} ${JSON.stringify(fields)}`;
}

function yieldToIo(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
