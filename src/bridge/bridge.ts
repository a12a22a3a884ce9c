/**
 * The bridge of one service node (Heimdall's bridge, reference §8): it turns finalized
 * parent-chain logs into service messages, proposes checkpoints when this node is the proposer,
 * submits the signed checkpoint to the root chain, times out a silent proposer with a no-ack, and
 * proposes the next span inside the spec's window.
 *
 * It decides; the node acts. Every decision reads the node's committed service state and its views
 * of the other chains, so it is deterministic in what the node has seen. Relays are staggered by
 * the node's rank in the validator set and re-sent if still unprocessed after a cool-down, so one
 * event is normally relayed once and a duplicate is refused by the service's replay protection.
 */
import { checkpointKey, eventKey, spanKey } from './bridgeKeys';
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { type KVReader } from '../store/kvStore';
import { type MsgDef } from '../modules/framework/msgDef';
import { getChainParams } from '../modules/chain/keeper';
import { getValidatorBySigner, getValidatorSet, isSeqSeen } from '../modules/staking/keeper';
import { isTopupSeen } from '../modules/topup/keeper';
import { dividendAccountRoot } from '../modules/topup/accountRoot';
import { hasRecord, isClerkSeqSeen } from '../modules/clerk/keeper';
import { bufferExpired } from '../modules/checkpoint/bufferTime';
import { getBuffer, getCheckpointParams, getLastCheckpoint, getLastNoAck } from '../modules/checkpoint/keeper';
import { getAckCount } from '../modules/checkpoint/keeper';
import { getLastSpan, getSpan } from '../modules/span/keeper';
import { getSpanParams } from '../modules/span/keeper';
import { inSpanProposalWindow } from '../modules/span/msgs';
import {
  MsgValidatorJoinDef,
  MsgStakeUpdateDef,
  MsgValidatorExitDef,
  MsgSignerUpdateDef,
} from '../modules/staking/msgs';
import { MsgTopupDef } from '../modules/topup/msgs';
import { MsgEventRecordDef } from '../modules/clerk/msgs';
import { MsgCheckpointDef, MsgCheckpointAckDef, MsgCheckpointNoAckDef } from '../modules/checkpoint/msgs';
import { MsgProposeSpanDef } from '../modules/span/msgs';
import { type DecodedParentLog } from '../parent/abi';
import { type ParentCall } from '../parent/parentChain';
import { type CheckpointSignData } from '../parent/contracts/checkpointSignDigest';
import { type ParentView } from './parentView';
import { type SidechainView } from './sidechainView';

export interface BridgeConfig {
  /** Delay per rank in the validator set before relaying an event (Heimdall: 10 s). */
  relayDelayPerRankMs: number;
  /** Re-send a relay or proposal if it is still unprocessed after this long. */
  resendAfterMs: number;
  /** Blocks per checkpoint (Heimdall's avg_checkpoint_length is 256). */
  checkpointLength: bigint;
  /** Re-submit a buffered checkpoint to the root chain if no ack came after this long. */
  resubmitAfterMs: number;
}

export const DEFAULT_BRIDGE_CONFIG: BridgeConfig = {
  relayDelayPerRankMs: 2_000,
  resendAfterMs: 30_000,
  checkpointLength: 256n,
  resubmitAfterMs: 60_000,
};

/** What a bridge action was decided on (reported as raw facts: the oracles judge the depths). */
export interface BridgeReads {
  /** A relay: the parent block holding the event and the view's parent head. */
  parent?: { eventBlock: bigint; head: bigint | null };
  /** A checkpoint proposal: the range's end and the view's sidechain head. */
  sidechain?: { endBlock: bigint; head: bigint | null };
}

export type BridgeAction =
  | { kind: 'tx'; key: string; def: MsgDef; msg: unknown; reads?: BridgeReads }
  | { kind: 'parentCall'; key: string; call: ParentCall };

export interface BridgeInputs {
  me: Address;
  nowMs: number;
  /** The node's committed service state. */
  state: KVReader;
  parent: ParentView;
  sidechain: SidechainView;
  /** Is an equivalent message already waiting in this node's mempool? */
  inMempool(key: string): boolean;
  /** The service's genesis time: before the first checkpoint, silence is counted from here. */
  genesisTimeMs: number;
}

interface Task {
  key: string;
  dueMs: number;
  log: DecodedParentLog;
}

export class Bridge {
  private cursor = 0n;
  private readonly tasks = new Map<string, Task>();
  private readonly lastSent = new Map<string, number>();
  private submission: { checkpoint: CheckpointSignData; signatures: Hex[]; sentAtMs: number } | null = null;

  constructor(
    readonly cfg: BridgeConfig,
    private readonly sidechainChainId: string,
  ) {}

