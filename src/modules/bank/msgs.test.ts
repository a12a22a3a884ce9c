/**
 * Bank messages through the real app: MsgSend and MsgMultiSend, each success effect and each
 * rejection (handler, ValidateBasic, decode). A rejected tx leaves no trace: a twin chain that got
 * an empty block has the same app hash.
 */
import { describe, expect, it } from 'vitest';
import {
  TestChain,
  testKey,
  TOKEN,
  type AccountJson,
  type TestChainOptions,
  type TestKey,
} from '../../app/testing/testChain';
import { type TxResult } from '../../app/blockResults';
import { type Address } from '../../core/address';
import { getAccount } from '../auth/keeper';
import { MsgSendDef, MsgMultiSendDef, type MsgMultiSend } from './msgs';
import { type Coin } from './coins';

const FEE = 10n ** 15n;
const BALANCE = 1000n * TOKEN;
const proposer = testKey('bank-block-proposer').address;
const alice = testKey('bank-alice').address;
const bob = testKey('bank-bob').address;
const matic = (amount: bigint): Coin[] => [{ denom: 'matic', amount }];

function twins(opts: TestChainOptions = {}): [TestChain, TestChain] {
  return [new TestChain(opts), new TestChain(opts)];
}

function expectNoTrace(a: TestChain, b: TestChain, txs: Uint8Array[]): TxResult[] {
  const r = a.block(txs, { proposer });
  b.block([], { proposer });
  for (const t of r.txs) expect(t.code).not.toBe(0);
  expect(a.app.appHash).toBe(b.app.appHash);
  expect(a.app.exportState()).toBe(b.app.exportState());
  return r.txs;
}

function expectError(r: TxResult | undefined, codespace: string, code: number, message: string): void {
  expect(r).toBeDefined();
  expect({ code: r!.code, codespace: r!.codespace, log: r!.log }).toEqual({
    code,
    codespace,
    log: JSON.stringify({ codespace, code, message }),
  });
}

function send(
  chain: TestChain,
  from: TestKey,
  to: Address,
  amount: Coin[],
  opts: Parameters<TestChain['tx']>[3] = {},
): Uint8Array {
  return chain.tx(MsgSendDef, { fromAddress: from.address, toAddress: to, amount }, from, opts);
}

function multi(chain: TestChain, signer: TestKey, m: MsgMultiSend): Uint8Array {
  return chain.tx(MsgMultiSendDef, m, signer);
}

/**
 * A bank tx's JSON as the decode tests break it: they write wrong-typed values into nested coins,
 * replace arrays with objects and delete required fields, several levels deep.
 */
// biome-ignore lint/suspicious/noExplicitAny: deliberately malformed JSON, which every precise type would reject
type MalformableJson = any;

/** Re-encode a tx after changing its JSON (decode errors come before the signature check). */
function mutate(tx: Uint8Array, fn: (o: MalformableJson) => void): Uint8Array {
  const o = JSON.parse(new TextDecoder().decode(tx));
  fn(o);
  return new TextEncoder().encode(JSON.stringify(o));
}

