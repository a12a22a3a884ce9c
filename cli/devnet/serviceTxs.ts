/**
 * A live devnet's service transactions from clients (REST `POST /txs`, `GET /txs/{hash}`, the
 * status port's `/unconfirmed_txs`): a broadcast is journaled at the next window barrier and
 * answered when the node's CheckTx (`sync`) or delivery (`block`) comes out of the simulation,
 * read on the node's client-reply port; the book of journaled transactions answers look-ups with
 * what the chain says (committed, refused, pending, unknown), also across a restart.
 */
import { txHash } from '../../src/modules/auth/stdTx';
import { type Hex, fromHex, toHex } from '../../src/core/bytes';
import {
  type BroadcastMode,
  type BroadcastResult,
  BroadcastTimeoutError,
  type TxLookup,
  TxFateUnknownError,
} from '../../src/rpc/ports';
import { tendermintHash } from '../../src/rpc/rest/txResponse';
import { type ClientReply } from '../../src/node/ports';
import { type LiveInbox, type LiveNodes, type LiveSetting, type LiveState } from './liveTypes';
import { replyLine } from './liveLog';

interface TxWaiter {
  node: string;
  mode: 'sync' | 'block';
  resolve: (r: BroadcastResult) => void;
  reject: (e: Error) => void;
}

/** What the devnet knows of a client's tx (from the journal and the node's records). */
interface ClientTx {
  node: string;
  barrier: number;
  /** The tx bytes (0x hex), for the unconfirmed list. */
  tx: Hex;
  checked?: BroadcastResult;
  delivered?: BroadcastResult;
}

export function txError(hash: string, code: number, message: string): BroadcastResult {
  return {
    height: '0',
    txhash: tendermintHash(hash),
    code,
    codespace: 'sdk',
    raw_log: JSON.stringify({ codespace: 'sdk', code, message }),
  };
}

export class ServiceTxs {
  private readonly waiters = new Map<Hex, TxWaiter[]>();
  private readonly book = new Map<Hex, ClientTx>();

  constructor(private readonly net: LiveNodes & LiveState & LiveSetting & LiveInbox) {}

  /** A client's tx for service node `i` (1-based). */
  broadcastTo(i: number, tx: Uint8Array, mode: BroadcastMode): Promise<BroadcastResult> {
    if (this.net.isStopped)
      return Promise.resolve(txError(txHash(tx), 1, 'the devnet is stopping: the tx was not received'));
    const node = `svc-${i}`;
    return new Promise<BroadcastResult>((resolve, reject) => {
      const hex = toHex(tx);
      const hash = txHash(tx);
      let settled = false;
      const waiter: TxWaiter = {
        node,
        mode: mode === 'block' ? 'block' : 'sync',
        resolve: (r) => finish(() => resolve(r)),
        reject: (e) => finish(() => reject(e)),
      };
      const finish = (f: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        f();
      };
      const timeoutMs = this.net.opts.blockTimeoutMs ?? 60_000;
      const timer = setTimeout(() => {
        const ws = this.waiters.get(hash);
        if (ws)
          this.waiters.set(
            hash,
            ws.filter((w) => w !== waiter),
          );
        const journaled = this.book.has(hash);
        const paused = this.net.isPaused
          ? ' The devnet is paused: the node runs CheckTx and commits when the network runs (lockstep node step or resume).'
          : '';
        finish(() =>
          reject(
            new BroadcastTimeoutError(
              journaled
                ? `timed out after ${timeoutMs} ms waiting for tx ${tendermintHash(hash)} (mode ${mode}): it was journaled and may still commit. Do not send it again; look it up with GET /txs/${tendermintHash(hash)}.${paused}`
                : `timed out after ${timeoutMs} ms: tx ${tendermintHash(hash)} is still waiting to enter the network`,
            ),
          ),
        );
      }, timeoutMs);
      if (mode !== 'async') (this.waiters.get(hash) ?? this.waiters.set(hash, []).get(hash)!).push(waiter);
      this.net.enqueue({
        input: { k: 'tx', node, tx: hex },
        journaled: () => {
          if (mode === 'async') waiter.resolve({ height: '0', txhash: tendermintHash(hash), code: 0, raw_log: '' });
        },
        refused: (message) => waiter.resolve(txError(hex, 1, message)),
      });
    });
  }

