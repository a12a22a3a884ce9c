/**
 * Property: whatever bytes a client sends to `eth_sendRawTransaction` (arbitrary bytes, signed
 * transfers with any field values, including a tip above the fee cap, zero fees and the high-s
 * twin of a signature, and those transfers mutated: a bit flipped, cut short, extended, a field
 * swapped), the answer is a hash or an error a client can read (-32000 with geth's words, or
 * -32602 for an argument that is not bytes), never `-32603 method handler crashed`; and every
 * answered hash is one the pool holds, so that, mined at the lowest base fee the chain reaches,
 * the pool ends with nothing but transactions waiting behind a nonce gap (which the sender can
 * still fill), and each answered hash was mined, is waiting behind a gap, or was replaced by the
 * sender's own later transaction. Nothing can sit in the pool that can never be mined.
 *
 * The node side is the devnet's path: the node's projected pool checks the transaction (the
 * answer), then the node takes it in (sidechainTxs.ts, txIntake.ts).
 */
import { RLP } from '@ethereumjs/rlp';
import { Transaction, getBytes, keccak256 } from 'ethers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Hex, fromHex, toHex } from '../../core/bytes';
import { addressOfPublicKey, publicKeyBytesFromPrivateKey } from '../../core/secp256k1';
import { rawTransfer } from '../../sidechain/testing/rawTransfers';
import { accountOf } from '../../sidechain/accounts';
import { MIN_BASE_FEE } from '../../sidechain/baseFee';
import { SidechainChain } from '../../sidechain/chain';
import { chainReadPort } from '../../sidechain/readPort';
import {
  FIXTURE_BALANCE,
  FIXTURE_CONFIG,
  fixtureAlloc,
  fixtureKeys,
  fixtureProducers,
} from '../../sidechain/testing/fixture';
import { selectTransfers } from '../../sidechain/transfers';
import { SidechainTxIntake } from '../../node/sidechain/txIntake';
import { type SidechainView } from '../ports';
import { answerJsonRpc } from './jsonRpcEnvelope';

const keys = fixtureKeys('send-raw-prop');
/** Two funded senders and one with nothing. */
const FUNDED = keys.slice(0, 2);
const BROKE_SK = toHex(getBytes(keccak256(new TextEncoder().encode('broke'))));
const BROKE = { sk: BROKE_SK, address: addressOfPublicKey(publicKeyBytesFromPrivateKey(BROKE_SK)) };
const SENDERS = [...FUNDED, BROKE];
const CHAIN_ID = FIXTURE_CONFIG.chainId;
const LIMITS = { batchItemLimit: 0, batchResponseMaxBytes: 0 };

interface Fields {
  type: 0 | 2;
  chainId: bigint;
  nonce: bigint;
  to: number;
  value: bigint;
  gasLimit: bigint;
  maxFeePerGas: bigint;
  tip: bigint;
  sender: number;
  highS: boolean;
}

/** The fields' transfer, signed by its sender (a tip above the fee cap and a high s included). */
const signed = (f: Fields): Hex =>
  rawTransfer({ ...f, to: keys[f.to]!.address, highS: f.highS }, SENDERS[f.sender]!.sk);

/** A transfer as a wallet builds it: the right chain, 21,000 gas, fees around a gwei, a small value. */
const walletFields: fc.Arbitrary<Fields> = fc.record({
  type: fc.constantFrom(0 as const, 2 as const),
  chainId: fc.constant(CHAIN_ID),
  nonce: fc.bigInt({ min: 0n, max: 5n }),
  to: fc.nat({ max: keys.length - 1 }),
  value: fc.constantFrom(0n, 1n, 10n ** 18n),
  gasLimit: fc.constant(21_000n),
  maxFeePerGas: fc.constantFrom(2n * 10n ** 9n, 3n * 10n ** 9n, 5n * 10n ** 9n),
  tip: fc.constantFrom(10n ** 9n, 10n ** 8n, 2n * 10n ** 9n),
  sender: fc.constantFrom(0, 1),
  highS: fc.constant(false),
});

/** One field a wallet would not send, or a sender that cannot pay: each of the pool's refusals. */
const spoiler: fc.Arbitrary<Partial<Fields>> = fc.oneof(
  fc.record({ chainId: fc.constantFrom(1n, 0n, CHAIN_ID + 1n) }),
  fc.record({ value: fc.constantFrom(FIXTURE_BALANCE / 2n, FIXTURE_BALANCE, 2n ** 255n) }),
  fc.record({ gasLimit: fc.constantFrom(0n, 20_999n, 30_000n, 10n ** 12n, 2n ** 64n) }),
  fc.record({ maxFeePerGas: fc.constantFrom(0n, 1n, 14n, 15n, 16n, 2n ** 200n) }),
  fc.record({ tip: fc.constantFrom(0n, 1n, 4n * 10n ** 9n, 2n ** 201n) }),
  fc.record({ maxFeePerGas: fc.constantFrom(0n, 14n, 15n, 16n), tip: fc.constantFrom(0n, 1n, 14n) }),
  fc.record({ sender: fc.constant(2) }),
  fc.record({ highS: fc.constant(true) }),
  fc.record({ nonce: fc.bigInt({ min: 6n, max: 200n }) }),
);

const fields: fc.Arbitrary<Fields> = fc
  .tuple(walletFields, fc.option(spoiler, { freq: 2 }))
  .map(([f, spoil]) => ({ ...f, ...(spoil ?? {}) }));

