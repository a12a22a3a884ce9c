/**
 * The model's reading of a transaction's bytes, written from the spec's tables ("Transaction
 * messages", "Transaction envelope") and the reference's wire rules (heimdall.md §6.1; README
 * items 16-24), never from the decoder it checks.
 *
 * A transaction is the UTF-8 JSON of a StdTx `{msg: {type, value}, signature, memo}`: one message
 * of a known type, its fields by their JSON names and nothing else; uint64 fields as a safe JSON
 * integer or a decimal string; addresses 0x + 20 bytes; hashes 0x + 32 bytes; public keys 65 bytes
 * starting 0x04; coins `[{denom, amount: {i}}]` with positive amounts and distinct denominations.
 * Anything else is a decode failure (sdk code 2). The decoded message is kept in its canonical
 * value form (integers as bigints, hex in lower case) because that is what the signature covers.
 */
import { fromHex } from '../../../../src/core/bytes';
import { sha256Bytes } from '../../../../src/core/hash';

export type Addr = string;

export interface ModelCoin {
  denom: string;
  amount: bigint;
}

export interface ModelIO {
  address: Addr;
  coins: ModelCoin[];
}

/** Event references of the staking, topup and ack messages. */
interface Ref {
  txHash: string;
  logIndex: bigint;
}

export type ModelMsg =
  | { type: 'cosmos-sdk/MsgSend'; from: Addr; to: Addr; amount: ModelCoin[] }
  | { type: 'cosmos-sdk/MsgMultiSend'; inputs: ModelIO[]; outputs: ModelIO[] }
  | ({ type: 'staking/MsgValidatorJoin'; from: Addr; id: bigint; pubKey: string } & Ref)
  | ({ type: 'staking/MsgStakeUpdate'; from: Addr; id: bigint } & Ref)
  | ({ type: 'staking/MsgValidatorExit'; from: Addr; id: bigint } & Ref)
  | ({ type: 'staking/MsgSignerUpdate'; from: Addr; id: bigint; pubKey: string } & Ref)
  | {
      type: 'checkpoint/MsgCheckpoint';
      proposer: Addr;
      startBlock: bigint;
      endBlock: bigint;
      rootHash: string;
      accountRootHash: string;
    }
  | ({ type: 'checkpoint/MsgCheckpointACK'; from: Addr; headerBlock: bigint } & Ref)
  | { type: 'checkpoint/MsgCheckpointNoACK'; from: Addr }
  | ({ type: 'topup/MsgTopup'; from: Addr; id: bigint } & Ref)
  | { type: 'topup/MsgWithdrawFee'; from: Addr; amount: bigint }
  | {
      type: 'sidechain/MsgProposeSpan';
      spanId: bigint;
      proposer: Addr;
      startBlock: bigint;
      endBlock: bigint;
      sidechainChainId: string;
    }
  | ({
      type: 'clerk/MsgEventRecord';
      from: Addr;
      id: bigint;
      contract: Addr;
      data: string;
      sidechainChainId: string;
    } & Ref);

export type MsgType = ModelMsg['type'];

/** Messages whose effect comes from the validators' side vote two blocks later (heimdall §9). */
export const SIDE_MSGS: ReadonlySet<MsgType> = new Set<MsgType>([
  'staking/MsgValidatorJoin',
  'staking/MsgStakeUpdate',
  'staking/MsgValidatorExit',
  'staking/MsgSignerUpdate',
  'checkpoint/MsgCheckpoint',
  'checkpoint/MsgCheckpointACK',
  'topup/MsgTopup',
  'sidechain/MsgProposeSpan',
  'clerk/MsgEventRecord',
]);

export interface ModelTx {
  /** sha256 of the bytes (the tx hash side votes name). */
  hash: string;
  sizeBytes: number;
  msg: ModelMsg;
  /** The message as signed: `{type, value}` with the value's canonical fields. */
  signedMsg: { type: string; value: Record<string, unknown> };
  /** The signature bytes; empty when the tx carries none. */
  signature: Uint8Array;
  memo: string;
}

export type Decoded = { ok: true; tx: ModelTx } | { ok: false; hash: string | null; why: string };

