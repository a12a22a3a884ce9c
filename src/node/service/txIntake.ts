/**
 * How transactions reach a service node's mempool: from peers (gossip), from its own bridge, and
 * from clients (whose CheckTx and, later, DeliverTx answers go on record for a devnet's REST
 * layer); and how the mempool follows a commit (the block's txs leave, the rest are re-checked).
 */
import { type Hex } from '../../core/bytes';
import { type DecodedTx, decodeTxHex } from '../../app/decodedTx';
import { type AppliedBlock } from '../../app/sharedExecution';
import { isCheckpointTx } from '../../modules/auth/ante';
import { txGas } from '../../modules/auth/gas';
import { getAuthParams } from '../../modules/auth/keeper';
import { bridgeKeyOf } from '../../bridge/bridgeKeys';
import { type NodeContext } from '../ports';
import { type NodeMessage } from '../messages';
import { type ServiceTimer } from './config';
import { Mempool } from './mempool';
import { type ServiceNodeShell } from './config';

type Ctx = NodeContext<NodeMessage, ServiceTimer>;

/** A tx result's fields as a client answer carries them. */
function resultFields(r: { code: number; codespace: string; log: string; gasWanted: bigint; gasUsed: bigint }) {
  return { code: r.code, codespace: r.codespace, log: r.log, gasWanted: r.gasWanted, gasUsed: r.gasUsed };
}

export class TxIntake {
  readonly mempool: Mempool;
  /** Hashes of client-submitted txs this node accepted and has not yet seen committed (their results are recorded). */
  private readonly clientTxs = new Set<Hex>();

  constructor(private readonly node: ServiceNodeShell) {
    this.mempool = new Mempool((tx: DecodedTx) =>
      txGas(getAuthParams(node.app.store), tx.raw.length, isCheckpointTx(tx.tx!)),
    );
  }

  private check = (tx: DecodedTx) => this.node.app.checkTx(tx);

  /** A tx from a peer (gossip) or from this node's bridge (`key` its bridge key): into the mempool if CheckTx takes it. */
  add(ctx: Ctx, hex: Hex, key: string | null, gossip: boolean): void {
    let tx: DecodedTx;
    try {
      tx = decodeTxHex(hex);
    } catch {
      return;
    }
    const out = this.mempool.add(tx, this.check, key ?? (tx.tx ? bridgeKeyOf(tx.tx) : null));
    if (out.added && gossip) this.gossip(ctx, hex);
  }

  /** A client's tx: the CheckTx answer goes on record (what a node's broadcast endpoint answers). */
  addFromClient(ctx: Ctx, hex: Hex): void {
    const answer = this.node.hooks.clientReplies;
    const refuse = (hash: Hex | null, code: number, log: string) =>
      answer?.reply({ kind: 'checked', hash, code, codespace: 'sdk', log, gasWanted: null, gasUsed: null });
    let tx: DecodedTx;
    try {
      tx = decodeTxHex(hex);
    } catch {
      refuse(null, 2, 'tx is not hex');
      return;
    }
    const out = this.mempool.add(tx, this.check, tx.tx ? bridgeKeyOf(tx.tx) : null);
    if (!out.added && out.reason === 'duplicate') return void refuse(tx.hash, 19, 'tx already in mempool');
    if (!out.added && out.reason === 'full') return void refuse(tx.hash, 20, 'mempool is full');
    if (!out.added && out.reason !== 'rejected') return;
    answer?.reply({ kind: 'checked', hash: tx.hash, ...resultFields(out.check) });
    if (!out.added) return;
    this.clientTxs.add(tx.hash);
    this.gossip(ctx, hex);
  }

  /**
   * After a commit: the block's txs leave the mempool (a client's gets its delivery result on
   * record when `live`), and the rest are checked again against the new state.
   */
  afterCommit(txs: readonly Hex[], applied: AppliedBlock, live: boolean): void {
    for (let i = 0; i < txs.length; i++) {
      const h = decodeTxHex(txs[i]!).hash;
      this.mempool.remove(h);
      if (live && this.clientTxs.delete(h)) {
        const r = applied.results[i]!;
        this.node.hooks.clientReplies?.reply({
          kind: 'delivered',
          hash: h,
          height: applied.commit.height,
          ...resultFields(r),
        });
      }
    }
    this.node.app.resetCheckState();
    this.mempool.recheck(this.check);
  }

  private gossip(ctx: Ctx, tx: Hex): void {
    ctx.broadcast(this.node.identity.peers, { kind: 'c.tx', tx });
  }
}
