/**
 * The vocabulary every module's Byzantine crafts share (the `byzantineTxs` fault): what a craft
 * makes and what it works from, the reference's answers, the side messages a craft waits out,
 * signing, and the parts of the service's state more than one module's crafts read.
 *
 * The expected codes are literal reference values, written here from the reference, not computed
 * by the service's code: a handler that wrongly accepts (or refuses with another code) shows as a
 * mismatch (sim/oracles/byzantineRefused.ts). A craft returns null when its rule cannot be broken
 * unambiguously on the state at hand (no checkpoint yet, no exited validator, too poor to pay).
 */
import { type Address } from '../../../src/core/address';
import { type Hex, toHex, utf8 } from '../../../src/core/bytes';
import { canonicalJsonBytes } from '../../../src/core/canonicalJson';
import { keccak256Bytes } from '../../../src/core/hash';
import { ONE_TOKEN } from '../../../src/core/amount';
import { type SignatureScheme } from '../../../src/core/signatureScheme';
import { type KVReader } from '../../../src/store/kvStore';
import { type MsgDef } from '../../../src/modules/framework/msgDef';
import { encodeTx, signTx, txJson } from '../../../src/modules/auth/stdTx';
import { getAccount, balanceOf } from '../../../src/modules/auth/keeper';
import { FEE_DENOM } from '../../../src/modules/auth/params';
import { getAuthParams } from '../../../src/modules/auth/keeper';
import { MsgSendDef } from '../../../src/modules/bank/msgs';
import { type MsgTopup } from '../../../src/modules/topup/msgs';
import { allValidators, getValidatorSet } from '../../../src/modules/staking/keeper';
import { getLastCheckpoint } from '../../../src/modules/checkpoint/keeper';
import { getChainParams } from '../../../src/modules/chain/keeper';
import { allRecords } from '../../../src/modules/clerk/keeper';
import { dividendAccountRoot } from '../../../src/modules/topup/accountRoot';
import { type ServiceNodeShell } from '../../../src/node/service/config';

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

/** One kind: the txs that break its rule on the state at hand, or null when it cannot be made. */
export type Craft = (env: CraftEnv) => Crafted | null;

// The side messages whose post handlers change what a craft's answer depends on. A checkpoint's
// account root covers every validator's dividend account: a join adds one.
export const CHECKPOINTS = ['checkpoint/MsgCheckpoint', 'checkpoint/MsgCheckpointACK', 'staking/MsgValidatorJoin'];
export const SPANS = ['sidechain/MsgProposeSpan'];
/** A top-up pays its relayer, a signer change moves the old signer's balance. */
export const BALANCES = ['topup/MsgTopup', 'staking/MsgSignerUpdate'];
export const SIGNERS = ['staking/MsgSignerUpdate'];
export const EXITS = ['staking/MsgValidatorExit'];

/** Whether none of these side messages is posted at the start of the delivering block. */
function settled(env: CraftEnv, types: readonly string[]): boolean {
  return !types.some((t) => env.due.has(t));
}

/** A craft made only when the state it reads is settled for the block. */
export const when =
  (types: readonly string[], c: Craft): Craft =>
  (env) =>
    settled(env, types) ? c(env) : null;

// --- the reference's answers ---------------------------------------------------------------

const sdk = (code: number): ByzantineExpect => ({ stage: 'deliver', codespace: 'sdk', codes: [code] });
export const one = (...codes: number[]): ByzantineExpect => ({ stage: 'deliver', codespace: '1', codes });
export const bank = (code: number): ByzantineExpect => ({ stage: 'deliver', codespace: 'bank', codes: [code] });
export const topup = (code: number): ByzantineExpect => ({ stage: 'deliver', codespace: 'topup', codes: [code] });
/** The validators do not vote it through: 5502 "External call majority validation failed". */
export const SIDE_REFUSED: ByzantineExpect = { stage: 'side', codespace: '1', codes: [5502] };