describe('MsgSend', () => {
  it('moves the coins, emits a transfer event, pays the fee and bumps the sequence', () => {
    const chain = new TestChain();
    const v = chain.validators[0]!;
    const r = chain.block([send(chain, v, alice, matic(5n * TOKEN))], { proposer });
    expect(r.txs[0]).toMatchObject({ code: 0 });
    expect(r.txs[0]!.events).toEqual([
      { type: 'transfer', attributes: { sender: v.address, recipient: alice, amount: `${5n * TOKEN}matic` } },
    ]);
    expect(chain.balance(alice)).toBe(5n * TOKEN);
    expect(chain.balance(v.address)).toBe(BALANCE - 5n * TOKEN - FEE);
    expect(chain.balance(proposer)).toBe(FEE);
    expect(getAccount(chain.app.store, v.address)!.sequence).toBe(1n);
    // The new account shows up with the spec's coins shape.
    const acc = chain.queryResult<AccountJson>(`/auth/accounts/${alice}`).value;
    expect(acc.coins).toEqual([{ denom: 'matic', amount: { i: (5n * TOKEN).toString() } }]);
    expect(acc.sequence).toBe('0');
    expect(acc.public_key).toBeNull();
  });

  it('sends the whole balance left after the fee, and to oneself', () => {
    const chain = new TestChain();
    const v = chain.validators[0]!;
    expect(chain.block([send(chain, v, v.address, matic(BALANCE - FEE))], { proposer }).txs[0]!.code).toBe(0);
    expect(chain.balance(v.address)).toBe(BALANCE - FEE);
    expect(chain.block([send(chain, v, alice, matic(BALANCE - 2n * FEE))], { proposer }).txs[0]!.code).toBe(0);
    expect(chain.balance(v.address)).toBe(0n);
    expect(chain.balance(alice)).toBe(BALANCE - 2n * FEE);
  });

  it('insufficient coins: sdk 10 and no trace (not even the fee)', () => {
    const [a, b] = twins();
    const v = a.validators[0]!;
    const r = expectNoTrace(a, b, [send(a, v, alice, matic(BALANCE))]);
    // The fee was taken first (ante), so the balance the handler sees is BALANCE - FEE.
    expectError(r[0], 'sdk', 10, `insufficient account funds; ${BALANCE - FEE}matic < ${BALANCE}matic`);
    expect(a.balance(v.address)).toBe(BALANCE);
  });

  it('a denomination the sender does not hold: sdk 10', () => {
    const [a, b] = twins();
    const v = a.validators[0]!;
    const r = expectNoTrace(a, b, [send(a, v, alice, [{ denom: 'stake', amount: 1n }])]);
    expectError(r[0], 'sdk', 10, 'insufficient account funds; 0stake < 1stake');
  });

  it('send disabled in genesis: bank 101, no trace', () => {
    const opts = { appState: { bank: { send_enabled: false } } };
    const [a, b] = twins(opts);
    const v = a.validators[0]!;
    const r = expectNoTrace(a, b, [send(a, v, alice, matic(1n))]);
    expectError(r[0], 'bank', 101, 'send transactions are currently disabled');
    expect(a.balance(alice)).toBe(0n);
  });

  it('an empty amount list: sdk 11 from ValidateBasic', () => {
    const [a, b] = twins();
    const r = expectNoTrace(a, b, [send(a, a.validators[0]!, alice, [])]);
    expectError(r[0], 'sdk', 11, 'send amount must be positive');
  });

  it('zero, negative and malformed amounts and bad denominations are rejected at decode (sdk 2), naming the field', () => {
    const [a, b] = twins();
    const v = a.validators[0]!;
    const good = send(a, v, alice, [
      { denom: 'matic', amount: 1n },
      { denom: 'stake', amount: 2n },
    ]);
    const P = 'tx.msg.value.amount';
    const cases: Array<[(o: MalformableJson) => void, string]> = [
      [(o) => (o.msg.value.amount[0].amount.i = '0'), `${P}[0].amount.i: must be positive`],
      [(o) => (o.msg.value.amount[1].amount.i = '-5'), `${P}[1].amount.i: not a decimal integer`],
      [(o) => (o.msg.value.amount[0].amount.i = '1.5'), `${P}[0].amount.i: not a decimal integer`],
      [(o) => (o.msg.value.amount[0].amount.i = '1e3'), `${P}[0].amount.i: not a decimal integer`],
      [(o) => (o.msg.value.amount[0].amount.i = '01'), `${P}[0].amount.i: not a decimal integer`],
      [(o) => (o.msg.value.amount[0].amount.i = ' 1'), `${P}[0].amount.i: not a decimal integer`],
      [(o) => (o.msg.value.amount[0].amount.i = 'abc'), `${P}[0].amount.i: not a decimal integer`],
      [(o) => (o.msg.value.amount[0].amount.i = 5), `${P}[0].amount.i: expected a string`],
      [(o) => (o.msg.value.amount[0].amount = '5'), `${P}[0].amount: expected an object`],
      [(o) => delete o.msg.value.amount[0].amount.i, `${P}[0].amount.i: is required`],
      [(o) => (o.msg.value.amount[0].denom = 'MATIC'), `${P}[0].denom: invalid denomination "MATIC"`],
      [(o) => (o.msg.value.amount[0].denom = ''), `${P}[0].denom: invalid denomination ""`],
      [(o) => (o.msg.value.amount[0].denom = 'ma'), `${P}[0].denom: invalid denomination "ma"`],
      [(o) => (o.msg.value.amount[0].denom = '1matic'), `${P}[0].denom: invalid denomination "1matic"`],
      [(o) => (o.msg.value.amount[1].denom = 'matic'), `${P}[1].denom: duplicate denomination matic`],
      [(o) => delete o.msg.value.amount[0].denom, `${P}[0].denom: is required`],
      [(o) => (o.msg.value.amount = { denom: 'matic' }), `${P}: expected an array`],
      [(o) => delete o.msg.value.amount, `${P}: expected an array`],
      [(o) => (o.msg.value.to_address = '0x12'), 'tx.msg.value.to_address'],
      [(o) => (o.msg.value.to_address = 'not-an-address'), 'tx.msg.value.to_address'],
      [(o) => delete o.msg.value.from_address, 'tx.msg.value.from_address'],
    ];
    const r = expectNoTrace(
      a,
      b,
      cases.map(([fn]) => mutate(good, fn)),
    );
    cases.forEach(([, message], i) => {
      expect(r[i]).toMatchObject({ code: 2, codespace: 'sdk' });
      const log = JSON.parse(r[i]!.log) as { message: string };
      expect(log.message.startsWith(message)).toBe(true);
    });
    // The unmutated tx decodes; only the handler objects (the sender holds no stake).
    expectError(a.block([good]).txs[0], 'sdk', 10, 'insufficient account funds; 0stake < 2stake');
  });
});

