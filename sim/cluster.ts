/**
 * Builds a running network from a scenario and a seed: service nodes (app + consensus + bridge),
 * the parent chain, one sidechain node per validator, the simulated network between them, the
 * fault schedule and the workload, all on one engine. Nodes see the world only through the ports
 * the cluster gives them (clock, network, timers, rng, recorder).
 */
import { type Address, compareAddresses } from '../src/core/address';
import { type Hex, toHex } from '../src/core/bytes';
import { keccak256Bytes } from '../src/core/hash';
import { addressOfPublicKey, publicKeyBytesFromPrivateKey } from '../src/core/secp256k1';
import { type SignatureScheme, registerFastKey, schemeFor } from '../src/core/signatureScheme';
import { canonicalJson } from '../src/core/canonicalJson';
import { ONE_TOKEN } from '../src/core/amount';
import { ParentChain } from '../src/parent/parentChain';
import { sidechainConfig } from '../src/sidechain/config';
import { ParentChainNode, type ParentTimer } from '../src/node/parentChainNode';
import { ServiceNode, type ServiceTimer, DEFAULT_SERVICE_NODE_CONFIG } from '../src/node/serviceNode';
import { SidechainNode, type SidechainTimer, DEFAULT_SIDECHAIN_NODE_CONFIG } from '../src/node/sidechainNode';
import { type NodeContext, type SimNode } from '../src/node/ports';
import { type NodeMessage, describeMessage } from '../src/node/messages';
import { MsgSendDef } from '../src/modules/bank/msgs';
import { encodeTx, signTx } from '../src/modules/auth/stdTx';
import { getValidatorSet } from '../src/modules/staking/keeper';
import { getBuffer, getLastCheckpoint } from '../src/modules/checkpoint/keeper';
import { decodeTx } from '../src/modules/auth/stdTx';
import { MSG_REGISTRY } from '../src/app/registry';
import { fromHex } from '../src/core/bytes';
import { Engine } from './engine/engine';
import { Rng } from './env/rng';
import { Network, NET_DELIVER, type Envelope } from './env/network';
import { TraceRecorder } from './trace/traceRecorder';
import { type FaultSpec, type Scenario } from './scenario/scenario';

type AnyTimer = ServiceTimer | SidechainTimer | ParentTimer;

export interface NodeSlot {
  node: SimNode<NodeMessage, AnyTimer>;
  alive: boolean;
  paused: boolean;
  pausedUntilMs: number;
  incarnation: number;
  skewMs: number;
  rng: Rng;
  ctx: NodeContext<NodeMessage, AnyTimer>;
}

export interface RunRecord {
  t: number;
  node: string;
  kind: string;
  data: Record<string, unknown>;
}

export interface ValidatorKeys {
  index: number;
  signerKey: Hex;
  signer: Address;
  pubKey: Hex;
  ownerKey: Hex;
  owner: Address;
}

interface TimerPayload {
  tag: AnyTimer;
  inc: number;
}

export class Cluster {
  readonly engine: Engine;
  readonly trace: TraceRecorder;
  readonly rng: Rng;
  readonly network: Network;
  readonly scheme: SignatureScheme;
  readonly slots = new Map<string, NodeSlot>();
  readonly records: RunRecord[] = [];
  readonly keys: ValidatorKeys[] = [];
  readonly users: Array<{ key: Hex; address: Address }> = [];
  readonly serviceNodes: ServiceNode[] = [];
  readonly sidechainNodes: SidechainNode[] = [];
  readonly parentNode: ParentChainNode;
  readonly faultsFired: Array<{ kind: string; atMs: number; detail: string }> = [];
  /** Producer faults in force, by 1-based validator index. */
  readonly producerFaults = new Map<number, Set<'offline' | 'slow' | 'equivocate' | 'earlySeal'>>();
  readonly slowProducerDelayS = new Map<number, number>();
  readonly doubleSigners = new Set<number>();
  /** Heights at which a no-ack was applied (counted once across nodes). */
  readonly noAckHeights = new Set<string>();
  /** When each checkpoint (by start block) was first buffered and first acked, virtual ms. */
  readonly checkpointTimes = new Map<string, { bufferedMs?: number; ackedMs?: number }>();
  readonly genesis: unknown;

