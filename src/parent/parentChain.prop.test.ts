/**
 * ParentChain properties over random call sequences (stakes, restakes, unstakes, signer changes,
 * top-ups, state syncs, checkpoints signed by random subsets, blocks at random times):
 *  - determinism: the same calls at the same times give the same block hashes and receipts;
 *  - a failed call changes no contract state and emits nothing;
 *  - log indices count across the block (0, 1, 2, … in receipt order);
 *  - the validator-slot limit always holds, and a stake is refused exactly when no slot is free.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Hex, toHex } from '../core/bytes';
import { ONE_TOKEN } from '../core/amount';
import { ParentChain, type ParentCall } from './parentChain';
import { signCheckpoint, testCheckpoint, testOwner, testSigner, tokens } from './testing/parentTestKit';

const SLOTS = 4;
const KEYS = 7;

/** An op is data, not a call: checkpoints are built against the chain they run on. */
type Op =
  | { kind: 'call'; call: ParentCall }
  /** restake / unstake / updateSigner on an existing validator (picked at run time), mostly by its owner. */
  | {
      kind: 'owned';
      method: 'restake' | 'unstake' | 'updateSigner';
      pick: number;
      byOwner: boolean;
      amount: bigint;
      key: number;
    }
  | { kind: 'checkpoint'; signers: number[]; startShift: bigint; length: bigint; label: string }
  | { kind: 'mine'; afterMs: number };

