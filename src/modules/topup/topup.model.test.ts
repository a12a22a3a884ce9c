/**
 * Model-based test (fc.commands): top-ups, fee withdrawals and dividend accounts against a small
 * reference model of balances, dividend fee amounts and processed (tx_hash, log_index) pairs.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TestChain, testKey, TOKEN, type TestKey } from '../../app/testing/testChain';
import { fakeTxHash } from '../../app/testing/fakeObservers';
import { MsgTopupDef, MsgWithdrawFeeDef } from './msgs';
import { accountRootHash } from '../../index';
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';

const FEE = 10n ** 15n;

interface Model {
  balances: Map<Address, bigint>;
  dividends: Map<bigint, bigint>;
  processed: Set<string>;
}

interface Real {
  chain: TestChain;
  people: TestKey[];
  proposer: Address;
}

interface TopupEvent {
  txHash: Hex;
  logIndex: bigint;
  validatorId: bigint;
  user: Address;
  fee: bigint;
}

const VALIDATORS = 3;
let events: TopupEvent[] = [];

function bal(m: Model, a: Address): bigint {
  return m.balances.get(a) ?? 0n;
}

function add(m: Model, a: Address, d: bigint): void {
  m.balances.set(a, bal(m, a) + d);
}

class TopupCommand implements fc.Command<Model, Real> {
  constructor(
    readonly event: number,
    readonly relayer: number,
  ) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const e = events[this.event]!;
    const relayer = r.people[this.relayer]!;
    const out = r.chain.blockAndSettle(
      [
        r.chain.tx(
          MsgTopupDef,
          { fromAddress: relayer.address, id: e.validatorId, txHash: e.txHash, logIndex: e.logIndex },
          relayer,
        ),
      ],
      { proposer: r.proposer },
    );
    const key = `${e.txHash}/${e.logIndex}`;
    // Model: ante (fee), deliver (replay), post (user must be the validator's signer).
    if (bal(m, relayer.address) < FEE) {
      expect(out.txs[0]!.code).toBe(5);
      return;
    }
    if (m.processed.has(key)) {
      expect(out.txs[0]!.log).toBe('{"codespace":"topup","code":1401,"message":"Older invalid tx found"}');
      return;
    }
    expect(out.txs[0]!.code).toBe(0);
    add(m, relayer.address, -FEE);
    add(m, r.proposer, FEE);
    const signer = r.people[Number(e.validatorId) - 1]!.address;
    const side = out.side.find((s) => s.txHash === out.txs[0]!.hash)!;
    if (e.user !== signer) {
      expect(side.code).toBe(5502);
      return;
    }
    expect(side.code).toBe(0);
    add(m, e.user, e.fee - FEE);
    add(m, relayer.address, FEE);
    m.processed.add(key);
  }
  toString = () => `topup(event ${this.event}, relayer ${this.relayer})`;
}

class WithdrawCommand implements fc.Command<Model, Real> {
  constructor(
    readonly validator: number,
    readonly amount: bigint,
  ) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const who = r.people[this.validator]!;
    const res = r.chain.block([r.chain.tx(MsgWithdrawFeeDef, { fromAddress: who.address, amount: this.amount }, who)], {
      proposer: r.proposer,
    }).txs[0]!;
    const balance = bal(m, who.address);
    if (balance < FEE) {
      expect(res.code).toBe(5);
      return;
    }
    if (this.validator >= VALIDATORS) {
      expect(res.code).toBe(2501);
      return;
    }
    const available = balance - FEE;
    const amount = this.amount === 0n ? available : this.amount;
    if (amount === 0n) {
      expect([res.codespace, res.code]).toEqual(['topup', 104]);
      return;
    }
    if (amount > available) {
      expect([res.codespace, res.code]).toEqual(['sdk', 10]);
      return;
    }
    expect(res.code).toBe(0);
    add(m, who.address, -FEE - amount);
    add(m, r.proposer, FEE);
    const id = BigInt(this.validator + 1);
    m.dividends.set(id, (m.dividends.get(id) ?? 0n) + amount);
  }
  toString = () => `withdraw(validator ${this.validator}, ${this.amount})`;
}

function checkAgreement(m: Model, r: Real): void {
  for (const p of [...r.people.map((x) => x.address), r.proposer]) expect(r.chain.balance(p), p).toBe(bal(m, p));
  for (let id = 1n; id <= BigInt(VALIDATORS); id++) {
    const d = r.chain.queryResult(`/topup/dividend-account/${id}`);
    expect(d.feeAmount).toBe((m.dividends.get(id) ?? 0n).toString());
  }
  const expectedRoot = accountRootHash(
    [...Array(VALIDATORS).keys()].map((i) => ({
      id: i + 1,
      feeAmount: m.dividends.get(BigInt(i + 1)) ?? 0n,
      slashedAmount: 0,
    })),
  );
  expect(r.chain.queryResult('/topup/dividend-account-root').accountRootHash).toBe(expectedRoot);
}

describe('topup / withdraw / dividend accounts against a reference model', () => {
  it('agree after every command', () => {
    const user = testKey('model-user');
    const poor = testKey('model-poor');
    const commands = [
      fc
        .tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 4 }))
        .map(([e, rl]) => new TopupCommand(e, rl) as fc.Command<Model, Real>),
      fc
        .tuple(
          fc.integer({ min: 0, max: 4 }),
          fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 30n * TOKEN }), fc.constant(10_000n * TOKEN)),
        )
        .map(([v, a]) => new WithdrawCommand(v, a) as fc.Command<Model, Real>),
    ];
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 12 }), (cmds) => {
        const chain = new TestChain({
          validators: VALIDATORS,
          balance: 5n * TOKEN,
          accounts: [
            { key: user, amount: 3n * TOKEN },
            { key: poor, amount: FEE / 2n },
          ],
        });
        const people = [...chain.validators, user, poor];
        const proposer = testKey('model-proposer').address;
        events = [0, 1, 2, 3, 4, 5].map((i) => ({
          txHash: fakeTxHash(`model-topup-${i % 4}`),
          logIndex: BigInt(i),
          validatorId: BigInt((i % VALIDATORS) + 1),
          // Event 5 names a user who is not the validator's signer: validators vote no.
          user: i === 5 ? user.address : chain.validators[i % VALIDATORS]!.address,
          fee: BigInt(i + 2) * TOKEN,
        }));
        for (const e of events)
          chain.observers.addEvent({
            name: 'TopUpFee',
            txHash: e.txHash,
            logIndex: e.logIndex,
            blockNumber: 10n,
            user: e.user,
            fee: e.fee,
          });
        const model: Model = {
          balances: new Map(
            people.map((p) => [p.address, p === user ? 3n * TOKEN : p === poor ? FEE / 2n : 5n * TOKEN]),
          ),
          dividends: new Map(),
          processed: new Set(),
        };
        fc.modelRun(
          () => ({ model, real: { chain, people, proposer } }),
          [...cmds].map((c) => wrap(c)),
        );
        checkAgreement(model, { chain, people, proposer });
      }),
      { numRuns: 30 },
    );
  });
});

/** Check model and real agree after each command (fast-check runs `run` only). */
function wrap(c: fc.Command<Model, Real>): fc.Command<Model, Real> {
  return {
    check: (m) => c.check(m),
    run: (m, r) => {
      c.run(m, r);
      checkAgreement(m, r);
    },
    toString: () => c.toString(),
  };
}
