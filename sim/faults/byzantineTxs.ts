/**
 * `byzantineTxs`: a validator that sends what a correct bridge never would, signed with its key
 * and spread like its bridge's transactions: a no-ack whenever it likes (before the buffer time),
 * a span proposal while the sidechain is outside the current span's window, a span out of
 * sequence, a checkpoint with a wrong root or a range that does not continue the last one, a
 * top-up that was already minted. Every `everyBlocks` service blocks its node commits, it sends
 * the next of its `txs` (in turn). The service must refuse each of them; if one is accepted, the
 * oracle guarding that rule fires.
 */
import { InputError } from '../../src/core/errors';
import { type Hex, toHex } from '../../src/core/bytes';
import { keccak256Bytes } from '../../src/core/hash';
import { type MsgDef } from '../../src/modules/framework/msgDef';
import { MSG_REGISTRY } from '../../src/app/registry';
import { decodeTx } from '../../src/modules/auth/stdTx';
import { MsgCheckpointDef, MsgCheckpointNoAckDef } from '../../src/modules/checkpoint/msgs';
import { MsgProposeSpanDef } from '../../src/modules/span/msgs';
import { MsgTopupDef, type MsgTopup } from '../../src/modules/topup/msgs';
import { getLastSpan, getSpanParams } from '../../src/modules/span/keeper';
import { getChainParams } from '../../src/modules/chain/keeper';
import { getCheckpointParams, getLastCheckpoint } from '../../src/modules/checkpoint/keeper';
import { dividendAccountRoot } from '../../src/modules/topup/accountRoot';
import { type ServiceNode } from '../../src/node/service/serviceNode';
import { signOwnTx } from '../../src/node/service/bridgeWork';
import { txHash } from '../../src/modules/auth/stdTx';
import { fromHex } from '../../src/core/bytes';
import { describeValue } from '../scenario/reader';
import { type FaultDef, type FaultTiming, SERVICE_SIDE, mainOf, readValidator } from './fault';
import { VALIDATOR_INDEX, int } from '../scenario/schemaParts';

export const BYZANTINE_TXS = [
  'earlyNoAck',
  'spanOutsideWindow',
  'spanOutOfSequence',
  'wrongRootCheckpoint',
  'wrongRangeCheckpoint',
  'replayedTopup',
] as const;

export type ByzantineTx = (typeof BYZANTINE_TXS)[number];

export type ByzantineTxsFault = FaultTiming & {
  kind: 'byzantineTxs';
  /** The sender (1-based validator index). */
  validator: number;
  /** What it sends, in turn. */
  txs: ByzantineTx[];
  /** It sends one every this many service blocks its node commits. */
  everyBlocks: number;
};

/**
 * The message a Byzantine sender would send after a block of time `timeMs` (null: nothing of that
 * kind would be wrong yet).
 */
type Craft = (node: ServiceNode, minted: readonly MsgTopup[], timeMs: number) => { def: MsgDef; msg: unknown } | null;

const CRAFT: Record<ByzantineTx, Craft> = {
  earlyNoAck(node, _minted, timeMs) {
    // Early: within the buffer time of the last acked checkpoint (before the first one a no-ack is due).
    const last = getLastCheckpoint(node.app.store);
    const bufferMs = getCheckpointParams(node.app.store).checkpointBufferTimeMs;
    if (!last || BigInt(timeMs) - last.checkpoint.timestamp * 1000n >= bufferMs) return null;
    return { def: MsgCheckpointNoAckDef as MsgDef, msg: { from: node.address } };
  },
  spanOutsideWindow(node) {
    const last = getLastSpan(node.app.store);
    const head = node.views.sidechain.headNumber();
    if (!last || head === null || (last.startBlock <= head && head < last.endBlock)) return null;
    const duration = getSpanParams(node.app.store).spanDuration;
    return {
      def: MsgProposeSpanDef as MsgDef,
      msg: {
        spanId: last.id + 1n,
        proposer: node.address,
        startBlock: last.endBlock + 1n,
        endBlock: last.endBlock + duration,
        sidechainChainId: getChainParams(node.app.store).sidechainChainId,
      },
    };
  },
  spanOutOfSequence(node) {
    const last = getLastSpan(node.app.store);
    if (!last) return null;
    const p = getSpanParams(node.app.store);
    // A gap of one sprint after the last span (its length still right).
    const start = last.endBlock + 1n + p.sprintDuration;
    return {
      def: MsgProposeSpanDef as MsgDef,
      msg: {
        spanId: last.id + 1n,
        proposer: node.address,
        startBlock: start,
        endBlock: start + p.spanDuration - 1n,
        sidechainChainId: getChainParams(node.app.store).sidechainChainId,
      },
    };
  },
  wrongRootCheckpoint: (node) => checkpoint(node, 0n, true),
  wrongRangeCheckpoint: (node) => checkpoint(node, 1n, false),
  replayedTopup(node, minted) {
    const m = minted[minted.length - 1];
    if (!m) return null;
    return { def: MsgTopupDef as MsgDef, msg: { ...m, fromAddress: node.address } };
  },
};

