/**
 * Spans through the real app: the genesis span, MsgProposeSpan (deliver checks, the spec's
 * proposal window in the side vote, producer selection in the post handler, post-time replay)
 * and the span queries in the spec's Span / Validator shapes.
 */
import { restQuery } from '../../rpc/testing/restQuery';
import { describe, expect, it } from 'vitest';
import { type Address, compareAddresses } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { TestChain, testKey, TOKEN, type AccountJson } from '../../app/testing/testChain';
import { fakeTxHash as labelTxHash } from '../../app/testing/fakeObservers';
import { type SideTxResult, type TxResult } from '../../app/blockResults';
import { MsgSignerUpdateDef, MsgValidatorExitDef, MsgValidatorJoinDef } from '../staking/msgs';
import { MsgProposeSpanDef, type MsgProposeSpan } from './msgs';
import { selectNextProducers } from './selection';

// --- helpers ---------------------------------------------------------------------------------

const SIDECHAIN_CHAIN_ID = '15001';
const VALIDATOR_KEYS = ['ID', 'startEpoch', 'endEpoch', 'power', 'pubKey', 'signer', 'last_updated', 'accum'];
const SPAN_KEYS = ['span_id', 'start_block', 'end_block', 'validator_set', 'selected_producers', 'sidechain_chain_id'];

let hashCounter = 0;
const fakeTxHash = (label: string): Hex => labelTxHash(`sidechain-msgs-test/${label}/${hashCounter++}`);

interface ValidatorJson {
  ID: number;
  startEpoch: number;
  endEpoch: number;
  power: number;
  pubKey: Hex;
  signer: Address;
  last_updated: string | number;
  accum: number;
}

interface SpanJson {
  span_id: number;
  start_block: number;
  end_block: number;
  validator_set: { validators: ValidatorJson[]; proposer: ValidatorJson | null };
  selected_producers: ValidatorJson[];
  sidechain_chain_id: string;
}

function span(chain: TestChain, id: number): SpanJson {
  return chain.queryResult<SpanJson>(`/sidechain/span/${id}`);
}

function latestSpan(chain: TestChain): SpanJson {
  return chain.queryResult<SpanJson>('/sidechain/latest-span');
}

function proposeMsg(chain: TestChain, over: Partial<MsgProposeSpan> = {}): MsgProposeSpan {
  return {
    spanId: 1n,
    proposer: chain.validators[0]!.address,
    startBlock: 256n,
    endBlock: 1855n,
    sidechainChainId: SIDECHAIN_CHAIN_ID,
    ...over,
  };
}

/** Next span after the latest one, as the bridge computes it (id + 1, end + 1, span_duration). */
function nextSpanMsg(chain: TestChain, over: Partial<MsgProposeSpan> = {}): MsgProposeSpan {
  const last = latestSpan(chain);
  const startBlock = BigInt(last.end_block) + 1n;
  return proposeMsg(chain, { spanId: BigInt(last.span_id) + 1n, startBlock, endBlock: startBlock + 1599n, ...over });
}

function propose(chain: TestChain, msg: MsgProposeSpan): { tx: TxResult; side: SideTxResult[] } {
  const key = chain.validators.find((v) => v.address === msg.proposer)!;
  const r = chain.blockAndSettle([chain.tx(MsgProposeSpanDef, msg, key)]);
  return { tx: r.txs[0]!, side: r.side };
}

function expectOk(r: TxResult | SideTxResult | undefined): void {
  expect(r, 'result present').toBeDefined();
  expect({ code: r!.code, log: r!.log }).toEqual({ code: 0, log: '' });
}

function expectRejected(r: TxResult | SideTxResult | undefined, code: number, message?: string): void {
  expect(r, 'result present').toBeDefined();
  expect({ code: r!.code, codespace: r!.codespace }).toEqual({ code, codespace: '1' });
  const log = JSON.parse(r!.log) as { code: number; codespace: string; message: string };
  expect(log).toMatchObject({ code, codespace: '1' });
  if (message !== undefined) expect(log.message).toBe(message);
}

function sequenceOf(chain: TestChain, address: Address): string {
  return chain.queryResult<AccountJson>(`/auth/accounts/${address}`).value.sequence;
}

