/**
 * The transaction envelope (StdTx) and its signing document (StdSignDoc).
 *
 * StdTx: `{"msg":{"type":…,"value":…},"signature":"0x…","memo":"…"}` (one message, one signature).
 * Sign bytes: canonical JSON of `{account_number, chain_id, memo, msg, sequence}` (keys sorted,
 * integers as decimal strings), hashed with keccak256 and signed as a 65-byte `r ‖ s ‖ v`.
 * On the wire a tx is the UTF-8 canonical JSON of the StdTx; its hash is sha256 of those bytes.
 */
import { boundedMemo, weakMemo } from '../../core/memo';
import { canonicalJson, canonicalJsonBytes } from '../../core/canonicalJson';
import { type Hex, toHex, fromHex, utf8 } from '../../core/bytes';
import { keccak256Bytes, sha256Bytes } from '../../core/hash';
import { signDigestBytes } from '../../core/secp256k1';
import { type SignatureScheme } from '../../core/signatureScheme';
import { InputError } from '../../core/errors';
import { type MsgDef } from '../framework/msgDef';
import { asObject, str } from '../framework/decode';

export interface StdTx<M = unknown> {
  def: MsgDef<M>;
  msg: M;
  signature: Hex;
  memo: string;
}

export interface SignDocFields {
  chainId: string;
  accountNumber: bigint;
  sequence: bigint;
  memo: string;
}

export function msgJson<M>(def: MsgDef<M>, msg: M): { type: string; value: Record<string, unknown> } {
  return { type: def.type, value: def.encode(msg) };
}

export function signDigestOf<M>(def: MsgDef<M>, msg: M, doc: SignDocFields): Uint8Array {
  // Every node checks every tx (CheckTx, re-checks, DeliverTx): the digests of recent sign
  // documents are remembered per process by their canonical JSON.
  const text = canonicalJson({
    account_number: doc.accountNumber,
    chain_id: doc.chainId,
    memo: doc.memo,
    msg: msgJson(def, msg),
    sequence: doc.sequence,
  });
  return signDigests.getOrCompute(text, () => keccak256Bytes(utf8(text))).slice();
}

/**
 * `signDigestOf` for a decoded transaction's message: one shared read-only object that every node
 * checks several times (src/app/decodedTx.ts). The message's last sign document (chain, account,
 * sequence, memo) and its digest are kept on the message object, so a check of the same document
 * again writes no JSON. Only for messages nobody changes after they are made: a client's own
 * message object goes through `signDigestOf`.
 */
export function decodedSignDigestOf(def: MsgDef<unknown>, msg: unknown, doc: SignDocFields): Uint8Array {
  if (typeof msg !== 'object' || msg === null) return signDigestOf(def, msg, doc);
  const docKey = `${doc.chainId}\u0000${doc.accountNumber}\u0000${doc.sequence}\u0000${doc.memo}`;
  const last = lastSignDigests.get(msg);
  if (last !== undefined && last.def === def && last.doc === docKey) return last.digest.slice();
  const digest = signDigestOf(def, msg, doc);
  lastSignDigests.set(msg, { def, doc: docKey, digest: digest.slice() });
  return digest;
}

/** Sign digests by sign-doc text: every node checks the same transactions. */
const signDigests = boundedMemo<string, Uint8Array>('stdTx.signDigests', 4096);
/** A decoded message's last sign document and its digest, by the message object. */
const lastSignDigests = weakMemo<object, { def: MsgDef<unknown>; doc: string; digest: Uint8Array }>(
  'stdTx.lastSignDigests',
);

/** Build and sign a tx (for clients, tests, the bridge and the workload generator). */
export function signTx<M>(
  def: MsgDef<M>,
  msg: M,
  doc: SignDocFields,
  privateKey: Uint8Array | string,
  scheme?: SignatureScheme,
): StdTx<M> {
  const digest = signDigestOf(def, msg, doc);
  return {
    def,
    msg,
    memo: doc.memo,
    signature: toHex(scheme ? scheme.sign(digest, privateKey) : signDigestBytes(digest, privateKey)),
  };
}

export function txJson(tx: StdTx): { msg: unknown; signature: string; memo: string } {
  return { msg: msgJson(tx.def, tx.msg), signature: tx.signature, memo: tx.memo };
}

export function encodeTx(tx: StdTx): Uint8Array {
  return canonicalJsonBytes(txJson(tx));
}

export function txHash(txBytes: Uint8Array): Hex {
  return toHex(sha256Bytes(txBytes));
}

/**
 * Parse tx bytes (or an already-parsed JSON value) into a StdTx with a decoded message.
 * Every failure is an InputError naming the field (the app turns it into sdk code 2).
 */
export function decodeTx(input: Uint8Array | unknown, registry: ReadonlyMap<string, MsgDef>): StdTx {
  let value: unknown = input;
  if (input instanceof Uint8Array) {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      throw new InputError('tx', 'not UTF-8');
    }
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new InputError('tx', `not JSON: ${(e as Error).message}`);
    }
  }
  const o = asObject(value, 'tx');
  for (const k of Object.keys(o))
    if (!['msg', 'signature', 'memo'].includes(k)) throw new InputError(`tx.${k}`, 'unknown field');
  const msgObj = asObject(o.msg, 'tx.msg');
  const type = str(msgObj, 'type', 'tx.msg');
  const def = registry.get(type);
  if (def === undefined) throw new InputError('tx.msg.type', `unknown message type ${JSON.stringify(type)}`);
  const msg = def.decode(asObject(msgObj.value, 'tx.msg.value'));
  const signature =
    o.signature === undefined || o.signature === ''
      ? ('0x' as Hex)
      : (toHex(fromHex(str(o, 'signature', 'tx'), 'tx.signature')) as Hex);
  const memo = o.memo === undefined ? '' : str(o, 'memo', 'tx');
  return { def, msg, signature, memo };
}

export { canonicalJson, utf8 };