/** A checkpoint from the next start (plus `gap`), with a made-up root if `wrongRoot`. */
function checkpoint(node: ServiceNode, gap: bigint, wrongRoot: boolean): { def: MsgDef; msg: unknown } {
  const last = getLastCheckpoint(node.app.store);
  const start = (last ? last.checkpoint.endBlock + 1n : 0n) + gap;
  const end = start + node.cfg.bridge.checkpointLength - 1n;
  const head = node.views.sidechain.headNumber() ?? 0n;
  const root = wrongRoot
    ? toHex(keccak256Bytes(new TextEncoder().encode(`not the root of ${start}..${end} at ${head}`)))
    : (node.views.sidechain.rootHash(start, end, 0n) ??
      toHex(keccak256Bytes(new TextEncoder().encode(`no root of ${start}..${end}`))));
  return {
    def: MsgCheckpointDef as MsgDef,
    msg: {
      proposer: node.address,
      startBlock: start,
      endBlock: end,
      rootHash: root as Hex,
      accountRootHash: dividendAccountRoot(node.app.store),
    },
  };
}

export const byzantineTxs: FaultDef<ByzantineTxsFault> = {
  kind: 'byzantineTxs',
  summary: 'a validator sends transactions a correct bridge never would (the service must refuse them)',
  fields: ['validator', 'txs', 'everyBlocks'],
  schema: {
    properties: {
      validator: VALIDATOR_INDEX,
      txs: {
        type: 'array',
        minItems: 1,
        items: { enum: [...BYZANTINE_TXS], 'x-message': `unknown {got}; one of ${BYZANTINE_TXS.join(', ')}` },
        'x-message': 'name at least one transaction',
        description: 'what it sends, in turn (default: all)',
      },
      everyBlocks: { ...int(1, 1000), default: 4 },
    },
    required: ['validator'],
  },
  decode(r, o, ctx) {
    const validator = readValidator(r, o, ctx, false);
    const list = o.txs === undefined ? [...BYZANTINE_TXS] : r.arr(o, 'txs');
    if (list.length === 0) throw new InputError(r.at('txs'), 'name at least one transaction');
    const txs = list.map((x, i) => {
      if (typeof x !== 'string' || !(BYZANTINE_TXS as readonly string[]).includes(x))
        throw new InputError(`${r.at('txs')}[${i}]`, `unknown ${describeValue(x)}; one of ${BYZANTINE_TXS.join(', ')}`);
      return x as ByzantineTx;
    });
    return { validator, txs, everyBlocks: r.int(o, 'everyBlocks', 4, 1, 1000) };
  },
  encode: (f) => ({ validator: f.validator, txs: f.txs, everyBlocks: f.everyBlocks }),
  sides: () => SERVICE_SIDE,
  fixedSide: 'service',
  apply(f, site, { start, index }) {
    const c = mainOf(site);
    if (!start) {
      c.setBehaviour(`fault:${index}`, [], null);
      return `validator ${f.validator}`;
    }
    let turn = 0;
    let blocks = 0;
    /** Top-ups its node saw minted (each a replay candidate). */
    const minted: MsgTopup[] = [];
    const topups = new Map<Hex, MsgTopup>();
    c.setBehaviour(`fault:${index}`, [f.validator], {
      onCommit(node, block, end) {
        for (const t of block.block.txs) {
          try {
            const tx = decodeTx(fromHex(t), MSG_REGISTRY);
            if (tx.def.type === MsgTopupDef.type) topups.set(txHash(fromHex(t)), tx.msg as MsgTopup);
          } catch {
            /* not a transaction: nothing to replay */
          }
        }
        for (const r of end.sideTxResults) {
          const m = r.code === 0 && r.msgType === MsgTopupDef.type ? topups.get(r.txHash) : undefined;
          if (m) minted.push(m);
        }
        if (++blocks % f.everyBlocks !== 0) return;
        // The next kind in turn that makes sense now.
        for (let k = 0; k < f.txs.length; k++) {
          const what = f.txs[turn++ % f.txs.length]!;
          const made = CRAFT[what](node, minted, block.block.timeMs);
          if (!made) continue;
          const tx = signOwnTx(node, made.def, made.msg);
          if (tx !== null) c.sendTxFrom(f.validator, tx);
          return;
        }
      },
    });
    return `validator ${f.validator}: ${f.txs.join(', ')}`;
  },
  swarm: {
    draw(rng, ctx) {
      const txs = BYZANTINE_TXS.filter(() => rng.bool(0.6));
      return {
        validator: ctx.coalition[rng.int(0, ctx.coalition.length - 1)]!,
        txs: txs.length > 0 ? txs : [rng.pick(BYZANTINE_TXS)],
        everyBlocks: rng.int(2, 8),
      };
    },
  },
};
