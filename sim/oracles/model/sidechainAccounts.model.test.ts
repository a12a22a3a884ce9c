/**
 * The oracle's accounts model against the sidechain's own execution (src/sidechain/transfers.ts,
 * baseFee.ts), differentially: random blocks of transfers (right and wrong nonces, chain ids, fee
 * caps, tips, gas limits, balances too small, overrides, transfers to oneself and to the author),
 * each run by both on the state the previous block left. Both must accept the same blocks, refuse
 * the same transaction, and leave the same accounts, outcomes and logs (and so the same header
 * bloom); and the base fee formulas agree.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Address } from '../../../src/core/address';
import { type Hex } from '../../../src/core/bytes';
import { type AccountState, applyBalanceOverrides, genesisAccounts } from '../../../src/sidechain/accounts';
import { nextBaseFee } from '../../../src/sidechain/baseFee';
import { blockBloom } from '../../../src/sidechain/block';
import { type SignedTx } from '../../../src/sidechain/transaction';
import { executeTransfers } from '../../../src/sidechain/transfers';
import { logsBloom } from './logsBloom';
import {
  FEE_TOKEN,
  LOG_TRANSFER_TOPIC,
  type ModelAccounts,
  type ModelTx,
  accountIn,
  childBaseFee,
  runTransfers,
  transferLogs,
} from './sidechainAccounts';

const CHAIN_ID = 15001n;
const addr = (i: number) =>
  `0x${String(i + 1)
    .padStart(2, '0')
    .repeat(20)}` as Address;
const USERS = [0, 1, 2, 3].map(addr);
const AUTHOR_CHOICES = [addr(9), USERS[0]!, `0x${'00'.repeat(20)}` as Address];

const txArb = fc.record({
  from: fc.nat({ max: 3 }),
  to: fc.nat({ max: 4 }),
  nonce: fc.bigInt({ min: 0n, max: 3n }),
  wrongChain: fc.boolean().chain((b) => (b ? fc.boolean() : fc.constant(false))),
  type: fc.constantFrom<0 | 2>(0, 2),
  feeCap: fc.bigInt({ min: 0n, max: 60n }),
  tip: fc.bigInt({ min: 0n, max: 60n }),
  gasLimit: fc.constantFrom(20_999n, 21_000n, 21_001n, 30_000n),
  value: fc.bigInt({ min: 0n, max: 400_000n }),
  /** Set the value so that the sender's balance is exactly the cost, give or take one wei. */
  exact: fc.option(fc.constantFrom(-1n, 0n, 1n), { nil: null, freq: 3 }),
});

const blockArb = fc.record({
  baseFee: fc.bigInt({ min: 0n, max: 40n }),
  gasLimit: fc.constantFrom(42_000n, 63_000n, 30_000_000n),
  author: fc.constantFrom(...AUTHOR_CHOICES),
  overrides: fc.array(fc.record({ who: fc.nat({ max: 4 }), balance: fc.bigInt({ min: 0n, max: 2_000_000n }) }), {
    maxLength: 2,
  }),
  txs: fc.array(txArb, { maxLength: 5 }),
});

type TxSpec = typeof txArb extends fc.Arbitrary<infer T> ? T : never;

function signedTx(s: TxSpec, i: number, value = s.value): SignedTx {
  const fee = s.feeCap;
  return {
    raw: '0x' as Hex,
    hash: `0x${i.toString(16).padStart(64, '0')}` as Hex,
    type: s.type,
    chainId: s.wrongChain ? CHAIN_ID + 1n : CHAIN_ID,
    nonce: s.nonce,
    to: s.to === 4 ? AUTHOR_CHOICES[0]! : USERS[s.to]!,
    value,
    gasLimit: s.gasLimit,
    maxFeePerGas: fee,
    // A legacy transaction's gas price is its tip too.
    maxPriorityFeePerGas: s.type === 0 ? fee : s.tip,
    from: USERS[s.from]!,
    r: '0x' as Hex,
    s: '0x' as Hex,
    yParity: 0,
    v: 0n,
  };
}

/** The fact the node would report: legacy with gasPrice, EIP-1559 with both caps. */
function modelTx(t: SignedTx): ModelTx {
  const common = { hash: t.hash, type: t.type, chainId: t.chainId, nonce: t.nonce, from: t.from, to: t.to };
  const rest = { value: t.value, gasLimit: t.gasLimit };
  return t.type === 0
    ? { ...common, ...rest, gasPrice: t.maxFeePerGas }
    : { ...common, ...rest, maxFeePerGas: t.maxFeePerGas, maxPriorityFeePerGas: t.maxPriorityFeePerGas };
}

/** The rule a refusal of the sidechain's code names (its words are geth's). */
function ruleOfReason(reason: string): string {
  if (/invalid chain id/.test(reason)) return 'sidechain.tx.chain-id';
  if (/nonce too/.test(reason)) return 'sidechain.tx.nonce';
  if (/intrinsic gas|gas limit reached/.test(reason)) return 'sidechain.tx.gas';
  if (/max priority fee|max fee per gas less/.test(reason)) return 'sidechain.tx.fee-cap';
  if (/insufficient funds/.test(reason)) return 'sidechain.tx.funds';
  return `unknown: ${reason}`;
}

function sameAccounts(src: AccountState, model: ModelAccounts): void {
  const addresses = new Set<string>([...src.keys(), ...model.keys()]);
  for (const a of addresses) {
    const s = src.get(a as Address) ?? { nonce: 0n, balance: 0n };
    expect({ address: a, ...accountIn(model, a) }).toEqual({ address: a, nonce: s.nonce, balance: s.balance });
  }
}

