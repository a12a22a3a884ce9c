/**
 * A live devnet as its host assembles it: the paced network (liveNetwork.ts), the admin namespace
 * that steers it (liveControl.ts) and the ports of every validator's nodes (livePorts.ts). The
 * network knows none of them; they all read it. The devnet itself answers as its own node
 * (node_index) does, so a server or a test that talks to "the devnet" talks to that node.
 */
import { type QueryAnswer } from '../../src/app/queryRouter';
import { type ServiceNode } from '../../src/node/service/serviceNode';
import { type SidechainNode } from '../../src/node/sidechain/sidechainNode';
import {
  type BroadcastMode,
  type BroadcastResult,
  type CatchUpGate,
  type NodeStatusPort,
  type OperatorResult,
  type PeerInfo,
  type ServicePort,
  type SidechainPort,
  type SidechainView,
  type TxLookup,
} from '../../src/rpc/ports';
import { type PreparedRun } from '../../sim/run/run';
import { type DevnetConfig } from './home';
import { LiveControl } from './liveControl';
import { LiveNetwork } from './liveNetwork';
import { NodeService, NodeSidechain, NodeStatus } from './livePorts';
import { type InjectedFault, type LiveOptions } from './liveTypes';

/** The three ports of one validator's nodes (the servers' `/node/N`). */
export interface NodePorts {
  service: NodeService;
  status: NodeStatus;
  sidechain: NodeSidechain;
}

export class LiveDevnet implements ServicePort, NodeStatusPort, SidechainPort {
  readonly network: LiveNetwork;
  /** The admin namespace (lockstep_*, evm_*, anvil_*, hardhat_*). */
  readonly control: LiveControl;
  private readonly ports: NodePorts[] = [];
  private readonly own: NodePorts;

  constructor(config: DevnetConfig, opts: LiveOptions = {}) {
    this.network = new LiveNetwork(config, opts);
    this.control = new LiveControl(this.network);
    for (let i = 1; i <= this.network.nodeCount; i++)
      this.ports.push({
        service: new NodeService(this.network, i),
        status: new NodeStatus(this.network, i),
        sidechain: new NodeSidechain(this.network, i),
      });
    this.own = this.ports[config.nodeIndex - 1]!;
  }

  /** Validator `i`'s ports (1-based), or null for an index the devnet does not have. */
  node(i: number): NodePorts | null {
    return this.ports[i - 1] ?? null;
  }

  get nodeCount(): number {
    return this.network.nodeCount;
  }

  /** The run as it is now (a revert replaces it). */
  get run(): PreparedRun {
    return this.network.run;
  }

  get replaying(): boolean {
    return this.network.replaying;
  }

  get isPaused(): boolean {
    return this.network.isPaused;
  }

  serviceNode(i: number): ServiceNode {
    return this.network.serviceNode(i);
  }

  sidechainNode(i: number): SidechainNode {
    return this.network.sidechainNode(i);
  }

  start(): Promise<void> {
    return this.network.start();
  }

  stop(): Promise<void> {
    return this.network.stop();
  }

  /** What `lockstep_status` and `lockstep node status` show. */
  adminStatus() {
    return this.control.status();
  }

  /** One line for the terminal. */
  statusLine(): string {
    const net = this.network;
    const height = net.serviceNode(net.nodeIndex).height;
    const sc = net.sidechainNode(net.nodeIndex).chain.head().block.header.number;
    const state = net.replaying ? '(replaying) ' : net.isPaused ? '(paused) ' : '';
    const v = net.oracles.list();
    const violations = v.length
      ? `, ${v.length} oracle violation${v.length > 1 ? 's' : ''} (${v.map((x) => x.oracle).join(', ')})`
      : '';
    return `${state}service height ${height}, sidechain block ${sc}, ${(net.run.ranToMs() / 1000).toFixed(0)} s simulated, ${net.stats.txs} txs and ${net.stats.scTxs} sidechain txs received${violations}`;
  }

  /** Faults injected so far (for the report). */
  injectedFaults(): readonly InjectedFault[] {
    return this.network.injectedFaults();
  }

  // --- the devnet's own node (node_index) -----------------------------------------------------

  get chainId(): string {
    return this.network.chainId;
  }

  get gate(): CatchUpGate {
    return this.network.gate;
  }

  query(pathWithQuery: string): QueryAnswer {
    return this.own.service.query(pathWithQuery);
  }

  broadcast(tx: Uint8Array, mode: BroadcastMode): Promise<BroadcastResult> {
    return this.own.service.broadcast(tx, mode);
  }

  lookupTx(hash: string): TxLookup {
    return this.own.service.lookupTx(hash);
  }

  status(): ReturnType<NodeStatusPort['status']> {
    return this.own.status.status();
  }

  unconfirmedTxs(): Uint8Array[] {
    return this.own.status.unconfirmedTxs();
  }

  netInfo(): { listening: boolean; peers: PeerInfo[] } {
    return this.own.status.netInfo();
  }

  view(): SidechainView {
    return this.own.sidechain.view();
  }

  setHead(n: bigint): Promise<OperatorResult> {
    return this.own.sidechain.setHead(n);
  }
}
