/**
 * The main domain of a run: the service nodes (app + consensus + bridge), the parent chain, the
 * client's workload and the faults on those nodes, on one engine. The sidechain nodes live in the
 * sidechain domain (sim/domain/sidechainDomain.ts), inline or in a worker; the two meet only through
 * cross-domain messages at window barriers (sim/domain/windowProtocol.ts). Nodes see the world only through
 * the ports the domain gives them (clock, network, timers, rng, recorder).
 *
 * What the sidechain domain knows (heads, reorgs, backup blocks) reaches the main thread as plain
 * data at the end of the run (SidechainReport), never by reading its objects; what this domain
 * knows reaches the run's result the same way (`report()`, MainReport).
 */
import { PROBE_EVERY_MS, probe } from './domain/queryProbe';
import { SharedExecution } from '../src/app/sharedExecution';
import { type Address } from '../src/core/address';
import { type Hex, toHex } from '../src/core/bytes';
import { keccak256Bytes } from '../src/core/hash';
import { addressOfPublicKey, publicKeyBytesFromPrivateKey } from '../src/core/secp256k1';
import { type SignatureScheme } from '../src/core/signatureScheme';
import { canonicalJson } from '../src/core/canonicalJson';
import { ONE_TOKEN } from '../src/core/amount';
import { ParentChain } from '../src/parent/parentChain';
import { ParentChainNode } from '../src/node/parentChainNode';
import { ServiceNode } from '../src/node/service/serviceNode';
import {
  DEFAULT_SERVICE_NODE_CONFIG,
  type ByzantineBridgeTools,
  type ByzantineRoutes,
  type ByzantineTools,
} from '../src/node/service/config';
import { type BridgeAction } from '../src/bridge/bridge';
import { type NodeMessage } from '../src/node/messages';
import { type ClientReply } from '../src/node/ports';
import { type CommittedBlock, type Vote } from '../src/consensus/types';
import { type AppliedBlock } from '../src/app/sharedExecution';
import { MsgMultiSendDef, MsgSendDef } from '../src/modules/bank/msgs';
import { MsgWithdrawFeeDef } from '../src/modules/topup/msgs';
import { type MsgDef } from '../src/modules/framework/msgDef';
import { getValidator } from '../src/modules/staking/keeper';
import { encodeTx, signTx } from '../src/modules/auth/stdTx';
import { getAckCount, getBuffer, getLastCheckpoint } from '../src/modules/checkpoint/keeper';
import { getLastSpan } from '../src/modules/span/keeper';
import { type Rng } from './env/rng';
import { type TraceRecorder } from './trace/traceRecorder';
import { type Repeats, type Scenario } from './scenario/scenario';
import { type FaultSite } from './faults/fault';
import { type ClusterSetup, type ValidatorKeys, clusterSetup } from './domain/clusterSetup';
import { Domain, type DomainOptions } from './domain/domain';
import { type MainReport } from './domain/mainReport';

export type { NodeSlot } from './domain/nodeSlots';
export type { RunRecord } from './domain/observation';
export type { ValidatorKeys } from './domain/clusterSetup';

/**
 * What a Byzantine fault makes a validator's service node do (through its ServiceNodeHooks):
 * extra votes besides each of its own, or its own proposals and votes routed (and re-signed) as
 * the fault likes. Signed with the validator's own key.
 */
export interface ValidatorBehaviour {
  onOwnVote?(vote: Vote, sign: (v: Omit<Vote, 'signature'>) => Vote): Vote[];
  routes?(msg: NodeMessage, tools: ByzantineTools): ByzantineRoutes | null;
  /** After the validator's node committed a block (a Byzantine sender acts here; see sendTxFrom). */
  onCommit?(node: ServiceNode, block: CommittedBlock, end: AppliedBlock['end']): void;
  /** What the validator's bridge does instead of what it decided (null: that). */
  bridgeActions?(node: ServiceNode, actions: BridgeAction[], tools: ByzantineBridgeTools): BridgeAction[] | null;
  /** The txs of a block the validator proposes, instead of those it reaped (null: those). */
  blockTxs?(node: ServiceNode, reaped: Hex[], block: { height: bigint; timeMs: number }): Hex[] | null;
}

