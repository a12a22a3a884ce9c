/**
 * `byzantineTxs`: a validator that sends what a correct node never would, signed with its key (or
 * with keys it made up), for every validation rule of the ante handler and the message handlers
 * (the kinds and the reference's answer to each: crafts/, one file per module).
 *
 * It does so two ways. A Byzantine proposer may put any bytes in its block: whenever it proposes,
 * its block starts with the next `perBlock` kinds in turn, crafted on the state the block
 * continues (a mempool would refuse most of them: only a block makes the other nodes DeliverTx
 * them), and each such tx goes on record with the result the reference gives it there (the
 * `byzantine-refused` oracle compares). And every `everyBlocks` service blocks its node commits,
 * it gossips the next kind to every mempool, as its bridge would spread a tx (not judged: by the
 * time a block carries it the state has moved).
 */
import { type Address } from '../../src/core/address';
import { type Hex, fromHex, toHex } from '../../src/core/bytes';
import { addressOfPublicKey, publicKeyBytesFromPrivateKey } from '../../src/core/secp256k1';
import { registerFastKey } from '../../src/core/signatureScheme';
import { MSG_REGISTRY } from '../../src/app/registry';
import { pendingSideTxs } from '../../src/app/sideTx';
import { decodeTx, txHash } from '../../src/modules/auth/stdTx';
import { isCheckpointTx } from '../../src/modules/auth/ante';
import { getAccount } from '../../src/modules/auth/keeper';
import { type MsgDef } from '../../src/modules/framework/msgDef';
import { MsgTopupDef, type MsgTopup } from '../../src/modules/topup/msgs';
import { type ServiceNodeShell } from '../../src/node/service/config';
import { type Rng } from '../env/rng';
import { type MainTarget } from './targets';
import { VALIDATOR_INDEX, int } from '../core/schemaParts';
import {
  type FaultDef,
  type FaultTiming,
  SERVICE_SIDE,
  kindListSchema,
  mainOf,
  readKindList,
  readValidator,
} from './fault';
import { BYZANTINE_TXS, type ByzantineTx, DEFAULT_BYZANTINE_TXS, FIRST_BYZANTINE_TXS, craft } from './crafts';
import { craftAfterCheckpoint } from './crafts/block';
import {
  type CraftEnv,
  type Crafted,
  type CraftedTx,
  type MadeUpKey,
  type SeenEvents,
  changesState,
} from './crafts/craftKit';

export { BYZANTINE_TXS, DEFAULT_BYZANTINE_TXS, type ByzantineTx } from './crafts';

export type ByzantineTxsFault = FaultTiming & {
  kind: 'byzantineTxs';
  /** The sender (1-based validator index). */
  validator: number;
  /** What it sends, in turn. */
  txs: ByzantineTx[];
  /** It gossips one every this many service blocks its node commits. */
  everyBlocks: number;
  /** Kinds its block carries when it proposes (0: it only gossips). */
  perBlock: number;
};

/** Kinds that are an attack on a block's make-up: never gossiped (a mempool makes its own blocks). */
const BLOCK_ONLY: ReadonlySet<ByzantineTx> = new Set<ByzantineTx>([
  'txSizeOverGas',
  'txAtGasLimit',
  'txSigGasOverLimit',
  'stateSyncTooBig',
  'stateSyncWrongContract',
  'blockGasOverLimit',
  'checkpointAfterTx',
  'txAfterCheckpoint',
]);

/** Staking messages: a processed one's (tx hash, log index) is a replay candidate. */
const STAKING_TYPES: ReadonlySet<string> = new Set([
  'staking/MsgValidatorJoin',
  'staking/MsgStakeUpdate',
  'staking/MsgValidatorExit',
  'staking/MsgSignerUpdate',
]);

function madeUpKey(rng: Rng): MadeUpKey {
  for (;;) {
    const key = toHex(rng.bytes(32));
    const n = BigInt(key);
    if (n === 0n || n >= 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n) continue;
    const pubKey = toHex(publicKeyBytesFromPrivateKey(key));
    return { key, address: addressOfPublicKey(pubKey), pubKey };
  }
}

/** The fault's running state on one start: turns, what it has seen, its made-up keys. */
class Sender {
  private blockTurn = 0;
  /** Kinds whose turn came in a block when they could not be made, in the order they came. */
  private readonly owed = new Set<ByzantineTx>();
  private gossipTurn = 0;
  private blocks = 0;
  readonly seen: SeenEvents = { minted: [], staking: [] };
  /** Side messages its node saw delivered, by tx hash (their results come two blocks later). */
  private readonly delivered = new Map<Hex, { type: string; msg: unknown }>();
  private readonly rich: MadeUpKey;
  private readonly poor: MadeUpKey;
  private readonly stranger: MadeUpKey;
  private readonly freshRng: Rng;

  constructor(
    private readonly c: MainTarget,
    private readonly f: ByzantineTxsFault,
    index: number,
  ) {
    const rng = c.rng.fork(`byzantineTxs:${index}`);
    this.rich = madeUpKey(rng.fork('rich'));
    this.poor = madeUpKey(rng.fork('poor'));
    this.stranger = madeUpKey(rng.fork('stranger'));
    this.freshRng = rng.fork('fresh');
    if (c.scheme.mode === 'fast') for (const k of [this.rich, this.poor, this.stranger]) registerFastKey(k.key);
  }