  constructor(
    readonly scenario: Scenario,
    readonly seed: number,
    opts: { trace?: TraceRecorder } = {},
  ) {
    this.trace = opts.trace ?? new TraceRecorder();
    this.engine = new Engine(this.trace);
    this.rng = Rng.forSeed(`${scenario.name}/${seed}`);
    this.scheme = schemeFor(scenario.crypto);
    const p = scenario.params;
    this.network = new Network(this.engine, this.rng.fork('net'), scenario.network);

    // Keys: drawn from the run seed, so seeds also vary who is in turn when.
    const keyRng = this.rng.fork('keys');
    const newKey = (): Hex => {
      for (;;) {
        const k = toHex(keyRng.bytes(32));
        if (BigInt(k) > 0n && BigInt(k) < 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n) return k;
      }
    };
    scenario.validators.forEach((_, i) => {
      const signerKey = newKey();
      const ownerKey = newKey();
      const pubKey = toHex(publicKeyBytesFromPrivateKey(signerKey));
      this.keys.push({ index: i + 1, signerKey, signer: addressOfPublicKey(pubKey), pubKey, ownerKey, owner: addressOfPublicKey(publicKeyBytesFromPrivateKey(ownerKey)) });
    });
    for (let j = 0; j < 4; j++) {
      const key = newKey();
      this.users.push({ key, address: addressOfPublicKey(publicKeyBytesFromPrivateKey(key)) });
    }
    if (scenario.crypto === 'fast') {
      for (const k of this.keys) {
        registerFastKey(k.signerKey);
        registerFastKey(k.ownerKey);
      }
      for (const u of this.users) registerFastKey(u.key);
    }

    const sidechainChainId = '15001';
    this.genesis = {
      chain_id: 'lockstep-1',
      genesis_time_ms: scenario.epochMs,
      app_state: {
        chain: { parent_chain_tx_confirmations: p.parentConfirmations, sidechain_tx_confirmations: p.sidechainConfirmations, sidechain_chain_id: sidechainChainId },
        auth: {
          accounts: [
            ...this.keys.map((k, i) => ({ address: k.signer, coins: [{ denom: 'matic', amount: { i: (scenario.validators[i]!.balanceTokens * ONE_TOKEN).toString() } }] })),
            ...this.users.map((u) => ({ address: u.address, coins: [{ denom: 'matic', amount: { i: (1000n * ONE_TOKEN).toString() } }] })),
          ],
        },
        staking: { validators: this.keys.map((k, i) => ({ id: i + 1, pub_key: k.pubKey, power: Number(scenario.validators[i]!.stakeTokens) })) },
        sidechain: { params: { sprint_duration: p.sprint, span_duration: p.spanDuration, producer_count: p.producerCount }, first_span_duration: p.firstSpanDuration },
        checkpoint: { params: { checkpoint_buffer_time_ms: p.checkpointBufferTimeMs } },
      },
    };

    const parent = new ParentChain(
      { chainId: 1337n, blockTimeMs: p.parentBlockTimeMs, confirmations: p.parentConfirmations, validatorSlots: p.validatorSlots, genesisTimeMs: scenario.epochMs, sidechainChainId },
      { validators: this.keys.map((k, i) => ({ owner: k.owner, signerPubkey: k.pubKey, amount: scenario.validators[i]!.stakeTokens * ONE_TOKEN })) },
      this.scheme,
    );
    this.parentNode = new ParentChainNode('parent', parent);
    this.addNode(this.parentNode);

    const n = this.keys.length;
    const svcIds = this.keys.map((k) => `svc-${k.index}`);
    const scIds = this.keys.map((k) => `sc-${k.index}`);
    const serviceCfg = {
      ...DEFAULT_SERVICE_NODE_CONFIG,
      commitTimeoutMs: p.commitTimeoutMs,
      bridge: { ...DEFAULT_SERVICE_NODE_CONFIG.bridge, relayDelayPerRankMs: p.relayDelayPerRankMs, checkpointLength: BigInt(p.checkpointLength) },
    };
    for (let i = 0; i < n; i++) {
      const k = this.keys[i]!;
      const node = new ServiceNode(
        { id: svcIds[i]!, address: k.signer, privateKey: k.signerKey, peers: svcIds.filter((_, j) => j !== i), parentNode: 'parent', sidechainNode: scIds[i]! },
        this.genesis,
        this.scheme,
        serviceCfg,
        {
          onOwnVote: (vote, sign) => (this.doubleSigners.has(k.index) && vote.blockHash !== null ? [sign({ ...vote, blockHash: toHex(keccak256Bytes(fromHex(vote.blockHash))) })] : []),
          onCommit: (node, block, end, results) => {
            for (const r of end.sideTxResults) {
              if (r.code !== 0) continue;
              if (r.msgType === 'checkpoint/MsgCheckpoint' || r.msgType === 'checkpoint/MsgCheckpointACK') {
                const last = r.msgType === 'checkpoint/MsgCheckpoint' ? getBuffer(node.app.store) : getLastCheckpoint(node.app.store)?.checkpoint;
                if (!last) continue;
                const key = last.startBlock.toString();
                const e = this.checkpointTimes.get(key) ?? {};
                if (r.msgType === 'checkpoint/MsgCheckpoint') e.bufferedMs ??= this.engine.nowMs();
                else e.ackedMs ??= this.engine.nowMs();
                this.checkpointTimes.set(key, e);
              }
            }
            block.block.txs.forEach((t, ti) => {
              if (results[ti]?.code !== 0) return;
              try {
                if (decodeTx(fromHex(t), MSG_REGISTRY).def.type === 'checkpoint/MsgCheckpointNoACK') this.noAckHeights.add(block.block.height.toString());
              } catch {
                /* counted elsewhere */
              }
            });
          },
        },
      );
      this.serviceNodes.push(node);
      this.addNode(node);
    }

    // Span 0's producers: the first producerCount validators by signer address, full power.
    const byAddress = [...this.keys].sort((a, b) => compareAddresses(a.signer, b.signer));
    const producers = byAddress.slice(0, p.producerCount).map((k) => ({ id: BigInt(k.index), address: k.signer, power: scenario.validators[k.index - 1]!.stakeTokens }));
    const scCfg = sidechainConfig({
      chainId: BigInt(sidechainChainId),
      periodS: p.periodS,
      producerDelayS: p.producerDelayS,
      sprint: p.sprint,
      backupMultiplierS: p.backupMultiplierS,
      stateSyncDelayS: p.stateSyncDelayS,
      firstSpanEnd: BigInt(p.firstSpanDuration - 1),
    });
    for (let i = 0; i < n; i++) {
      const k = this.keys[i]!;
      const idx = k.index;
      const node = new SidechainNode(
        { id: scIds[i]!, producer: { address: k.signer, privateKey: k.signerKey }, peers: scIds.filter((_, j) => j !== i), serviceNode: svcIds[i]! },
        scCfg,
        { timeS: BigInt(Math.floor(scenario.epochMs / 1000)), producers },
        this.scheme,
        { ...DEFAULT_SIDECHAIN_NODE_CONFIG, jitter: p.jitter },
        {
          productionDelayS: (_node, plan) => {
            const f = this.producerFaults.get(idx);
            if (f?.has('offline')) return null;
            if (f?.has('slow')) return this.slowProducerDelayS.get(idx) ?? 0;
            void plan;
            return 0;
          },
          shouldEquivocate: () => this.producerFaults.get(idx)?.has('equivocate') ?? false,
          sealEarly: (_node, plan) => (this.producerFaults.get(idx)?.has('earlySeal') ?? false) && plan.succession > 0,
        },
      );
      this.sidechainNodes.push(node);
      this.addNode(node);
    }

    this.engine.on<Envelope<NodeMessage>>(
      NET_DELIVER,
      (ev) => {
        const slot = this.slots.get(ev.target);
        if (!slot || !slot.alive || slot.paused) return;
        this.network.noteDelivered();
        slot.node.onMessage(ev.payload.from, ev.payload.msg, slot.ctx);
      },
      (env) => `{"f":${JSON.stringify(env.from)},"m":${describeMessage(env.msg)}}`,
    );
    this.engine.on<TimerPayload>(
      'node.timer',
      (ev, e) => {
        const slot = this.slots.get(ev.target);
        if (!slot || !slot.alive || ev.payload.inc !== slot.incarnation) return;
        if (slot.paused) {
          e.at(Math.max(slot.pausedUntilMs, e.nowMs()), 'node.timer', ev.target, ev.payload);
          return;
        }
        slot.node.onTimer(ev.payload.tag, slot.ctx);
      },
      (p) => `{"t":${JSON.stringify(p.tag.kind)}}`,
    );
    this.engine.on<{ fault: FaultSpec; index: number; phase: 'start' | 'end' }>('fault', (ev) => this.applyFault(ev.payload.fault, ev.payload.index, ev.payload.phase), (p) => `{"i":${p.index},"k":"${p.fault.kind}","p":"${p.phase}"}`);
    this.engine.on<{ what: string; index: number }>('workload', (ev) => this.workload(ev.payload.what, ev.payload.index), (p) => `{"w":"${p.what}","i":${p.index}}`);
  }