function bySigner<T extends { signer: Address }>(xs: readonly T[]): T[] {
  return [...xs].sort((a, b) => compareAddresses(a.signer, b.signer));
}

/** The expected producers: slots won per id with `selectNextProducers`, sorted by signer. */
function expectedProducers(
  eligible: ReadonlyArray<{ id: bigint; power: bigint; signer: Address }>,
  seed: Hex,
  producerCount: number,
): Array<{ ID: number; power: number; signer: Address }> {
  const ordered = bySigner(eligible);
  const ids = selectNextProducers(seed, ordered, producerCount);
  const counts = new Map<bigint, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return ordered
    .filter((v) => counts.has(v.id))
    .map((v) => ({ ID: Number(v.id), power: counts.get(v.id)!, signer: v.signer }));
}

function expectValidatorShape(v: ValidatorJson, form: 'span' | 'info'): void {
  expect(Object.keys(v)).toEqual(VALIDATOR_KEYS);
  for (const k of ['ID', 'startEpoch', 'endEpoch', 'power', 'accum'] as const)
    expect(Number.isSafeInteger(v[k]), k).toBe(true);
  expect(v.pubKey).toMatch(/^0x04[0-9a-f]{128}$/);
  expect(v.signer).toMatch(/^0x[0-9a-f]{40}$/);
  if (form === 'span') expect(v.last_updated).toBe('');
  else expect(typeof v.last_updated).toBe('number');
}

function expectSpanShape(s: SpanJson): void {
  expect(Object.keys(s)).toEqual(SPAN_KEYS);
  expect(Object.keys(s.validator_set)).toEqual(['validators', 'proposer']);
  for (const v of s.validator_set.validators) expectValidatorShape(v, 'span');
  expectValidatorShape(s.validator_set.proposer!, 'span');
  for (const v of s.selected_producers) expectValidatorShape(v, 'span');
  expect(typeof s.sidechain_chain_id).toBe('string');
}

const powers6 = [3n, 5n, 7n, 11n, 13n, 17n];

// --- genesis span ----------------------------------------------------------------------------

describe('genesis span', () => {
  it('span 0 covers blocks 0..255 with the first 4 validators by signer address at full power', () => {
    const chain = new TestChain({ validators: 6, powers: powers6 });
    const s0 = span(chain, 0);
    expectSpanShape(s0);
    expect(s0).toMatchObject({ span_id: 0, start_block: 0, end_block: 255, sidechain_chain_id: SIDECHAIN_CHAIN_ID });
    const all = chain.validators.map((k, i) => ({
      ID: i + 1,
      signer: k.address,
      power: Number(powers6[i]!),
      pubKey: k.pubKey,
    }));
    const sorted = bySigner(all);
    expect(
      s0.validator_set.validators.map((v) => ({ ID: v.ID, signer: v.signer, power: v.power, pubKey: v.pubKey })),
    ).toEqual(sorted);
    expect(
      s0.selected_producers.map((v) => ({ ID: v.ID, signer: v.signer, power: v.power, pubKey: v.pubKey })),
    ).toEqual(sorted.slice(0, 4));
    expect(latestSpan(chain)).toEqual(s0);
  });

  it('with fewer validators than producer_count every validator produces', () => {
    const chain = new TestChain({ validators: 2, powers: [9n, 4n] });
    const s0 = span(chain, 0);
    expect(s0.selected_producers.map((v) => [v.ID, v.power])).toEqual(
      bySigner(chain.validators.map((k, i) => ({ signer: k.address, id: i + 1, p: i === 0 ? 9 : 4 }))).map((v) => [
        v.id,
        v.p,
      ]),
    );
  });
});

// --- MsgProposeSpan: success ------------------------------------------------------------------