  /**
   * What a craft works from: for a block at `height` (null: for the mempools), the committed state
   * it continues, the sender's committed account, and the side messages whose post handlers run
   * at the start of that block.
   */
  private env(node: ServiceNodeShell, timeMs: number, height: bigint | null): CraftEnv {
    const me = { key: node.identity.privateKey, address: node.address };
    const acc = height !== null ? getAccount(node.app.store, me.address) : node.app.signingAccount(me.address);
    const due = new Set<string>();
    if (height !== null)
      for (const [, p] of pendingSideTxs(node.app.store)) if (p.height <= height - 2n) due.add(p.msgType);
    return {
      node,
      state: node.app.store,
      timeMs,
      height,
      due,
      account: acc ? { accountNumber: acc.accountNumber, sequence: acc.sequence } : null,
      me,
      rich: this.rich,
      poor: this.poor,
      stranger: this.stranger,
      seen: this.seen,
      scheme: this.c.scheme,
      bestSidechainHead: this.c.serviceNodes.reduce<bigint | null>((best, n) => {
        const h = n.views.sidechain.headNumber();
        return h !== null && (best === null || h > best) ? h : best;
      }, null),
      fresh: () => toHex(this.freshRng.bytes(32)),
    };
  }

  /** The txs of the block it proposes at `height` (time `timeMs`): crafted ones first, then what it reaped. */
  blockTxs(node: ServiceNodeShell, reaped: Hex[], height: bigint, timeMs: number): Hex[] | null {
    if (this.f.perBlock === 0) return null;
    const env = this.env(node, timeMs, height);
    // Its own signer change posted at the start of the block moves its balance away: nothing it
    // signs there is judged on the state it sees (another's moves no balance of its, but it waits too).
    if (env.due.has('staking/MsgSignerUpdate')) return null;
    const first = reaped[0];
    if (first !== undefined && this.f.txs.includes('txAfterCheckpoint') && isCheckpoint(first)) {
      // A checkpoint from its mempool opens the block: a tx after it (12 once the checkpoint is accepted).
      const own = signerOf(first) === env.me.address ? 1n : 0n;
      const after = craftAfterCheckpoint(env, own);
      if (after === null) return null;
      this.recordBlock(node, 'txAfterCheckpoint', after, height, 1, 0);
      return [first, after.hex];
    }
    const items: Array<{ kind: ByzantineTx; made: Crafted }> = [];
    const list = this.f.txs;
    // Kinds whose turn came when they could not be made (no buffer to contradict, nothing to
    // replay yet) go first, as soon as they can; then the next in turn.
    const candidates: Array<{ kind: ByzantineTx; turn: boolean }> = [
      ...[...this.owed].map((kind) => ({ kind, turn: false })),
      ...list.map((_, i) => ({ kind: list[(this.blockTurn + i) % list.length]!, turn: true })),
    ];
    const tried = new Set<ByzantineTx>();
    for (const { kind, turn } of candidates) {
      if (items.length >= this.f.perBlock) break;
      if (turn) this.blockTurn++;
      if (tried.has(kind)) continue;
      tried.add(kind);
      const made = craft(kind, env);
      if (made === null) {
        this.owed.add(kind);
        continue;
      }
      this.owed.delete(kind);
      items.push({ kind, made });
      // What changes the state goes last: the rest was signed for the state before it.
      if (changesState(made)) break;
    }
    if (items.length === 0) return null;
    const out: Hex[] = [];
    for (const { kind, made } of items) {
      const start = out.length;
      for (const t of made.txs) {
        this.recordBlock(node, kind, t, height, out.length, t.ifAccepted === undefined ? null : start + t.ifAccepted);
        out.push(t.hex);
      }
    }
    return [...out, ...reaped];
  }

  private recordBlock(
    node: ServiceNodeShell,
    kind: ByzantineTx,
    t: CraftedTx,
    height: bigint,
    index: number,
    ifAccepted: number | null,
  ): void {
    this.c.record(node.id, {
      kind: 'byzantine.tx',
      validator: this.f.validator,
      craft: t.setup ? `${kind}/setup` : kind,
      txHash: hashOf(t.hex),
      via: 'block',
      height,
      index,
      expect: t.expect,
      ifAccepted,
    });
  }

