/**
 * Byzantine crafts for the ante handler (heimdall.md §6.2-§6.3, README item 24; codespace `sdk`):
 * a valid tx with one thing broken (the chain id, the signature, the sequence, the account number,
 * the memo, the signer, the fee), and txs whose size gas is just under, at or over a tx's limit.
 * The ante handler judges every message alike: these use a dust send, or a state-sync record
 * when the tx must be large.
 */
import { type Hex, fromHex, toHex } from '../../../src/core/bytes';
import { canonicalJsonBytes } from '../../../src/core/canonicalJson';
import { getAccount } from '../../../src/modules/auth/keeper';
import { getAuthParams } from '../../../src/modules/auth/keeper';
import { MsgSendDef } from '../../../src/modules/bank/msgs';
import { MsgEventRecordDef } from '../../../src/modules/clerk/msgs';
import {
  type ByzantineExpect,
  type Craft,
  type CraftEnv,
  INSUFFICIENT_FUNDS,
  MEMO_TOO_LARGE,
  NO_SIGNATURES,
  OUT_OF_GAS,
  SIDE_REFUSED,
  type SignOpts,
  UNAUTHORIZED,
  UNKNOWN_ADDRESS,
  canPay,
  dust,
  fund,
  lastRecordId,
  mangled,
  one1,
  sign,
  stateSync,
  zeros,
} from './craftKit';

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

/** Sign a dust send to itself with `opts` (the ante kinds break one thing of a valid tx). */
const anteKind =
  (opts: SignOpts | ((env: CraftEnv) => SignOpts | null), expect: ByzantineExpect, needsFee = true): Craft =>
  (env) => {
    if (needsFee && !canPay(env)) return null;
    const o = typeof opts === 'function' ? opts(env) : opts;
    if (o === null) return null;
    return one1(sign(env, MsgSendDef, dust(env.me.address, env.me.address), o), expect);
  };

export const ANTE_CRAFTS = {
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
} satisfies Record<string, Craft>;
