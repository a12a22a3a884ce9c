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
import { type Hex, toHex } from '../../src/core/bytes';
import { keccak256Bytes } from '../../src/core/hash';
import { type AccountState } from '../../src/sidechain/accounts';
import { type SignedTx } from '../../src/sidechain/transaction';
import { TxPool } from '../../src/sidechain/txPool';
import { admissionFact } from '../../src/node/sidechain/sidechainFacts';
import { SidechainPoolOracle } from './sidechainPool';
import { CHAIN_ID, address, rec, sidechainStarted } from './testing/observations';

const GAS_LIMIT = 100_000n;
const SENDERS: Address[] = [address(0xa1), address(0xb2)];
const GWEI = 1_000_000_000n;

const draft = fc.record({
  sender: fc.nat({ max: SENDERS.length - 1 }),
  nonce: fc.integer({ min: 2, max: 8 }),
  type: fc.constantFrom(0, 2),
  fee: fc.constantFrom(14n, 15n, GWEI, (GWEI * 109n) / 100n, (GWEI * 110n) / 100n, 2n * GWEI, 3n * GWEI),
  tip: fc.constantFrom(0n, 1n, GWEI / 2n, GWEI, (GWEI * 110n) / 100n),
  gas: fc.constantFrom(20_999n, 21_000n, 30_000n, GAS_LIMIT, GAS_LIMIT + 1n),
  value: fc.constantFrom(1n, 10n ** 14n, 10n ** 15n),
  /** One in twenty on another chain. */
  chainFlip: fc.integer({ min: 0, max: 19 }),
});

type Draft = typeof draft extends fc.Arbitrary<infer T> ? T : never;

/** A transaction as the pool reads it (the fields a signed transfer carries; no signature needed here). */
function txOf(d: Draft): SignedTx {
  const tip = d.type === 2 ? d.tip : d.fee;
  const fields = {
    type: d.type,
    chainId: d.chainFlip === 0 ? CHAIN_ID + 1n : CHAIN_ID,
    nonce: BigInt(d.nonce),
    to: SENDERS[0]!,
    value: d.value,
    gasLimit: d.gas,
    maxFeePerGas: d.fee,
    maxPriorityFeePerGas: tip,
    from: SENDERS[d.sender]!,
  };
  const hash = toHex(
    keccak256Bytes(
      new TextEncoder().encode(JSON.stringify(fields, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}` : v))),
    ),
  );
  // Two draws with the same fields are the same transaction (same hash): `already known`.
  return { ...fields, hash, raw: hash, r: '0x00' as Hex, s: '0x00' as Hex, yParity: 0, v: 0n } as unknown as SignedTx;
}

describe('sidechain-pool oracle against the node pool', () => {
  it("every answer of the pool, and the pool after it, passes the oracle's model", () => {
    fc.assert(
      fc.property(
        fc.array(draft, { minLength: 1, maxLength: 40 }),
        fc.constantFrom(10n ** 15n, 2n * 10n ** 15n, 10n ** 18n),
        (drafts, balance) => {
          const accounts: AccountState = new Map(SENDERS.map((a) => [a, { nonce: 3n, balance }])) as AccountState;
          const head = { accounts, chainId: CHAIN_ID, gasLimit: GAS_LIMIT };
          const pool = new TxPool();
          const oracle = new SidechainPoolOracle();
          oracle.observe(rec(0, 'sc-1', sidechainStarted()));
          const answers: string[] = [];
          drafts.forEach((d, i) => {
            const tx = txOf(d);
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