  private addNode(node: SimNode<NodeMessage, any>): void {
    const id = node.id;
    const slot: NodeSlot = {
      node,
      alive: true,
      paused: false,
      pausedUntilMs: 0,
      incarnation: 0,
      skewMs: 0,
      rng: this.rng.fork(`node:${id}`),
      ctx: undefined as unknown as NodeContext<NodeMessage, AnyTimer>,
    };
    slot.ctx = {
      nowMs: () => this.engine.nowMs() + this.scenario.epochMs + slot.skewMs,
      send: (to, msg) => this.network.send(id, to, msg),
      setTimer: (afterMs, tag) => void this.engine.after(Math.max(0, Math.floor(afterMs)), 'node.timer', id, { tag, inc: slot.incarnation }),
      random: () => slot.rng.float(),
      record: (kind, data) => this.record(id, kind, data),
    };
    this.slots.set(id, slot);
  }

  record(node: string, kind: string, data: Record<string, unknown>): void {
    const t = this.engine.nowMs();
    this.records.push({ t, node, kind, data });
    this.trace?.note(t, kind, node, data);
  }

  /** Schedule faults and workload, start every node. */
  start(): void {
    const s = this.scenario;
    s.faults.forEach((f, i) => {
      this.engine.at(f.atMs, 'fault', '', { fault: f, index: i, phase: 'start' });
      if (f.forMs !== undefined) this.engine.at(f.atMs + f.forMs, 'fault', '', { fault: f, index: i, phase: 'end' });
    });
    const w = s.workload;
    if (w.transfers) this.engine.at(w.transfers.everyMs, 'workload', '', { what: 'transfer', index: 0 });
    if (w.sidechainTxs) this.engine.at(w.sidechainTxs.everyMs, 'workload', '', { what: 'sidechainTx', index: 0 });
    w.topups.forEach((t, i) => this.engine.at(t.atMs, 'workload', '', { what: 'topup', index: i }));
    w.stateSyncs.forEach((t, i) => this.engine.at(t.atMs, 'workload', '', { what: 'stateSync', index: i }));
    w.stakeUpdates.forEach((t, i) => this.engine.at(t.atMs, 'workload', '', { what: 'stakeUpdate', index: i }));
    w.joins.forEach((t, i) => this.engine.at(t.atMs, 'workload', '', { what: 'join', index: i }));
    w.exits.forEach((t, i) => this.engine.at(t.atMs, 'workload', '', { what: 'exit', index: i }));
    w.signerChanges.forEach((t, i) => this.engine.at(t.atMs, 'workload', '', { what: 'signerChange', index: i }));
    for (const slot of this.slots.values()) slot.node.start(slot.ctx);
  }