/** A workload event: what it does, the item's index in its list, and which repeat of it (0 = the first). */
interface WorkloadEvent {
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

export interface MainSamples {
  timeMs: number[];
  serviceHeight: number[];
}

/** How a run's service nodes execute blocks. */
export interface ServiceRunOptions {
  /** Check the modules' invariants after every block (default: on in test builds only). */
  checkInvariants?: boolean;
  /** Share block execution between the nodes (default on; off runs every block on every node). */
  sharedExecution?: boolean;
}

export class Cluster extends Domain {
  readonly scheme: SignatureScheme;
  /** The block records the service nodes share (null when the run executes every block on every node). */
  readonly sharedExecution: SharedExecution | null;
  readonly keys: ValidatorKeys[];
  readonly users: Array<{ key: Hex; address: Address }>;
  readonly serviceNodes: ServiceNode[] = [];
  readonly parentNode: ParentChainNode;
  /** What Byzantine faults make validators' service nodes do, by fault (see setBehaviour). */
  private readonly behaviours = new Map<string, { validators: ReadonlySet<number>; behaviour: ValidatorBehaviour }>();
  /** Heights at which a no-ack was applied (counted once across nodes). */
  readonly noAckHeights = new Set<string>();
  /** When each checkpoint (by start block) was first buffered and first acked, virtual ms. */
  readonly checkpointTimes = new Map<string, { bufferedMs?: number; ackedMs?: number }>();
  readonly genesis: unknown;
  readonly samples: MainSamples = { timeMs: [], serviceHeight: [] };
  private wl?: Rng;
  /** Signer changes each validator's workload has sent (the next takes its next rotation key). */
  private readonly rotationsUsed = new Map<number, number>();
  private readonly clientReplyListeners: Array<(node: string, reply: ClientReply) => void> = [];

  /**
   * Listen to the service nodes' answers to transaction-submitting clients (a devnet's REST layer
   * does). They are no observations: they do not enter the trace or the oracles.
   */
  onClientReply(listener: (node: string, reply: ClientReply) => void): void {
    this.clientReplyListeners.push(listener);
  }

