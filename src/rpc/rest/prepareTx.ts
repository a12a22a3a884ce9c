/**
 * The transaction-preparing endpoints (heimdall.md §3.8 and §5): `POST /checkpoint/new`,
 * `/checkpoint/ack`, `/checkpoint/no-ack`, `/topup/fee` and `/topup/withdraw` build an UNSIGNED
 * StdTx from a request body and return it; they never broadcast. The client signs it and submits
 * it with `POST /txs`.
 *
 * Bodies are the reference's, adapted to this service's message fields (reference README items 8,
 * 10, 20): the prepared message always uses the spec's names, because that is what the chain signs.
 * - new:      `{base_req, proposer, start_block, end_block, root_Hash, account_root_hash}` (the
 *             reference's `bor_chain_id` is dropped; `root_Hash` keeps the reference's capital H,
 *             and `root_hash` is accepted too since every other member is snake_case)
 * - ack:      `{base_req, from, header_block, tx_hash, log_index}` (the reference's start/end block,
 *             proposer and root hash are not part of this service's ack, item 10)
 * - no-ack:   `{base_req, proposer}` (becomes the message's `from`)
 * - fee:      `{base_req, id, tx_hash, log_index}`; `from_address` is `base_req.from` (item 20: the
 *             validator id replaces the reference's user, fee and block number)
 * - withdraw: `{base_req, amount}`; an empty or missing amount is 0, "withdraw everything"
 * Like the reference (Go JSON decoding), members the body does not need are ignored.
 */
import { abciLog } from '../../core/errors';
import { canonicalJson } from '../../core/canonicalJson';
import { type MsgDef } from '../../modules/framework/msgDef';
import { msgJson } from '../../modules/auth/stdTx';
import { asObject, type Obj } from '../../modules/framework/decode';
import { MSG_DEFS } from '../../app/registry';
import { type BaseReq, parseBaseReq } from './baseReq';
import { RestError, decodeOrThrow } from './restError';

const P = 'body';

export type Preparer = (body: Obj, base: BaseReq) => { def: MsgDef; msg: unknown };

/** The preparing routes, by path: every message whose definition names one (MsgDef.prepare). */
export const PREPARE_ROUTES: ReadonlyMap<string, Preparer> = new Map(
  MSG_DEFS.flatMap((def): Array<[string, Preparer]> => {
    const route = def.prepare;
    return route ? [[route.path, (b, base) => ({ def, msg: route.fromBody(b, base.from) })]] : [];
  }),
);

/** The reference's generate-only answer (not height-wrapped); the message JSON is the signed form. */
export function unsignedStdTx(def: MsgDef, msg: unknown, memo: string) {
  // Round-trip through canonical JSON: integers become the decimal strings the sign bytes hold, so
  // a client that signs this message as given signs exactly what the chain will verify.
  const msgValue = JSON.parse(canonicalJson(msgJson(def, msg))) as unknown;
  return { type: 'auth/StdTx', value: { msg: msgValue, signature: '', memo } };
}

/** Body → unsigned StdTx for one preparing route; throws RestError with the reference's statuses. */
export function prepareTx(preparer: Preparer, body: unknown) {
  if (body === undefined) throw new RestError(400, 'failed to decode JSON payload: empty body');
  const o = decodeOrThrow(() => asObject(body, P));
  const base = parseBaseReq(o);
  const { def, msg } = decodeOrThrow(() => preparer(o, base));
  // The chain would reject a message failing its stateless checks; say so now, not after signing.
  const invalid = def.validateBasic?.(msg);
  if (invalid) throw new RestError(400, abciLog(invalid));
  return unsignedStdTx(def, msg, base.memo);
}
