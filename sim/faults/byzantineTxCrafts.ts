/**
 * What a Byzantine sender crafts, kind by kind (the `byzantineTxs` fault): for every validation
 * rule of the ante handler and of the message handlers, a transaction that breaks it, signed with
 * the sender's key (or a key it made up), and the result the reference gives it when a block
 * delivers it on the state it was crafted on: the ante codes of heimdall.md §6.2-§6.3 and README
 * item 24 (codespace `sdk`), the handler codes of each module's errors (codespaces `1`, `bank`,
 * `topup`), or a side-tx rejection (code 5502: the validators did not vote it through).
 *
 * The expected codes are literal reference values, written here from the reference, not computed
 * by the service's code: a handler that wrongly accepts (or refuses with another code) shows as a
 * mismatch (sim/oracles/byzantineRefused.ts). A craft returns null when its rule cannot be broken
 * unambiguously on the state at hand (no checkpoint yet, no exited validator, too poor to pay).
 */
import { type Address, ZERO_ADDRESS } from '../../src/core/address';
import { type Hex, fromHex, toHex, utf8 } from '../../src/core/bytes';
import { canonicalJsonBytes } from '../../src/core/canonicalJson';
import { keccak256Bytes } from '../../src/core/hash';
import { ONE_TOKEN } from '../../src/core/amount';
import { type SignatureScheme } from '../../src/core/signatureScheme';
import { type KVReader } from '../../src/store/kvStore';
import { pendingSideTxs } from '../../src/app/sideTx';
import { type MsgDef } from '../../src/modules/framework/msgDef';
import { encodeTx, signTx, txJson } from '../../src/modules/auth/stdTx';
import { getAccount, balanceOf } from '../../src/modules/auth/keeper';
import { FEE_DENOM } from '../../src/modules/auth/params';
import { getAuthParams } from '../../src/modules/auth/keeper';
import { MsgMultiSendDef, MsgSendDef } from '../../src/modules/bank/msgs';
import { MsgTopupDef, MsgWithdrawFeeDef, type MsgTopup } from '../../src/modules/topup/msgs';
import {
  MsgSignerUpdateDef,
  MsgStakeUpdateDef,
  MsgValidatorExitDef,
  MsgValidatorJoinDef,
} from '../../src/modules/staking/msgs';
import { MsgCheckpointAckDef, MsgCheckpointDef, MsgCheckpointNoAckDef } from '../../src/modules/checkpoint/msgs';
import { MsgProposeSpanDef } from '../../src/modules/span/msgs';
import { type MsgEventRecord, MsgEventRecordDef } from '../../src/modules/clerk/msgs';
import { allValidators, getValidator, getValidatorSet } from '../../src/modules/staking/keeper';
import { getBuffer, getCheckpointParams, getLastCheckpoint, getLastNoAck } from '../../src/modules/checkpoint/keeper';
import { getLastSpan, getSpanParams } from '../../src/modules/span/keeper';
import { getChainParams } from '../../src/modules/chain/keeper';
import { allRecords, getRecord } from '../../src/modules/clerk/keeper';
import { dividendAccountRoot } from '../../src/modules/topup/accountRoot';
import { type ServiceNodeShell } from '../../src/node/service/config';

/** What the reference gives a crafted tx delivered on the state it was crafted on. */
export interface ByzantineExpect {
  /** `deliver`: DeliverTx refuses it; `side`: DeliverTx takes it and the side-tx result refuses it. */
  stage: 'deliver' | 'side';
  /** The codespace of a deliver-stage refusal (side results carry only their code). */
  codespace: string;
  /** Any of these codes is the reference's answer. */
  codes: readonly number[];
}

export interface CraftedTx {
  hex: Hex;
  /** Null: not judged (valid on purpose, or an outcome the sender cannot predict). */
  expect: ByzantineExpect | null;
  /** Valid on purpose: it funds a helper, fills a block, comes before a checkpoint. */
  setup?: boolean;
  /** The expectation holds only when the tx at this position of the same item was accepted. */
  ifAccepted?: number;
}

export interface Crafted {
  txs: CraftedTx[];
}

/**
 * Whether a crafted item changes the state when delivered: a tx valid on purpose, or one DeliverTx
 * takes (a side-tx refused only later pays its fee and raises the sequence). Nothing crafted may
 * follow it in a block: what follows was signed for the state before it.
 */
export function changesState(c: Crafted): boolean {
  return c.txs.some((t) => t.expect === null || t.expect.stage === 'side');
}

/** A key the sender made up, and its address. */
export interface MadeUpKey {
  key: Hex;
  address: Address;
  pubKey: Hex;
}

/** What the sender has seen committed: replay candidates. */
export interface SeenEvents {
  /** Top-ups minted. */
  minted: MsgTopup[];
  /** Parent-chain events a staking message was voted through for (tx hash, log index). */
  staking: Array<{ txHash: Hex; logIndex: bigint }>;
}

export interface CraftEnv {
  node: ServiceNodeShell;
  /** The state the crafted txs are delivered on (the block path: the committed state its block continues). */
  state: KVReader;
  /** The time of the block that delivers them. */
  timeMs: number;
  /** The height of the block that delivers them (null: gossiped, delivered whenever a proposer takes them). */
  height: bigint | null;
  /**
   * The side messages whose post handlers run at the start of the delivering block, before its
   * txs (delivered two blocks earlier): a craft whose answer they could change is not made then.
   */
  due: ReadonlySet<string>;
  /** The account number and sequence to sign with (null: the sender has no account). */
  account: { accountNumber: bigint; sequence: bigint } | null;
  /** The sender's key (its node's, which follows its signer changes). */
  me: { key: Hex; address: Address };
  /** A funded account that is no validator; a dust account that cannot pay the fee; a key with no account. */
  rich: MadeUpKey;
  poor: MadeUpKey;
  stranger: MadeUpKey;
  seen: SeenEvents;
  scheme: SignatureScheme;
  /**
   * The highest sidechain head any service node's view holds (null: none knows one): the bound a
   * prediction about every validator's view must use, since the sender's own view may lag (its
   * sidechain node paused, partitioned or syncing).
   */
  bestSidechainHead: bigint | null;
  /** A fresh 32-byte value for this craft (a tx hash no event has). */
  fresh(): Hex;
}

