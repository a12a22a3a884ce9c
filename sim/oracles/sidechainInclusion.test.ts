/**
 * The sidechain-inclusion oracle on hand-built records: silent when an admitted next-in-line
 * transfer (or another of its sender's with its nonce) is on a chain in time, on queued ones, and
 * on promises a fault voids or that come before the network settled; fires when a block that far
 * comes and the transfer is on no chain; judges nothing on a lossy network.
 */
import { describe, expect, it } from 'vitest';
import { type Address } from '../../src/core/address';
import { type Hex } from '../../src/core/bytes';
import { type PooledTxFact, type SidechainBlockFact } from '../../src/node/observations';
import { type RunObservation } from '../core/record';
import { INCLUSION_BLOCKS, SETTLE_MS, SidechainInclusionOracle } from './sidechainInclusion';
import { address, hash, imported, inTurnChain, rec } from './testing/observations';

const ALICE: Address = address(0xa1);
const chain = inTurnChain(12);

function pooled(nonce: bigint): PooledTxFact {
  return {
    hash: hash(`alice-${nonce}`),
    from: ALICE,
    nonce,
    chainId: 15001n,
    gasLimit: 21_000n,
    value: 1n,
    maxFeePerGas: 3n,
    maxPriorityFeePerGas: 1n,
  };
}

/** Alice's transfer admitted at head `head` (account nonce 0, `also` pooled beside it). */
function admitted(nonce: bigint, head: number, also: bigint[] = []): RunObservation {
  const tx = pooled(nonce);
  return {
    kind: 'sidechain.tx',
    hash: tx.hash,
    ok: true,
    error: null,
    origin: 'client',
    admission: {
      raw: '0x' as Hex,
      tx,
      head: { hash: chain[head]!.hash, number: chain[head]!.number },
      headGasLimit: 30_000_000n,
      account: { nonce: 0n, balance: 10n ** 18n },
      before: also.map(pooled),
      after: [...also, nonce].map(pooled),
      poolSize: also.length,
    },
  };
}

/** Block `i` of the chain, carrying Alice's transfers of these nonces. */
function block(i: number, nonces: bigint[] = []): RunObservation {
  const b: SidechainBlockFact = {
    ...chain[i]!,
    ...(nonces.length
      ? {
          transfers: {
            balances: [],
            txs: nonces.map((n) => ({
              hash: hash(`alice-${n}`),
              type: 2,
              chainId: 15001n,
              nonce: n,
              from: ALICE,
              r: '0x01' as Hex,
              s: '0x01' as Hex,
              yParity: 0 as const,
              to: ALICE,
              value: 1n,
              gasLimit: 21_000n,
              maxFeePerGas: 3n,
              maxPriorityFeePerGas: 1n,
              gasUsed: 21_000n,
              effectiveGasPrice: 2n,
            })),
            accounts: [],
          },
        }
      : {}),
  };
  return imported(b);
}

function judge(records: Array<[number, RunObservation]>, lossy = false): SidechainInclusionOracle {
  const o = new SidechainInclusionOracle(lossy);
  for (const [t, obs] of records) o.observe(rec(t, 'sc-1', obs));
  return o;
}

const far = Number(INCLUSION_BLOCKS) + 1;

describe('sidechain-inclusion oracle', () => {
  it('silent when the next-in-line transfer is on a chain in time, or its nonce is taken', () => {
    const o = judge([
      [1_000, block(1)],
      [2_000, admitted(0n, 1)],
      [3_000, block(2, [0n])],
      [4_000, admitted(1n, 2)],
      // Nonce 1 taken by another transfer of Alice's (same nonce, sent elsewhere): kept.
      [5_000, block(3, [1n])],
      [9_000, block(far + 2)],
    ]);
    expect(o.violation).toBeNull();
    expect([...o.exercised]).toEqual(['sidechain.pool.included']);
  });

  it('fires when a block that far comes and the transfer is on no chain', () => {
    const o = judge([
      [1_000, block(1)],
      [2_000, admitted(0n, 1)],
      [3_000, block(2)],
      [9_000, block(far)],
    ]);
    expect(o.violation).toMatchObject({ oracle: 'sidechain-inclusion', class: 'liveness', node: 'sc-1', atMs: 9_000 });
    expect(o.violation!.message).toMatch(/admitted by sc-1 at 2000 ms as next in line, is on no chain by block 10/);
    expect(o.violation!.evidence).toMatchObject({ rule: 'sidechain.pool.included', nonce: '0' });
  });

  it('counts from the highest block seen, not from a lagging node’s head', () => {
    const o = judge([
      [1_000, block(4)],
      // The node that admits it is still at block 1.
      [2_000, admitted(0n, 1)],
      [9_000, block(far)],
    ]);
    expect(o.violation).toBeNull();
  });

  it('promises nothing for a queued transfer, in a fault, before the network settled, or on a lossy network', () => {
    const queued = judge([
      [2_000, admitted(3n, 1)],
      [9_000, block(far)],
    ]);
    expect(queued.violation).toBeNull();
    const fault = { index: 0, fault: 'crash', detail: 'sc-2', permanent: false, atHeight: null };
    const voided = judge([
      [2_000, admitted(0n, 1)],
      [3_000, { kind: 'fault.start', ...fault }],
      [4_000, { kind: 'fault.end', ...fault }],
      [4_000 + SETTLE_MS - 1, admitted(0n, 1)],
      [4_000 + SETTLE_MS + 1_000, block(far)],
    ]);
    expect(voided.violation).toBeNull();
    expect(
      judge(
        [
          [2_000, admitted(0n, 1)],
          [9_000, block(far)],
        ],
        true,
      ).violation,
    ).toBeNull();
  });

  it('a transfer right after the sender’s other pooled ones is next in line too', () => {
    const o = judge([
      [2_000, admitted(1n, 1, [0n])],
      [3_000, block(2, [0n])],
      [9_000, block(far)],
    ]);
    expect(o.violation!.evidence).toMatchObject({ nonce: '1' });
  });
});
