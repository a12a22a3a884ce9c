/**
 * The parent-chain node: one block producer mining at a fixed interval, answering the service
 * nodes' RPC (blocks with receipts, the root chain's header blocks) and accepting their calls.
 * It has no consensus of its own: an outage is modelled by pausing the node.
 */
import { type ParentBlock, type ParentChain } from '../parent/parentChain';
import { decodeLog } from '../parent/abi';
import { type NodeContext, type SimNode } from './ports';
import { type NodeMessage } from './messages';
import { type ParentEventFact } from './observations';

export type ParentTimer = { kind: 'mine' };

export const MAX_SYNC_BLOCKS = 64n;

export class ParentChainNode implements SimNode<NodeMessage, ParentTimer> {
  private alive = true;

  constructor(
    readonly id: string,
    readonly chain: ParentChain,
  ) {}

  start(ctx: NodeContext<NodeMessage, ParentTimer>): void {
    this.alive = true;
    const next = this.chain.nextBlockTimeMs();
    ctx.setTimer(Math.max(0, next - ctx.nowMs()), { kind: 'mine' });
  }

  onTimer(_tag: ParentTimer, ctx: NodeContext<NodeMessage, ParentTimer>): void {
    if (!this.alive) return;
    const now = ctx.nowMs();
    const next = this.chain.nextBlockTimeMs();
    if (now >= next) {
      const b = this.chain.mineBlock(Math.max(next, now));
      ctx.observe({
        kind: 'parent.block',
        number: b.number,
        hash: b.hash,
        timeMs: b.timeMs,
        txs: b.receipts.length,
        events: eventsOf(b),
      });
      for (const r of b.receipts)
        if (r.status === 0) ctx.observe({ kind: 'parent.callFailed', txHash: r.txHash, error: r.error ?? '' });
    }
    ctx.setTimer(Math.max(1, this.chain.nextBlockTimeMs() - now), { kind: 'mine' });
  }

  onMessage(from: string, msg: NodeMessage, ctx: NodeContext<NodeMessage, ParentTimer>): void {
    if (!this.alive) return;
    if (msg.kind === 'p.sync') {
      const head = this.chain.head().number;
      const blocks = [];
      for (let n = msg.fromBlock; n <= head && n < msg.fromBlock + MAX_SYNC_BLOCKS; n++)
        blocks.push(this.chain.block(n)!);
      const headerBlocks = [];
      for (let n = msg.fromHeaderBlock; ; n++) {
        const h = this.chain.headerBlock(n);
        if (!h) break;
        headerBlocks.push(h);
      }
      ctx.send(from, { kind: 'p.syncRes', result: { blocks, head, headerBlocks } });
    } else if (msg.kind === 'p.submit') {
      this.chain.submit(msg.call);
    }
  }

  /** The chain's state lives on: an outage pauses mining and answers, it loses nothing. */
  crash(): void {
    this.alive = false;
  }

  restart(ctx: NodeContext<NodeMessage, ParentTimer>): void {
    this.start(ctx);
  }
}

/** The events a block emitted (successful calls' logs), decoded as the chain wrote them. */
function eventsOf(b: ParentBlock): ParentEventFact[] {
  const out: ParentEventFact[] = [];
  for (const r of b.receipts) {
    if (r.status !== 1) continue;
    for (const log of r.logs) {
      const d = decodeLog(log);
      const at = { txHash: log.txHash, logIndex: log.logIndex };
      if (d === null) out.push({ event: 'other', ...at, name: 'undecodable' });
      else if (d.name === 'TopUpFee') out.push({ event: 'TopUpFee', ...at, user: d.user, fee: d.fee });
      else if (d.name === 'StateSynced')
        out.push({ event: 'StateSynced', ...at, id: d.id, contract: d.contractAddress, data: d.data });
      else if (d.name === 'Staked')
        out.push({
          event: 'Staked',
          ...at,
          signer: d.signer,
          validatorId: d.validatorId,
          activationEpoch: d.activationEpoch,
          amount: d.amount,
          signerPubkey: d.signerPubkey,
        });
      else if (d.name === 'StakeUpdate')
        out.push({ event: 'StakeUpdate', ...at, validatorId: d.validatorId, newAmount: d.newAmount });
      else if (d.name === 'UnstakeInit')
        out.push({ event: 'UnstakeInit', ...at, validatorId: d.validatorId, deactivationEpoch: d.deactivationEpoch });
      else if (d.name === 'SignerChange')
        out.push({
          event: 'SignerChange',
          ...at,
          validatorId: d.validatorId,
          oldSigner: d.oldSigner,
          newSigner: d.newSigner,
          signerPubkey: d.signerPubkey,
        });
      else if (d.name === 'NewHeaderBlock')
        out.push({
          event: 'NewHeaderBlock',
          ...at,
          proposer: d.proposer,
          headerBlockId: d.headerBlockId,
          start: d.start,
          end: d.end,
          root: d.root,
        });
      else out.push({ event: 'other', ...at, name: (d as { name: string }).name });
    }
  }
  return out;
}