  constructor(
    scenario: Scenario,
    seed: number,
    opts: { trace?: TraceRecorder; service?: ServiceRunOptions } & Partial<DomainOptions> = {},
    setup: ClusterSetup = clusterSetup(scenario, seed),
  ) {
    super('main', scenario, seed, setup, {
      ...opts,
      untilMs: opts.untilMs ?? scenario.durationMs,
      sampleEveryMs: opts.sampleEveryMs ?? Math.max(1000, Math.floor(scenario.durationMs / 120)),
    });
    this.scheme = setup.scheme;
    this.sharedExecution = opts.service?.sharedExecution === false ? null : new SharedExecution();
    this.keys = setup.keys;
    this.users = setup.users;
    this.genesis = setup.genesis;
    const p = scenario.params;

    const parent = new ParentChain(
      {
        chainId: 1337n,
        blockTimeMs: p.parentBlockTimeMs,
        confirmations: p.parentConfirmations,
        validatorSlots: p.validatorSlots,
        genesisTimeMs: scenario.epochMs,
        sidechainChainId: setup.sidechainChainId,
      },
      {
        validators: this.keys.map((k, i) => ({
          owner: k.owner,
          signerPubkey: k.pubKey,
          amount: scenario.validators[i]!.stakeTokens * ONE_TOKEN,
        })),
      },
      this.scheme,
    );
    this.parentNode = new ParentChainNode('parent', parent);
    this.addNode(this.parentNode);

    const { svcIds, scIds } = setup;
    const serviceCfg = {
      ...DEFAULT_SERVICE_NODE_CONFIG,
      app: {
        ...(opts.service?.checkInvariants !== undefined ? { checkInvariants: opts.service.checkInvariants } : {}),
        sharedExecution: this.sharedExecution,
      },
      commitTimeoutMs: p.commitTimeoutMs,
      bridge: {
        ...DEFAULT_SERVICE_NODE_CONFIG.bridge,
        relayDelayPerRankMs: p.relayDelayPerRankMs,
        checkpointLength: BigInt(p.checkpointLength),
      },
    };
    for (let i = 0; i < this.keys.length; i++) {
      const k = this.keys[i]!;
      const node = new ServiceNode(
        {
          id: svcIds[i]!,
          address: k.signer,
          privateKey: k.signerKey,
          peers: svcIds.filter((_, j) => j !== i),
          parentNode: 'parent',
          sidechainNode: scIds[i]!,
        },
        this.genesis,
        this.scheme,
        serviceCfg,
        {
          onOwnVote: (vote, sign) => {
            const extra: Vote[] = [];
            for (const b of this.behavioursOf(k.index)) if (b.onOwnVote) extra.push(...b.onOwnVote(vote, sign));
            return extra;
          },
          clientReplies: {
            reply: (r) => {
              for (const l of this.clientReplyListeners) l(svcIds[i]!, r);
            },
          },
          byzantineRoutes: (_node, msg, tools) => {
            for (const b of this.behavioursOf(k.index)) {
              const routes = b.routes?.(msg, tools) ?? null;
              if (routes) return routes;
            }
            return null;
          },
          bridgeActions: (node, actions, tools) => {
            for (const b of this.behavioursOf(k.index)) {
              const out = b.bridgeActions?.(node, actions, tools) ?? null;
              if (out) return out;
            }
            return null;
          },
          blockTxs: (node, reaped, block) => {
            for (const b of this.behavioursOf(k.index)) {
              const txs = b.blockTxs?.(node, reaped, block) ?? null;
              if (txs) return txs;
            }
            return null;
          },
          onCommit: (node, block, end, results) => {
            for (const r of end.sideTxResults) {
              if (r.code !== 0) continue;
              if (r.msgType === 'checkpoint/MsgCheckpoint' || r.msgType === 'checkpoint/MsgCheckpointACK') {
                const last =
                  r.msgType === 'checkpoint/MsgCheckpoint'
                    ? getBuffer(node.app.store)
                    : getLastCheckpoint(node.app.store)?.checkpoint;
                if (!last) continue;
                const key = last.startBlock.toString();
                const e = this.checkpointTimes.get(key) ?? {};
                if (r.msgType === 'checkpoint/MsgCheckpoint') e.bufferedMs ??= this.engine.nowMs();
                else e.ackedMs ??= this.engine.nowMs();
                this.checkpointTimes.set(key, e);
              }
            }
            if (results.some((r) => r.code === 0 && r.events.some((e) => e.type === 'checkpoint-noack')))
              this.noAckHeights.add(block.block.height.toString());
            this.followSignerChange(k.index, node);
            for (const b of this.behavioursOf(k.index)) b.onCommit?.(node, block, end);
          },
        },
      );
      this.serviceNodes.push(node);
      this.addNode(node);
    }

    this.engine.on<{ round: number }>(
      'probe',
      (ev) => this.probe(ev.payload.round),
      (p) => `{"r":${p.round}}`,
    );
    this.engine.on<WorkloadEvent>(
      'workload',
      (ev) => this.workload(ev.payload.what, ev.payload.index, ev.payload.round ?? 0),
      (p) => `{"w":"${p.what}","i":${p.index}${p.round ? `,"r":${p.round}` : ''}}`,
    );
  }

  /** A client reading the REST API of one live service node in turn (sim/domain/queryProbe.ts). */
  private probe(round: number): void {
    const alive = this.serviceNodes.filter((n) => this.slot(n.id).alive);
    const node = alive[round % Math.max(1, alive.length)];
    if (node) {
      const addresses = [...this.keys.map((k) => k.signer), ...this.users.map((u) => u.address)];
      for (const obs of probe(node, round, addresses, this.keys.length)) this.record(node.id, obs);
    }
    this.engine.after(PROBE_EVERY_MS, 'probe', '', { round: round + 1 });
  }