  private slot(id: string): NodeSlot {
    return this.slots.get(id)!;
  }

  private applyFault(f: FaultSpec, index: number, phase: 'start' | 'end'): void {
    const start = phase === 'start';
    const note = (detail: string) => {
      if (start) this.faultsFired.push({ kind: f.kind, atMs: this.engine.nowMs(), detail });
      this.record('', start ? 'fault.start' : 'fault.end', { index, kind: f.kind, detail });
    };
    const crash = (id: string) => {
      const s = this.slot(id);
      if (start) {
        s.node.crash();
        s.alive = false;
        s.incarnation++;
      } else if (!s.alive) {
        s.alive = true;
        s.incarnation++;
        s.node.restart(s.ctx);
      }
    };
    // 'inTurn' resolves, when the fault starts, to the producer in turn on the best sidechain head.
    const target = (): number => {
      if (typeof f.validator === 'number') return f.validator;
      if (start) this.resolvedTargets.set(index, this.inTurnValidator());
      return this.resolvedTargets.get(index)!;
    };
    const producer = (flag: 'offline' | 'slow' | 'equivocate' | 'earlySeal') => {
      const v = target();
      const set = this.producerFaults.get(v) ?? new Set();
      if (start) set.add(flag);
      else set.delete(flag);
      this.producerFaults.set(v, set);
      if (flag === 'slow') this.slowProducerDelayS.set(v, f.delayS!);
      // Re-plan so an offline producer stops now and a healed one resumes at once.
      const sc = this.sidechainNodes[v - 1]!;
      const s = this.slot(sc.id);
      if (s.alive) {
        s.incarnation++;
        s.node.restart(s.ctx);
      }
    };
    switch (f.kind) {
      case 'crash':
        crash(f.node!);
        note(f.node!);
        return;
      case 'pause': {
        const s = this.slot(f.node!);
        s.paused = start;
        s.pausedUntilMs = f.forMs !== undefined ? f.atMs + f.forMs : Number.MAX_SAFE_INTEGER;
        note(f.node!);
        return;
      }
      case 'partition': {
        const gs = f.groups!;
        for (let a = 0; a < gs.length; a++)
          for (let b = a + 1; b < gs.length; b++) (start ? this.network.partition(gs[a]!, gs[b]!) : this.network.unpartition(gs[a]!, gs[b]!));
        note(gs.map((g) => g.join('+')).join(' | '));
        return;
      }
      case 'oneWayPartition':
        if (start) this.network.partition(f.from!, f.to!, true);
        else this.network.unpartition(f.from!, f.to!, true);
        note(`${f.from!.join('+')} -> ${f.to!.join('+')}`);
        return;
      case 'link':
        for (const a of f.from!) for (const b of f.to!) (start ? this.network.setLink(a, b, f.link!) : this.network.clearLink(a, b));
        note(`${f.from!.join('+')} -> ${f.to!.join('+')}`);
        return;
      case 'clockSkew':
        this.slot(f.node!).skewMs = start ? f.skewMs! : 0;
        note(`${f.node} ${f.skewMs}ms`);
        return;
      case 'offlineProducer':
        producer('offline');
        note(`validator ${this.resolvedTargets.get(index) ?? f.validator}`);
        return;
      case 'slowProducer':
        producer('slow');
        note(`validator ${this.resolvedTargets.get(index) ?? f.validator} +${f.delayS}s`);
        return;
      case 'equivocatingProducer':
        producer('equivocate');
        note(`validator ${this.resolvedTargets.get(index) ?? f.validator}`);
        return;
      case 'earlySeal':
        producer('earlySeal');
        note(`validator ${this.resolvedTargets.get(index) ?? f.validator}`);
        return;
      case 'isolateProducer': {
        const v = target();
        const me = [`sc-${v}`];
        const others = this.sidechainNodes.map((n) => n.id).filter((id) => id !== me[0]);
        if (start) this.network.partition(me, others);
        else this.network.unpartition(me, others);
        note(`validator ${v}`);
        return;
      }
      case 'doubleSign':
        if (start) this.doubleSigners.add(target());
        else this.doubleSigners.delete(target());
        note(`validator ${f.validator}`);
        return;
      case 'offlineCheckpointProposer': {
        if (start) {
          const ref = this.referenceServiceNode();
          const proposer = getValidatorSet(ref.app.store).proposer.address;
          const k = this.keys.find((x) => x.signer === proposer)!;
          this.offlineProposerNode.set(index, `svc-${k.index}`);
        }
        const id = this.offlineProposerNode.get(index)!;
        crash(id);
        note(id);
        return;
      }
    }
  }

