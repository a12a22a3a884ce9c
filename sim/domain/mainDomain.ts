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
import { SharedExecution } from '../../src/app/sharedExecution';
import { ONE_TOKEN } from '../../src/core/amount';
import { type Hex } from '../../src/core/bytes';
import { type SignatureScheme } from '../../src/core/signatureScheme';
import { getAckCount } from '../../src/modules/checkpoint/keeper';
import { getLastSpan } from '../../src/modules/span/keeper';
import { getValidator } from '../../src/modules/staking/keeper';
import { ParentChainNode } from '../../src/node/parentChainNode';
import { type ClientReply } from '../../src/node/ports';
import { DEFAULT_SERVICE_NODE_CONFIG, type ServiceNodeConfig } from '../../src/node/service/config';
import { ServiceNode } from '../../src/node/service/serviceNode';
import { ParentChain } from '../../src/parent/parentChain';
import { type RotationKey, type UserKey, type ValidatorKeys } from '../core/runKeys';
import { type Rng } from '../env/rng';
import { type FaultSite, type MainTarget, type ValidatorBehaviour } from '../faults/targets';
import { type Scenario } from '../scenario/scenario';
import { type TraceRecorder } from '../trace/traceRecorder';
import { type ServiceClientPort, type WorkloadEvent } from '../workload/clientPort';
import { PROBE_EVERY_MS, probe } from '../workload/queryProbe';
import { ServiceWorkload } from '../workload/serviceWorkload';
import { Behaviours } from './behaviours';
import { CheckpointTimes } from './checkpointTimes';
import { Domain, type DomainOptions } from './domain';
import { type MainReport } from './mainReport';
import { type RunSetup, runSetup } from './runSetup';

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

