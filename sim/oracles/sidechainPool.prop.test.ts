/**
 * The sidechain-pool oracle's model against the node's pool (src/sidechain/txPool.ts), two pieces of
 * code that share nothing: random transactions near every admission check's edge (nonces around the
 * account's, fees around the 10% bump and the lowest base fee, values around the balance, gas
 * around 21,000 and the block limit, another chain id) go into a pool one after another, and each
 * answer, with the pool before and after it as a node reports them, must pass the oracle. A
 * disagreement is a bug in one of the two.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Address } from '../../src/core/address';
import { type Hex } from '../../src/core/bytes';
import { fastScheme } from '../../src/core/signatureScheme';
import { fixtureKeys } from '../../src/sidechain/testing/fixture';
import { type AccountState } from '../../src/sidechain/accounts';
import { type SignedTx, type TxType, signTransfer } from '../../src/sidechain/transaction';
import { TxPool } from '../../src/sidechain/txPool';
import { admissionFact } from '../../src/node/sidechain/sidechainFacts';
import { SidechainPoolOracle } from './sidechainPool';
import { CHAIN_ID, address, rec, sidechainStarted } from './testing/observations';

const GAS_LIMIT = 100_000n;
const KEYS = fixtureKeys('sidechain-pool-prop').slice(0, 2);
const GWEI = 1_000_000_000n;

const draft = fc.record({
  sender: fc.nat({ max: KEYS.length - 1 }),
  nonce: fc.integer({ min: 2, max: 8 }),
  type: fc.constantFrom(0, 2),
  fee: fc.constantFrom(14n, 15n, GWEI, (GWEI * 109n) / 100n, (GWEI * 110n) / 100n, 2n * GWEI, 3n * GWEI),
  tip: fc.constantFrom(0n, 1n, GWEI / 2n, GWEI, (GWEI * 110n) / 100n),
  gas: fc.constantFrom(20_999n, 21_000n, 30_000n, GAS_LIMIT, GAS_LIMIT + 1n),
  value: fc.constantFrom(1n, 10n ** 14n, 10n ** 15n),
  /** One in twenty on another chain. */
  chainFlip: fc.integer({ min: 0, max: 19 }),
});

/** A key's address in the fast scheme (what its signed transfers recover to). */
function fastAddress(k: (typeof KEYS)[number]): Address {
  return signTransfer(
    { type: 2, chainId: CHAIN_ID, nonce: 0n, to: k.address, value: 0n, gasLimit: 21_000n, maxFeePerGas: 1n },
    k.sk,
    fastScheme,
  ).from;
}

type Draft = typeof draft extends fc.Arbitrary<infer T> ? T : never;

/**
 * The transfer a draft describes, signed (fast scheme) by its sender's key; null for a tip above
 * the fee cap, which no wallet can sign and the node's decoder refuses before its pool.
 */
function txOf(d: Draft): SignedTx | null {
  const tip = d.type === 2 ? d.tip : d.fee;
  if (tip > d.fee) return null;
  // Two draws with the same fields are the same transaction (same bytes, same hash): `already known`.
  return signTransfer(
    {
      type: d.type as TxType,
      chainId: d.chainFlip === 0 ? CHAIN_ID + 1n : CHAIN_ID,
      nonce: BigInt(d.nonce),
      to: address(0xb0),
      value: d.value,
      gasLimit: d.gas,
      maxFeePerGas: d.fee,
      maxPriorityFeePerGas: tip,
    },
    KEYS[d.sender]!.sk,
    fastScheme,
  );
}

describe('sidechain-pool oracle against the node pool', () => {
  it("every answer of the pool, and the pool after it, passes the oracle's model", () => {
    fc.assert(
      fc.property(
        fc.array(draft, { minLength: 1, maxLength: 40 }),
        fc.constantFrom(10n ** 15n, 2n * 10n ** 15n, 10n ** 18n),
        (drafts, balance) => {
          const accounts: AccountState = new Map(
            KEYS.map((k) => [fastAddress(k), { nonce: 3n, balance }]),
          ) as AccountState;
          const head = { accounts, chainId: CHAIN_ID, gasLimit: GAS_LIMIT };
          const pool = new TxPool();
          const oracle = new SidechainPoolOracle();
          oracle.observe(rec(0, 'sc-1', sidechainStarted()));
          const answers: string[] = [];
          drafts.forEach((d, i) => {
            const tx = txOf(d);
            if (tx === null) return;
            const before = pool.ofSender(tx.from);
            const poolSize = pool.size;
            const r = pool.add(tx, head);
            // The facts as the node builds them for its report (sidechainFacts.ts).
            const admission = admissionFact(tx, { hash: '0x01' as Hex, number: 1n }, head, {
              before,
              after: pool.ofSender(tx.from),
              poolSize,
            });
            answers.push(r.ok ? 'ok' : r.error.split(':')[0]!);
            oracle.observe(
              rec(i + 1, 'sc-1', {
                kind: 'sidechain.tx',
                hash: tx.hash,
                ok: r.ok,
                error: r.ok ? null : r.error,
                origin: 'client',
                admission,
              }),
            );
          });
          expect(oracle.violation, answers.join(', ')).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });
});