describe('MsgProposeSpan success', () => {
  it('records span 1 (256..1855) with all <= producer_count eligible validators at their real power', () => {
    const powers = [7n, 11n, 13n, 17n];
    const chain = new TestChain({ powers });
    const msg = proposeMsg(chain);
    const h = chain.block([chain.tx(MsgProposeSpanDef, msg, chain.validators[0]!)]);
    expectOk(h.txs[0]);
    // Deliver changes nothing but the sender's account.
    expect(latestSpan(chain).span_id).toBe(0);
    expect(restQuery(chain.app, '/sidechain/span/1').status).toBe(500);
    chain.block();
    const h2 = chain.block();
    const side = h2.end.sideTxResults[0];
    expectOk(side);
    expect(side!.msgType).toBe('sidechain/MsgProposeSpan');
    expect(side!.events).toContainEqual({
      type: 'propose-span',
      attributes: { 'span-id': '1', 'start-block': '256', 'end-block': '1855' },
    });

    const s1 = span(chain, 1);
    expectSpanShape(s1);
    expect(s1).toMatchObject({ span_id: 1, start_block: 256, end_block: 1855, sidechain_chain_id: SIDECHAIN_CHAIN_ID });
    const expected = bySigner(
      chain.validators.map((k, i) => ({ ID: i + 1, signer: k.address, power: Number(powers[i]!) })),
    );
    expect(s1.selected_producers.map((v) => ({ ID: v.ID, signer: v.signer, power: v.power }))).toEqual(expected);
    expect(s1.validator_set.validators.map((v) => ({ ID: v.ID, signer: v.signer, power: v.power }))).toEqual(expected);
    expect(s1.validator_set.validators.map((v) => v.signer)).toContain(s1.validator_set.proposer!.signer);
    expect(latestSpan(chain)).toEqual(s1);
    // lastEthBlock was incremented: the next seed is parent block 2.
    expect(chain.queryResult('/sidechain/next-span-seed-block')).toEqual({ block: 2 });
  });

  it('with more eligible validators than producer_count, producers hold their slot counts for the seed = hash of parent block lastEthBlock + 1', () => {
    const chain = new TestChain({ validators: 6, powers: powers6 });
    const eligible = chain.validators.map((k, i) => ({ id: BigInt(i + 1), power: powers6[i]!, signer: k.address }));
    const seed1 = TestChain.parentBlockHash(1n);
    const seed2 = TestChain.parentBlockHash(2n);
    const want1 = expectedProducers(eligible, seed1, 4);
    const want2 = expectedProducers(eligible, seed2, 4);
    // Precondition: the two seeds select differently, so the test can tell which seed was used.
    expect(want1).not.toEqual(want2);

    expect(chain.queryResult('/sidechain/next-span-seed-block')).toEqual({ block: 1 });
    const r1 = propose(chain, proposeMsg(chain));
    expectOk(r1.tx);
    expectOk(r1.side[0]);
    const s1 = span(chain, 1);
    expectSpanShape(s1);
    expect(s1.selected_producers.map((v) => ({ ID: v.ID, power: v.power, signer: v.signer }))).toEqual(want1);
    expect(s1.selected_producers.reduce((n, v) => n + v.power, 0)).toBe(4);
    const signers = s1.selected_producers.map((v) => v.signer);
    expect(signers).toEqual([...signers].sort(compareAddresses));
    const eligibleSigners = new Set(eligible.map((v) => v.signer));
    for (const p of s1.selected_producers) {
      expect(eligibleSigners.has(p.signer)).toBe(true);
      expect(p.pubKey).toBe(chain.validators[p.ID - 1]!.pubKey);
    }
    // The span's validator set holds every validator at its real power.
    expect(s1.validator_set.validators.map((v) => v.power).sort((a, b) => a - b)).toEqual(powers6.map(Number));

    // Span 2, proposed while the sidechain is inside span 1, uses parent block 2.
    chain.observers.sidechainHead = 300n;
    const r2 = propose(chain, nextSpanMsg(chain));
    expectOk(r2.side[0]);
    const s2 = span(chain, 2);
    expect(s2).toMatchObject({ span_id: 2, start_block: 1856, end_block: 3455 });
    expect(s2.selected_producers.map((v) => ({ ID: v.ID, power: v.power, signer: v.signer }))).toEqual(want2);
    expect(chain.queryResult('/sidechain/next-span-seed-block')).toEqual({ block: 3 });
  });

  it('every validator uses the parent-chain block hash it observes: a seed block not yet visible makes validators skip (5502)', () => {
    const chain = new TestChain();
    chain.observers.parentHead = 0n; // block 1 does not exist yet
    const r = propose(chain, proposeMsg(chain));
    expectOk(r.tx);
    expectRejected(r.side[0], 5502);
    expect(r.side[0]!.tally.result).toBe('skip');
    expect(latestSpan(chain).span_id).toBe(0);
  });

  it('a validator that announced its exit is not eligible, though still in the set', () => {
    const chain = new TestChain({ validators: 5, powers: [10n, 20n, 30n, 40n, 50n] });
    const [a] = chain.validators;
    const exiting = chain.validators[4]!;
    const ev = chain.observers.addEvent({
      name: 'UnstakeInit',
      txHash: fakeTxHash('unstake'),
      logIndex: 0n,
      blockNumber: 10n,
      user: exiting.address,
      validatorId: 5n,
      deactivationEpoch: 9n,
      amount: 50n * TOKEN,
    });
    const ex = chain.blockAndSettle([
      chain.tx(MsgValidatorExitDef, { from: a!.address, id: 5n, txHash: ev.txHash, logIndex: ev.logIndex }, a!),
    ]);
    expectOk(ex.side[0]);
    const r = propose(chain, proposeMsg(chain));
    expectOk(r.side[0]);
    const s1 = span(chain, 1);
    expect(s1.validator_set.validators.map((v) => v.signer)).toContain(exiting.address);
    expect(s1.selected_producers.map((v) => v.signer)).not.toContain(exiting.address);
    // Four eligible validators = producer_count: all taken at their real power.
    expect(s1.selected_producers.map((v) => [v.ID, v.power])).toEqual(
      bySigner(chain.validators.slice(0, 4).map((k, i) => ({ signer: k.address, id: i + 1, p: (i + 1) * 10 }))).map(
        (v) => [v.id, v.p],
      ),
    );
  });
});

