/**
 * Bank messages (spec-only module): MsgSend and MsgMultiSend, gated by `sendenabled`.
 * MsgMultiSend's Input/Output records are `{address, coins}` (reference README, decided), inputs
 * must sum to outputs, and since a StdTx has one signature every input must be the signer.
 */
import { BankErrors } from './errors';
import { SdkErrors } from '../framework/errors';
import { type Address } from '../../core/address';
import { err } from '../../core/errors';
import { type Ctx, type HandlerResult, type MsgDef, OK, rejected } from '../framework/msgDef';
import { addr, asArray, asObject, noExtraKeys } from '../framework/decode';
import { type Coin, coinsJson, decodeCoins } from './coins';
import { sendCoins, sendEnabled, addCoins, subCoins } from './keeper';
import { compareStrings } from '../../core/order';
import { isPlanted } from '../../core/plants';

export interface MsgSend {
  fromAddress: Address;
  toAddress: Address;
  amount: Coin[];
}

/** What a node reports of a delivered bank message (src/node/observations.ts). */
export type BankMsgFact =
  | { type: 'cosmos-sdk/MsgSend'; fromAddress: Address; toAddress: Address; amount: Coin[] }
  | {
      type: 'cosmos-sdk/MsgMultiSend';
      inputs: Array<{ address: Address; coins: Coin[] }>;
      outputs: Array<{ address: Address; coins: Coin[] }>;
    };

const coinsCopy = (coins: readonly Coin[]): Coin[] => coins.map((c) => ({ ...c }));

export const MsgSendDef: MsgDef<MsgSend> = {
  type: 'cosmos-sdk/MsgSend',
  name: 'MsgSend',
  route: 'bank',
  msgType: 'send',
  decode(value) {
    const p = 'tx.msg.value';
    const o = asObject(value, p);
    noExtraKeys(o, ['from_address', 'to_address', 'amount'], p);
    return {
      fromAddress: addr(o, 'from_address', p),
      toAddress: addr(o, 'to_address', p),
      amount: decodeCoins(o.amount, `${p}.amount`),
    };
  },
  encode: (m) => ({ from_address: m.fromAddress, to_address: m.toAddress, amount: coinsJson(m.amount) }),
  signer: (m) => m.fromAddress,
  fact: (m): BankMsgFact => ({
    type: 'cosmos-sdk/MsgSend',
    fromAddress: m.fromAddress,
    toAddress: m.toAddress,
    amount: coinsCopy(m.amount),
  }),
  validateBasic: (m) => (m.amount.length === 0 ? err(SdkErrors.InvalidCoins, 'send amount must be positive') : null),
  handle(ctx, m) {
    if (!sendEnabled(ctx.store)) return rejected(BankErrors.SendDisabled);
    if (isPlanted('send-debit')) return creditOnly(ctx, m);
    const e = sendCoins(ctx.store, m.fromAddress, m.toAddress, m.amount);
    if (e) return rejected(e);
    ctx.events.push({
      type: 'transfer',
      attributes: { sender: m.fromAddress, recipient: m.toAddress, amount: formatCoins(m.amount) },
    });
    return OK;
  },
};

/** The planted `send-debit` bug: the recipient is credited, the sender never debited. */
function creditOnly(ctx: Ctx, m: MsgSend): HandlerResult {
  addCoins(ctx.store, m.toAddress, m.amount);
  return OK;
}

export interface IO {
  address: Address;
  coins: Coin[];
}

export interface MsgMultiSend {
  inputs: IO[];
  outputs: IO[];
}

function decodeIO(value: unknown, path: string): IO[] {
  return asArray(value, path).map((item, i) => {
    const p = `${path}[${i}]`;
    const o = asObject(item, p);
    noExtraKeys(o, ['address', 'coins'], p);
    return { address: addr(o, 'address', p), coins: decodeCoins(o.coins, `${p}.coins`) };
  });
}

function sumCoins(ios: IO[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const io of ios) for (const c of io.coins) out.set(c.denom, (out.get(c.denom) ?? 0n) + c.amount);
  return out;
}

export const MsgMultiSendDef: MsgDef<MsgMultiSend> = {
  type: 'cosmos-sdk/MsgMultiSend',
  name: 'MsgMultiSend',
  fact: (m): BankMsgFact => ({
    type: 'cosmos-sdk/MsgMultiSend',
    inputs: m.inputs.map((e) => ({ address: e.address, coins: coinsCopy(e.coins) })),
    outputs: m.outputs.map((e) => ({ address: e.address, coins: coinsCopy(e.coins) })),
  }),
  route: 'bank',
  msgType: 'multisend',
  decode(value) {
    const p = 'tx.msg.value';
    const o = asObject(value, p);
    noExtraKeys(o, ['inputs', 'outputs'], p);
    return { inputs: decodeIO(o.inputs, `${p}.inputs`), outputs: decodeIO(o.outputs, `${p}.outputs`) };
  },
  encode: (m) => ({
    inputs: m.inputs.map((io) => ({ address: io.address, coins: coinsJson(io.coins) })),
    outputs: m.outputs.map((io) => ({ address: io.address, coins: coinsJson(io.coins) })),
  }),
  signer: (m) => m.inputs[0]?.address ?? (('0x' + '00'.repeat(20)) as Address),
  validateBasic(m) {
    if (m.inputs.length === 0) return BankErrors.NoInputs;
    if (m.outputs.length === 0) return BankErrors.NoOutputs;
    const signer = m.inputs[0]!.address;
    if (m.inputs.some((i) => i.address !== signer)) return err(SdkErrors.Unauthorized, 'wrong number of signers');
    const a = sumCoins(m.inputs);
    const b = sumCoins(m.outputs);
    if (a.size !== b.size || [...a].some(([d, v]) => b.get(d) !== v)) return BankErrors.InputOutputMismatch;
    return null;
  },
  handle(ctx, m) {
    if (!sendEnabled(ctx.store)) return rejected(BankErrors.SendDisabled);
    for (const io of m.inputs) {
      const e = subCoins(ctx.store, io.address, io.coins);
      if (e) return rejected(e);
    }
    for (const io of m.outputs) addCoins(ctx.store, io.address, io.coins);
    ctx.events.push({
      type: 'multisend',
      attributes: { inputs: String(m.inputs.length), outputs: String(m.outputs.length) },
    });
    return OK;
  },
};

export function formatCoins(coins: readonly Coin[]): string {
  return [...coins]
    .sort((a, b) => compareStrings(a.denom, b.denom))
    .map((c) => `${c.amount}${c.denom}`)
    .join(',');
}