describe('MsgMultiSend', () => {
  it('moves coins from the signer to several outputs', () => {
    const chain = new TestChain();
    const v = chain.validators[0]!;
    const m: MsgMultiSend = {
      inputs: [
        { address: v.address, coins: matic(7n) },
        { address: v.address, coins: matic(3n) },
      ],
      outputs: [
        { address: alice, coins: matic(4n) },
        { address: bob, coins: matic(6n) },
      ],
    };
    const r = chain.block([multi(chain, v, m)], { proposer });
    expect(r.txs[0]).toMatchObject({ code: 0 });
    expect(r.txs[0]!.events).toEqual([{ type: 'multisend', attributes: { inputs: '2', outputs: '2' } }]);
    expect(chain.balance(alice)).toBe(4n);
    expect(chain.balance(bob)).toBe(6n);
    expect(chain.balance(v.address)).toBe(BALANCE - FEE - 10n);
    expect(getAccount(chain.app.store, v.address)!.sequence).toBe(1n);
  });

  it('outputs may name one address twice; a non-validator account can send', () => {
    const rich = testKey('bank-rich');
    const chain = new TestChain({ accounts: [{ key: rich, amount: BALANCE }] });
    const m: MsgMultiSend = {
      inputs: [{ address: rich.address, coins: matic(10n) }],
      outputs: [
        { address: alice, coins: matic(1n) },
        { address: alice, coins: matic(9n) },
      ],
    };
    expect(chain.block([multi(chain, rich, m)]).txs[0]!.code).toBe(0);
    expect(chain.balance(alice)).toBe(10n);
    expect(chain.balance(rich.address)).toBe(BALANCE - FEE - 10n);
  });

  it('two denominations balance per denomination', () => {
    const rich = testKey('bank-two-denoms');
    const validators = [1, 2, 3, 4].map((i) => testKey(`validator-${i}`));
    const chain = new TestChain({
      appState: {
        auth: {
          accounts: [
            ...validators.map((v) => ({
              address: v.address,
              coins: [{ denom: 'matic', amount: { i: BALANCE.toString() } }],
            })),
            {
              address: rich.address,
              coins: [
                { denom: 'matic', amount: { i: BALANCE.toString() } },
                { denom: 'stake', amount: { i: '100' } },
              ],
            },
          ],
        },
      },
    });
    const m: MsgMultiSend = {
      inputs: [{ address: rich.address, coins: [...matic(5n), { denom: 'stake', amount: 40n }] }],
      outputs: [
        { address: alice, coins: [{ denom: 'stake', amount: 30n }] },
        { address: bob, coins: [...matic(5n), { denom: 'stake', amount: 10n }] },
      ],
    };
    expect(chain.block([multi(chain, rich, m)]).txs[0]!.code).toBe(0);
    expect(chain.balance(alice, 'stake')).toBe(30n);
    expect(chain.balance(bob, 'stake')).toBe(10n);
    expect(chain.balance(bob)).toBe(5n);
    expect(chain.balance(rich.address, 'stake')).toBe(60n);
  });

  it('inputs != outputs: bank 3, no trace', () => {
    const [a, b] = twins();
    const v = a.validators[0]!;
    const r = expectNoTrace(a, b, [
      multi(a, v, {
        inputs: [{ address: v.address, coins: matic(10n) }],
        outputs: [{ address: alice, coins: matic(9n) }],
      }),
      multi(a, v, {
        inputs: [{ address: v.address, coins: matic(10n) }],
        outputs: [{ address: alice, coins: [{ denom: 'stake', amount: 10n }] }],
      }),
      multi(a, v, {
        inputs: [{ address: v.address, coins: matic(10n) }],
        outputs: [{ address: alice, coins: [...matic(10n), { denom: 'stake', amount: 1n }] }],
      }),
    ]);
    for (const t of r) expectError(t, 'bank', 102, 'sum inputs != sum outputs');
  });

  it('an input address other than the signer: sdk 4, no trace', () => {
    const [a, b] = twins();
    const [v1, v2] = a.validators;
    const r = expectNoTrace(a, b, [
      multi(a, v1!, {
        inputs: [
          { address: v1!.address, coins: matic(1n) },
          { address: v2!.address, coins: matic(1n) },
        ],
        outputs: [{ address: alice, coins: matic(2n) }],
      }),
    ]);
    expectError(r[0], 'sdk', 4, 'wrong number of signers');
    expect(a.balance(v2!.address)).toBe(BALANCE);
  });

  it('the first input names the signer: a tx signed by anyone else fails the signature check (sdk 4)', () => {
    const [a, b] = twins();
    const [v1, v2] = a.validators;
    const r = expectNoTrace(a, b, [
      multi(a, v1!, {
        inputs: [{ address: v2!.address, coins: matic(1n) }],
        outputs: [{ address: alice, coins: matic(1n) }],
      }),
    ]);
    expectError(r[0], 'sdk', 4, 'signature verification failed; verify correct account sequence and chain-id');
  });

  it('no inputs: bank 1; no outputs: bank 2', () => {
    const [a, b] = twins();
    const v = a.validators[0]!;
    const r = expectNoTrace(a, b, [
      multi(a, v, { inputs: [], outputs: [{ address: alice, coins: matic(1n) }] }),
      multi(a, v, { inputs: [{ address: v.address, coins: matic(1n) }], outputs: [] }),
    ]);
    expectError(r[0], 'bank', 102, 'no inputs to send transaction');
    expectError(r[1], 'bank', 102, 'no outputs to send transaction');
  });

  it('insufficient coins: sdk 10, no trace', () => {
    const [a, b] = twins();
    const v = a.validators[0]!;
    const r = expectNoTrace(a, b, [
      multi(a, v, {
        inputs: [{ address: v.address, coins: matic(BALANCE) }],
        outputs: [{ address: alice, coins: matic(BALANCE) }],
      }),
    ]);
    expectError(r[0], 'sdk', 10, `insufficient account funds; ${BALANCE - FEE}matic < ${BALANCE}matic`);
  });

  it('send disabled: bank 5, no trace', () => {
    const [a, b] = twins({ appState: { bank: { send_enabled: false } } });
    const v = a.validators[0]!;
    const r = expectNoTrace(a, b, [
      multi(a, v, {
        inputs: [{ address: v.address, coins: matic(1n) }],
        outputs: [{ address: alice, coins: matic(1n) }],
      }),
    ]);
    expectError(r[0], 'bank', 101, 'send transactions are currently disabled');
  });

  it('bad coins in inputs or outputs are rejected at decode (sdk 2), naming the field', () => {
    const [a, b] = twins();
    const v = a.validators[0]!;
    const good = multi(a, v, {
      inputs: [{ address: v.address, coins: matic(2n) }],
      outputs: [
        { address: alice, coins: matic(1n) },
        { address: bob, coins: matic(1n) },
      ],
    });
    const cases: Array<[(o: MalformableJson) => void, string]> = [
      [
        (o) => (o.msg.value.inputs[0].coins[0].amount.i = '0'),
        'tx.msg.value.inputs[0].coins[0].amount.i: must be positive',
      ],
      [
        (o) => (o.msg.value.outputs[1].coins[0].amount.i = '-1'),
        'tx.msg.value.outputs[1].coins[0].amount.i: not a decimal integer',
      ],
      [
        (o) => (o.msg.value.outputs[0].coins[0].denom = 'Matic'),
        'tx.msg.value.outputs[0].coins[0].denom: invalid denomination "Matic"',
      ],
      [(o) => (o.msg.value.outputs[0].address = '0x00'), 'tx.msg.value.outputs[0].address'],
      [
        (o) => (o.msg.value.outputs[0].amount = o.msg.value.outputs[0].coins),
        'tx.msg.value.outputs[0].amount: unknown field',
      ],
      [(o) => delete o.msg.value.inputs, 'tx.msg.value.inputs: expected an array'],
    ];
    const r = expectNoTrace(
      a,
      b,
      cases.map(([fn]) => mutate(good, fn)),
    );
    cases.forEach(([, message], i) => {
      expect(r[i]).toMatchObject({ code: 2, codespace: 'sdk' });
      expect((JSON.parse(r[i]!.log) as { message: string }).message.startsWith(message)).toBe(true);
    });
  });
});