export class MainDomain extends Domain implements MainTarget {
  readonly scheme: SignatureScheme;
  /** The block records the service nodes share (null when the run executes every block on every node). */
  readonly sharedExecution: SharedExecution | null;
  readonly keys: ValidatorKeys[];
  readonly users: UserKey[];
  readonly rotationKeys: readonly (readonly RotationKey[])[];
  readonly serviceNodes: ServiceNode[] = [];
  readonly parentNode: ParentChainNode;
  readonly genesis: unknown;
  readonly checkpointLength: number;
  readonly samples: MainSamples = { timeMs: [], serviceHeight: [] };
  /** What Byzantine faults make validators' service nodes do (see setBehaviour). */
  private readonly behaviours = new Behaviours();
  private readonly checkpoints = new CheckpointTimes();
  private readonly workload: ServiceWorkload;
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
    setup: RunSetup = runSetup(scenario, seed),
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
    this.rotationKeys = setup.rotationKeys;
    this.genesis = setup.genesis;
    this.checkpointLength = scenario.params.checkpointLength;
    this.workload = new ServiceWorkload(scenario.workload, this.clientPort());
    this.parentNode = new ParentChainNode('parent', parentChainOf(scenario, setup));
    this.addNode(this.parentNode);
    const serviceCfg = serviceNodeConfig(scenario, this.sharedExecution, opts.service?.checkInvariants);
    const { svcIds, scIds } = setup;
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
          ...this.behaviours.hooksOf(k.index),
          clientReplies: {
            reply: (r) => {
              for (const l of this.clientReplyListeners) l(svcIds[i]!, r);
            },
          },
          onCommit: (shell, block, end, results) => {
            this.checkpoints.onCommit(block.block.height, end, results, shell.app.store, this.engine.nowMs());
            this.followSignerChange(k.index, node);
            for (const b of this.behaviours.of(k.index)) b.onCommit?.(shell, block, end);
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
      (ev) => this.workload.run(ev.payload),
      (p) => `{"w":"${p.what}","i":${p.index}${p.round ? `,"r":${p.round}` : ''}}`,
    );
  }

  /** A client reading the REST API of one live service node in turn (sim/workload/queryProbe.ts). */
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
    this.workload.schedule();
  }

  protected takeSample(timeMs: number): void {
    this.samples.timeMs.push(timeMs);
    this.samples.serviceHeight.push(Math.max(...this.serviceNodes.map((n) => Number(n.app.height))));
  }

  protected faultSite(): FaultSite {
    return { name: 'main', domain: this };
  }

  // --- what a fault may do here (sim/faults/targets.ts) -----------------------------------------

  setBehaviour(key: string, validators: readonly number[], behaviour: ValidatorBehaviour | null): void {
    this.behaviours.set(key, validators, behaviour);
  }

  /**
   * A transaction signed by a validator's node, sent as its bridge's would spread: from its node
   * to every service node, its own included, over the network.
   */
  sendTxFrom(validator: number, tx: Hex): void {
    const from = `svc-${validator}`;
    for (const n of this.serviceNodes) this.network.send(from, n.id, { kind: 'c.tx', tx });
  }

  /** A live service node with the highest committed height (for reading the network's state). */
  referenceServiceNode(): ServiceNode {
    let best = this.serviceNodes[0]!;
    for (const n of this.serviceNodes)
      if (this.slot(n.id).alive && (n.height > best.height || !this.slot(best.id).alive)) best = n;
    return best;
  }

  /** Validator `v`'s service node, or the reference node when it is down (a client retries elsewhere). */
  nodeOf(v: number): ServiceNode {
    const n = this.serviceNodes[v - 1]!;
    return this.slot(n.id).alive ? n : this.referenceServiceNode();
  }

  /** What the workload's clients may do here (sim/workload/clientPort.ts). */
  private clientPort(): ServiceClientPort {
    let rng: Rng | undefined;
    return {
      scheme: this.scheme,
      keys: this.keys,
      users: this.users,
      rotationKeys: this.rotationKeys,
      serviceNodes: this.serviceNodes,
      nodeOf: (v) => this.nodeOf(v),
      sendTx: (to, tx) => this.network.send('client', to, { kind: 'client.tx', tx }),
      callParent: (call) => this.network.send('client', 'parent', { kind: 'p.submit', call }),
      record: (obs) => this.record('client', obs),
      rng: () => {
        rng ??= this.rng.fork('workload');
        return rng;
      },
      at: (atMs, ev) => this.engine.at(atMs, 'workload', '', ev),
      after: (ms, ev) => this.engine.after(ms, 'workload', '', ev),
    };
  }

  /**
   * After validator `v`'s node committed a block: when the service has applied a signer change of
   * `v` to one of the keys the workload rotated it to, the node takes that key up (as an operator
   * installs the key it registered).
   */
  private followSignerChange(v: number, node: ServiceNode): void {
    const ring = this.rotationKeys[v - 1]!;
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
      noAcks: this.checkpoints.noAcks,
      checkpointTimes: this.checkpoints.entries(),
      records: this.records,
      samples: { timeMs: [...this.samples.timeMs], serviceHeight: [...this.samples.serviceHeight] },
      sharedExecution: share ? { hits: share.hits, misses: share.misses } : null,
      faultsFired: [...this.faultsFired],
      network: this.networkStats(),
      events: this.engine.eventsDelivered,
      traceDigest: this.traceDigest(),
    };
  }
}

/** The parent chain of a run: its validators staked at genesis as the scenario gives them. */
function parentChainOf(scenario: Scenario, setup: RunSetup): ParentChain {
  const p = scenario.params;
  return new ParentChain(
    {
      chainId: 1337n,
      blockTimeMs: p.parentBlockTimeMs,
      confirmations: p.parentConfirmations,
      validatorSlots: p.validatorSlots,
      genesisTimeMs: scenario.epochMs,
      sidechainChainId: setup.sidechainChainId,
    },
    {
      validators: setup.keys.map((k, i) => ({
        owner: k.owner,
        signerPubkey: k.pubKey,
        amount: scenario.validators[i]!.stakeTokens * ONE_TOKEN,
      })),
    },
    setup.scheme,
  );
}

/** The service nodes' settings from the scenario's parameters. */
function serviceNodeConfig(
  scenario: Scenario,
  sharedExecution: SharedExecution | null,
  checkInvariants: boolean | undefined,
): ServiceNodeConfig {
  const p = scenario.params;
  return {
    ...DEFAULT_SERVICE_NODE_CONFIG,
    app: { ...(checkInvariants !== undefined ? { checkInvariants } : {}), sharedExecution },
    commitTimeoutMs: p.commitTimeoutMs,
    bridge: {
      ...DEFAULT_SERVICE_NODE_CONFIG.bridge,
      relayDelayPerRankMs: p.relayDelayPerRankMs,
      checkpointLength: BigInt(p.checkpointLength),
    },
  };
}
