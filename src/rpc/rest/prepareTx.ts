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
import { abciLog, InputError } from '../../core/errors';
import { canonicalJson } from '../../core/canonicalJson';
import { type MsgDef } from '../../modules/framework/msgDef';
import { msgJson } from '../../modules/auth/stdTx';
import { addr, asObject, hexN, uint256, uint64, type Obj } from '../../modules/framework/decode';
import { MsgCheckpointDef, MsgCheckpointAckDef, MsgCheckpointNoAckDef } from '../../modules/checkpoint/msgs';
import { MsgTopupDef, MsgWithdrawFeeDef } from '../../modules/topup/msgs';
import { type BaseReq, parseBaseReq } from './baseReq';
import { RestError, decodeOrThrow } from './restError';

const P = 'body';

interface Prepared {
  def: MsgDef;
  msg: unknown;
}

export type Preparer = (body: Obj, base: BaseReq) => Prepared;

function rootHash(body: Obj) {
  if (body.root_Hash !== undefined && body.root_hash !== undefined)
    throw new InputError(`${P}.root_Hash`, 'give root_Hash or root_hash, not both');
  return hexN(body, body.root_hash !== undefined ? 'root_hash' : 'root_Hash', P, 32);
}

const prepared = <M>(def: MsgDef<M>, msg: M): Prepared => ({ def, msg });

/** The preparing routes, by path. */
export const PREPARE_ROUTES: ReadonlyMap<string, Preparer> = new Map<string, Preparer>([
  [
    '/checkpoint/new',
    (b) =>
      prepared(MsgCheckpointDef, {
        proposer: addr(b, 'proposer', P),
        startBlock: uint64(b, 'start_block', P),
        endBlock: uint64(b, 'end_block', P),
        rootHash: rootHash(b),
        accountRootHash: hexN(b, 'account_root_hash', P, 32),
      }),
  ],
  [
    '/checkpoint/ack',
    (b) =>
      prepared(MsgCheckpointAckDef, {
        from: addr(b, 'from', P),
        headerBlock: uint64(b, 'header_block', P),
        txHash: hexN(b, 'tx_hash', P, 32),
        logIndex: uint64(b, 'log_index', P),
      }),
  ],
  ['/checkpoint/no-ack', (b) => prepared(MsgCheckpointNoAckDef, { from: addr(b, 'proposer', P) })],
  [
    '/topup/fee',
    (b, base) =>
      prepared(MsgTopupDef, {
        fromAddress: base.from,
        id: uint64(b, 'id', P),
        txHash: hexN(b, 'tx_hash', P, 32),
        logIndex: uint64(b, 'log_index', P),
      }),
  ],
  [
    '/topup/withdraw',
    (b, base) => {
      const empty = b.amount === undefined || b.amount === null || b.amount === '';
      return prepared(MsgWithdrawFeeDef, { fromAddress: base.from, amount: empty ? 0n : uint256(b, 'amount', P) });
    },
  ],
]);

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