  private readonly offlineProposerNode = new Map<number, string>();
  private readonly resolvedTargets = new Map<number, number>();

  /** The validator in turn for the next block on the best sidechain head. */
  inTurnValidator(): number {
    let best = this.sidechainNodes[0]!;
    for (const n of this.sidechainNodes) if (n.chain.head().td > best.chain.head().td) best = n;
    const proposer = best.chain.head().snapshot.validatorSet.proposer.address;
    return this.keys.find((k) => k.signer === proposer)!.index;
  }

  /** A live service node with the highest committed height (for reading the network's state). */
  referenceServiceNode(): ServiceNode {
    let best = this.serviceNodes[0]!;
    for (const n of this.serviceNodes) if (this.slot(n.id).alive && (n.height > best.height || !this.slot(best.id).alive)) best = n;
    return best;
  }

  private wl?: Rng;

  private workload(what: string, index: number): void {
    const rng = (this.wl ??= this.rng.fork('workload'));
    const s = this.scenario;
    const parentCall = (call: Parameters<ParentChain['submit']>[0]) => this.network.send('client', 'parent', { kind: 'p.submit', call });
    switch (what) {
      case 'transfer': {
        const from = rng.pick(this.users);
        const to = rng.pick(this.users.filter((u) => u !== from));
        const target = rng.pick(this.serviceNodes);
        const acc = target.app.signingAccount(from.address);
        if (acc) {
          const tx = encodeTx(signTx(MsgSendDef, { fromAddress: from.address, toAddress: to.address, amount: [{ denom: 'matic', amount: s.workload.transfers!.amountWei }] }, { chainId: target.app.chainId, ...acc, memo: '' }, from.key, this.scheme));
          this.network.send('client', target.id, { kind: 'client.tx', tx: toHex(tx) });
        }
        this.engine.after(s.workload.transfers!.everyMs, 'workload', '', { what, index });
        return;
      }
      case 'sidechainTx': {
        const node = rng.pick(this.sidechainNodes);
        const from = rng.pick(this.users);
        node.txpool.push({ from: from.address, to: rng.pick(this.users).address, value: 1n, nonce: BigInt(this.engine.nowMs()) });
        this.engine.after(s.workload.sidechainTxs!.everyMs, 'workload', '', { what, index });
        return;
      }
      case 'topup': {
        const t = s.workload.topups[index]!;
        const k = this.keys[t.validator - 1]!;
        for (let r = 0; r < t.repeat; r++) parentCall({ method: 'topUpForFee', from: k.owner, user: k.signer, fee: t.amountTokens * ONE_TOKEN });
        this.record('client', 'workload.topup', { validator: t.validator, repeat: t.repeat });
        return;
      }
      case 'stateSync': {
        const t = s.workload.stateSyncs[index]!;
        for (let c = 0; c < t.count; c++) parentCall({ method: 'syncState', from: this.keys[0]!.owner, receiver: '0x0000000000000000000000000000000000001001', data: toHex(rng.bytes(32)) });
        this.record('client', 'workload.stateSync', { count: t.count });
        return;
      }
      case 'stakeUpdate': {
        const t = s.workload.stakeUpdates[index]!;
        const k = this.keys[t.validator - 1]!;
        parentCall({ method: 'restake', from: k.owner, validatorId: BigInt(t.validator), amount: t.amountTokens * ONE_TOKEN });
        this.record('client', 'workload.stakeUpdate', { validator: t.validator });
        return;
      }
      case 'join': {
        const t = s.workload.joins[index]!;
        const key = toHex(rng.bytes(32));
        const owner = addressOfPublicKey(publicKeyBytesFromPrivateKey(toHex(rng.bytes(32))));
        parentCall({ method: 'stake', from: owner, signerPubkey: toHex(publicKeyBytesFromPrivateKey(key)), amount: t.stakeTokens * ONE_TOKEN });
        this.record('client', 'workload.join', { stake: t.stakeTokens.toString() });
        return;
      }
      case 'exit': {
        const t = s.workload.exits[index]!;
        const k = this.keys[t.validator - 1]!;
        parentCall({ method: 'unstake', from: k.owner, validatorId: BigInt(t.validator) });
        this.record('client', 'workload.exit', { validator: t.validator });
        return;
      }
      case 'signerChange': {
        const t = s.workload.signerChanges[index]!;
        const k = this.keys[t.validator - 1]!;
        const newKey = toHex(rng.bytes(32));
        if (this.scenario.crypto === 'fast') registerFastKey(newKey);
        parentCall({ method: 'updateSigner', from: k.owner, validatorId: BigInt(t.validator), signerPubkey: toHex(publicKeyBytesFromPrivateKey(newKey)) });
        this.record('client', 'workload.signerChange', { validator: t.validator });
        return;
      }
    }
  }

  checkpointLatencyMs(): number[] {
    const out: number[] = [];
    for (const e of this.checkpointTimes.values()) if (e.bufferedMs !== undefined && e.ackedMs !== undefined) out.push(e.ackedMs - e.bufferedMs);
    return out;
  }

  /** A deterministic digest of every node's durable state (for debugging divergent runs). */
  stateDigest(): Hex {
    return toHex(keccak256Bytes(new TextEncoder().encode(canonicalJson(this.serviceNodes.map((n) => n.app.appHash)))));
  }
}