type Mutation =
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'cut'; at: number }
  | { kind: 'extend'; bytes: Uint8Array }
  | { kind: 'field'; index: number; value: Uint8Array };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.nat({ max: 7 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('extend' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
  fc.record({
    kind: fc.constant('field' as const),
    index: fc.nat({ max: 12 }),
    value: fc.uint8Array({ maxLength: 40 }),
  }),
);

function mutate(raw: Hex, m: Mutation): Hex {
  const b = fromHex(raw);
  switch (m.kind) {
    case 'flip': {
      const c = b.slice();
      const i = m.at % c.length;
      c[i] = c[i]! ^ (1 << m.bit);
      return toHex(c);
    }
    case 'cut':
      return toHex(b.subarray(0, m.at % b.length));
    case 'extend':
      return toHex(new Uint8Array([...b, ...m.bytes]));
    case 'field': {
      // Replace one item of the signed list: the signature no longer fits, or fits another sender.
      const typed = b[0]! < 0x80;
      const list = RLP.decode(typed ? b.subarray(1) : b) as Uint8Array[];
      list[m.index % list.length] = m.value;
      const enc = RLP.encode(list);
      return toHex(typed ? new Uint8Array([b[0]!, ...enc]) : enc);
    }
  }
}

type Sent =
  | { kind: 'signed'; f: Fields }
  | { kind: 'mutated'; f: Fields; m: Mutation }
  | { kind: 'bytes'; b: Uint8Array };

const sent: fc.Arbitrary<Sent> = fc.oneof(
  { weight: 5, arbitrary: fields.map((f) => ({ kind: 'signed' as const, f })) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('mutated' as const), f: fields, m: mutation }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 120 }).map((b) => ({ kind: 'bytes' as const, b })) },
);

function rawOf(s: Sent): Hex {
  if (s.kind === 'bytes') return toHex(s.b);
  const raw = signed(s.f);
  return s.kind === 'signed' ? raw : mutate(raw, s.m);
}

describe('eth_sendRawTransaction over any bytes', () => {
  it('answers a hash or a readable error, never a crash; every answered hash is mined or waits behind a gap', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(sent, { minLength: 1, maxLength: 30, size: 'max' }), async (sends) => {
        const chain = new SidechainChain(FIXTURE_CONFIG, {
          timeS: 1000n,
          producers: fixtureProducers(keys),
          alloc: fixtureAlloc(FUNDED),
        });
        const intake = new SidechainTxIntake(chain);
        const view = (): SidechainView => ({
          chain: chainReadPort(chain),
          chainId: CHAIN_ID,
          peerCount: 0,
          syncing: null,
          pool: {
            pendingNonce: (a) => intake.pendingNonce(a),
            transaction: (h) => intake.pool.get(h),
          },
          submit: async (raw) => {
            // The devnet's path: checked against the pool (with what is on its way: nothing here), then taken in.
            const c = intake.projected([]).check(raw);
            if (!c.ok) return c;
            const r = intake.submit(raw);
            expect(r.verdict, 'the node takes in what the check let through').toMatchObject({ ok: true });
            return { ok: true, hash: c.tx.hash };
          },
        });
        const answered: Array<{ hash: Hex; raw: Hex }> = [];
        for (const s of sends) {
          const raw = rawOf(s);
          const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] });
          const a = JSON.parse((await answerJsonRpc(body, view, LIMITS))!) as {
            result?: Hex;
            error?: { code: number; message: string };
          };
          if (a.error) {
            expect(a.error.code, `${raw}: ${a.error.message}`).not.toBe(-32603);
            expect([-32000, -32602]).toContain(a.error.code);
            expect(a.error.message.length).toBeGreaterThan(0);
          } else {
            expect(a.result).toMatch(/^0x[0-9a-f]{64}$/);
            expect(intake.pool.has(a.result!)).toBe(true);
            answered.push({ hash: a.result!, raw });
          }
        }
        // Mine at the lowest base fee the chain reaches, until nothing more runs.
        let accounts = chain.head().accounts;
        const mined = new Set<Hex>();
        const env = {
          chainId: CHAIN_ID,
          baseFee: MIN_BASE_FEE,
          gasLimit: chain.head().block.header.gasLimit,
          author: keys[3]!.address,
        };
        for (;;) {
          const picked = selectTransfers(accounts, intake.pool.candidates(accounts, MIN_BASE_FEE), env, 1000);
          if (picked.txs.length === 0) break;
          for (const t of picked.txs) mined.add(t.hash);
          accounts = picked.accounts;
          intake.pool.prune(accounts);
        }
        const left = intake.pool.content(accounts);
        expect(
          left.pending.map((t) => t.hash),
          'nothing executable is left unmined',
        ).toEqual([]);
        for (const t of left.queued) expect(t.nonce).toBeGreaterThan(accountOf(accounts, t.from).nonce);
        for (const a of answered) {
          if (mined.has(a.hash) || left.queued.some((t) => t.hash === a.hash)) continue;
          // Otherwise the sender replaced it with a later answered transaction of the same nonce.
          const mine = Transaction.from(a.raw);
          const replacedBy = answered.slice(answered.indexOf(a) + 1).some((b) => {
            const o = Transaction.from(b.raw);
            return o.from === mine.from && o.nonce === mine.nonce;
          });
          expect(replacedBy, `answered ${a.hash} was neither mined, nor waiting, nor replaced`).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
