/**
 * The ports of one validator's nodes on a live devnet (the servers' `/node/N`): its service node
 * for REST (reads, `POST /txs`, `GET /txs/{hash}`), for the node status RPC (`/status`,
 * `/net_info`, `/unconfirmed_txs`), and its sidechain node for JSON-RPC (reads, its pool, and
 * `eth_sendRawTransaction`) and the console. Every read notes that the state it shows was served (so a restart
 * never shows an older one without saying so), and reads wait at the devnet's catch-up gate.
 */
import { type Hex } from '../../src/core/bytes';
import { maxBig } from '../../src/core/amount';
import { type QueryAnswer } from '../../src/app/queryRouter';
import { getValidatorSet } from '../../src/modules/staking/keeper';
import { chainReadPort } from '../../src/sidechain/readPort';
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
import { type ServiceNode } from '../../src/node/service/serviceNode';
import { type SidechainNode } from '../../src/node/sidechain/sidechainNode';
import { type LiveNetwork } from './liveNetwork';

/** The version the node status RPC reports. */
export const VERSION = '0.1.0';

export class NodeService implements ServicePort {
  readonly id: string;

  constructor(
    private readonly net: LiveNetwork,
    readonly index: number,
  ) {
    this.id = `svc-${index}`;
  }

  get chainId(): string {
    return this.net.chainId;
  }

  get gate(): CatchUpGate {
    return this.net.gate;
  }

  node(): ServiceNode {
    return this.net.serviceNode(this.index);
  }

  query(pathWithQuery: string): QueryAnswer {
    this.net.noteServed();
    const node = this.node();
    return node.app.query(pathWithQuery, node.views);
  }

  broadcast(tx: Uint8Array, mode: BroadcastMode): Promise<BroadcastResult> {
    return this.net.serviceTxs.broadcastTo(this.index, tx, mode);
  }

  lookupTx(hash: string): TxLookup {
    return this.net.serviceTxs.lookupOn(this.index, hash as Hex);
  }
}

export class NodeStatus implements NodeStatusPort {
  constructor(
    private readonly net: LiveNetwork,
    readonly index: number,
  ) {}

  status(): ReturnType<NodeStatusPort['status']> {
    this.net.noteServed();
    const node = this.net.serviceNode(this.index);
    const last = node.disk[node.disk.length - 1];
    const key = this.net.run.main.keys[this.index - 1]!;
    const v = getValidatorSet(node.app.store).validators.find((x) => x.address === key.signer);
    let best = node.height;
    for (const n of this.net.run.main.serviceNodes) if (n.height > best) best = n.height;
    return {
      nodeId: node.id,
      moniker: this.index === this.net.nodeIndex ? this.net.config.moniker : `validator-${this.index}`,
      network: this.net.chainId,
      version: VERSION,
      latestBlockHeight: node.height,
      latestBlockHash: last ? last.blockHash : '',
      latestAppHash: node.app.appHash,
      latestBlockTimeMs: last ? last.block.timeMs : this.net.config.scenario.epochMs,
      catchingUp: this.net.replaying || node.height + 1n < best,
      validatorAddress: key.signer,
      votingPower: v ? v.power : 0n,
    };
  }

  /** The transactions this devnet received and has not committed (Tendermint's `/unconfirmed_txs`). */
  unconfirmedTxs(): Uint8Array[] {
    this.net.noteServed();
    return this.net.serviceTxs.unconfirmed();
  }

  netInfo(): { listening: boolean; peers: PeerInfo[] } {
    const peers: PeerInfo[] = [];
    const me = `svc-${this.index}`;
    this.net.run.main.serviceNodes.forEach((n, i) => {
      if (n.id !== me && this.net.run.main.slot(n.id).alive) peers.push({ id: n.id, moniker: `validator-${i + 1}` });
    });
    return { listening: true, peers };
  }
}

export class NodeSidechain implements SidechainPort {
  readonly id: string;

  constructor(
    private readonly net: LiveNetwork,
    readonly index: number,
  ) {
    this.id = `sc-${index}`;
  }

  get gate(): CatchUpGate {
    return this.net.gate;
  }

  node(): SidechainNode {
    return this.net.sidechainNode(this.index);
  }

  view(): SidechainView {
    this.net.noteServed();
    const me = this.node();
    const run = this.net.run;
    const head = me.chain.head().block.header.number;
    let highest = head;
    let peers = 0;
    for (const n of run.sidechain.sidechainNodes) {
      if (n === me || !run.sidechain.slot(n.id).alive) continue;
      peers++;
      const h = n.chain.head().block.header.number;
      if (h > highest) highest = h;
    }
    let syncing: SidechainView['syncing'];
    if (this.net.replaying) {
      // Replaying the journal: syncing, up to at least the head clients already saw.
      const served = this.net.servedHead(this.id);
      syncing = {
        startingBlock: this.net.replayStartHead(this.id),
        currentBlock: head,
        highestBlock: maxBig(served, highest),
      };
    } else {
      // geth reports syncing while it is more than a block or two behind the best peer.
      syncing = highest > head + 2n ? { startingBlock: 0n, currentBlock: head, highestBlock: highest } : null;
    }
    return {
      chain: chainReadPort(me.chain),
      pool: this.net.sidechainTxs.poolView(this.index),
      submit: (raw: Hex) => this.net.sidechainTxs.submit(this.index, raw),
      chainId: BigInt(run.main.setup.sidechainChainId),
      peerCount: peers,
      syncing,
      nodeKey: run.main.keys[this.index - 1]!.pubKey,
    };
  }

  setHead(n: bigint): Promise<OperatorResult> {
    return this.net.setHeadOf(this.index, n);
  }
}