const UINT64_MAX = (1n << 64n) - 1n;
const UINT256_MAX = (1n << 256n) - 1n;
/** Legacy maximum state-sync payload (reference LegacyMaxStateSyncSize): decoding caps data at twice it. */
const MAX_STATE_SYNC_BYTES = 100_000;

class Bad extends Error {}

type Obj = Record<string, unknown>;

function obj(v: unknown, path: string): Obj {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Bad(`${path}: not an object`);
  return v as Obj;
}

function only(o: Obj, keys: readonly string[], path: string): void {
  for (const k of Object.keys(o)) if (!keys.includes(k)) throw new Bad(`${path}.${k}: unknown field`);
}

function need(o: Obj, k: string, path: string): unknown {
  if (!(k in o) || o[k] === undefined) throw new Bad(`${path}.${k}: required`);
  return o[k];
}

function uint(v: unknown, path: string, max: bigint): bigint {
  let n: bigint;
  if (typeof v === 'number' && Number.isSafeInteger(v)) n = BigInt(v);
  else if (typeof v === 'string' && /^(0|[1-9][0-9]*)$/.test(v)) n = BigInt(v);
  else throw new Bad(`${path}: not an unsigned integer`);
  if (n < 0n || n > max) throw new Bad(`${path}: out of range`);
  return n;
}

const u64 = (o: Obj, k: string, p: string) => uint(need(o, k, p), `${p}.${k}`, UINT64_MAX);

function text(o: Obj, k: string, p: string, maxLength = Infinity): string {
  const v = need(o, k, p);
  if (typeof v !== 'string') throw new Bad(`${p}.${k}: not a string`);
  if (v.length > maxLength) throw new Bad(`${p}.${k}: too long`);
  return v;
}

/** 0x (or 0X) hex of any length, lower-cased; `bytes` = required length. */
function hex(v: unknown, path: string, bytes?: number): string {
  // Even digits checked apart: a repeated group in the pattern costs a backtracking step per pair.
  if (typeof v !== 'string' || v.length % 2 !== 0 || !/^0[xX][0-9a-fA-F]*$/.test(v))
    throw new Bad(`${path}: not 0x hex`);
  if (bytes !== undefined && v.length !== 2 + 2 * bytes) throw new Bad(`${path}: not ${bytes} bytes`);
  return `0x${v.slice(2).toLowerCase()}`;
}

const address = (o: Obj, k: string, p: string) => hex(need(o, k, p), `${p}.${k}`, 20);
const hash32 = (o: Obj, k: string, p: string) => hex(need(o, k, p), `${p}.${k}`, 32);

function publicKey(o: Obj, k: string, p: string): string {
  const h = hex(need(o, k, p), `${p}.${k}`, 65);
  if (!h.startsWith('0x04')) throw new Bad(`${p}.${k}: not an uncompressed key`);
  return h;
}

function coins(v: unknown, path: string): ModelCoin[] {
  if (!Array.isArray(v)) throw new Bad(`${path}: not an array`);
  const seen = new Set<string>();
  return v.map((item, i) => {
    const p = `${path}[${i}]`;
    const c = obj(item, p);
    const denom = text(c, 'denom', p);
    if (!/^[a-z][a-z0-9]{2,15}$/.test(denom) || seen.has(denom)) throw new Bad(`${p}.denom: invalid or repeated`);
    seen.add(denom);
    const amount = uint(text(obj(c.amount, `${p}.amount`), 'i', `${p}.amount`), `${p}.amount.i`, UINT256_MAX);
    if (amount === 0n) throw new Bad(`${p}.amount.i: not positive`);
    return { denom, amount };
  });
}

function ios(v: unknown, path: string): ModelIO[] {
  if (!Array.isArray(v)) throw new Bad(`${path}: not an array`);
  return v.map((item, i) => {
    const p = `${path}[${i}]`;
    const io = obj(item, p);
    only(io, ['address', 'coins'], p);
    return { address: address(io, 'address', p), coins: coins(io.coins, `${p}.coins`) };
  });
}

const coinsJson = (cs: readonly ModelCoin[]) => cs.map((c) => ({ denom: c.denom, amount: { i: c.amount } }));