// --- the spec's proposal window ----------------------------------------------------------------

describe('MsgProposeSpan proposal window (StartBlock <= n < EndBlock, README item 2)', () => {
  it('n = StartBlock (0) is accepted', () => {
    const chain = new TestChain();
    chain.observers.sidechainHead = 0n;
    expectOk(propose(chain, proposeMsg(chain)).side[0]);
    expect(latestSpan(chain).span_id).toBe(1);
  });

  it('n = EndBlock - 1 (254) is accepted', () => {
    const chain = new TestChain();
    chain.observers.sidechainHead = 254n;
    expectOk(propose(chain, proposeMsg(chain)).side[0]);
    expect(latestSpan(chain).span_id).toBe(1);
  });

  it('n = EndBlock (255) is refused: validators skip, post fails with 5502', () => {
    const chain = new TestChain();
    chain.observers.sidechainHead = 255n;
    const r = propose(chain, proposeMsg(chain));
    expectOk(r.tx);
    expectRejected(r.side[0], 5502, 'External call majority validation failed. ');
    expect(r.side[0]!.tally.result).toBe('skip');
    expect(latestSpan(chain).span_id).toBe(0);
    expect(restQuery(chain.app, '/sidechain/span/1').status).toBe(500);
    expect(chain.queryResult('/sidechain/next-span-seed-block')).toEqual({ block: 1 });
  });

  it('n beyond EndBlock and an unknown head are refused (5502)', () => {
    const chain = new TestChain();
    chain.observers.sidechainHead = 1000n;
    expectRejected(propose(chain, proposeMsg(chain)).side[0], 5502);
    chain.observers.sidechainHead = null;
    expectRejected(propose(chain, proposeMsg(chain)).side[0], 5502);
    expect(latestSpan(chain).span_id).toBe(0);
  });

  it('n < StartBlock is refused: span 2 while the sidechain is still in span 0', () => {
    const chain = new TestChain();
    chain.observers.sidechainHead = 100n;
    expectOk(propose(chain, proposeMsg(chain)).side[0]);
    chain.observers.sidechainHead = 255n; // span 1 starts at 256
    const r = propose(chain, nextSpanMsg(chain));
    expectOk(r.tx);
    expectRejected(r.side[0], 5502);
    expect(latestSpan(chain).span_id).toBe(1);
    chain.observers.sidechainHead = 256n;
    expectOk(propose(chain, nextSpanMsg(chain)).side[0]);
    expect(latestSpan(chain)).toMatchObject({ span_id: 2, start_block: 1856, end_block: 3455 });
  });

  it('validators seeing the head outside the window count as skips: one such validator of four is tolerated, two are not', () => {
    const chain = new TestChain();
    const [, , c, d] = chain.validators;
    const behind = { parent: chain.observers.parent, sidechain: { headNumber: () => 255n, rootHash: () => null } };
    chain.observerOf.set(d!.address, behind);
    const r = propose(chain, proposeMsg(chain));
    expectOk(r.side[0]);
    expect(r.side[0]!.tally).toMatchObject({ yesPower: 300n, totalPower: 400n });

    chain.observerOf.set(c!.address, behind);
    const r2 = propose(chain, nextSpanMsg(chain));
    expectRejected(r2.side[0], 5502);
    expect(latestSpan(chain).span_id).toBe(1);
  });
});

