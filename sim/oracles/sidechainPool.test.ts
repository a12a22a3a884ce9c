/**
 * The sidechain-pool oracle on hand-built answers: silent when a node answers as geth's pool does
 * and its pool shows what it answered; fires, naming the rule, when it admits what a check refuses,
 * refuses what every check admits, names another check than the first that fails, takes an
 * underpriced replacement or refuses a good one, or when the pool after the answer is not what the
 * answer said.
 */
import { describe, expect, it } from 'vitest';
import { type Hex } from '../../src/core/bytes';
import { fastScheme } from '../../src/core/signatureScheme';
import { type PoolAdmissionFact, type PooledTxFact } from '../../src/node/observations';
import { fixtureKeys } from '../../src/sidechain/testing/fixture';
import { type TxType, signTransfer } from '../../src/sidechain/transaction';
import { type RunObservation } from '../core/record';
import { SidechainPoolOracle, expectedAnswer } from './sidechainPool';
import { CHAIN_ID, GAS_LIMIT, address, hash, rec, sidechainStarted } from './testing/observations';

const KEY = fixtureKeys('sidechain-pool-oracle')[0]!;
const GWEI = 1_000_000_000n;
/** Each test transaction's bytes, by hash: the oracle reads the fields from them. */
const RAW = new Map<Hex, Hex>();

/** A transfer signed (fast scheme) with these fields, as the node reports it. */
function pooled(nonce: bigint, over: Partial<PooledTxFact> & { type?: TxType } = {}): PooledTxFact {
  const type = over.type ?? 2;
  const fee = over.maxFeePerGas ?? 3n * GWEI;
  const tx = signTransfer(
    {
      type,
      chainId: over.chainId ?? CHAIN_ID,
      nonce,
      to: address(0xb0),
      value: over.value ?? 1n,
      gasLimit: over.gasLimit ?? 21_000n,
      maxFeePerGas: fee,
      maxPriorityFeePerGas: type === 2 ? (over.maxPriorityFeePerGas ?? GWEI) : fee,
    },
    KEY.sk,
    fastScheme,
  );
  RAW.set(tx.hash, tx.raw);
  return {
    hash: tx.hash,
    from: tx.from,
    nonce,
    chainId: tx.chainId,
    gasLimit: tx.gasLimit,
    value: tx.value,
    maxFeePerGas: tx.maxFeePerGas,
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
  };
}

function admission(tx: PooledTxFact, over: Partial<PoolAdmissionFact> = {}): PoolAdmissionFact {
  return {
    raw: RAW.get(tx.hash)!,
    tx,
    head: { hash: hash('head'), number: 7n },
    headGasLimit: GAS_LIMIT,
    account: { nonce: 5n, balance: 10n ** 18n },
    before: [],
    after: [],
    poolSize: 0,
    ...over,
  };
}

function answer(a: PoolAdmissionFact, ok: boolean, error: string | null = null): RunObservation {
  return { kind: 'sidechain.tx', hash: a.tx.hash, ok, error, origin: 'client', admission: a };
}

function judge(...answers: RunObservation[]): SidechainPoolOracle {
  const o = new SidechainPoolOracle();
  o.observe(rec(0, 'sc-1', sidechainStarted()));
  for (const [i, x] of answers.entries()) o.observe(rec(1_000 + i, 'sc-1', x));
  return o;
}

const good = pooled(5n);
const admitted = admission(good, { after: [good] });