function ref(o: Obj, p: string): Ref {
  return { txHash: hash32(o, 'tx_hash', p), logIndex: u64(o, 'log_index', p) };
}

/** Decode one message value; returns it with its canonical signed form. */
function message(type: string, v: Obj): { msg: ModelMsg; value: Record<string, unknown> } {
  const p = 'msg.value';
  switch (type) {
    case 'cosmos-sdk/MsgSend': {
      only(v, ['from_address', 'to_address', 'amount'], p);
      const msg = {
        type,
        from: address(v, 'from_address', p),
        to: address(v, 'to_address', p),
        amount: coins(v.amount, `${p}.amount`),
      } as const;
      return { msg, value: { from_address: msg.from, to_address: msg.to, amount: coinsJson(msg.amount) } };
    }
    case 'cosmos-sdk/MsgMultiSend': {
      only(v, ['inputs', 'outputs'], p);
      const msg = { type, inputs: ios(v.inputs, `${p}.inputs`), outputs: ios(v.outputs, `${p}.outputs`) } as const;
      const json = (x: ModelIO[]) => x.map((io) => ({ address: io.address, coins: coinsJson(io.coins) }));
      return { msg, value: { inputs: json(msg.inputs), outputs: json(msg.outputs) } };
    }
    case 'staking/MsgValidatorJoin':
    case 'staking/MsgSignerUpdate': {
      const keyName = type === 'staking/MsgValidatorJoin' ? 'pub_key' : 'pubKey';
      only(v, ['from', 'id', keyName, 'tx_hash', 'log_index'], p);
      const from = address(v, 'from', p);
      const id = u64(v, 'id', p);
      const pubKey = publicKey(v, keyName, p);
      const r = ref(v, p);
      const value = { from, id, [keyName]: pubKey, tx_hash: r.txHash, log_index: r.logIndex };
      return { msg: { type, from, id, pubKey, ...r }, value };
    }
    case 'staking/MsgStakeUpdate':
    case 'staking/MsgValidatorExit': {
      only(v, ['from', 'id', 'tx_hash', 'log_index'], p);
      const from = address(v, 'from', p);
      const id = u64(v, 'id', p);
      const r = ref(v, p);
      return { msg: { type, from, id, ...r }, value: { from, id, tx_hash: r.txHash, log_index: r.logIndex } };
    }
    case 'checkpoint/MsgCheckpoint': {
      only(v, ['proposer', 'startBlock', 'endBlock', 'rootHash', 'accountRootHash'], p);
      const msg = {
        type,
        proposer: address(v, 'proposer', p),
        startBlock: u64(v, 'startBlock', p),
        endBlock: u64(v, 'endBlock', p),
        rootHash: hash32(v, 'rootHash', p),
        accountRootHash: hash32(v, 'accountRootHash', p),
      } as const;
      const { type: _t, ...value } = msg;
      return { msg, value };
    }
    case 'checkpoint/MsgCheckpointACK': {
      only(v, ['from', 'headerBlock', 'tx_hash', 'log_index'], p);
      const from = address(v, 'from', p);
      const headerBlock = u64(v, 'headerBlock', p);
      const r = ref(v, p);
      return {
        msg: { type, from, headerBlock, ...r },
        value: { from, headerBlock, tx_hash: r.txHash, log_index: r.logIndex },
      };
    }
    case 'checkpoint/MsgCheckpointNoACK': {
      only(v, ['from'], p);
      const from = address(v, 'from', p);
      return { msg: { type, from }, value: { from } };
    }
    case 'topup/MsgTopup': {
      only(v, ['from_address', 'id', 'tx_hash', 'log_index'], p);
      const from = address(v, 'from_address', p);
      const id = u64(v, 'id', p);
      const r = ref(v, p);
      return {
        msg: { type, from, id, ...r },
        value: { from_address: from, id, tx_hash: r.txHash, log_index: r.logIndex },
      };
    }
    case 'topup/MsgWithdrawFee': {
      only(v, ['from_address', 'amount'], p);
      const from = address(v, 'from_address', p);
      const raw = need(v, 'amount', p);
      // An empty amount means "everything" (reference §5), as 0 does.
      const amount = raw === '' ? 0n : uint(raw, `${p}.amount`, UINT256_MAX);
      return { msg: { type, from, amount }, value: { from_address: from, amount } };
    }
    case 'sidechain/MsgProposeSpan': {
      only(v, ['span_id', 'proposer', 'start_block', 'end_block', 'sidechain_chain_id'], p);
      const msg = {
        type,
        spanId: u64(v, 'span_id', p),
        proposer: address(v, 'proposer', p),
        startBlock: u64(v, 'start_block', p),
        endBlock: u64(v, 'end_block', p),
        sidechainChainId: text(v, 'sidechain_chain_id', p, 64),
      } as const;
      const value = {
        span_id: msg.spanId,
        proposer: msg.proposer,
        start_block: msg.startBlock,
        end_block: msg.endBlock,
        sidechain_chain_id: msg.sidechainChainId,
      };
      return { msg, value };
    }
    case 'clerk/MsgEventRecord': {
      only(v, ['from', 'tx_hash', 'log_index', 'id', 'contract_address', 'data', 'sidechain_chain_id'], p);
      const from = address(v, 'from', p);
      const r = ref(v, p);
      const id = u64(v, 'id', p);
      const contract = address(v, 'contract_address', p);
      const data = hex(need(v, 'data', p), `${p}.data`);
      if ((data.length - 2) / 2 > 2 * MAX_STATE_SYNC_BYTES) throw new Bad(`${p}.data: too long`);
      const sidechainChainId = text(v, 'sidechain_chain_id', p, 64);
      const value = {
        from,
        tx_hash: r.txHash,
        log_index: r.logIndex,
        id,
        contract_address: contract,
        data,
        sidechain_chain_id: sidechainChainId,
      };
      return { msg: { type, from, id, contract, data, sidechainChainId, ...r }, value };
    }
    default:
      throw new Bad(`msg.type: unknown message type ${JSON.stringify(type)}`);
  }
}