// --- MsgProposeSpan: rejections ---------------------------------------------------------------

describe('MsgProposeSpan deliver rejections', () => {
  const cases: Array<[string, Partial<MsgProposeSpan>, number, string]> = [
    ['wrong sidechain chain id', { sidechainChainId: '137' }, 3506, 'Invalid Bor chain id'],
    ['span id not last + 1 (2)', { spanId: 2n }, 3501, 'Span not continuous'],
    ['span id not last + 1 (0)', { spanId: 0n }, 3501, 'Span not continuous'],
    ['start block not last end + 1 (255)', { startBlock: 255n, endBlock: 1854n }, 3501, 'Span not continuous'],
    ['start block not last end + 1 (257)', { startBlock: 257n, endBlock: 1856n }, 3501, 'Span not continuous'],
    ['end block before start block', { endBlock: 255n }, 3501, 'Span not continuous'],
    ['duration one short', { endBlock: 1854n }, 3507, 'wrong span duration'],
    ['duration one long', { endBlock: 1856n }, 3507, 'wrong span duration'],
    ['duration of 1', { endBlock: 256n }, 3507, 'wrong span duration'],
  ];
  for (const [label, over, code, message] of cases) {
    it(`${label}: ${code}`, () => {
      const chain = new TestChain();
      const [a] = chain.validators;
      const before = chain.app.appHash;
      const r = chain.blockAndSettle([chain.tx(MsgProposeSpanDef, proposeMsg(chain, over), a!)]);
      expectRejected(r.txs[0], code, message);
      expect(r.side).toEqual([]);
      expect(sequenceOf(chain, a!.address)).toBe('0');
      expect(chain.app.appHash).toBe(before);
      expect(latestSpan(chain).span_id).toBe(0);
    });
  }

  it('the chain id check comes first (3506 even when the span is also discontinuous)', () => {
    const chain = new TestChain();
    const r = chain.block([
      chain.tx(MsgProposeSpanDef, proposeMsg(chain, { sidechainChainId: '1', spanId: 5n }), chain.validators[0]!),
    ]);
    expectRejected(r.txs[0], 3506);
  });

  it('a span that is already recorded is not continuous at deliver (3501)', () => {
    const chain = new TestChain();
    expectOk(propose(chain, proposeMsg(chain)).side[0]);
    const b = chain.validators[1]!;
    const r = chain.block([chain.tx(MsgProposeSpanDef, proposeMsg(chain, { proposer: b.address }), b)]);
    expectRejected(r.txs[0], 3501);
  });

  it('decode errors name the field (sdk code 2)', () => {
    const chain = new TestChain();
    const good = chain.tx(MsgProposeSpanDef, proposeMsg(chain), chain.validators[0]!);
    const tamper = (edit: (v: Record<string, unknown>) => void) => {
      const tx = JSON.parse(new TextDecoder().decode(good)) as { msg: { value: Record<string, unknown> } };
      edit(tx.msg.value);
      return new TextEncoder().encode(JSON.stringify(tx));
    };
    const cases: Array<[string, (v: Record<string, unknown>) => void]> = [
      ['tx.msg.value.span_id', (v) => (v.span_id = 'x')],
      ['tx.msg.value.start_block', (v) => delete v.start_block],
      ['tx.msg.value.sidechain_chain_id', (v) => (v.sidechain_chain_id = 15001)],
      ['tx.msg.value.bor_chain_id', (v) => (v.bor_chain_id = '15001')],
      ['tx.msg.value.seed', (v) => (v.seed = '0x' + '00'.repeat(32))],
      ['tx.msg.value.proposer', (v) => (v.proposer = 'validator')],
    ];
    const results = chain.block(cases.map(([, e]) => tamper(e))).txs;
    cases.forEach(([field], i) => {
      expect({ code: results[i]!.code, codespace: results[i]!.codespace }).toEqual({ code: 2, codespace: 'sdk' });
      expect(JSON.parse(results[i]!.log).message.startsWith(`${field}:`), results[i]!.log).toBe(true);
    });
  });
});