describe('sidechain-pool oracle', () => {
  it('silent on answers as geth gives them, each check refused with its words', () => {
    const refusals: Array<[PooledTxFact, string, Partial<PoolAdmissionFact>?]> = [
      [pooled(5n, { chainId: CHAIN_ID + 1n }), `invalid chain id for signer: have ${CHAIN_ID + 1n} want ${CHAIN_ID}`],
      [pooled(5n, { gasLimit: 20_999n }), 'intrinsic gas too low: gas 20999, minimum needed 21000'],
      [pooled(5n, { gasLimit: GAS_LIMIT + 1n }), 'exceeds block gas limit'],
      [pooled(5n, { maxPriorityFeePerGas: 0n }), 'transaction underpriced: tip needed 1, tip permitted 0'],
      [pooled(5n, { maxFeePerGas: 14n, maxPriorityFeePerGas: 1n }), 'transaction underpriced: fee cap 14'],
      [pooled(4n), 'nonce too low: next nonce 5, tx nonce 4'],
      [pooled(5n, { value: 10n ** 18n }), 'insufficient funds for gas * price + value: balance …'],
    ];
    const o = judge(
      answer(admitted, true),
      ...refusals.map(([tx, words]) => answer(admission(tx), false, words)),
      answer(admission(good, { before: [good], after: [good] }), false, 'already known'),
    );
    expect(o.violation).toBeNull();
    expect([...o.exercised].sort()).toEqual(['sidechain.pool.admission', 'sidechain.pool.answer-kept']);
  });

  it('fires when a transaction every check admits is refused (a pool that says no and keeps it)', () => {
    const o = judge(answer(admitted, false, 'x'));
    expect(o.violation).toMatchObject({ oracle: 'sidechain-pool', class: 'safety', atMs: 1_000, node: 'sc-1' });
    expect(o.violation!.message).toMatch(/was refused \("x"\), but it passes every admission check on head 7/);
    expect(o.violation!.evidence).toMatchObject({ rule: 'sidechain.pool.admission', nonce: '5' });
  });

  it('fires when a transaction a check refuses is admitted, naming the check', () => {
    const tx = pooled(5n, { maxPriorityFeePerGas: 0n });
    const o = judge(answer(admission(tx, { after: [tx] }), true));
    expect(o.violation!.message).toMatch(/was admitted; it must be refused: tip 0 < 1/);
    expect(o.violation!.evidence).toMatchObject({ expected: 'transaction underpriced' });
  });

  it('fires when a refusal names another check than the first that fails', () => {
    // Both the nonce and the funds fail; geth names the nonce first.
    const tx = pooled(4n, { value: 10n ** 18n });
    const o = judge(answer(admission(tx), false, 'insufficient funds for gas * price + value'));
    expect(o.violation!.message).toMatch(/the first check it fails is "nonce too low"/);
  });

  it("judges the overdraft: the sender's pooled transactions and this one together", () => {
    const first = pooled(5n);
    const cost = 21_000n * 3n * GWEI;
    const second = pooled(6n, { value: 10n ** 18n - cost });
    const a = admission(second, { before: [first], after: [first, second] });
    expect(expectedAnswer(a, CHAIN_ID)).toMatchObject({ refuse: 'insufficient funds for gas * price + value' });
    expect(judge(answer(a, true)).violation!.message).toMatch(/the cost of the sender's pooled transactions with it/);
    expect(
      judge(answer({ ...a, after: [first] }, false, 'insufficient funds for gas * price + value: …')).violation,
    ).toBeNull();
  });

  it('judges a replacement by the 10% bump on both fees', () => {
    const old = pooled(5n);
    const bump = (capPercent: bigint, tipPercent: bigint) =>
      pooled(5n, {
        maxFeePerGas: (old.maxFeePerGas * capPercent) / 100n,
        maxPriorityFeePerGas: (old.maxPriorityFeePerGas * tipPercent) / 100n,
      });
    const enough = bump(110n, 110n);
    const capShort = bump(109n, 125n);
    const ok = judge(
      answer(admission(enough, { before: [old], after: [enough] }), true),
      answer(admission(capShort, { before: [old], after: [old] }), false, 'replacement transaction underpriced'),
    );
    expect(ok.violation).toBeNull();
    expect(ok.exercised.has('sidechain.pool.replacement')).toBe(true);

    const took = judge(answer(admission(capShort, { before: [old], after: [capShort] }), true));
    expect(took.violation!.message).toMatch(/do not both pay 10% more/);
    expect(took.violation!.evidence).toMatchObject({ rule: 'sidechain.pool.replacement' });

    const refused = judge(
      answer(admission(enough, { before: [old], after: [old] }), false, 'replacement transaction underpriced'),
    );
    expect(refused.violation!.evidence).toMatchObject({ rule: 'sidechain.pool.replacement' });
  });

  it('fires when a cheaper transaction of a pooled nonce is called already known', () => {
    const held = pooled(5n, { maxFeePerGas: 4n * GWEI, maxPriorityFeePerGas: 2n * GWEI });
    const o = judge(answer(admission(good, { before: [held], after: [held] }), false, 'already known'));
    expect(o.violation!.message).toMatch(/the first check it fails is "replacement transaction underpriced"/);
  });

  it('holds the pool after the answer to the answer', () => {
    const other = pooled(6n);
    const cases: Array<[RunObservation, RegExp]> = [
      [answer(admission(good, { after: [] }), true), /was admitted, but the pool does not hold it/],
      [answer(admission(pooled(4n), { after: [pooled(4n)] }), false, 'nonce too low'), /was refused, but .* gained/],
      [
        answer(admission(pooled(4n), { before: [other], after: [] }), false, 'nonce too low'),
        /was refused, but .* lost/,
      ],
      [answer(admission(good, { before: [other], after: [good] }), true), /lost .* \(nonce 6\)/],
    ];
    for (const [obs, message] of cases) {
      const o = judge(obs);
      expect(o.violation?.message).toMatch(message);
      expect(o.violation!.evidence).toMatchObject({ rule: 'sidechain.pool.answer-kept' });
    }
    const old = pooled(5n, { maxFeePerGas: GWEI, maxPriorityFeePerGas: GWEI / 2n });
    const kept = judge(answer(admission(good, { before: [old], after: [old, good] }), true));
    expect(kept.violation!.message).toMatch(/still holds .* which it replaced/);
  });

  it('leaves a limit refusal near the limits unjudged, and judges nothing before the chain starts', () => {
    const full = admission(good, { poolSize: 1024 });
    expect(expectedAnswer(full, CHAIN_ID)).toBe('unjudged');
    expect(judge(answer(full, false, 'txpool is full')).violation).toBeNull();
    const queued = Array.from({ length: 64 }, (_, i) => pooled(10n + BigInt(i)));
    const gapped = pooled(100n);
    const a = admission(gapped, { before: queued, after: queued });
    expect(judge(answer(a, false, 'account limit exceeded: pooled 64 queued txs')).violation).toBeNull();
    const o = new SidechainPoolOracle();
    o.observe(rec(0, 'sc-1', answer(admitted, false, 'x')));
    expect(o.violation).toBeNull();
    expect(o.exercised.size).toBe(0);
  });

  it('reads a decode refusal (no admission facts) as nothing to judge', () => {
    const o = judge({ kind: 'sidechain.tx', hash: null, ok: false, error: 'rlp: …', origin: 'client' });
    expect(o.violation).toBeNull();
    expect(o.exercised.size).toBe(0);
    const back: Hex = hash('reorged');
    expect(judge({ kind: 'sidechain.tx', hash: back, ok: true, error: null, origin: 'reorg' }).violation).toBeNull();
  });

  it('judges on the bytes, and names a field the node read otherwise', () => {
    // A legacy transfer's tip is its gas price; a node that read it as nothing refuses it as underpriced.
    const legacy = pooled(5n, { type: 0, maxFeePerGas: 3n * GWEI });
    const misread = { ...legacy, maxPriorityFeePerGas: 0n };
    const o = judge(answer(admission(misread, { after: [] }), false, 'transaction underpriced: tip needed 1'));
    expect(o.violation!.message).toMatch(/the node read maxPriorityFeePerGas as 0, its bytes say 3000000000/);
    expect(o.violation!.evidence).toMatchObject({ rule: 'sidechain.pool.admission', field: 'maxPriorityFeePerGas' });
    expect(judge(answer(admission(legacy, { after: [legacy] }), true)).violation).toBeNull();
    const garbled = judge(answer({ ...admission(good, { after: [good] }), raw: '0x01' }, true));
    expect(garbled.violation!.message).toMatch(/its bytes do not read as a transfer/);
  });
});
