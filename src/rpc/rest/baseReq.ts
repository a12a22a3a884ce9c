/**
 * The `base_req` of the transaction-preparing POST endpoints (reference `types/rest/rest.go`,
 * heimdall.md §3.8): who will sign, for which chain, with which memo, plus the fee fields.
 *
 * Validation follows the reference's order and statuses: a body member of the wrong type is a 400
 * decode error; then, unless `simulate`, an empty `chain_id` is 401 and fees together with gas
 * prices is 400; an empty, malformed or zero `from` is 401.
 *
 * Fees are fixed in this service (the ante handler charges the `tx_fees` parameter, whatever the
 * tx says), so `fees`, `gas_prices`, `gas` and `gas_adjustment` never reach the prepared tx. Only
 * their shape and the "both fees and gas prices" rule are checked, to answer a client as the
 * reference would. The reference's 402 ("invalid fees or gas prices") needs a malformed coin
 * amount, which is already a decode error here, so 402 never occurs.
 */
import { type Address, parseAddress, ZERO_ADDRESS } from '../../core/address';
import { InputError } from '../../core/errors';
import { describe } from '../../core/bytes';
import { asArray, asObject, bool, optStr, optUint64, str, type Obj } from '../../modules/framework/decode';
import { RestError, decodeOrThrow } from './restError';

export interface BaseReq {
  from: Address;
  memo: string;
  chainId: string;
  accountNumber: bigint;
  sequence: bigint;
  simulate: boolean;
}

const P = 'base_req';
const GAS_RE = /^(auto|0|[1-9][0-9]*)?$/;
const FLOAT_RE = /^([0-9]+(\.[0-9]*)?|\.[0-9]+)?$/;

/** A coin list's shape: `[{"denom":"…","amount":"…"}]`; returns how many coins it holds. */
function coinCount(o: Obj, key: string): number {
  if (o[key] === undefined || o[key] === null) return 0;
  const list = asArray(o[key], `${P}.${key}`);
  list.forEach((item, i) => {
    const c = asObject(item, `${P}.${key}[${i}]`);
    str(c, 'denom', `${P}.${key}[${i}]`);
    str(c, 'amount', `${P}.${key}[${i}]`);
  });
  return list.length;
}

function checkPattern(o: Obj, key: string, re: RegExp, what: string): void {
  const v = optStr(o, key, P, '');
  if (!re.test(v)) throw new InputError(`${P}.${key}`, `${what}, got ${describe(v)}`);
}

/** Decode and validate `body.base_req`; throws RestError with the reference's status. */
export function parseBaseReq(body: Obj): BaseReq {
  const fields = decodeOrThrow(() => {
    // A missing base_req is the Go zero value, which then fails validation (401 chain-id).
    const o = body.base_req === undefined || body.base_req === null ? {} : asObject(body.base_req, P);
    const simulate = o.simulate === undefined ? false : bool(o, 'simulate', P);
    const fees = coinCount(o, 'fees');
    const gasPrices = coinCount(o, 'gas_prices');
    checkPattern(o, 'gas', GAS_RE, 'gas must be either integer or "auto"');
    checkPattern(o, 'gas_adjustment', FLOAT_RE, 'expected a decimal number');
    return {
      from: optStr(o, 'from', P, ''),
      memo: optStr(o, 'memo', P, ''),
      chainId: optStr(o, 'chain_id', P, ''),
      accountNumber: optUint64(o, 'account_number', P, 0n),
      sequence: optUint64(o, 'sequence', P, 0n),
      simulate,
      fees,
      gasPrices,
    };
  });
  if (!fields.simulate) {
    if (fields.chainId === '') throw new RestError(401, 'chain-id required but not specified');
    if (fields.fees > 0 && fields.gasPrices > 0) throw new RestError(400, 'cannot provide both fees and gas prices');
  }
  // The reference echoes the bad value; a long one is cut so the answer stays small.
  const invalidFrom = () =>
    new RestError(
      401,
      `invalid from address: ${fields.from.length > 100 ? `${fields.from.slice(0, 100)}…` : fields.from}`,
    );
  let from: Address;
  try {
    from = parseAddress(fields.from);
  } catch {
    throw invalidFrom();
  }
  if (from === ZERO_ADDRESS) throw invalidFrom();
  return {
    from,
    memo: fields.memo,
    chainId: fields.chainId,
    accountNumber: fields.accountNumber,
    sequence: fields.sequence,
    simulate: fields.simulate,
  };
}