  /** Everything the bridge wants done now. */
  tick(x: BridgeInputs): BridgeAction[] {
    const out: BridgeAction[] = [];
    const rank = this.rankOf(x);
    this.scanLogs(x, rank);
    for (const t of [...this.tasks.values()]) {
      if (t.dueMs > x.nowMs) continue;
      const action = this.relay(x, t);
      if (action === 'done') this.tasks.delete(t.key);
      else if (action) out.push(action);
    }
    const cp = this.proposeCheckpoint(x);
    if (cp) out.push(cp);
    const sub = this.resubmit(x);
    if (sub) out.push(sub);
    const noAck = this.noAck(x);
    if (noAck) out.push(noAck);
    const span = this.proposeSpan(x, rank);
    if (span) out.push(span);
    return out;
  }

  /** Position in the validator set (0 relays first); validators outside the set relay last. */
  private rankOf(x: BridgeInputs): number {
    const set = getValidatorSet(x.state);
    const i = set.indexOfAddress(x.me);
    return i < 0 ? set.size : i;
  }

  private scanLogs(x: BridgeInputs, rank: number): void {
    const final = x.parent.finalNumber(getChainParams(x.state).parentChainTxConfirmations);
    if (final < this.cursor) return;
    for (const log of x.parent.logs(this.cursor, final)) {
      const key = eventKey(log.txHash, log.logIndex);
      if (!this.tasks.has(key)) this.tasks.set(key, { key, dueMs: x.nowMs + rank * this.cfg.relayDelayPerRankMs, log });
    }
    this.cursor = final + 1n;
  }

  /** Send once per cool-down, never while an equivalent tx waits in the mempool. */
  private due(x: BridgeInputs, key: string): boolean {
    if (x.inMempool(key)) return false;
    const last = this.lastSent.get(key);
    if (last !== undefined && x.nowMs - last < this.cfg.resendAfterMs) return false;
    this.lastSent.set(key, x.nowMs);
    return true;
  }

  private relay(x: BridgeInputs, t: Task): BridgeAction | 'done' | null {
    const l = t.log;
    const s = x.state;
    const ref = { from: x.me, txHash: l.txHash, logIndex: l.logIndex };
    const reads: BridgeReads = { parent: { eventBlock: l.blockNumber, head: x.parent.head() } };
    const tx = (def: MsgDef, msg: unknown): BridgeAction | null =>
      this.due(x, t.key) ? { kind: 'tx', key: t.key, def, msg, reads } : null;
    switch (l.name) {
      case 'Staked':
        if (isSeqSeen(s, l.txHash, l.logIndex)) return 'done';
        return tx(MsgValidatorJoinDef, { ...ref, id: l.validatorId, pubKey: `0x04${l.signerPubkey.slice(2)}` });
      case 'StakeUpdate':
        if (isSeqSeen(s, l.txHash, l.logIndex)) return 'done';
        return tx(MsgStakeUpdateDef, { ...ref, id: l.validatorId });
      case 'UnstakeInit':
        if (isSeqSeen(s, l.txHash, l.logIndex)) return 'done';
        return tx(MsgValidatorExitDef, { ...ref, id: l.validatorId });
      case 'SignerChange':
        if (isSeqSeen(s, l.txHash, l.logIndex)) return 'done';
        return tx(MsgSignerUpdateDef, { ...ref, id: l.validatorId, pubKey: `0x04${l.signerPubkey.slice(2)}` });
      case 'TopUpFee': {
        if (isTopupSeen(s, l.txHash, l.logIndex)) return 'done';
        const v = getValidatorBySigner(s, l.user);
        if (!v) return 'done';
        return tx(MsgTopupDef, { fromAddress: x.me, id: v.id, txHash: l.txHash, logIndex: l.logIndex });
      }
      case 'StateSynced':
        if (hasRecord(s, l.id) || isClerkSeqSeen(s, l.txHash, l.logIndex)) return 'done';
        return tx(MsgEventRecordDef, {
          ...ref,
          id: l.id,
          contractAddress: l.contractAddress,
          data: l.data,
          sidechainChainId: this.sidechainChainId,
        });
      case 'NewHeaderBlock': {
        const number = l.headerBlockId / getCheckpointParams(s).childBlockInterval;
        if (number <= getAckCount(s)) return 'done';
        if (!getBuffer(s)) return null;
        return tx(MsgCheckpointAckDef, { from: x.me, headerBlock: number, txHash: l.txHash, logIndex: l.logIndex });
      }
    }
  }