  /** After its node committed a block: what it saw, and every `everyBlocks` blocks a gossiped kind. */
  onCommit(
    node: ServiceNodeShell,
    txs: readonly Hex[],
    sideResults: ReadonlyArray<{ txHash: Hex; code: number }>,
    timeMs: number,
  ) {
    for (const t of txs) {
      try {
        const tx = decodeTx(fromHex(t), MSG_REGISTRY);
        if (tx.def.type === MsgTopupDef.type || STAKING_TYPES.has(tx.def.type))
          this.delivered.set(txHash(fromHex(t)), { type: tx.def.type, msg: tx.msg });
      } catch {
        /* not a transaction: nothing to replay */
      }
    }
    for (const r of sideResults) {
      const d = this.delivered.get(r.txHash);
      if (!d || r.code !== 0) continue;
      const m = d.msg as { txHash: Hex; logIndex: bigint };
      if (d.type === MsgTopupDef.type) this.seen.minted.push(d.msg as MsgTopup);
      else this.seen.staking.push({ txHash: m.txHash, logIndex: m.logIndex });
    }
    if (++this.blocks % this.f.everyBlocks !== 0) return;
    const env = this.env(node, timeMs, null);
    const list = this.f.txs;
    for (let k = 0; k < list.length; k++) {
      const kind = list[this.gossipTurn++ % list.length]!;
      if (BLOCK_ONLY.has(kind)) continue;
      const made = craft(kind, env);
      if (!made) continue;
      for (const t of made.txs) {
        this.c.record(node.id, {
          kind: 'byzantine.tx',
          validator: this.f.validator,
          craft: kind,
          txHash: hashOf(t.hex),
          via: 'gossip',
          height: null,
          index: null,
          expect: null,
          ifAccepted: null,
        });
        this.c.sendTxFrom(this.f.validator, t.hex);
      }
      return;
    }
  }
}

/** A tx's hash as the service reports it: sha256 of its bytes, `0x` for a string that is no hex at all. */
function hashOf(hex: Hex): Hex {
  try {
    return txHash(fromHex(hex));
  } catch {
    return '0x' as Hex;
  }
}

function decoded(hex: Hex) {
  try {
    return decodeTx(fromHex(hex), MSG_REGISTRY);
  } catch {
    return null;
  }
}

function isCheckpoint(hex: Hex): boolean {
  const tx = decoded(hex);
  return tx !== null && isCheckpointTx(tx);
}

function signerOf(hex: Hex): Address | null {
  const tx = decoded(hex);
  return tx === null ? null : (tx.def as MsgDef).signer(tx.msg);
}

function sameKinds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

export const byzantineTxs: FaultDef<ByzantineTxsFault> = {
  kind: 'byzantineTxs',
  summary:
    'a validator sends transactions that break each validation rule, in the blocks it proposes and to every mempool (the service must refuse them)',
  fields: ['validator', 'txs', 'everyBlocks', 'perBlock'],
  schema: {
    properties: {
      validator: VALIDATOR_INDEX,
      txs: kindListSchema(
        BYZANTINE_TXS,
        'transaction',
        'every kind up to stateSyncNoEvent; later kinds only when named',
      ),
      everyBlocks: { ...int(1, 1000), default: 4 },
      perBlock: { ...int(0, 20), default: 3 },
    },
    required: ['validator'],
  },
  decode(r, o, ctx) {
    const validator = readValidator(r, o, ctx, false);
    const txs = readKindList(r, o, 'txs', BYZANTINE_TXS, 'transaction', DEFAULT_BYZANTINE_TXS);
    return {
      validator,
      txs,
      everyBlocks: r.int(o, 'everyBlocks', 4, 1, 1000),
      perBlock: r.int(o, 'perBlock', 3, 0, 20),
    };
  },
  encode: (f) => ({ validator: f.validator, txs: f.txs, everyBlocks: f.everyBlocks, perBlock: f.perBlock }),
  sides: () => SERVICE_SIDE,
  fixedSide: 'service',
  apply(f, site, { start, index }) {
    const c = mainOf(site);
    if (!start) {
      c.setBehaviour(`fault:${index}`, [], null);
      return `validator ${f.validator}`;
    }
    const sender = new Sender(c, f, index);
    c.setBehaviour(`fault:${index}`, [f.validator], {
      onCommit: (node, block, end) => sender.onCommit(node, block.block.txs, end.sideTxResults, block.block.timeMs),
      blockTxs: (node, reaped, block) => sender.blockTxs(node, reaped, block.height, block.timeMs),
    });
    // The default list reads 'every kind', as it did before later kinds joined (the text is in the trace).
    const kinds = sameKinds(f.txs, DEFAULT_BYZANTINE_TXS) ? 'every kind' : f.txs.join(', ');
    return `validator ${f.validator}: ${kinds}`;
  },
  swarm: {
    draw(rng, ctx) {
      // The first version's draws, as they were (earlier seeds keep their scenarios up to here) ...
      const drawn = FIRST_BYZANTINE_TXS.filter(() => rng.bool(0.6));
      const validator = ctx.coalition[rng.int(0, ctx.coalition.length - 1)]!;
      const first = drawn.length > 0 ? drawn : [rng.pick(FIRST_BYZANTINE_TXS)];
      const everyBlocks = rng.int(2, 8);
      // ... then the later kinds and the block share from a stream of their own.
      const more = rng.fork(`byzantineTxs:${validator}:${everyBlocks}:${first.join('+')}`);
      const later = DEFAULT_BYZANTINE_TXS.filter((k) => !FIRST_BYZANTINE_TXS.includes(k) && more.bool(0.6));
      return { validator, txs: [...first, ...later], everyBlocks, perBlock: more.int(1, 6) };
    },
  },
};
