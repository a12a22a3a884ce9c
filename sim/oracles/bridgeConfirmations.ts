/**
 * Confirmation depths (heimdall.md §8.2 `GetConfirmedTxReceipt`, §3.2; chain params
 * `MainchainTxConfirmations` / `MaticchainTxConfirmations`): a validator acts on a parent-chain
 * event only once the block holding it has at least the configured confirmations on top
 * (head − block ≥ confirmations), and on a sidechain checkpoint range only once its end block has
 * the configured sidechain confirmations. Acting is the bridge relaying the event as a service
 * transaction or proposing the checkpoint, and the node voting yes on a side transaction about
 * the event or the range. Judged on what the node read when it acted (its views' heads, reported
 * raw) against the block the parent chain itself says holds the event; a view's parent head is
 * also never ahead of the parent chain's own head at that moment.
 *
 * The ack of a checkpoint is a relay too (its NewHeaderBlock log); the side vote on an ack reads
 * the root chain's header block, not a confirmed log, so no depth is asked of it.
 */
import { type Hex } from '../../src/core/bytes';
import { Oracle, type RunRecord } from './oracle';

const ACK = 'checkpoint/MsgCheckpointACK';

export class BridgeConfirmationsOracle extends Oracle {
  /** Each parent-chain log's event name, by (tx hash, log index). */
  private readonly eventKind = new Map<string, string>();
  readonly name = 'bridge-confirmations';
  readonly class = 'safety' as const;
  readonly reads = ['parent.block', 'bridge.tx', 'side.voteRead'] as const;
  /** Parent-chain tx hash → the block that holds it (from the parent chain's own blocks). */
  private readonly eventBlock = new Map<string, bigint>();
  private parentHead = -1n;

  constructor(
    private readonly parentConfirmations: bigint,
    private readonly sidechainConfirmations: bigint,
  ) {
    super();
  }

  override observe(r: RunRecord): void {
    const o = r.obs;
    switch (o.kind) {
      case 'parent.block':
        if (o.number > this.parentHead) this.parentHead = o.number;
        for (const e of o.events) {
          if (!this.eventBlock.has(e.txHash.toLowerCase())) this.eventBlock.set(e.txHash.toLowerCase(), o.number);
          this.eventKind.set(`${e.txHash.toLowerCase()}/${e.logIndex}`, e.event === 'other' ? e.name : e.event);
        }
        return;
      case 'bridge.tx':
        if (o.parent) this.checkKind(r, o.msgType, o.key);
        if (o.parent) {
          this.saw('bridge.relay.confirmation-depth');
          this.checkParent(
            r,
            `relayed ${o.msgType} (${o.key})`,
            eventHashOf(o.key),
            o.parent.eventBlock,
            o.parent.head,
          );
        }
        if (o.sidechain) {
          this.saw('bridge.checkpoint.sidechain-confirmations');
          this.checkSidechain(r, `proposed ${o.msgType} (${o.key})`, o.sidechain.endBlock, o.sidechain.head);
        }
        return;
      case 'side.voteRead':
        if (o.vote !== 'yes') return;
        if (o.parent && o.msgType !== ACK) {
          this.saw('bridge.vote.confirmed-events');
          this.checkParent(r, `voted yes on ${o.msgType} ${o.txHash}`, null, o.parent.eventBlock, o.parent.head);
        }
        if (o.sidechain) {
          this.saw('checkpoint.side.confirmations');
          this.checkSidechain(r, `voted yes on ${o.msgType} ${o.txHash}`, o.sidechain.endBlock, o.sidechain.head);
        }
        return;
      default:
        return;
    }
  }

  /** The spec's Events table: each parent-chain event leads to one message. */
  private checkKind(r: RunRecord, msgType: string, key: string): void {
    const want = EVENT_OF_MESSAGE[msgType];
    const m = /^(0x[0-9a-fA-F]{64})\/(\d+)$/.exec(key);
    if (want === undefined || !m) return;
    this.saw('bridge.relay.event-to-message');
    const kind = this.eventKind.get(`${m[1]!.toLowerCase()}/${m[2]}`);
    if (kind !== want)
      this.fail(
        r.t,
        r.node,
        `the bridge relayed ${msgType} for the parent-chain log ${key}, which is ${kind === undefined ? 'no event the parent chain emitted' : `a ${kind} event`}, not ${want}`,
        { msgType, key, event: kind ?? null },
      );
  }

  private checkParent(
    r: RunRecord,
    what: string,
    eventTx: string | null,
    block: bigint | null,
    head: bigint | null,
  ): void {
    const truth = eventTx === null ? undefined : this.eventBlock.get(eventTx);
    if (block !== null && truth !== undefined && truth !== block) {
      this.fail(
        r.t,
        r.node,
        `${what}: it read the event in parent block ${block}, the parent chain has it in block ${truth}`,
        {
          block,
          parentBlock: truth,
        },
      );
      return;
    }
    if (head !== null && head > this.parentHead) {
      this.fail(
        r.t,
        r.node,
        `${what}: its view of the parent head (${head}) is ahead of the parent chain's (${this.parentHead})`,
        {
          viewHead: head,
          parentHead: this.parentHead,
        },
      );
      return;
    }
    if (block === null || head === null || head - block < this.parentConfirmations)
      this.fail(
        r.t,
        r.node,
        `${what} with ${block === null || head === null ? 'no' : head - block} confirmations (event block ${block ?? 'unknown'}, parent head ${head ?? 'unknown'}); ${this.parentConfirmations} are required`,
        { eventBlock: block, head, required: this.parentConfirmations },
      );
  }

  private checkSidechain(r: RunRecord, what: string, end: bigint, head: bigint | null): void {
    if (head === null || head - end < this.sidechainConfirmations)
      this.fail(
        r.t,
        r.node,
        `${what} for a range ending at ${end} with ${head === null ? 'no' : head - end} confirmations (sidechain head ${head ?? 'unknown'}); ${this.sidechainConfirmations} are required`,
        { endBlock: end, head, required: this.sidechainConfirmations },
      );
  }
}

/** A relay's key names its event as `<txHash>/<logIndex>` (bridge keys); other keys name none. */
/** Which parent-chain event each relayed message stands for (spec: Events, "Leads to"). */
const EVENT_OF_MESSAGE: Readonly<Record<string, string>> = {
  'staking/MsgValidatorJoin': 'Staked',
  'staking/MsgStakeUpdate': 'StakeUpdate',
  'staking/MsgValidatorExit': 'UnstakeInit',
  'staking/MsgSignerUpdate': 'SignerChange',
  'topup/MsgTopup': 'TopUpFee',
  'clerk/MsgEventRecord': 'StateSynced',
  'checkpoint/MsgCheckpointACK': 'NewHeaderBlock',
};

function eventHashOf(key: string): Hex | null {
  const m = /^(0x[0-9a-fA-F]{64})/.exec(key);
  return m ? (m[1]!.toLowerCase() as Hex) : null;
}