  private proposeCheckpoint(x: BridgeInputs): BridgeAction | null {
    const s = x.state;
    if (getValidatorSet(s).proposer?.address !== x.me) return null;
    // Not while a checkpoint waits in the buffer for its ack; once the buffer has expired, a new
    // MsgCheckpoint flushes it (reference §3.2), else an unacked checkpoint would stop them all.
    const buf = getBuffer(s);
    if (buf && !bufferExpired(buf, x.nowMs, getCheckpointParams(s).checkpointBufferTimeMs)) return null;
    const last = getLastCheckpoint(s);
    const start = last ? last.checkpoint.endBlock + 1n : 0n;
    const end = start + this.cfg.checkpointLength - 1n;
    const root = x.sidechain.rootHash(start, end, getChainParams(s).sidechainTxConfirmations);
    if (root === null) return null;
    const key = checkpointKey(start, end, root);
    if (!this.due(x, key)) return null;
    return {
      kind: 'tx',
      key,
      def: MsgCheckpointDef,
      reads: { sidechain: { endBlock: end, head: x.sidechain.headNumber() } },
      msg: {
        proposer: x.me,
        startBlock: start,
        endBlock: end,
        rootHash: root,
        accountRootHash: dividendAccountRoot(s),
      },
    };
  }

  /**
   * A committed block buffered a checkpoint this node proposed: submit it to the root chain with
   * the yes-voters' signatures, taken from the block's commit.
   */
  onCheckpointBuffered(
    x: BridgeInputs,
    checkpoint: Omit<CheckpointSignData, 'sidechainChainId'>,
    signatures: Hex[],
  ): BridgeAction | null {
    if (checkpoint.proposer !== x.me) return null;
    const c: CheckpointSignData = { ...checkpoint, sidechainChainId: this.sidechainChainId };
    this.submission = { checkpoint: c, signatures, sentAtMs: x.nowMs };
    return {
      kind: 'parentCall',
      key: `submit/${c.startBlock}`,
      call: { method: 'submitCheckpoint', from: x.me, checkpoint: c, signatures },
    };
  }

  private resubmit(x: BridgeInputs): BridgeAction | null {
    const sub = this.submission;
    if (!sub) return null;
    const buf = getBuffer(x.state);
    if (!buf || buf.startBlock !== sub.checkpoint.startBlock) {
      this.submission = null;
      return null;
    }
    const rec = x.parent.headerBlock(getAckCount(x.state) + 1n);
    if (rec && rec.startBlock === sub.checkpoint.startBlock) return null;
    if (x.nowMs - sub.sentAtMs < this.cfg.resubmitAfterMs) return null;
    sub.sentAtMs = x.nowMs;
    return {
      kind: 'parentCall',
      key: `submit/${sub.checkpoint.startBlock}`,
      call: { method: 'submitCheckpoint', from: x.me, checkpoint: sub.checkpoint, signatures: sub.signatures },
    };
  }

  /** Time out a silent checkpoint proposer (reference §3.4, bridge side). */
  private noAck(x: BridgeInputs): BridgeAction | null {
    const s = x.state;
    const bufferMs = getCheckpointParams(s).checkpointBufferTimeMs;
    const now = BigInt(x.nowMs);
    // The app allows a no-ack at once when there was never a checkpoint (the reference counts from
    // time 0); a bridge that did so would time out the first proposer at start-up, so it counts
    // from genesis instead.
    const lastMs = (getLastCheckpoint(s)?.checkpoint.timestamp ?? 0n) * 1000n;
    const since = lastMs > BigInt(x.genesisTimeMs) ? lastMs : BigInt(x.genesisTimeMs);
    if (now - since < bufferMs || now - getLastNoAck(s) * 1000n < bufferMs) return null;
    const count = (now - since) / bufferMs;
    const set = getValidatorSet(s).copy();
    if (!set.hasAddress(x.me)) return null;
    set.incrementProposerPriority(1);
    let mine = false;
    for (let i = 0n; i < count && i < BigInt(set.size); i++) {
      if (set.proposer.address === x.me) {
        mine = true;
        break;
      }
      set.incrementProposerPriority(1);
    }
    if (!mine) return null;
    const key = `noack/${getLastNoAck(s)}/${getAckCount(s)}`;
    if (!this.due(x, key)) return null;
    return { kind: 'tx', key, def: MsgCheckpointNoAckDef, msg: { from: x.me } };
  }

  private proposeSpan(x: BridgeInputs, rank: number): BridgeAction | null {
    const s = x.state;
    const last = getLastSpan(s);
    const head = x.sidechain.headNumber();
    if (!last || head === null || !inSpanProposalWindow(last, head)) return null;
    const id = last.id + 1n;
    if (getSpan(s, id)) return null;
    // Stagger by rank: the first validators in the set propose first; later ranks only if the
    // earlier proposals did not land within the window.
    const progress = head - last.startBlock;
    const sprint = getSpanParams(s).sprintDuration;
    if (progress < BigInt(rank) * sprint) return null;
    const start = last.endBlock + 1n;
    const key = spanKey(id);
    if (!this.due(x, key)) return null;
    return {
      kind: 'tx',
      key,
      def: MsgProposeSpanDef,
      msg: {
        spanId: id,
        proposer: x.me,
        startBlock: start,
        endBlock: start + getSpanParams(s).spanDuration - 1n,
        sidechainChainId: this.sidechainChainId,
      },
    };
  }

  /** For reports: relays still waiting. */
  get pendingRelays(): number {
    return this.tasks.size;
  }
}