  protected scheduleWorkload(): void {
    // Before any node starts: the document they all start from (the service model reads it).
    this.record('client', { kind: 'service.genesisDocument', document: this.genesis });
    this.engine.at(PROBE_EVERY_MS, 'probe', '', { round: 0 });
    const w = this.scenario.workload;
    const at = (atMs: number, what: WorkloadEvent['what'], index: number) =>
      this.engine.at(atMs, 'workload', '', { what, index });
    if (w.transfers) at(w.transfers.everyMs, 'transfer', 0);
    for (const [i, t] of w.topups.entries()) at(t.atMs, 'topup', i);
    for (const [i, t] of w.stateSyncs.entries()) at(t.atMs, 'stateSync', i);
    for (const [i, t] of w.stakeUpdates.entries()) at(t.atMs, 'stakeUpdate', i);
    for (const [i, t] of w.joins.entries()) at(t.atMs, 'join', i);
    for (const [i, t] of w.exits.entries()) at(t.atMs, 'exit', i);
    for (const [i, t] of w.signerChanges.entries()) at(t.atMs, 'signerChange', i);
    if (w.multiSends) at(w.multiSends.everyMs, 'multiSend', 0);
    for (const [i, t] of (w.withdrawals ?? []).entries()) at(t.atMs, 'withdrawal', i);
  }

  protected takeSample(timeMs: number): void {
    this.samples.timeMs.push(timeMs);
    this.samples.serviceHeight.push(Math.max(...this.serviceNodes.map((n) => Number(n.app.height))));
  }

  protected faultSite(): FaultSite {
    return { name: 'main', domain: this };
  }

  /**
   * Make validators behave as a Byzantine fault says (`key` names the fault; null ends it). Their
   * service nodes ask every behaviour in force, in the order the faults started.
   */
  setBehaviour(key: string, validators: readonly number[], behaviour: ValidatorBehaviour | null): void {
    if (behaviour === null) this.behaviours.delete(key);
    else this.behaviours.set(key, { validators: new Set(validators), behaviour });
  }

  /**
   * A transaction signed by a validator's node, sent as its bridge's would spread: from its node
   * to every service node, its own included, over the network.
   */
  sendTxFrom(validator: number, tx: Hex): void {
    const from = `svc-${validator}`;
    for (const n of this.serviceNodes) this.network.send(from, n.id, { kind: 'c.tx', tx });
  }

  private behavioursOf(validator: number): ValidatorBehaviour[] {
    const out: ValidatorBehaviour[] = [];
    for (const { validators, behaviour } of this.behaviours.values())
      if (validators.has(validator)) out.push(behaviour);
    return out;
  }

  /** A live service node with the highest committed height (for reading the network's state). */
  referenceServiceNode(): ServiceNode {
    let best = this.serviceNodes[0]!;
    for (const n of this.serviceNodes)
      if (this.slot(n.id).alive && (n.height > best.height || !this.slot(best.id).alive)) best = n;
    return best;
  }

  /** The scheduled item a workload event acts for (the periodic ones have none). */
  private workloadItem(what: WorkloadEvent['what'], index: number): (Repeats & { atMs: number }) | null {
    const w = this.scenario.workload;
    switch (what) {
      case 'topup':
        return w.topups[index]!;
      case 'stateSync':
        return w.stateSyncs[index]!;
      case 'stakeUpdate':
        return w.stakeUpdates[index]!;
      case 'join':
        return w.joins[index]!;
      case 'exit':
        return w.exits[index]!;
      case 'signerChange':
        return w.signerChanges[index]!;
      case 'withdrawal':
        return w.withdrawals![index]!;
      default:
        return null;
    }
  }

  /**
   * One workload event. A scheduled item acts `repeat` times: all at once when `every` is 0 (a
   * top-up's repeats are one record), else once per event, `every` apart.
   */
  private workload(what: WorkloadEvent['what'], index: number, round: number): void {
    this.wl ??= this.rng.fork('workload');
    const item = this.workloadItem(what, index);
    if (item === null) {
      this.act(what, index);
      return;
    }
    const repeat = item.repeat ?? 1;
    const everyMs = item.everyMs ?? 0;
    if (everyMs === 0) {
      if (what === 'topup') this.act(what, index, repeat);
      else for (let r = 0; r < repeat; r++) this.act(what, index);
      return;
    }
    this.act(what, index);
    if (round + 1 < repeat) this.engine.after(everyMs, 'workload', '', { what, index, round: round + 1 });
  }