type Craft = (env: CraftEnv) => Crafted | null;

// The side messages whose post handlers change what a craft's answer depends on. A checkpoint's
// account root covers every validator's dividend account: a join adds one.
const CHECKPOINTS = ['checkpoint/MsgCheckpoint', 'checkpoint/MsgCheckpointACK', 'staking/MsgValidatorJoin'];
const SPANS = ['sidechain/MsgProposeSpan'];
/** A top-up pays its relayer, a signer change moves the old signer's balance. */
const BALANCES = ['topup/MsgTopup', 'staking/MsgSignerUpdate'];
const SIGNERS = ['staking/MsgSignerUpdate'];
const EXITS = ['staking/MsgValidatorExit'];

/** Whether none of these side messages is posted at the start of the delivering block. */
function settled(env: CraftEnv, types: readonly string[]): boolean {
  return !types.some((t) => env.due.has(t));
}

/** A craft made only when the state it reads is settled for the block. */
const when =
  (types: readonly string[], c: Craft): Craft =>
  (env) =>
    settled(env, types) ? c(env) : null;

// --- the reference's answers ---------------------------------------------------------------

const sdk = (code: number): ByzantineExpect => ({ stage: 'deliver', codespace: 'sdk', codes: [code] });
const one = (...codes: number[]): ByzantineExpect => ({ stage: 'deliver', codespace: '1', codes });
const bank = (code: number): ByzantineExpect => ({ stage: 'deliver', codespace: 'bank', codes: [code] });
const topup = (code: number): ByzantineExpect => ({ stage: 'deliver', codespace: 'topup', codes: [code] });
/** The validators do not vote it through: 5502 "External call majority validation failed". */
const SIDE_REFUSED: ByzantineExpect = { stage: 'side', codespace: '1', codes: [5502] };

const UNAUTHORIZED = sdk(4);
const INSUFFICIENT_FUNDS = sdk(5);
const UNKNOWN_ADDRESS = sdk(9);
const INSUFFICIENT_COINS = sdk(10);
const INVALID_COINS = sdk(11);
const OUT_OF_GAS = sdk(12);
const MEMO_TOO_LARGE = sdk(13);
const NO_SIGNATURES = sdk(17);
const TX_DECODE = sdk(2);
const INVALID_MSG = one(1400);

// --- signing ---------------------------------------------------------------------------------

interface SignOpts {
  /** Added to the account's sequence / account number. */
  seqDelta?: bigint;
  accountDelta?: bigint;
  chainId?: string;
  memo?: string;
  /** Sign as another key (a helper); its committed account is used. */
  as?: MadeUpKey;
}

/** The encoded tx of `msg` signed by the sender (or `opts.as`), or null when the signer has no account. */
function sign<M>(env: CraftEnv, def: MsgDef<M>, msg: M, opts: SignOpts = {}): Hex | null {
  const tx = signed(env, def, msg, opts);
  return tx === null ? null : toHex(encodeTx(tx));
}

function signed<M>(env: CraftEnv, def: MsgDef<M>, msg: M, opts: SignOpts = {}) {
  const acc = opts.as ? getAccount(env.state, opts.as.address) : env.account;
  const key = opts.as ? opts.as.key : env.me.key;
  const base = acc ?? (opts.as ? { accountNumber: 0n, sequence: 0n } : null);
  if (base === null) return null;
  return signTx(
    def,
    msg,
    {
      chainId: opts.chainId ?? env.node.app.chainId,
      accountNumber: base.accountNumber + (opts.accountDelta ?? 0n),
      sequence: base.sequence + (opts.seqDelta ?? 0n),
      memo: opts.memo ?? '',
    },
    key,
    env.scheme,
  );
}

