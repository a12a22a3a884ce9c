/**
 * Properties of the whole state machine under a random mix of valid and invalid transactions:
 * - supply is conserved: balances + withdrawn dividends change only by what top-ups mint;
 * - sequences rise only on success;
 * - a rejected transaction leaves the state untouched: a twin chain that never sees the rejected
 *   txs has the same app hash after every block;
 * - a (tx_hash, log_index) is minted at most once, however often it is relayed;
 * - the same genesis + txs give the same app hash.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TestChain, testKey, TOKEN, type TestKey } from './testing/testChain';
import { fakeTxHash } from './testing/fakeObservers';
import { MsgSendDef, MsgMultiSendDef } from '../modules/bank/msgs';
import { MsgTopupDef, MsgWithdrawFeeDef } from '../modules/topup/msgs';
import { MsgCheckpointNoAckDef } from '../modules/checkpoint/msgs';
import { allAccounts } from '../modules/auth/keeper';
import { allDividendAccounts } from '../modules/topup/keeper';
import { type Hex } from '../core/bytes';
import { type Address } from '../core/address';

type Corruption = 'none' | 'badSig' | 'wrongSeq' | 'wrongChain' | 'bigMemo' | 'garbage';

type Cmd =
  | { t: 'send'; from: number; to: number; amount: bigint; bad: Corruption }
  | { t: 'multi'; from: number; to: number[]; amount: bigint; bad: Corruption }
  | { t: 'topup'; event: number; relayer: number; bad: Corruption }
  | { t: 'withdraw'; from: number; amount: bigint; bad: Corruption }
  | { t: 'noack'; from: number; bad: Corruption };

const corruption = fc.constantFrom<Corruption>(
  'none',
  'none',
  'none',
  'badSig',
  'wrongSeq',
  'wrongChain',
  'bigMemo',
  'garbage',
);
const who = fc.integer({ min: 0, max: 5 });
const amount = fc.oneof(fc.bigInt({ min: 1n, max: 50n * TOKEN }), fc.constant(2000n * TOKEN), fc.constant(0n));

const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ t: fc.constant('send' as const), from: who, to: who, amount, bad: corruption }),
  fc.record({
    t: fc.constant('multi' as const),
    from: who,
    to: fc.array(who, { minLength: 1, maxLength: 3 }),
    amount,
    bad: corruption,
  }),
  fc.record({ t: fc.constant('topup' as const), event: fc.integer({ min: 0, max: 3 }), relayer: who, bad: corruption }),
  fc.record({ t: fc.constant('withdraw' as const), from: who, amount, bad: corruption }),
  fc.record({ t: fc.constant('noack' as const), from: who, bad: corruption }),
);

interface World {
  a: TestChain;
  b: TestChain;
  people: TestKey[];
  events: Array<{ txHash: Hex; logIndex: bigint; fee: bigint; validator: number }>;
}

function makeWorld(): World {
  const extra = [testKey('user-1'), testKey('user-2')];
  const opts = { validators: 4, accounts: extra.map((key) => ({ key, amount: 100n * TOKEN })) };
  const a = new TestChain(opts);
  const b = new TestChain(opts);
  const people = [...a.validators, ...extra];
  const events = [0, 1, 2, 3].map((i) => ({
    txHash: fakeTxHash(`topup-${i}`),
    logIndex: BigInt(i % 2),
    fee: BigInt(i + 1) * 10n * TOKEN,
    validator: i % 4,
  }));
  for (const chain of [a, b]) {
    for (const e of events) {
      chain.observers.addEvent({
        name: 'TopUpFee',
        txHash: e.txHash,
        logIndex: e.logIndex,
        blockNumber: 50n,
        user: people[e.validator]!.address,
        fee: e.fee,
      });
    }
  }
  return { a, b, people, events };
}

function buildTx(w: World, c: Cmd, offsets: Map<Address, bigint>): Uint8Array {
  const signerIdx = c.t === 'topup' ? c.relayer : c.from;
  const key = w.people[signerIdx]!;
  const offset = offsets.get(key.address) ?? 0n;
  if (c.bad === 'none' || c.bad === 'bigMemo') offsets.set(key.address, offset + 1n);
  const opts = {
    sequenceOffset: offset + (c.bad === 'wrongSeq' ? 7n : 0n),
    chainId: c.bad === 'wrongChain' ? 'other-chain' : undefined,
    memo: c.bad === 'bigMemo' ? 'x'.repeat(257) : '',
  };
  const signKey = c.bad === 'badSig' ? testKey('intruder') : key;
  if (c.bad === 'garbage')
    return new TextEncoder().encode('{"msg":{"type":"cosmos-sdk/MsgSend","value":{"from_address":42}}}');
  const p = (i: number) => w.people[i]!.address;
  switch (c.t) {
    case 'send':
      return w.a.tx(
        MsgSendDef,
        {
          fromAddress: key.address,
          toAddress: p(c.to),
          amount: c.amount === 0n ? [] : [{ denom: 'matic', amount: c.amount }],
        },
        signKey,
        opts,
      );
    case 'multi': {
      const each = c.amount === 0n ? 1n : c.amount;
      return w.a.tx(
        MsgMultiSendDef,
        {
          inputs: [{ address: key.address, coins: [{ denom: 'matic', amount: each * BigInt(c.to.length) }] }],
          outputs: c.to.map((i) => ({ address: p(i), coins: [{ denom: 'matic', amount: each }] })),
        },
        signKey,
        opts,
      );
    }
    case 'topup': {
      const e = w.events[c.event]!;
      return w.a.tx(
        MsgTopupDef,
        { fromAddress: key.address, id: BigInt(e.validator + 1), txHash: e.txHash, logIndex: e.logIndex },
        signKey,
        opts,
      );
    }
    case 'withdraw':
      return w.a.tx(MsgWithdrawFeeDef, { fromAddress: key.address, amount: c.amount }, signKey, opts);
    case 'noack':
      return w.a.tx(MsgCheckpointNoAckDef, { from: key.address }, signKey, opts);
  }
}

function supply(chain: TestChain): bigint {
  let s = 0n;
  for (const acc of allAccounts(chain.app.store)) s += acc.coins.matic ?? 0n;
  for (const d of allDividendAccounts(chain.app.store)) s += d.feeAmount;
  return s;
}

function sequences(chain: TestChain): Map<Address, bigint> {
  return new Map(allAccounts(chain.app.store).map((a) => [a.address, a.sequence]));
}

describe('state machine properties under random valid and invalid transactions', () => {
  it('supply conserved, sequences rise only on success, rejected txs leave no trace, replays never mint twice', () => {
    fc.assert(
      fc.property(fc.array(fc.array(cmd, { minLength: 0, maxLength: 4 }), { minLength: 1, maxLength: 8 }), (blocks) => {
        const w = makeWorld();
        const initial = supply(w.a);
        let minted = 0n;
        // Each (tx_hash, log_index) is minted at most once however often it is relayed.
        const mintedKeys = new Set<string>();
        for (const blockCmds of [...blocks, [], []]) {
          const offsets = new Map<Address, bigint>();
          const txs = blockCmds.map((c) => buildTx(w, c, offsets));
          const seqBefore = sequences(w.a);
          const ra = w.a.block(txs);
          const accepted = txs.filter((_, i) => ra.txs[i]!.code === 0);
          const rb = w.b.block(accepted);
          // The twin never saw the rejected txs, yet ends in the same state.
          expect(rb.txs.every((r) => r.code === 0)).toBe(true);
          expect(w.a.app.appHash).toBe(w.b.app.appHash);

          // Sequences: +1 per accepted tx of that signer, nothing for rejected ones.
          const successes = new Map<Address, bigint>();
          blockCmds.forEach((c, i) => {
            if (ra.txs[i]!.code !== 0) return;
            const signer = w.people[c.t === 'topup' ? c.relayer : c.from]!.address;
            successes.set(signer, (successes.get(signer) ?? 0n) + 1n);
          });
          for (const [addr, seq] of sequences(w.a))
            expect(seq - (seqBefore.get(addr) ?? 0n)).toBe(successes.get(addr) ?? 0n);

          for (const side of ra.end.sideTxResults) {
            for (const ev of side.events) {
              if (ev.type !== 'topup') continue;
              minted += BigInt(ev.attributes['topup-amount']!);
              const key = `${ev.attributes['tx-hash']}/${ev.attributes['log-index']}`;
              expect(mintedKeys.has(key), `minted twice: ${key}`).toBe(false);
              mintedKeys.add(key);
            }
          }
          expect(supply(w.a)).toBe(initial + minted);
        }
        expect(minted <= w.events.reduce((s, e) => s + e.fee, 0n)).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  it('the same genesis and transactions give the same app hash', () => {
    fc.assert(
      fc.property(fc.array(fc.array(cmd, { maxLength: 3 }), { minLength: 1, maxLength: 5 }), (blocks) => {
        const run = () => {
          const w = makeWorld();
          const hashes: string[] = [];
          for (const bc of blocks) {
            const offsets = new Map<Address, bigint>();
            w.a.block(bc.map((c) => buildTx(w, c, offsets)));
            hashes.push(w.a.app.appHash);
          }
          return { hashes, state: w.a.app.exportState() };
        };
        const x = run();
        const y = run();
        expect(y.hashes).toEqual(x.hashes);
        expect(y.state).toBe(x.state);
      }),
      { numRuns: 10 },
    );
  });
});