  /** A signed client transaction to a service node (as `lockstep tx` sends one). */
  private sendClientTx<M>(target: ServiceNode, def: MsgDef<M>, msg: M, from: { key: Hex; address: Address }): void {
    const acc = target.app.signingAccount(from.address);
    if (!acc) return;
    const tx = encodeTx(signTx(def, msg, { chainId: target.app.chainId, ...acc, memo: '' }, from.key, this.scheme));
    this.network.send('client', target.id, { kind: 'client.tx', tx: toHex(tx) });
  }

  /** Validator `v`'s service node, or the reference node when it is down (a client retries elsewhere). */
  private nodeOf(v: number): ServiceNode {
    const n = this.serviceNodes[v - 1]!;
    return this.slot(n.id).alive ? n : this.referenceServiceNode();
  }

  private act(what: WorkloadEvent['what'], index: number, times = 1): void {
    const rng = this.wl!;
    const s = this.scenario;
    const parentCall = (call: Parameters<ParentChain['submit']>[0]) =>
      this.network.send('client', 'parent', { kind: 'p.submit', call });
    switch (what) {
      case 'transfer': {
        const from = rng.pick(this.users);
        const to = rng.pick(this.users.filter((u) => u !== from));
        const target = rng.pick(this.serviceNodes);
        this.sendClientTx(
          target,
          MsgSendDef,
          {
            fromAddress: from.address,
            toAddress: to.address,
            amount: [{ denom: 'matic', amount: s.workload.transfers!.amountWei }],
          },
          from,
        );
        this.engine.after(s.workload.transfers!.everyMs, 'workload', '', { what, index });
        return;
      }
      case 'multiSend': {
        const m = s.workload.multiSends!;
        const from = rng.pick(this.users);
        const others = this.users.filter((u) => u !== from);
        const outputs = Array.from({ length: m.outputs }, () => ({
          address: rng.pick(others).address,
          coins: [{ denom: 'matic', amount: m.amountWei }],
        }));
        const target = rng.pick(this.serviceNodes);
        this.sendClientTx(
          target,
          MsgMultiSendDef,
          {
            inputs: [{ address: from.address, coins: [{ denom: 'matic', amount: m.amountWei * BigInt(m.outputs) }] }],
            outputs,
          },
          from,
        );
        this.engine.after(m.everyMs, 'workload', '', { what, index });
        return;
      }
      case 'withdrawal': {
        const t = s.workload.withdrawals![index]!;
        const node = this.serviceNodes[t.validator - 1]!;
        // Signed with the key the validator's node holds now (it follows its signer changes).
        const from = { key: node.identity.privateKey, address: node.address };
        this.sendClientTx(
          this.nodeOf(t.validator),
          MsgWithdrawFeeDef,
          {
            fromAddress: from.address,
            amount: t.amountTokens * ONE_TOKEN,
          },
          from,
        );
        this.record('client', { kind: 'workload.withdrawal', validator: t.validator });
        return;
      }
      case 'topup': {
        const t = s.workload.topups[index]!;
        const k = this.keys[t.validator - 1]!;
        // To the signer the validator has now (its node follows its signer changes).
        const user = this.serviceNodes[t.validator - 1]!.address;
        for (let r = 0; r < times; r++)
          parentCall({ method: 'topUpForFee', from: k.owner, user, fee: t.amountTokens * ONE_TOKEN });
        this.record('client', { kind: 'workload.topup', validator: t.validator, repeat: times });
        return;
      }
      case 'stateSync': {
        const t = s.workload.stateSyncs[index]!;
        for (let c = 0; c < t.count; c++)
          parentCall({
            method: 'syncState',
            from: this.keys[0]!.owner,
            receiver: '0x0000000000000000000000000000000000001001',
            data: toHex(rng.bytes(32)),
          });
        this.record('client', { kind: 'workload.stateSync', count: t.count });
        return;
      }
      case 'stakeUpdate': {
        const t = s.workload.stakeUpdates[index]!;
        const k = this.keys[t.validator - 1]!;
        parentCall({
          method: 'restake',
          from: k.owner,
          validatorId: BigInt(t.validator),
          amount: t.amountTokens * ONE_TOKEN,
        });
        this.record('client', { kind: 'workload.stakeUpdate', validator: t.validator });
        return;
      }
      case 'join': {
        const t = s.workload.joins[index]!;
        const key = toHex(rng.bytes(32));
        const owner = addressOfPublicKey(publicKeyBytesFromPrivateKey(toHex(rng.bytes(32))));
        parentCall({
          method: 'stake',
          from: owner,
          signerPubkey: toHex(publicKeyBytesFromPrivateKey(key)),
          amount: t.stakeTokens * ONE_TOKEN,
        });
        this.record('client', { kind: 'workload.join', stake: t.stakeTokens });
        return;
      }
      case 'exit': {
        const t = s.workload.exits[index]!;
        const k = this.keys[t.validator - 1]!;
        parentCall({ method: 'unstake', from: k.owner, validatorId: BigInt(t.validator) });
        this.record('client', { kind: 'workload.exit', validator: t.validator });
        return;
      }
      case 'signerChange': {
        const t = s.workload.signerChanges[index]!;
        const k = this.keys[t.validator - 1]!;
        // The validator's next rotation key (clusterSetup derives one per scheduled change).
        const used = this.rotationsUsed.get(t.validator) ?? 0;
        const next = this.setup.rotationKeys[t.validator - 1]![used];
        if (next === undefined) return;
        this.rotationsUsed.set(t.validator, used + 1);
        parentCall({
          method: 'updateSigner',
          from: k.owner,
          validatorId: BigInt(t.validator),
          signerPubkey: next.pubKey,
        });
        this.record('client', { kind: 'workload.signerChange', validator: t.validator });
        return;
      }
    }
  }