describe('the sidechain accounts model agrees with the sidechain', () => {
  it('random blocks of transfers: same blocks accepted, same refusal, same accounts and outcomes', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: 3_000_000n }), { minLength: 4, maxLength: 4 }),
        fc.array(blockArb, { minLength: 1, maxLength: 6 }),
        (balances, blocks) => {
          let src: AccountState = genesisAccounts(USERS.map((address, i) => ({ address, balance: balances[i]! })));
          let model: ModelAccounts = new Map([...src].map(([a, x]) => [a as string, x]));
          for (const b of blocks) {
            const overrides = b.overrides.map((o) => ({
              address: o.who === 4 ? AUTHOR_CHOICES[0]! : USERS[o.who]!,
              balance: o.balance,
            }));
            const env = { chainId: CHAIN_ID, baseFee: b.baseFee, gasLimit: b.gasLimit, author: b.author };
            const start = applyBalanceOverrides(src, overrides);
            const txs: SignedTx[] = [];
            for (const [i, spec] of b.txs.entries()) {
              let value = spec.value;
              if (spec.exact !== null) {
                // The sender's balance after the transactions before it: the funds check at its edge.
                const before = executeTransfers(start, txs, env);
                const balance = before.ok ? (before.accounts.get(USERS[spec.from]!)?.balance ?? 0n) : 0n;
                const rest = balance - spec.gasLimit * spec.feeCap + spec.exact;
                if (rest >= 0n) value = rest;
              }
              txs.push(signedTx(spec, i, value));
            }
            const s = executeTransfers(start, txs, env);
            const m = runTransfers(model, overrides, txs.map(modelTx), env);
            expect(m.ok).toBe(s.ok);
            if (!s.ok && !m.ok) {
              refused++;
              expect(s.reason).toMatch(new RegExp(`^transaction ${m.index} `));
              // geth checks the gas pool and the intrinsic gas after the fee cap and the funds;
              // the sidechain's code checks them before: a transaction breaking both is named by
              // one or the other. Otherwise the two name the same rule.
              const srcRule = ruleOfReason(s.reason);
              if (srcRule === 'sidechain.tx.gas')
                expect(['sidechain.tx.gas', 'sidechain.tx.fee-cap', 'sidechain.tx.funds']).toContain(m.rule);
              else expect(m.rule).toBe(srcRule);
              continue;
            }
            if (!s.ok || !m.ok) return;
            accepted++;
            expect(m.outcomes).toEqual(
              s.outcomes.map((o) => ({
                gasUsed: o.gasUsed,
                effectiveGasPrice: o.effectiveGasPrice,
                logs: o.logs.map((l) => ({
                  address: l.address.toLowerCase(),
                  topics: l.topics.map((t) => t.toLowerCase()),
                })),
              })),
            );
            expect(logsBloom(m.outcomes.flatMap((o) => o.logs))).toBe(blockBloom(s.outcomes));
            expect(m.gasUsed).toBe(s.gasUsed);
            sameAccounts(s.accounts, m.accounts);
            src = s.accounts;
            model = m.accounts;
          }
        },
      ),
      { numRuns: 400 },
    );
    // Both kinds of block were met (the generator reaches valid and invalid ones).
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });

  // Every sidechain header carries a base fee (London from genesis): the parent without one, where
  // geth gives the first London block 1 gwei flat, is not reachable and not compared.
  it('the base fee: the same child fee for any London parent', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 40_000_000n }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (baseFee, gasLimit, usedShare) => {
          const gasUsed = (gasLimit * BigInt(Math.round(usedShare * 1000))) / 1000n;
          const src = nextBaseFee({ gasLimit, gasUsed, baseFee });
          expect(childBaseFee({ baseFee, gasLimit, gasUsed })).toBe(src);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('the base fee: known values (at target, one wei up at least, Bor’s 1/16 down from an empty parent)', () => {
    expect(childBaseFee({ baseFee: 1_000n, gasLimit: 100n, gasUsed: 50n })).toBe(1_000n);
    expect(childBaseFee({ baseFee: 10n, gasLimit: 100n, gasUsed: 51n })).toBe(11n);
    expect(childBaseFee({ baseFee: 1_600n, gasLimit: 100n, gasUsed: 0n })).toBe(1_500n);
    expect(childBaseFee({ baseFee: 1_600n, gasLimit: 100n, gasUsed: 100n })).toBe(1_700n);
    expect(childBaseFee({ baseFee: null, gasLimit: 100n, gasUsed: 0n })).toBe(1_000_000_000n);
  });

  it('a transfer’s log: Bor’s LogTransfer from 0x…1010 when it moves value, nothing for 0', () => {
    // Bor core/bor_fee_log.go: transferLogSig, the hash the model computes from the signature.
    expect(LOG_TRANSFER_TOPIC).toBe('0xe6497e3ee548a3372136af2fcb0696db31fc6cf20260707645068bd3fe97f3c4');
    const from = '0x00000000000000000000000000000000000000AB';
    const to = '0x00000000000000000000000000000000000000cd';
    expect(transferLogs({ from, to, value: 1n })).toEqual([
      {
        address: FEE_TOKEN,
        topics: [LOG_TRANSFER_TOPIC, `0x${'00'.repeat(30)}1010`, `0x${'00'.repeat(31)}ab`, `0x${'00'.repeat(31)}cd`],
      },
    ]);
    expect(transferLogs({ from, to, value: 0n })).toEqual([]);
  });
});