describe('MsgProposeSpan post-time replay', () => {
  it('the same span id proposed twice in one block: the second post fails with 1401 and changes nothing', () => {
    const chain = new TestChain({ validators: 6, powers: powers6 });
    const [a, b] = chain.validators;
    const r = chain.blockAndSettle([
      chain.tx(MsgProposeSpanDef, proposeMsg(chain), a!),
      chain.tx(MsgProposeSpanDef, proposeMsg(chain, { proposer: b!.address }), b!),
    ]);
    expectOk(r.txs[0]);
    expectOk(r.txs[1]);
    expect(r.side).toHaveLength(2);
    expectOk(r.side[0]);
    const after = span(chain, 1);
    expectRejected(r.side[1], 1401, 'Old txhash not allowed');
    expect(r.side[1]!.events).toEqual([]);
    expect(span(chain, 1)).toEqual(after);
    // The replay froze nothing: lastEthBlock moved once.
    expect(chain.queryResult('/sidechain/next-span-seed-block')).toEqual({ block: 2 });
  });

  it('the same span id proposed in two consecutive blocks: the later post fails with 1401', () => {
    const chain = new TestChain();
    const [a, b] = chain.validators;
    const first = chain.block([chain.tx(MsgProposeSpanDef, proposeMsg(chain), a!)]);
    expectOk(first.txs[0]);
    const second = chain.block([chain.tx(MsgProposeSpanDef, proposeMsg(chain, { proposer: b!.address }), b!)]);
    expectOk(second.txs[0]); // span 1 is not recorded yet at this deliver
    const p1 = chain.block();
    expectOk(p1.end.sideTxResults[0]);
    const p2 = chain.block();
    expectRejected(p2.end.sideTxResults[0], 1401);
    expect(latestSpan(chain).span_id).toBe(1);
  });
});

// --- queries ---------------------------------------------------------------------------------