const who = fc.integer({ min: 0, max: KEYS - 1 });
const validatorId = fc.bigInt({ min: 1n, max: 9n });
const amount = fc.oneof(fc.bigInt({ min: 0n, max: 2n * ONE_TOKEN }), fc.bigInt({ min: 1n, max: 40n }).map(tokens));

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ i: who, amount }).map(
      ({ i, amount }): Op => ({
        kind: 'call',
        call: { method: 'stake', from: testOwner(i), signerPubkey: testSigner(i).pubkey, amount },
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({ i: who, j: who, amount }).map(
      ({ i, j, amount }): Op => ({
        kind: 'call',
        call: {
          method: 'stakeFor',
          from: testOwner(j),
          user: testOwner(i),
          signerPubkey: testSigner(i).pubkey,
          amount,
        },
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({ i: who, id: validatorId, amount }).map(
      ({ i, id, amount }): Op => ({
        kind: 'call',
        call: { method: 'restake', from: testOwner(i), validatorId: id, amount },
      }),
    ),
  },
  {
    weight: 5,
    arbitrary: fc
      .record({
        method: fc.constantFrom('restake' as const, 'unstake' as const, 'updateSigner' as const),
        pick: fc.nat({ max: 20 }),
        byOwner: fc.boolean().chain((b) => (b ? fc.constant(true) : fc.boolean())),
        amount,
        key: fc.integer({ min: 0, max: KEYS + 2 }),
      })
      .map((r): Op => ({ kind: 'owned', ...r })),
  },
  {
    weight: 1,
    arbitrary: fc.record({ i: who, fee: fc.bigInt({ min: 0n, max: 3n }) }).map(
      ({ i, fee }): Op => ({
        kind: 'call',
        call: { method: 'topUpForFee', from: testOwner(i), user: testSigner(i).address, fee },
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ i: who, data: fc.oneof(fc.constant('0x0'), fc.uint8Array({ maxLength: 8 }).map(toHex)) })
      .map(
        ({ i, data }): Op => ({
          kind: 'call',
          call: { method: 'syncState', from: testOwner(i), receiver: testOwner(40), data: data as Hex },
        }),
      ),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({
        signers: fc.uniqueArray(fc.integer({ min: 0, max: KEYS + 2 }), { maxLength: KEYS }),
        startShift: fc.constantFrom(0n, 0n, 0n, 1n, -1n),
        length: fc.bigInt({ min: 0n, max: 300n }),
        label: fc.constantFrom('a', 'b'),
      })
      .map((r): Op => ({ kind: 'checkpoint', ...r })),
  },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 30_000 }).map((afterMs): Op => ({ kind: 'mine', afterMs })) },
);

const OPS = fc.array(opArb, { minLength: 5, maxLength: 40 });

const GENESIS = {
  validators: [0, 1].map((i) => ({ owner: testOwner(i), signerPubkey: testSigner(i).pubkey, amount: tokens(5) })),
};

/** The call an op makes on this chain (checkpoints continue this chain's last one). */
function callOf(chain: ParentChain, op: Exclude<Op, { kind: 'mine' }>): ParentCall {
  if (op.kind === 'call') return op.call;
  if (op.kind === 'owned') {
    const all = chain.stakeManager.allValidators();
    const v = all[op.pick % all.length]!;
    const from = op.byOwner ? v.owner : testOwner(KEYS + 1);
    if (op.method === 'restake') return { method: 'restake', from, validatorId: v.id, amount: op.amount };
    if (op.method === 'unstake') return { method: 'unstake', from, validatorId: v.id };
    return { method: 'updateSigner', from, validatorId: v.id, signerPubkey: testSigner(op.key).pubkey };
  }
  const start = chain.rootChain.nextStartBlock() + op.startShift;
  const cp = testCheckpoint(
    start < 0n ? 0n : start,
    (start < 0n ? 0n : start) + op.length,
    testSigner(0).address,
    op.label,
  );
  return {
    method: 'submitCheckpoint',
    from: testOwner(0),
    checkpoint: cp,
    signatures: signCheckpoint(cp, op.signers.map(testSigner)),
  };
}

/** Run ops with several calls per block; return the chain. */
function runBatched(ops: Op[]): ParentChain {
  const chain = new ParentChain({ validatorSlots: SLOTS }, GENESIS);
  for (const op of ops) {
    if (op.kind === 'mine') chain.mineBlock(chain.head().timeMs + op.afterMs);
    else chain.submit(callOf(chain, op));
  }
  chain.mineBlock(chain.head().timeMs + 1);
  return chain;
}

function blocksOf(chain: ParentChain) {
  const out = [];
  for (let n = 0n; n <= chain.head().number; n++) out.push(chain.block(n)!);
  return out;
}

describe('ParentChain properties', () => {
  it('determinism: the same calls at the same times give the same blocks', () => {
    fc.assert(
      fc.property(OPS, (ops) => {
        const a = runBatched(ops);
        const b = runBatched(ops);
        expect(blocksOf(b).map((x) => x.hash)).toEqual(blocksOf(a).map((x) => x.hash));
        expect(blocksOf(b)).toEqual(blocksOf(a));
        expect(b.stateDigest()).toBe(a.stateDigest());
      }),
      { numRuns: 40 },
    );
  });

  it('log indices count across the block, in receipt order', () => {
    fc.assert(
      fc.property(OPS, (ops) => {
        for (const block of blocksOf(runBatched(ops))) {
          const indices = block.receipts.flatMap((r) => r.logs.map((l) => l.logIndex));
          expect(indices).toEqual(indices.map((_, k) => BigInt(k)));
          for (const r of block.receipts) {
            expect(
              r.logs.every(
                (l) => l.txHash === r.txHash && l.blockNumber === block.number && l.blockHash === block.hash,
              ),
            ).toBe(true);
            if (r.status === 0) expect(r.logs).toEqual([]);
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('a failed call changes nothing; slots are never exceeded; a stake fails on slots exactly when none is free', () => {
    fc.assert(
      fc.property(OPS, (ops) => {
        const chain = new ParentChain({ validatorSlots: SLOTS }, GENESIS);
        for (const op of ops) {
          if (op.kind === 'mine') continue;
          const call = callOf(chain, op);
          const before = chain.stateDigest();
          const freeSlot = chain.stakeManager.slotsInUse() < SLOTS;
          const h = chain.submit(call);
          chain.mineBlock(chain.head().timeMs + 1_000);
          const r = chain.receipt(h)!;
          if (r.status === 0) {
            expect(chain.stateDigest()).toBe(before);
            expect(r.logs).toEqual([]);
          } else {
            expect(r.logs.length).toBeGreaterThan(0);
          }
          if (call.method === 'stake' || call.method === 'stakeFor')
            expect(r.error === 'no more slots').toBe(!freeSlot);
          expect(chain.stakeManager.slotsInUse()).toBeLessThanOrEqual(SLOTS);
        }
      }),
      { numRuns: 40 },
    );
  });
});