  /**
   * After validator `v`'s node committed a block: when the service has applied a signer change of
   * `v` to one of the keys the workload rotated it to, the node takes that key up.
   */
  private followSignerChange(v: number, node: ServiceNode): void {
    const ring = this.setup.rotationKeys[v - 1]!;
    if (ring.length === 0) return;
    const signer = getValidator(node.app.store, BigInt(v))?.signer;
    if (signer === undefined || signer === node.address) return;
    const key = ring.find((r) => r.signer === signer);
    if (key) node.adoptSignerKey(key.key, key.signer);
  }

  /** This domain at the end of the run, as plain data (the run's result holds no live node). */
  report(): MainReport {
    let serviceBlocks = 0;
    let spans = 0;
    let acked = 0;
    for (const n of this.serviceNodes) {
      serviceBlocks = Math.max(serviceBlocks, Number(n.app.height));
      spans = Math.max(spans, Number(getLastSpan(n.app.store)?.id ?? 0n));
      acked = Math.max(acked, Number(getAckCount(n.app.store)));
    }
    const share = this.sharedExecution;
    return {
      nodes: this.serviceNodes.map((n) => ({
        id: n.id,
        alive: n.isAlive,
        height: n.height,
        appHash: n.app.appHash,
        commits: n.disk.map((cb) => ({ height: cb.block.height, blockHash: cb.blockHash, timeMs: cb.block.timeMs })),
      })),
      validators: this.keys.map((k) => ({ index: k.index, signer: k.signer, owner: k.owner })),
      serviceBlocks,
      spans,
      checkpointsAcked: acked,
      noAcks: this.noAckHeights.size,
      checkpointTimes: [...this.checkpointTimes].map(([startBlock, t]) => ({ startBlock, ...t })),
      records: this.records,
      samples: { timeMs: [...this.samples.timeMs], serviceHeight: [...this.samples.serviceHeight] },
      sharedExecution: share ? { hits: share.hits, misses: share.misses } : null,
      faultsFired: [...this.faultsFired],
      network: this.networkStats(),
      events: this.engine.eventsDelivered,
      traceDigest: this.traceDigest(),
    };
  }

  checkpointLatencyMs(): number[] {
    const out: number[] = [];
    for (const e of this.checkpointTimes.values())
      if (e.bufferedMs !== undefined && e.ackedMs !== undefined) out.push(e.ackedMs - e.bufferedMs);
    return out;
  }

  /** A deterministic digest of every node's durable state (for debugging divergent runs). */
  stateDigest(): Hex {
    return toHex(keccak256Bytes(new TextEncoder().encode(canonicalJson(this.serviceNodes.map((n) => n.app.appHash)))));
  }
}
