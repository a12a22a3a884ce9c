/**
 * A service node's bridge at work: its periodic tick over what the node sees of the parent chain
 * and the sidechain, the checkpoint a committed block buffered (submitted with the yes votes'
 * signatures), and its actions: parent-chain calls, and service txs signed with the node's key
 * and put into the mempool.
 */
import { type Hex, toHex } from '../../core/bytes';
import { type SideTxVotes } from '../../app/sideTx';
import { type AppliedBlock } from '../../app/sharedExecution';
import { encodeTx, signTx } from '../../modules/auth/stdTx';
import { getChainParams } from '../../modules/chain/keeper';
import { getBuffer } from '../../modules/checkpoint/keeper';
import { type MsgDef } from '../../modules/framework/msgDef';
import { Bridge, type BridgeAction, type BridgeInputs } from '../../bridge/bridge';
import { type ParentView } from '../../bridge/parentView';
import { type SidechainView } from '../../bridge/sidechainView';
import { type NodeContext } from '../ports';
import { type NodeMessage } from '../messages';
import { type ServiceTimer } from './config';
import { type ServiceNodeShell } from './config';
import { checkpointSignatures } from './sideVoter';
import { type TxIntake } from './txIntake';

type Ctx = NodeContext<NodeMessage, ServiceTimer>;

export class BridgeWork {
  private readonly bridge: Bridge;

  constructor(
    private readonly node: ServiceNodeShell,
    private readonly views: { parent: ParentView; sidechain: SidechainView },
    private readonly intake: TxIntake,
  ) {
    this.bridge = new Bridge(node.cfg.bridge, getChainParams(node.app.store).sidechainChainId);
  }

  tick(ctx: Ctx): void {
    for (const a of this.bent(this.bridge.tick(this.inputs(ctx)))) this.act(ctx, a);
  }

  /** A checkpoint the block buffered goes to the root chain with the yes votes' signatures. */
  afterCommit(ctx: Ctx, end: AppliedBlock['end'], votes: readonly SideTxVotes[]): void {
    const actions: BridgeAction[] = [];
    for (const r of end.sideTxResults) {
      if (r.msgType !== 'checkpoint/MsgCheckpoint' || r.code !== 0) continue;
      const buf = getBuffer(this.node.app.store);
      if (!buf) continue;
      const action = this.bridge.onCheckpointBuffered(this.inputs(ctx), buf, checkpointSignatures(votes, r.txHash));
      if (action) actions.push(action);
    }
    for (const a of this.bent(actions)) this.act(ctx, a);
  }

  /** The actions a Byzantine fault makes of the bridge's (the simulator's hook; honest: unchanged). */
  private bent(actions: BridgeAction[]): BridgeAction[] {
    const hook = this.node.hooks.bridgeActions;
    if (!hook) return actions;
    const views = this.views;
    const store = this.node.app.store;
    return (
      hook(this.node, actions, {
        rootHash: (start, end) => views.sidechain.rootHash(start, end, getChainParams(store).sidechainTxConfirmations),
      }) ?? actions
    );
  }

  private inputs(ctx: Ctx): BridgeInputs {
    return {
      me: this.node.address,
      nowMs: ctx.nowMs(),
      state: this.node.app.store,
      parent: this.views.parent,
      sidechain: this.views.sidechain,
      inMempool: (key: string) => this.intake.mempool.hasKey(key),
      genesisTimeMs: this.node.app.genesis.genesisTimeMs,
    };
  }

  private act(ctx: Ctx, a: BridgeAction): void {
    if (a.kind === 'parentCall') {
      ctx.send(this.node.identity.parentNode, { kind: 'p.submit', call: a.call });
      ctx.observe({
        kind: 'bridge.parentCall',
        method: a.call.method,
        key: a.key,
        from: a.call.from,
        proposer: a.call.method === 'submitCheckpoint' ? a.call.checkpoint.proposer : null,
      });
      return;
    }
    const tx = signOwnTx(this.node, a.def, a.msg);
    if (tx === null) return;
    ctx.observe({ kind: 'bridge.tx', msgType: a.def.type, key: a.key, ...a.reads });
    this.intake.add(ctx, tx, a.key, true);
  }
}

/** Sign a message with the node's key at its check state's sequence (its bridge; Byzantine faults). */
export function signOwnTx(node: ServiceNodeShell, def: MsgDef, msg: unknown): Hex | null {
  const app = node.app;
  const acc = app.signingAccount(node.address);
  if (!acc) return null;
  const doc = { chainId: app.chainId, accountNumber: acc.accountNumber, sequence: acc.sequence, memo: '' };
  return toHex(encodeTx(signTx(def, msg, doc, node.identity.privateKey, node.scheme)));
}