export const UNAUTHORIZED = sdk(4);
export const INSUFFICIENT_FUNDS = sdk(5);
export const UNKNOWN_ADDRESS = sdk(9);
export const INSUFFICIENT_COINS = sdk(10);
export const INVALID_COINS = sdk(11);
export const OUT_OF_GAS = sdk(12);
export const MEMO_TOO_LARGE = sdk(13);
export const NO_SIGNATURES = sdk(17);
export const TX_DECODE = sdk(2);
export const INVALID_MSG = one(1400);

// --- signing ---------------------------------------------------------------------------------

export interface SignOpts {
  /** Added to the account's sequence / account number. */
  seqDelta?: bigint;
  accountDelta?: bigint;
  chainId?: string;
  memo?: string;
  /** Sign as another key (a helper); its committed account is used. */
  as?: MadeUpKey;
}

/** The encoded tx of `msg` signed by the sender (or `opts.as`), or null when the signer has no account. */
export function sign<M>(env: CraftEnv, def: MsgDef<M>, msg: M, opts: SignOpts = {}): Hex | null {
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
export function mangled<M>(
  env: CraftEnv,
  def: MsgDef<M>,
  msg: M,
  edit: (tx: Record<string, unknown>) => void,
): Hex | null {
  const tx = signed(env, def, msg);
  if (tx === null) return null;
  const json = JSON.parse(JSON.stringify(txJson(tx), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
  edit(json as Record<string, unknown>);
  return toHex(canonicalJsonBytes(json));
}

/** One tx with its expectation (nothing when it could not be signed). */
export function one1(hex: Hex | null, expect: ByzantineExpect | null): Crafted | null {
  return hex === null ? null : { txs: [{ hex, expect }] };
}

export function fee(env: CraftEnv): bigint {
  return getAuthParams(env.state).txFees;
}

/** The sender can pay the fee of `n` txs (a rejection after the fee check needs it). */
export function canPay(env: CraftEnv, n = 1n, who: Address = env.me.address): boolean {
  return balanceOf(env.state, who, FEE_DENOM) >= fee(env) * n;
}

export const dust = (from: Address, to: Address, amount = 1n) => ({
  fromAddress: from,
  toAddress: to,
  amount: [{ denom: FEE_DENOM, amount }],
});

export function madeUpHash(text: string): Hex {
  return toHex(keccak256Bytes(utf8(text)));
}

/** Hex data of `bytes` zero bytes. */
export function zeros(bytes: number): Hex {
  return `0x${'00'.repeat(bytes)}` as Hex;
}

/** A helper account funded by the sender (a valid send, so it changes the state and goes last). */
export function fund(env: CraftEnv, who: MadeUpKey, amount: bigint): Crafted | null {
  if (!canPay(env)) return null;
  const hex = sign(env, MsgSendDef, dust(env.me.address, who.address, amount));
  return hex === null ? null : { txs: [{ hex, expect: null, setup: true }] };
}

const RICH_FUNDS = 5n * ONE_TOKEN;

/** The rich helper, funded first if it cannot pay. */
export function withRich(env: CraftEnv, make: () => Crafted | null): Crafted | null {
  if (!canPay(env, 1n, env.rich.address)) return fund(env, env.rich, RICH_FUNDS);
  return make();
}

// --- the parts of the service's state more than one module's crafts read --------------------

export function myValidatorId(env: CraftEnv): bigint | null {
  for (const v of allValidators(env.state)) if (v.signer === env.me.address) return v.id;
  return null;
}

/**
 * The next checkpoint's range (from the last acked one), its root on the sender's view (made up
 * when the view does not reach its end: `viewed` false) and the account root.
 */
export function viewedCheckpoint(env: CraftEnv, gap = 0n) {
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

export function nextCheckpoint(env: CraftEnv, gap = 0n) {
  return viewedCheckpoint(env, gap).msg;
}

export function isCheckpointProposer(env: CraftEnv): boolean {
  return getValidatorSet(env.state).proposer?.address === env.me.address;
}

/** A state-sync record from the sender, with `over` in place of the defaults (a fresh tx hash, no data, this chain). */
export function stateSync(
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

export function lastRecordId(env: CraftEnv): bigint {
  let max = 0n;
  for (const r of allRecords(env.state)) if (r.id > max) max = r.id;
  return max;
}