  /** A journaled tx enters the network (live or replayed): the book knows it from now on. */
  entered(e: { b: number; node: string; tx: string }): void {
    const hash = txHash(fromHex(e.tx));
    if (!this.book.has(hash)) this.book.set(hash, { node: e.node, barrier: e.b, tx: e.tx as Hex });
  }

  /**
   * A node's answers to a client's tx on its client-reply port: its CheckTx (`checked`) and its
   * delivery (`delivered`). The only place that reads them.
   */
  onClientReply(node: string, d: ClientReply): void {
    const net = this.net;
    if (node === `svc-${net.config.nodeIndex}`)
      net.opts.log?.('daemon', replyLine(net.config.scenario.epochMs, net.run.ranToMs(), d));
    // Not even hex (never the case for what the servers send): nothing to answer by.
    if (d.hash === null) return;
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
    const book = this.book.get(d.hash) ?? { node, barrier: net.run.barriers(), tx: '0x' as Hex };
    if (checked) book.checked ??= result;
    else book.delivered = result;
    this.book.set(d.hash, book);
    const waiters = this.waiters.get(d.hash);
    if (!waiters) return;
    const keep: TxWaiter[] = [];
    for (const w of waiters) {
      // Another node's record, or a block-mode waiter at CheckTx of a tx that passed it: not yet.
      if (w.node !== node || (checked && w.mode === 'block' && d.code === 0)) keep.push(w);
      else w.resolve(result);
    }
    if (keep.length) this.waiters.set(d.hash, keep);
    else this.waiters.delete(d.hash);
  }

  /** What GET /txs/{hash} says on service node `i`. */
  lookupOn(i: number, hash: Hex): TxLookup {
    const net = this.net;
    const e = this.book.get(hash);
    const h = tendermintHash(hash);
    if (!e) {
      // Every journaled tx is in the book once the replay has passed it: until then, ask again.
      if (net.replaying)
        return {
          status: 'pending',
          message: `the devnet is replaying its journal: ask again about tx ${h} once it has caught up`,
        };
      if (net.waitingServiceTxs().some((tx) => txHash(fromHex(tx)) === hash))
        return { status: 'pending', message: `tx ${h} is waiting for the next window barrier to enter the network` };
      return {
        status: 'unknown',
        message: `tx ${h} is unknown to this devnet: it was never journaled (or a revert dropped it), so it was not applied`,
      };
    }
    if (e.delivered) {
      const height = net.serviceNode(i).height;
      if (height >= BigInt(e.delivered.height)) return { status: 'committed', result: e.delivered };
      return {
        status: 'pending',
        message: `tx ${h} was committed at height ${e.delivered.height}; this node is at height ${height} and has not committed it yet`,
      };
    }
    if (e.checked && e.checked.code !== 0) return { status: 'refused', result: e.checked };
    return {
      status: 'pending',
      message: `tx ${h} is pending: ${e.node} received it (journaled at window barrier ${e.barrier}${e.checked ? ', CheckTx passed' : ''}) and it is not in a block yet`,
    };
  }

  /**
   * The transactions received and not in a block yet (Tendermint's `/unconfirmed_txs`): those
   * waiting for the next barrier, and the journaled ones neither delivered nor refused, in order.
   */
  unconfirmed(): Uint8Array[] {
    const out = this.net.waitingServiceTxs().map((tx) => fromHex(tx));
    for (const e of this.book.values())
      if (!e.delivered && !(e.checked && e.checked.code !== 0) && e.tx !== '0x') out.push(fromHex(e.tx));
    return out;
  }

  /** A revert dropped what came after the snapshot: those txs are not applied. */
  reverted(snapshot: string): void {
    for (const [hash, ws] of this.waiters)
      for (const w of ws)
        w.resolve(
          txError(hash, 1, `the devnet was reverted to snapshot ${snapshot} before this tx committed: it was dropped`),
        );
    this.waiters.clear();
    this.book.clear();
  }

  /** The devnet stops: journaled txs will be applied at the next start; their callers cannot wait for it. */
  stopped(): void {
    for (const [hash, ws] of this.waiters)
      for (const w of ws)
        w.reject(
          new TxFateUnknownError(
            `tx ${tendermintHash(hash)} was journaled, but the devnet stopped before it committed: it will be applied when the devnet starts again. Do not send it again; look it up with GET /txs/${tendermintHash(hash)}`,
          ),
        );
    this.waiters.clear();
  }
}