describe('span queries', () => {
  it('/sidechain/span/1, /sidechain/latest-span and /sidechain/span/list give the spec Span shape', () => {
    const chain = new TestChain({ validators: 6, powers: powers6 });
    const [a] = chain.validators;
    // A validator that joined through MsgValidatorJoin: integer last_updated in validator info, "" in spans.
    const k = testKey('span-query/joiner');
    const ev = chain.observers.addEvent({
      name: 'Staked',
      txHash: fakeTxHash('staked'),
      logIndex: 3n,
      blockNumber: 42n,
      signer: k.address,
      validatorId: 7n,
      activationEpoch: 1n,
      amount: 19n * TOKEN,
      total: 19n * TOKEN,
      signerPubkey: `0x${k.pubKey.slice(4)}`,
    });
    expectOk(
      chain.blockAndSettle([
        chain.tx(
          MsgValidatorJoinDef,
          { from: a!.address, id: 7n, pubKey: k.pubKey, txHash: ev.txHash, logIndex: ev.logIndex },
          a!,
        ),
      ]).side[0],
    );
    expect(chain.queryResult(`/staking/validator/7`).last_updated).toBe(42 * 100000 + 3);

    expectOk(propose(chain, proposeMsg(chain)).side[0]);
    const s1 = span(chain, 1);
    expectSpanShape(s1);
    expect(s1.validator_set.validators).toHaveLength(7);
    const joined = s1.validator_set.validators.find((v) => v.ID === 7)!;
    expect(joined).toEqual({
      ID: 7,
      startEpoch: 1,
      endEpoch: 0,
      power: 19,
      pubKey: k.pubKey,
      signer: k.address,
      last_updated: '',
      accum: joined.accum,
    });
    for (const p of s1.selected_producers) {
      const inSet = s1.validator_set.validators.find((v) => v.signer === p.signer)!;
      expect(p.accum).toBe(inSet.accum);
    }

    const body = restQuery(chain.app, '/sidechain/latest-span').body as { height: string; result: SpanJson };
    expect(body.height).toBe(chain.app.height.toString());
    expect(body.result).toEqual(s1);

    const list = chain.queryResult<SpanJson[]>('/sidechain/span/list?page=1&limit=10');
    expect(list.map((s) => s.span_id)).toEqual([0, 1]);
    list.forEach(expectSpanShape);
    expect(list[0]).toEqual(span(chain, 0));
    expect(list[1]).toEqual(s1);
    expect(chain.queryResult<SpanJson[]>('/sidechain/span/list?page=2&limit=1').map((s) => s.span_id)).toEqual([1]);
    expect(chain.queryResult('/sidechain/span/list?page=3&limit=1')).toBeNull();
  });

  it('a recorded span does not change when a validator later changes its signer', () => {
    const chain = new TestChain();
    const [a, b] = chain.validators;
    expectOk(propose(chain, proposeMsg(chain)).side[0]);
    const s0 = span(chain, 0);
    const s1 = span(chain, 1);
    const next = testKey('span-query/new-signer');
    const ev = chain.observers.addEvent({
      name: 'SignerChange',
      txHash: fakeTxHash('signer-change'),
      logIndex: 1n,
      blockNumber: 77n,
      validatorId: 2n,
      oldSigner: b!.address,
      newSigner: next.address,
      signerPubkey: `0x${next.pubKey.slice(4)}`,
    });
    const r = chain.blockAndSettle([
      chain.tx(
        MsgSignerUpdateDef,
        { from: a!.address, id: 2n, pubKey: next.pubKey, txHash: ev.txHash, logIndex: ev.logIndex },
        a!,
      ),
    ]);
    expectOk(r.side[0]);
    expect(chain.queryResult('/staking/validator/2').signer).toBe(next.address);
    // Spans frozen before the change keep the committee they were frozen with.
    expect(span(chain, 0)).toEqual(s0);
    expect(span(chain, 1)).toEqual(s1);
    const old = s1.validator_set.validators.find((v) => v.ID === 2)!;
    expect(old).toMatchObject({ signer: b!.address, pubKey: b!.pubKey });
    // A span frozen after the change has the new signer.
    chain.observers.sidechainHead = 256n;
    expectOk(propose(chain, nextSpanMsg(chain)).side[0]);
    const s2 = span(chain, 2);
    expect(s2.validator_set.validators.find((v) => v.ID === 2)).toMatchObject({
      signer: next.address,
      pubKey: next.pubKey,
    });
    expect(s2.selected_producers.find((v) => v.ID === 2)).toMatchObject({ signer: next.address, pubKey: next.pubKey });
  });

  it('span errors: unknown id 500, malformed id 400, list without page/limit 400', () => {
    const chain = new TestChain();
    const missing = restQuery(chain.app, '/sidechain/span/9');
    expect(missing.status).toBe(500);
    expect(JSON.parse((missing.body as { error: string }).error)).toMatchObject({ codespace: 'sdk', code: 1 });
    expect(restQuery(chain.app, '/sidechain/span/x')).toEqual({
      status: 400,
      body: { error: "'x' is not a valid uint64" },
    });
    expect(restQuery(chain.app, '/sidechain/span/list?page=1').status).toBe(400);
  });

  it('/sidechain/params gives the spec defaults', () => {
    const chain = new TestChain();
    expect(chain.queryResult('/sidechain/params')).toEqual({
      sprint_duration: 16,
      span_duration: 1600,
      producer_count: 4,
    });
  });
});