/** A tx's JSON, changed by `edit`, as bytes: what decoding must refuse. */
function mangled<M>(env: CraftEnv, def: MsgDef<M>, msg: M, edit: (tx: Record<string, unknown>) => void): Hex | null {
  const tx = signed(env, def, msg);
  if (tx === null) return null;
  const json = JSON.parse(JSON.stringify(txJson(tx), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
  edit(json as Record<string, unknown>);
  return toHex(canonicalJsonBytes(json));
}

function one1(hex: Hex | null, expect: ByzantineExpect | null): Crafted | null {
  return hex === null ? null : { txs: [{ hex, expect }] };
}

function fee(env: CraftEnv): bigint {
  return getAuthParams(env.state).txFees;
}

/** The sender can pay the fee of `n` txs (a rejection after the fee check needs it). */
function canPay(env: CraftEnv, n = 1n, who: Address = env.me.address): boolean {
  return balanceOf(env.state, who, FEE_DENOM) >= fee(env) * n;
}

const dust = (from: Address, to: Address, amount = 1n) => ({
  fromAddress: from,
  toAddress: to,
  amount: [{ denom: FEE_DENOM, amount }],
});

function madeUpHash(text: string): Hex {
  return toHex(keccak256Bytes(utf8(text)));
}

// --- the parts of the service's state a craft reads -----------------------------------------

function myValidatorId(env: CraftEnv): bigint | null {
  for (const v of allValidators(env.state)) if (v.signer === env.me.address) return v.id;
  return null;
}

/** An id no validator has. */
function unknownId(env: CraftEnv): bigint {
  let max = 0n;
  for (const v of allValidators(env.state)) if (v.id > max) max = v.id;
  return max + 1000n;
}

/** A buffered checkpoint that stays in the buffer for a while yet (the buffer time minus a margin). */
function liveBuffer(env: CraftEnv): boolean {
  const buf = getBuffer(env.state);
  if (!buf) return false;
  const ageMs = BigInt(env.timeMs) - buf.timestamp * 1000n;
  return ageMs + 10_000n < getCheckpointParams(env.state).checkpointBufferTimeMs;
}

/**
 * The next checkpoint's range (from the last acked one), its root on the sender's view (made up
 * when the view does not reach its end: `viewed` false) and the account root.
 */
function viewedCheckpoint(env: CraftEnv, gap = 0n) {
  const last = getLastCheckpoint(env.state);
  const start = (last ? last.checkpoint.endBlock + 1n : 0n) + gap;
  const end = start + env.node.cfg.bridge.checkpointLength - 1n;
  const viewed = env.node.views.sidechain.rootHash(start, end, 0n);
  return {
    viewed: viewed !== null,
    msg: {
      proposer: env.me.address,
      startBlock: start,
      endBlock: end,
      rootHash: (viewed ?? madeUpHash(`no root of ${start}..${end}`)) as Hex,
      accountRootHash: dividendAccountRoot(env.state),
    },
  };
}

function nextCheckpoint(env: CraftEnv, gap = 0n) {
  return viewedCheckpoint(env, gap).msg;
}

function isCheckpointProposer(env: CraftEnv): boolean {
  return getValidatorSet(env.state).proposer?.address === env.me.address;
}

const eventRef = (env: CraftEnv, id: bigint, ref?: { txHash: Hex; logIndex: bigint }) => ({
  from: env.me.address,
  id,
  txHash: ref?.txHash ?? env.fresh(),
  logIndex: ref?.logIndex ?? 0n,
});

function stateSync(
  env: CraftEnv,
  id: bigint,
  over: Partial<{ data: Hex; sidechainChainId: string; txHash: Hex; logIndex: bigint }>,
) {
  return {
    from: env.me.address,
    txHash: over.txHash ?? env.fresh(),
    logIndex: over.logIndex ?? 0n,
    id,
    contractAddress: '0x0000000000000000000000000000000000001001' as Address,
    data: over.data ?? ('0x' as Hex),
    sidechainChainId: over.sidechainChainId ?? getChainParams(env.state).sidechainChainId,
  };
}

function lastRecordId(env: CraftEnv): bigint {
  let max = 0n;
  for (const r of allRecords(env.state)) if (r.id > max) max = r.id;
  return max;
}

/** Hex data of `bytes` zero bytes. */
/**
 * Whether a delivered relay carries a StateSynced event the node's own parent view confirms, as the
 * event says it, for this chain: an honest relay, not a crafted relay of a made-up event.
 */
function relaysRealEvent(node: ServiceNodeShell, m: MsgEventRecord): boolean {
  const chain = getChainParams(node.app.store);
  const ev = node.views.parent.event(m.txHash, m.logIndex, chain.parentChainTxConfirmations);
  return (
    ev?.name === 'StateSynced' &&
    ev.id === m.id &&
    ev.contractAddress.toLowerCase() === m.contractAddress.toLowerCase() &&
    ev.data.toLowerCase() === m.data.toLowerCase() &&
    m.sidechainChainId === chain.sidechainChainId
  );
}

/** Contract addresses no StateSynced event of the simulated parent chain names. */
const OTHER_CONTRACT = '0x0000000000000000000000000000000000001002';
const ZERO_CONTRACT = '0x0000000000000000000000000000000000001003';

function zeros(bytes: number): Hex {
  return `0x${'00'.repeat(bytes)}` as Hex;
}

/**
 * The size in bytes of a tx whose size and signature gas is the tx gas limit plus `over` bytes'
 * worth (0: exactly at the limit); null when no whole size lands on the limit or when `over`
 * bytes would already put the size gas alone over it.
 */
function gasBoundarySize(env: CraftEnv, over: bigint): number | null {
  const p = getAuthParams(env.state);
  const room = p.maxTxGas - p.sigVerifyCostSecp256k1;
  if (room <= 0n || room % p.txSizeCostPerByte !== 0n) return null;
  const size = room / p.txSizeCostPerByte + over;
  return size * p.txSizeCostPerByte > p.maxTxGas ? null : Number(size);
}

/** A state-sync record signed by the sender, padded with data (and one memo character) to exactly `size` bytes. */
function paddedRecord(env: CraftEnv, id: bigint, size: number): Hex | null {
  const msg = stateSync(env, id, {});
  const bare = sign(env, MsgEventRecordDef, msg);
  if (bare === null) return null;
  // Each data byte is two hex digits of the encoded tx; an odd remainder goes to the memo.
  const extra = size - (bare.length - 2) / 2;
  if (extra < 0) return null;
  const hex = sign(
    env,
    MsgEventRecordDef,
    { ...msg, data: zeros(Math.floor(extra / 2)) },
    { memo: 'm'.repeat(extra % 2) },
  );
  if (hex === null) return null;
  if ((hex.length - 2) / 2 !== size) throw new Error(`paddedRecord: ${(hex.length - 2) / 2} bytes, meant ${size}`);
  return hex;
}

// --- the kinds --------------------------------------------------------------------------------

/** Sign a dust send to itself with `opts` (the ante kinds break one thing of a valid tx). */
const anteKind =
  (opts: SignOpts | ((env: CraftEnv) => SignOpts | null), expect: ByzantineExpect, needsFee = true): Craft =>
  (env) => {
    if (needsFee && !canPay(env)) return null;
    const o = typeof opts === 'function' ? opts(env) : opts;
    if (o === null) return null;
    return one1(sign(env, MsgSendDef, dust(env.me.address, env.me.address), o), expect);
  };

/** A dust send mangled so that decoding refuses it. */
const decodeKind =
  (edit: (tx: Record<string, unknown>, env: CraftEnv) => void): Craft =>
  (env) =>
    one1(
      mangled(env, MsgSendDef, dust(env.me.address, env.me.address), (tx) => edit(tx, env)),
      TX_DECODE,
    );

const msgValue = (tx: Record<string, unknown>) => (tx.msg as { value: Record<string, unknown> }).value;

/** A top-up of the sender's own validator, its message value changed by `edit` after signing: decoding must refuse it. */
const topupDecodeKind =
  (edit: (value: Record<string, unknown>) => void): Craft =>
  (env) => {
    const id = myValidatorId(env);
    if (id === null) return null;
    const topup = { fromAddress: env.me.address, id, txHash: env.fresh(), logIndex: 0n };
    return one1(
      mangled(env, MsgTopupDef, topup, (tx) => edit(msgValue(tx))),
      TX_DECODE,
    );
  };

/** A helper account funded by the sender (a valid send, so it changes the state and goes last). */
function fund(env: CraftEnv, who: MadeUpKey, amount: bigint): Crafted | null {
  if (!canPay(env)) return null;
  const hex = sign(env, MsgSendDef, dust(env.me.address, who.address, amount));
  return hex === null ? null : { txs: [{ hex, expect: null, setup: true }] };
}

const RICH_FUNDS = 5n * ONE_TOKEN;

/** The rich helper, funded first if it cannot pay. */
function withRich(env: CraftEnv, make: () => Crafted | null): Crafted | null {
  if (!canPay(env, 1n, env.rich.address)) return fund(env, env.rich, RICH_FUNDS);
  return make();
}

const CRAFTS = {
  // --- kinds of the first version of this fault (their names are kept) ---
  earlyNoAck: when(CHECKPOINTS, (env) => {
    // Early: within the buffer time of the last acked checkpoint (less a margin).
    const last = getLastCheckpoint(env.state);
    const bufferMs = getCheckpointParams(env.state).checkpointBufferTimeMs;
    if (!last || !canPay(env) || BigInt(env.timeMs) - last.checkpoint.timestamp * 1000n + 10_000n >= bufferMs)
      return null;
    return one1(sign(env, MsgCheckpointNoAckDef, { from: env.me.address }), one(1505));
  }),
  spanOutsideWindow: when(SPANS, (env) => {
    const last = getLastSpan(env.state);
    const head = env.node.views.sidechain.headNumber();
    if (!last || head === null || (last.startBlock <= head && head < last.endBlock) || !canPay(env)) return null;
    const p = getSpanParams(env.state);
    // The next span, right in every field, while the sidechain is outside the window of the last
    // one. Each validator judges the window on its own view of the head: well before the last
    // span's start (two sprints) in the most advanced view any node has, no honest view is inside
    // it and the vote cannot pass; at or past its end some views may still be inside, and the
    // tally is not the sender's to predict. (Its own view is not the bound: swarm seed 678 paused
    // the sender's sidechain node, and the others voted the span through.)
    // (The sender's own view is one of those the best is taken over, so best >= head.)
    const best = env.bestSidechainHead ?? head;
    const early = best + 2n * p.sprintDuration < last.startBlock;
    return one1(
      sign(env, MsgProposeSpanDef, {
        spanId: last.id + 1n,
        proposer: env.me.address,
        startBlock: last.endBlock + 1n,
        endBlock: last.endBlock + p.spanDuration,
        sidechainChainId: getChainParams(env.state).sidechainChainId,
      }),
      early ? SIDE_REFUSED : null,
    );
  }),
  spanOutOfSequence(env) {
    const last = getLastSpan(env.state);
    if (!last || !canPay(env)) return null;
    const p = getSpanParams(env.state);
    // A gap of one sprint after the last span (its length still right).
    const start = last.endBlock + 1n + p.sprintDuration;
    return one1(
      sign(env, MsgProposeSpanDef, {
        spanId: last.id + 1n,
        proposer: env.me.address,
        startBlock: start,
        endBlock: start + p.spanDuration - 1n,
        sidechainChainId: getChainParams(env.state).sidechainChainId,
      }),
      one(3501),
    );
  },
  wrongRootCheckpoint: when(CHECKPOINTS, (env) => {
    if (getBuffer(env.state) || !canPay(env)) return null;
    const c = nextCheckpoint(env);
    const msg = { ...c, rootHash: madeUpHash(`not the root of ${c.startBlock}..${c.endBlock}`) };
    // The proposer's gets through DeliverTx and the validators vote no; anyone else's is refused there.
    return one1(sign(env, MsgCheckpointDef, msg), isCheckpointProposer(env) ? SIDE_REFUSED : INVALID_MSG);
  }),
  wrongRangeCheckpoint: when(CHECKPOINTS, (env) => {
    if (getBuffer(env.state) || !canPay(env)) return null;
    // One block after the next start: discontinuous (1510), or not from 0 before the first (1501).
    const expect = getLastCheckpoint(env.state) ? one(1510) : one(1501);
    return one1(sign(env, MsgCheckpointDef, nextCheckpoint(env, 1n)), expect);
  }),
  replayedTopup(env) {
    const m = env.seen.minted[env.seen.minted.length - 1];
    if (!m || !canPay(env)) return null;
    return one1(sign(env, MsgTopupDef, { ...m, fromAddress: env.me.address }), topup(1401));
  },

  // --- the ante handler ---
  wrongChainId: anteKind((env) => ({ chainId: `${env.node.app.chainId}-other` }), UNAUTHORIZED),
  badSignature(env) {
    if (!canPay(env)) return null;
    const hex = sign(env, MsgSendDef, dust(env.me.address, env.me.address));
    if (hex === null) return null;
    // Flip one bit of the signature's r (the tx's JSON keeps its shape).
    const tx = JSON.parse(new TextDecoder().decode(fromHex(hex))) as { signature: string };
    const s = tx.signature;
    const i = 10;
    tx.signature = `${s.slice(0, i)}${(Number.parseInt(s[i]!, 16) ^ 1).toString(16)}${s.slice(i + 1)}`;
    return one1(toHex(canonicalJsonBytes(tx)), UNAUTHORIZED);
  },
  staleSequence: anteKind((env) => (env.account && env.account.sequence > 0n ? { seqDelta: -1n } : null), UNAUTHORIZED),
  futureSequence: anteKind({ seqDelta: 1n }, UNAUTHORIZED),
  wrongAccountNumber: anteKind({ accountDelta: 1n }, UNAUTHORIZED),
  memoTooLong: anteKind({ memo: 'x'.repeat(257) }, MEMO_TOO_LARGE, false),
  noSignature(env) {
    const hex = mangled(env, MsgSendDef, dust(env.me.address, env.me.address), (tx) => {
      tx.signature = '';
    });
    return one1(hex, NO_SIGNATURES);
  },
  unknownSender(env) {
    if (getAccount(env.state, env.stranger.address)) return null;
    return one1(
      sign(env, MsgSendDef, dust(env.stranger.address, env.me.address), { as: env.stranger }),
      UNKNOWN_ADDRESS,
    );
  },
  feeUnpaid(env) {
    const poor = getAccount(env.state, env.poor.address);
    if (!poor) return fund(env, env.poor, 1n);
    if (canPay(env, 1n, env.poor.address)) return null;
    return one1(sign(env, MsgSendDef, dust(env.poor.address, env.me.address), { as: env.poor }), INSUFFICIENT_FUNDS);
  },
  txSizeOverGas(env) {
    // A state-sync record of 60,000 bytes: 10 gas a byte of tx is over the 1,000,000 a tx may use.
    if (!canPay(env)) return null;
    return one1(
      sign(env, MsgEventRecordDef, stateSync(env, lastRecordId(env) + 1000n, { data: zeros(60_000) })),
      OUT_OF_GAS,
    );
  },
  txAtGasLimit(env) {
    // A state-sync record padded so that its size and signature gas are exactly the 1,000,000 a tx
    // may use (99,900 bytes at 10 gas a byte, plus 1,000 for the signature): the ante takes it
    // (the limit is not exceeded), and the record, which no parent chain emitted, is voted down.
    if (!canPay(env)) return null;
    const size = gasBoundarySize(env, 0n);
    return size === null ? null : one1(paddedRecord(env, lastRecordId(env) + 3000n, size), SIDE_REFUSED);
  },
  txSigGasOverLimit(env) {
    // One byte more: the size gas alone is within the limit, the size and signature gas are over it.
    if (!canPay(env)) return null;
    const size = gasBoundarySize(env, 1n);
    return size === null ? null : one1(paddedRecord(env, lastRecordId(env) + 3000n, size), OUT_OF_GAS);
  },

  // --- the block's limits ---
  blockGasOverLimit(env) {
    // Eleven txs of about 98 KB (981,000 gas each, under a tx's limit): ten fill 9.8 M of the
    // block's 10 M gas, the eleventh does not fit. Valid otherwise: each is delivered (a state-sync
    // record no validator can confirm, voted down later).
    const n = 11;
    if (!canPay(env, BigInt(n))) return null;
    const txs: CraftedTx[] = [];
    const base = lastRecordId(env) + 2000n;
    for (let i = 0; i < n; i++) {
      const hex = sign(env, MsgEventRecordDef, stateSync(env, base + BigInt(i), { data: zeros(48_900) }), {
        seqDelta: BigInt(i),
      });
      if (hex === null) return null;
      txs.push(i === n - 1 ? { hex, expect: OUT_OF_GAS } : { hex, expect: null, setup: true });
    }
    return { txs };
  },
  checkpointAfterTx(env) {
    // A valid send, then a checkpoint: a block holding a checkpoint holds no other transaction.
    if (!canPay(env, 2n)) return null;
    const send = sign(env, MsgSendDef, dust(env.me.address, env.me.address));
    const cp = sign(env, MsgCheckpointDef, nextCheckpoint(env), { seqDelta: 1n });
    if (send === null || cp === null) return null;
    return {
      txs: [
        { hex: send, expect: null, setup: true },
        { hex: cp, expect: OUT_OF_GAS, ifAccepted: 0 },
      ],
    };
  },
  txAfterCheckpoint: when(CHECKPOINTS, (env) => {
    // The checkpoint proposer's own checkpoint (its root as its sidechain view has it), then a valid
    // send: a block holding a checkpoint holds no other transaction. (Also made when the sender's
    // block starts with a checkpoint from its mempool: byzantineTxs.ts.)
    const c = viewedCheckpoint(env);
    if (getBuffer(env.state) || !isCheckpointProposer(env) || !c.viewed || !canPay(env, 2n)) return null;
    const cp = sign(env, MsgCheckpointDef, c.msg);
    const send = sign(env, MsgSendDef, dust(env.me.address, env.me.address), { seqDelta: 1n });
    if (cp === null || send === null) return null;
    return {
      txs: [
        { hex: cp, expect: null, setup: true },
        { hex: send, expect: OUT_OF_GAS, ifAccepted: 0 },
      ],
    };
  }),

  // --- decoding (sdk 2) ---
  badHex: decodeKind((tx) => {
    msgValue(tx).to_address = `0x${'zz'.repeat(20)}`;
  }),
  wrongLength: decodeKind((tx) => {
    msgValue(tx).to_address = `0x${'ab'.repeat(19)}`;
  }),
  uint64OutOfRange: topupDecodeKind((value) => {
    value.log_index = '18446744073709551616';
  }),
  extraKey: decodeKind((tx) => {
    msgValue(tx).note = 'not a field of MsgSend';
  }),
  wrongType: decodeKind((tx) => {
    msgValue(tx).amount = 5;
  }),
  notJson: () => one1(toHex(utf8('this is not a transaction')), TX_DECODE),
  // JSON, but null where an object must be: the whole tx, then the message's value.
  nullTx: () => one1(toHex(utf8('null')), TX_DECODE),
  nullMsgValue: decodeKind((tx) => {
    (tx.msg as { value: unknown }).value = null;
  }),
  // The same denomination twice in one amount (coins must be sorted and unique).
  repeatedDenom: decodeKind((tx) => {
    const coins = msgValue(tx).amount as unknown[];
    msgValue(tx).amount = [coins[0], coins[0]];
  }),
  // A 31-byte tx hash in a top-up (hashes are 32 bytes).
  shortHash: topupDecodeKind((value) => {
    value.tx_hash = `0x${'ab'.repeat(31)}`;
  }),
  unknownMsgType: decodeKind((tx) => {
    (tx.msg as { type: string }).type = 'bank/MsgBurn';
  }),

  // --- a message's own checks (ValidateBasic) ---
  sendNoCoins: (env) =>
    one1(sign(env, MsgSendDef, { fromAddress: env.me.address, toAddress: env.me.address, amount: [] }), INVALID_COINS),
  multiSendMismatch: (env) =>
    one1(
      sign(env, MsgMultiSendDef, {
        inputs: [{ address: env.me.address, coins: [{ denom: FEE_DENOM, amount: 2n }] }],
        outputs: [{ address: env.rich.address, coins: [{ denom: FEE_DENOM, amount: 1n }] }],
      }),
      bank(102),
    ),
  multiSendNoInputs: (env) =>
    one1(
      sign(env, MsgMultiSendDef, {
        inputs: [],
        outputs: [{ address: env.rich.address, coins: [{ denom: FEE_DENOM, amount: 1n }] }],
      }),
      bank(102),
    ),
  multiSendNoOutputs: (env) =>
    one1(
      sign(env, MsgMultiSendDef, {
        inputs: [{ address: env.me.address, coins: [{ denom: FEE_DENOM, amount: 1n }] }],
        outputs: [],
      }),
      bank(102),
    ),
  multiSendTwoSigners: (env) =>
    one1(
      sign(env, MsgMultiSendDef, {
        inputs: [
          { address: env.me.address, coins: [{ denom: FEE_DENOM, amount: 1n }] },
          { address: env.rich.address, coins: [{ denom: FEE_DENOM, amount: 1n }] },
        ],
        outputs: [{ address: env.me.address, coins: [{ denom: FEE_DENOM, amount: 2n }] }],
      }),
      UNAUTHORIZED,
    ),
  checkpointZeroRoot: (env) =>
    one1(sign(env, MsgCheckpointDef, { ...nextCheckpoint(env), rootHash: zeros(32) }), INVALID_MSG),
  checkpointZeroProposer: (env) =>
    one1(sign(env, MsgCheckpointDef, { ...nextCheckpoint(env), proposer: ZERO_ADDRESS }), INVALID_MSG),
  checkpointBadRange(env) {
    const c = nextCheckpoint(env);
    return one1(sign(env, MsgCheckpointDef, { ...c, endBlock: c.startBlock }), INVALID_MSG);
  },
  stateSyncTooBig: (env) =>
    // 100,001 bytes of data: over the 100,000 a state-sync record may carry (5403).
    one1(sign(env, MsgEventRecordDef, stateSync(env, lastRecordId(env) + 1000n, { data: zeros(100_001) })), one(5403)),

  // --- bank ---
  sendOverBalance: when(BALANCES, (env) => {
    if (!canPay(env)) return null;
    // Its whole balance: after the fee it has less than that.
    const all = balanceOf(env.state, env.me.address, FEE_DENOM);
    return one1(sign(env, MsgSendDef, dust(env.me.address, env.rich.address, all)), INSUFFICIENT_COINS);
  }),
  multiSendOverBalance: when(BALANCES, (env) => {
    if (!canPay(env)) return null;
    const all = balanceOf(env.state, env.me.address, FEE_DENOM);
    return one1(
      sign(env, MsgMultiSendDef, {
        inputs: [{ address: env.me.address, coins: [{ denom: FEE_DENOM, amount: all }] }],
        outputs: [{ address: env.rich.address, coins: [{ denom: FEE_DENOM, amount: all }] }],
      }),
      INSUFFICIENT_COINS,
    );
  }),

  // --- top-ups and fee withdrawals ---
  topupNoEvent(env) {
    const id = myValidatorId(env);
    if (id === null || !canPay(env)) return null;
    return one1(
      sign(env, MsgTopupDef, { fromAddress: env.me.address, id, txHash: env.fresh(), logIndex: 0n }),
      SIDE_REFUSED,
    );
  },
  withdrawNotValidator: (env) =>
    withRich(env, () =>
      one1(sign(env, MsgWithdrawFeeDef, { fromAddress: env.rich.address, amount: 1n }, { as: env.rich }), one(2501)),
    ),
  withdrawOverBalance: when(BALANCES, (env) => {
    if (myValidatorId(env) === null || !canPay(env)) return null;
    const all = balanceOf(env.state, env.me.address, FEE_DENOM);
    return one1(sign(env, MsgWithdrawFeeDef, { fromAddress: env.me.address, amount: all }), INSUFFICIENT_COINS);
  }),
  withdrawNothing: when(BALANCES, (env) => {
    // Withdraw all but two fees (valid), then "the whole balance" with nothing left after the fee
    // (104). The block's fees go to its proposer, the sender: it can pay again afterwards.
    const f = fee(env);
    const all = balanceOf(env.state, env.me.address, FEE_DENOM);
    if (myValidatorId(env) === null || all <= 3n * f) return null;
    const first = sign(env, MsgWithdrawFeeDef, { fromAddress: env.me.address, amount: all - 2n * f });
    const second = sign(env, MsgWithdrawFeeDef, { fromAddress: env.me.address, amount: 0n }, { seqDelta: 1n });
    if (first === null || second === null) return null;
    return {
      txs: [
        { hex: first, expect: null, setup: true },
        { hex: second, expect: topup(104), ifAccepted: 0 },
      ],
    };
  }),

  // --- staking ---
  joinExistingId(env) {
    const id = myValidatorId(env);
    if (id === null || !canPay(env)) return null;
    return one1(sign(env, MsgValidatorJoinDef, { ...eventRef(env, id), pubKey: env.stranger.pubKey }), one(2507));
  },
  joinExistingSigner: when(SIGNERS, (env) => {
    const other = allValidators(env.state).find((v) => v.signer !== env.me.address);
    if (!other || !canPay(env)) return null;
    return one1(sign(env, MsgValidatorJoinDef, { ...eventRef(env, unknownId(env)), pubKey: other.pubKey }), one(2507));
  }),
  joinNoEvent: (env) =>
    canPay(env)
      ? one1(
          sign(env, MsgValidatorJoinDef, { ...eventRef(env, unknownId(env)), pubKey: env.stranger.pubKey }),
          SIDE_REFUSED,
        )
      : null,
  joinReplayed(env) {
    const ref = env.seen.staking[env.seen.staking.length - 1];
    if (!ref || !canPay(env)) return null;
    return one1(
      sign(env, MsgValidatorJoinDef, { ...eventRef(env, unknownId(env), ref), pubKey: env.stranger.pubKey }),
      one(1401),
    );
  },
  stakeUpdateUnknown: (env) =>
    canPay(env) ? one1(sign(env, MsgStakeUpdateDef, eventRef(env, unknownId(env))), one(2501)) : null,
  stakeUpdateNoEvent(env) {
    const id = myValidatorId(env);
    return id === null || !canPay(env) ? null : one1(sign(env, MsgStakeUpdateDef, eventRef(env, id)), SIDE_REFUSED);
  },
  stakeUpdateReplayed(env) {
    const id = myValidatorId(env);
    const ref = env.seen.staking[env.seen.staking.length - 1];
    if (id === null || !ref || !canPay(env)) return null;
    return one1(sign(env, MsgStakeUpdateDef, eventRef(env, id, ref)), one(1401));
  },
  exitUnknown: (env) =>
    canPay(env) ? one1(sign(env, MsgValidatorExitDef, eventRef(env, unknownId(env))), one(2501)) : null,
  exitExited(env) {
    const gone = allValidators(env.state).find((v) => v.endEpoch !== 0n);
    if (!gone || !canPay(env)) return null;
    return one1(sign(env, MsgValidatorExitDef, eventRef(env, gone.id)), one(2504));
  },
  exitNoEvent: when(EXITS, (env) => {
    const v = allValidators(env.state).find((x) => x.endEpoch === 0n);
    if (!v || !canPay(env)) return null;
    return one1(sign(env, MsgValidatorExitDef, eventRef(env, v.id)), SIDE_REFUSED);
  }),
  signerUpdateUnknown: (env) =>
    canPay(env)
      ? one1(
          sign(env, MsgSignerUpdateDef, { ...eventRef(env, unknownId(env)), pubKey: env.stranger.pubKey }),
          one(2501),
        )
      : null,
  signerUpdateSame: when(SIGNERS, (env) => {
    const id = myValidatorId(env);
    const v = id === null ? undefined : getValidator(env.state, id);
    if (!v || !canPay(env)) return null;
    return one1(sign(env, MsgSignerUpdateDef, { ...eventRef(env, v.id), pubKey: v.pubKey }), one(2513));
  }),
  signerUpdateNoEvent(env) {
    const id = myValidatorId(env);
    if (id === null || !canPay(env)) return null;
    return one1(sign(env, MsgSignerUpdateDef, { ...eventRef(env, id), pubKey: env.stranger.pubKey }), SIDE_REFUSED);
  },
  signerUpdateReplayed(env) {
    const id = myValidatorId(env);
    const ref = env.seen.staking[env.seen.staking.length - 1];
    if (id === null || !ref || !canPay(env)) return null;
    return one1(sign(env, MsgSignerUpdateDef, { ...eventRef(env, id, ref), pubKey: env.stranger.pubKey }), one(1401));
  },

  // --- checkpoints, acks and no-acks ---
  checkpointWhileBuffered: when(CHECKPOINTS, (env) => {
    if (!liveBuffer(env) || !canPay(env)) return null;
    return one1(sign(env, MsgCheckpointDef, nextCheckpoint(env)), one(1503));
  }),
  checkpointOld: when(CHECKPOINTS, (env) => {
    const last = getLastCheckpoint(env.state);
    if (!last || getBuffer(env.state) || !canPay(env)) return null;
    // Starts inside the last acked range: already received (1509).
    const c = nextCheckpoint(env);
    const start = last.checkpoint.startBlock;
    return one1(sign(env, MsgCheckpointDef, { ...c, startBlock: start, endBlock: c.endBlock }), one(1509));
  }),
  checkpointWrongAccountRoot: when(CHECKPOINTS, (env) => {
    if (getBuffer(env.state) || !canPay(env)) return null;
    return one1(
      sign(env, MsgCheckpointDef, { ...nextCheckpoint(env), accountRootHash: madeUpHash('not the account root') }),
      one(1501),
    );
  }),
  checkpointInvalidProposer: when(CHECKPOINTS, (env) => {
    if (getBuffer(env.state) || isCheckpointProposer(env) || !canPay(env)) return null;
    return one1(sign(env, MsgCheckpointDef, nextCheckpoint(env)), INVALID_MSG);
  }),
  ackWithoutBuffer: when(CHECKPOINTS, (env) => {
    if (getBuffer(env.state) || !canPay(env)) return null;
    const last = getLastCheckpoint(env.state);
    return one1(
      sign(env, MsgCheckpointAckDef, {
        from: env.me.address,
        headerBlock: last?.number ?? 1n,
        txHash: env.fresh(),
        logIndex: 0n,
      }),
      one(1502),
    );
  }),
  ackMismatch: when(CHECKPOINTS, (env) => {
    // An ack of a header block that is not the buffered checkpoint (the last acked one, or none):
    // DeliverTx takes it, the validators compare it with the parent chain and vote it down.
    if (!liveBuffer(env) || !canPay(env)) return null;
    const last = getLastCheckpoint(env.state);
    return one1(
      sign(env, MsgCheckpointAckDef, {
        from: env.me.address,
        headerBlock: last?.number ?? 999_999n,
        txHash: env.fresh(),
        logIndex: 0n,
      }),
      SIDE_REFUSED,
    );
  }),
  noAckOutsider: (env) =>
    // From an account outside the validator set: early (1505) or not among the next proposers (1505).
    withRich(env, () =>
      one1(sign(env, MsgCheckpointNoAckDef, { from: env.rich.address }, { as: env.rich }), one(1505)),
    ),

  noAckTooMany: when(CHECKPOINTS, (env) => {
    // A no-ack from one of the next proposers, on time, but within the buffer time of the last
    // no-ack (1506). Whether the sender is one of the next `count` proposers is read off the stored
    // set's own rotation (count = whole buffer times since the last checkpoint), at the block's time.
    const bufferMs = getCheckpointParams(env.state).checkpointBufferTimeMs;
    const now = BigInt(env.timeMs);
    const lastMs = (getLastCheckpoint(env.state)?.checkpoint.timestamp ?? 0n) * 1000n;
    const lastNoAckMs = getLastNoAck(env.state) * 1000n;
    if (now - lastMs < bufferMs || lastNoAckMs === 0n || now - lastNoAckMs >= bufferMs || !canPay(env)) return null;
    const set = getValidatorSet(env.state).copy();
    let allowed = false;
    for (let i = 0n; i < (now - lastMs) / bufferMs && !allowed; i++) {
      set.incrementProposerPriority(1);
      allowed = set.proposer?.address === env.me.address;
    }
    if (!allowed) return null;
    return one1(sign(env, MsgCheckpointNoAckDef, { from: env.me.address }), one(1506));
  }),

  // --- spans ---
  spanWrongChainId(env) {
    const last = getLastSpan(env.state);
    if (!last || !canPay(env)) return null;
    const p = getSpanParams(env.state);
    return one1(
      sign(env, MsgProposeSpanDef, {
        spanId: last.id + 1n,
        proposer: env.me.address,
        startBlock: last.endBlock + 1n,
        endBlock: last.endBlock + p.spanDuration,
        sidechainChainId: `${getChainParams(env.state).sidechainChainId}9`,
      }),
      one(3506),
    );
  },
  spanWrongDuration: when(SPANS, (env) => {
    const last = getLastSpan(env.state);
    if (!last || !canPay(env)) return null;
    const p = getSpanParams(env.state);
    return one1(
      sign(env, MsgProposeSpanDef, {
        spanId: last.id + 1n,
        proposer: env.me.address,
        startBlock: last.endBlock + 1n,
        endBlock: last.endBlock + p.spanDuration + 1n,
        sidechainChainId: getChainParams(env.state).sidechainChainId,
      }),
      one(3507),
    );
  }),

  // --- state sync records ---
  stateSyncDuplicateId(env) {
    const id = lastRecordId(env);
    if (id === 0n || !canPay(env)) return null;
    return one1(sign(env, MsgEventRecordDef, stateSync(env, id, {})), one(5400));
  },
  stateSyncWrongChainId: (env) =>
    canPay(env)
      ? one1(
          sign(env, MsgEventRecordDef, stateSync(env, lastRecordId(env) + 1000n, { sidechainChainId: '999' })),
          one(3506),
        )
      : null,
  stateSyncReplayed(env) {
    const rec = allRecords(env.state)[0];
    if (!rec || !canPay(env)) return null;
    return one1(
      sign(
        env,
        MsgEventRecordDef,
        stateSync(env, lastRecordId(env) + 1000n, { txHash: rec.txHash, logIndex: rec.logIndex }),
      ),
      one(1401),
    );
  },
  stateSyncWrongContract(env) {
    // A relay of a real StateSynced event delivered in the block before this one (its post handler
    // records it only after this block), sent again with every field right but the contract:
    // honest validators find the event and vote the copy down (the record must match the event).
    // Read from the state's pending side txs, so no relay of the same id may be recorded first: a
    // relay of it delivered earlier would be, and DeliverTx would refuse the copy then.
    if (env.height === null || !canPay(env)) return null;
    const h = env.height;
    const pending = pendingSideTxs(env.state)
      .map(([, p]) => p)
      .filter((p) => p.msgType === MsgEventRecordDef.type);
    const msgOf = (p: (typeof pending)[number]) => MsgEventRecordDef.decode(p.msgValue);
    const earlier = new Set(pending.filter((p) => p.height < h - 1n).map((p) => msgOf(p).id));
    const r = pending
      .filter((p) => p.height === h - 1n)
      .map(msgOf)
      .find((m) => !earlier.has(m.id) && getRecord(env.state, m.id) === undefined && relaysRealEvent(env.node, m));
    if (!r) return null;
    const contract = (r.contractAddress.toLowerCase() === OTHER_CONTRACT ? ZERO_CONTRACT : OTHER_CONTRACT) as Address;
    return one1(sign(env, MsgEventRecordDef, { ...r, from: env.me.address, contractAddress: contract }), SIDE_REFUSED);
  },
  stateSyncNoEvent: (env) =>
    canPay(env)
      ? one1(sign(env, MsgEventRecordDef, stateSync(env, lastRecordId(env) + 1000n, {})), SIDE_REFUSED)
      : null,
} satisfies Record<string, Craft>;

export type ByzantineTx = keyof typeof CRAFTS;

/**
 * The kinds, in the order a sender takes them in turn. The first six are the fault's first
 * version (a swarm profile draws them first, so earlier seeds keep their draws).
 */
export const BYZANTINE_TXS = Object.keys(CRAFTS) as ByzantineTx[];

/** The kinds the first version of the fault knew (drawn as they were; the others come from a stream of their own). */
export const FIRST_BYZANTINE_TXS: readonly ByzantineTx[] = BYZANTINE_TXS.slice(0, 6);

export function craft(kind: ByzantineTx, env: CraftEnv): Crafted | null {
  return (CRAFTS[kind] as Craft)(env);
}

/**
 * What the sender appends after a checkpoint its block starts with: a valid send, refused (12) as
 * the checkpoint was accepted. `seqDelta` is 1 when the checkpoint is the sender's own.
 */
export function craftAfterCheckpoint(env: CraftEnv, seqDelta: bigint): CraftedTx | null {
  if (!canPay(env, 1n + seqDelta)) return null;
  const hex = sign(env, MsgSendDef, dust(env.me.address, env.me.address), { seqDelta });
  return hex === null ? null : { hex, expect: OUT_OF_GAS, ifAccepted: 0 };
}