/** The hex of a block's transaction, as the block carries it. */
export function decodeModelTx(rawHex: string): Decoded {
  let bytes: Uint8Array;
  try {
    bytes = fromHex(rawHex);
  } catch {
    return { ok: false, hash: null, why: 'not hex' };
  }
  const hash = toHexLower(sha256Bytes(bytes));
  try {
    let textValue: string;
    try {
      textValue = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new Bad('tx: not UTF-8');
    }
    let json: unknown;
    try {
      json = JSON.parse(textValue);
    } catch {
      throw new Bad('tx: not JSON');
    }
    const o = obj(json, 'tx');
    only(o, ['msg', 'signature', 'memo'], 'tx');
    const m = obj(o.msg, 'tx.msg');
    const type = text(m, 'type', 'tx.msg');
    const { msg, value } = message(type, obj(m.value, 'tx.msg.value'));
    const signature =
      o.signature === undefined || o.signature === '' ? new Uint8Array(0) : fromHex(hex(o.signature, 'tx.signature'));
    const memo = o.memo === undefined ? '' : text(o, 'memo', 'tx');
    return { ok: true, tx: { hash, sizeBytes: bytes.length, msg, signedMsg: { type, value }, signature, memo } };
  } catch (e) {
    if (e instanceof Bad) return { ok: false, hash, why: e.message };
    throw e;
  }
}

function toHexLower(b: Uint8Array): string {
  let s = '0x';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

/** The account that must sign a message (the spec: the message's sender field). */
export function signerOf(m: ModelMsg): Addr {
  switch (m.type) {
    case 'cosmos-sdk/MsgSend':
    case 'staking/MsgValidatorJoin':
    case 'staking/MsgStakeUpdate':
    case 'staking/MsgValidatorExit':
    case 'staking/MsgSignerUpdate':
    case 'checkpoint/MsgCheckpointACK':
    case 'checkpoint/MsgCheckpointNoACK':
    case 'topup/MsgTopup':
    case 'topup/MsgWithdrawFee':
    case 'clerk/MsgEventRecord':
      return m.from;
    case 'cosmos-sdk/MsgMultiSend':
      return m.inputs[0]?.address ?? `0x${'00'.repeat(20)}`;
    case 'checkpoint/MsgCheckpoint':
    case 'sidechain/MsgProposeSpan':
      return m.proposer;
  }
}
