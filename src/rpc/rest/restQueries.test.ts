/**
 * The REST read side (routeQuery through ServiceApp.query) over a chain driven into a full state:
 * two spans, a stake update, a top-up, an event record, an acked checkpoint, a withdrawal, a no-ack
 * and a buffered checkpoint. Every GET path of the spec's REST table and every extra read path of the
 * router is checked for the success envelope `{"height":"<n>","result":…}` with the spec's field
 * names (README items 9, 14, 18, 19, 22, 23) and for the reference's error bodies `{"error":"<msg>"}`
 * and statuses (heimdall.md §2.4, §3.8, §4.5, §5, §6.4-§6.5, §7). A seeded fuzz loop checks that any
 * path or query string gets a well-formed answer and leaves the state untouched.
 */
import { restQuery } from '../testing/restQuery';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { accountRootHash } from '../../index';
import { getAccount } from '../../modules/auth/keeper';
import { getValidatorSet } from '../../modules/staking/keeper';
import {
  MsgCheckpointAckDef,
  MsgCheckpointDef,
  MsgCheckpointNoAckDef,
  type MsgCheckpoint,
} from '../../modules/checkpoint/msgs';
import { MsgProposeSpanDef } from '../../modules/span/msgs';
import { MsgStakeUpdateDef } from '../../modules/staking/msgs';
import { MsgTopupDef, MsgWithdrawFeeDef } from '../../modules/topup/msgs';
import { MsgEventRecordDef } from '../../modules/clerk/msgs';
import { type StakeUpdateEvent, type StateSyncedEvent, type TopUpFeeEvent } from '../../modules/framework/observers';
import { type QueryResponse } from './queryReply';
import { type SideTxResult, type TxResult } from '../../app/blockResults';
import { TestChain, testKey, TOKEN, type AccountJson, type TestKey } from '../../app/testing/testChain';
import { FakeObservers, fakeTxHash, sidechainRoot } from '../../app/testing/fakeObservers';

// --- expected shapes ---------------------------------------------------------------------------

const SIDECHAIN_CHAIN_ID = '15001';
const SPAN_KEYS = ['span_id', 'start_block', 'end_block', 'validator_set', 'selected_producers', 'sidechain_chain_id'];
const VALIDATOR_KEYS = ['ID', 'startEpoch', 'endEpoch', 'power', 'pubKey', 'signer', 'last_updated', 'accum'];
const CHECKPOINT_KEYS = ['proposer', 'startBlock', 'endBlock', 'rootHash', 'accountRootHash', 'timestamp'];
const RECORD_KEYS = ['id', 'contract', 'data', 'tx_hash', 'log_index', 'sidechain_chain_id', 'record_time'];
const AUTH_PARAMS = {
  max_memo_characters: 256,
  tx_sig_limit: 7,
  tx_size_cost_per_byte: 10,
  sig_verify_cost_ed25519: 590,
  sig_verify_cost_secp256k1: 1000,
  max_tx_gas: 1000000,
  tx_fees: '1000000000000000',
};
const CHECKPOINT_PARAMS = {
  checkpoint_buffer_time: 1000000000000,
  avg_checkpoint_length: 256,
  max_checkpoint_length: 1024,
  child_chain_block_interval: 10000,
};
const SIDECHAIN_PARAMS = { sprint_duration: 16, span_duration: 1600, producer_count: 4 };
/** The querier errors as the reference writes them: the ABCI log of an sdk code-1 error, as a string. */
const SPAN_NOT_FOUND = '{"codespace":"sdk","code":1,"message":"could not get span; span not found for id"}';
const NO_BUFFER =
  '{"codespace":"sdk","code":1,"message":"could not fetch checkpoint buffer; No checkpoint found in buffer"}';
const noCheckpoint = (n: number) =>
  `{"codespace":"sdk","code":1,"message":"could not fetch checkpoint by index ${n}; Invalid checkpoint Index"}`;
const notUint = (s: string) => `'${s}' is not a valid uint64`;
const ZERO = '0x0000000000000000000000000000000000000000';
const CONTRACT = testKey('query-router-test/receiver').address;
const OUTSIDER = testKey('query-router-test/outsider').address;

const seconds = (ms: number) => Math.floor(ms / 1000);
/** Go's time.Time JSON in UTC (RFC3339Nano, fraction without trailing zeros). */
const goTime = (ms: number) => new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');

/** A decoded JSON object from a query; the assertions that read a field check its value. */
type JsonObject = Record<string, unknown>;

/** The wire shapes the assertions walk into (what they read, not a full decoder). */
interface ValidatorJson {
  ID: number;
  startEpoch: number;
  endEpoch: number;
  power: number;
  accum: number;
  pubKey: string;
  signer: string;
  last_updated: number | string;
}
interface ValidatorSetJson {
  validators: ValidatorJson[];
  proposer: ValidatorJson;
}
interface SpanJson {
  validator_set: ValidatorSetJson;
  selected_producers: ValidatorJson[];
}

// --- the driven chain --------------------------------------------------------------------------

interface World {
  chain: TestChain;
  v: TestKey[];
  stake: StakeUpdateEvent;
  topup: TopUpFeeEvent;
  synced: StateSyncedEvent;
  recordTimeMs: number;
  cp1: MsgCheckpoint;
  cp1Timestamp: number;
  noAckTimeMs: number;
  cp2: MsgCheckpoint;
  cp2Timestamp: number;
  withdrawn: bigint;
}

function settled(r: { txs: TxResult[]; side: SideTxResult[] }, what: string, sides = 1): void {
  expect(
    r.txs.map((t) => [t.code, t.log]),
    `${what}: deliver`,
  ).toEqual(r.txs.map(() => [0, '']));
  expect(
    r.side.map((s) => [s.code, s.log]),
    `${what}: post`,
  ).toEqual(Array.from({ length: sides }, () => [0, '']));
}

function buildWorld(): World {
  const chain = new TestChain();
  chain.blockTimeMs = 5_300; // block times that are not whole seconds
  const v = chain.validators;
  const [v1, v2, v3, v4] = v as [TestKey, TestKey, TestKey, TestKey];
  const keyOf = (a: Address) => v.find((k) => k.address === a)!;
  const proposer = () => keyOf(getValidatorSet(chain.app.store).proposer.address);
  const dividendRoot = (): Hex =>
    chain.queryResult<{ accountRootHash: Hex }>('/topup/dividend-account-root').accountRootHash;

  // Span 1 (the second span), proposed while the sidechain is inside span 0.
  chain.observers.sidechainHead = 100n;
  settled(
    chain.blockAndSettle([
      chain.tx(
        MsgProposeSpanDef,
        { spanId: 1n, proposer: v1.address, startBlock: 256n, endBlock: 1855n, sidechainChainId: SIDECHAIN_CHAIN_ID },
        v1,
      ),
    ]),
    'span 1',
  );
  chain.observers.sidechainHead = 100_000n;

  // A stake update (validator 2 to power 150), so one validator has a non-zero last_updated.
  const stake = chain.observers.addEvent({
    name: 'StakeUpdate',
    txHash: fakeTxHash('query-router/stake'),
    logIndex: 2n,
    blockNumber: 777n,
    validatorId: 2n,
    newAmount: 150n * TOKEN,
  }) as StakeUpdateEvent;
  settled(
    chain.blockAndSettle([
      chain.tx(MsgStakeUpdateDef, { from: v1.address, id: 2n, txHash: stake.txHash, logIndex: stake.logIndex }, v1),
    ]),
    'stake update',
  );

  // A top-up of validator 3, relayed by validator 2.
  const topup = chain.observers.addEvent({
    name: 'TopUpFee',
    txHash: fakeTxHash('query-router/topup'),
    logIndex: 3n,
    blockNumber: 88n,
    user: v3.address,
    fee: 50n * TOKEN,
  }) as TopUpFeeEvent;
  settled(
    chain.blockAndSettle([
      chain.tx(MsgTopupDef, { fromAddress: v2.address, id: 3n, txHash: topup.txHash, logIndex: topup.logIndex }, v2),
    ]),
    'topup',
  );

  // An event record.
  const synced = chain.observers.addEvent({
    name: 'StateSynced',
    txHash: fakeTxHash('query-router/state-synced'),
    logIndex: 1n,
    blockNumber: 99n,
    id: 1n,
    contractAddress: CONTRACT,
    data: '0xcafe',
  }) as StateSyncedEvent;
  settled(
    chain.blockAndSettle([
      chain.tx(
        MsgEventRecordDef,
        {
          from: v4.address,
          txHash: synced.txHash,
          logIndex: synced.logIndex,
          id: 1n,
          contractAddress: CONTRACT,
          data: synced.data,
          sidechainChainId: SIDECHAIN_CHAIN_ID,
        },
        v4,
      ),
    ]),
    'event record',
  );
  const recordTimeMs = chain.timeMs;

  // Checkpoint 1: buffered, then acked.
  const p1 = proposer();
  const cp1: MsgCheckpoint = {
    proposer: p1.address,
    startBlock: 0n,
    endBlock: 255n,
    rootHash: sidechainRoot(0n, 255n),
    accountRootHash: dividendRoot(),
  };
  settled(chain.blockAndSettle([chain.tx(MsgCheckpointDef, cp1, p1)]), 'checkpoint 1');
  const cp1Timestamp = seconds(chain.timeMs);
  chain.observers.headerBlocks.set(1n, { number: 1n, ...cp1 });
  settled(
    chain.blockAndSettle([
      chain.tx(
        MsgCheckpointAckDef,
        { from: v4.address, headerBlock: 1n, txHash: fakeTxHash('query-router/ack-1'), logIndex: 0n },
        v4,
      ),
    ]),
    'ack 1',
  );

  // A withdrawal by validator 3 (changes the dividend-account root).
  const withdrawn = 10n * TOKEN;
  const w = chain.block([chain.tx(MsgWithdrawFeeDef, { fromAddress: v3.address, amount: withdrawn }, v3)]);
  settled({ txs: w.txs, side: w.end.sideTxResults }, 'withdraw', 0);

  // A no-ack once CheckpointBufferTime has passed since checkpoint 1, from the next proposer.
  const next = getValidatorSet(chain.app.store).copy();
  next.incrementProposerPriority(1);
  const noAckTimeMs = (cp1Timestamp + 1000) * 1000 + 700;
  const na = chain.block(
    [chain.tx(MsgCheckpointNoAckDef, { from: next.proposer.address }, keyOf(next.proposer.address))],
    { timeMs: noAckTimeMs },
  );
  settled({ txs: na.txs, side: na.end.sideTxResults }, 'no-ack', 0);

  // Checkpoint 2: buffered (not acked), carrying the new dividend root.
  const p2 = proposer();
  const cp2: MsgCheckpoint = {
    proposer: p2.address,
    startBlock: 256n,
    endBlock: 511n,
    rootHash: sidechainRoot(256n, 511n),
    accountRootHash: dividendRoot(),
  };
  settled(chain.blockAndSettle([chain.tx(MsgCheckpointDef, cp2, p2)]), 'checkpoint 2');
  const cp2Timestamp = seconds(chain.timeMs);

  return { chain, v, stake, topup, synced, recordTimeMs, cp1, cp1Timestamp, noAckTimeMs, cp2, cp2Timestamp, withdrawn };
}

let W: World;
let fresh: TestChain;

beforeAll(() => {
  W = buildWorld();
  fresh = new TestChain();
});

// --- helpers -----------------------------------------------------------------------------------

/** `observers` null: a query without observers (the sidechain is not reachable). */
function query(
  path: string,
  chain: TestChain = W.chain,
  observers: FakeObservers | null = chain.observers,
): QueryResponse {
  return restQuery(chain.app, path, observers ?? undefined);
}

/** 200 with exactly `{height, result}`, height the committed height as a decimal string. */
function ok<T = JsonObject>(path: string, chain: TestChain = W.chain, observers?: FakeObservers): T {
  const r = query(path, chain, observers ?? chain.observers);
  expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
  const body = r.body as { height: unknown; result: unknown };
  expect(Object.keys(body)).toEqual(['height', 'result']);
  expect(body.height).toBe(chain.app.height.toString());
  expect(body.height).toMatch(/^(0|[1-9][0-9]*)$/);
  expect(JSON.parse(JSON.stringify(body))).toStrictEqual(body);
  return body.result as T;
}

/** The reference error body: exactly `{"error":"<msg>"}`. */
function fails(
  path: string,
  status: number,
  message: string,
  chain: TestChain = W.chain,
  observers?: FakeObservers | null,
): void {
  const r = query(path, chain, observers === undefined ? chain.observers : observers);
  expect(r, path).toStrictEqual({ status, body: { error: message } });
}

function expectValidator(v: ValidatorJson, form: 'span' | 'info'): void {
  expect(Object.keys(v)).toEqual(VALIDATOR_KEYS);
  for (const k of ['ID', 'startEpoch', 'endEpoch', 'power', 'accum'] as const)
    expect(Number.isSafeInteger(v[k]), k).toBe(true);
  expect(v.pubKey).toMatch(/^0x04[0-9a-f]{128}$/);
  expect(v.signer).toMatch(/^0x[0-9a-f]{40}$/);
  expect(W.v[v.ID - 1]).toMatchObject({ pubKey: v.pubKey, address: v.signer });
  if (form === 'span') expect(v.last_updated).toBe('');
  else expect(Number.isSafeInteger(v.last_updated)).toBe(true);
}

function expectValidatorSet(s: ValidatorSetJson, form: 'span' | 'info'): void {
  expect(Object.keys(s)).toEqual(['validators', 'proposer']);
  expect(s.validators).toHaveLength(4);
  for (const v of s.validators) expectValidator(v, form);
  expectValidator(s.proposer, form);
  expect(s.validators).toContainEqual(s.proposer);
}

function expectSpan(s: SpanJson, id: number, start: number, end: number): void {
  expect(Object.keys(s)).toEqual(SPAN_KEYS);
  expect(s).toMatchObject({ span_id: id, start_block: start, end_block: end, sidechain_chain_id: SIDECHAIN_CHAIN_ID });
  expectValidatorSet(s.validator_set, 'span');
  expect(s.selected_producers.length).toBeGreaterThan(0);
  for (const v of s.selected_producers) expectValidator(v, 'span');
}

/** The committed validator set as the queries should show it (signer, power, accum), in set order. */
function setMembers(): Array<{ signer: Address; power: number; accum: number }> {
  return getValidatorSet(W.chain.app.store).validators.map((m) => ({
    signer: m.address,
    power: Number(m.power),
    accum: Number(m.proposerPriority),
  }));
}

const checkpointJson = (m: MsgCheckpoint, timestamp: number) => ({
  proposer: m.proposer,
  startBlock: Number(m.startBlock),
  endBlock: Number(m.endBlock),
  rootHash: m.rootHash,
  accountRootHash: m.accountRootHash,
  timestamp,
});

// --- sidechain ---------------------------------------------------------------------------------

describe('sidechain routes', () => {
  it('/sidechain/span/{id} and /sidechain/latest-span: the Span shape with span-form validators', () => {
    const s0 = ok<SpanJson>('/sidechain/span/0');
    expectSpan(s0, 0, 0, 255);
    const s1 = ok<SpanJson>('/sidechain/span/1');
    expectSpan(s1, 1, 256, 1855);
    // Four eligible validators = producer_count: all of them, sorted by signer, at their power then (100).
    const signers = W.v.map((k) => k.address).sort();
    expect(s1.selected_producers.map((p) => [p.signer, p.power])).toEqual(signers.map((a) => [a, 100]));
    expect(ok('/sidechain/latest-span')).toStrictEqual(s1);
  });

  it('/sidechain/params: sprint_duration, span_duration, producer_count', () => {
    const p = ok('/sidechain/params');
    expect(p).toStrictEqual(SIDECHAIN_PARAMS);
    expect(Object.keys(p)).toEqual(['sprint_duration', 'span_duration', 'producer_count']);
  });

  it('/sidechain/span/list?page=&limit=: pages from 1, null past the end', () => {
    const s0 = ok('/sidechain/span/0');
    const s1 = ok('/sidechain/span/1');
    expect(ok('/sidechain/span/list?page=1&limit=10')).toStrictEqual([s0, s1]);
    expect(ok('/sidechain/span/list?page=2&limit=1')).toStrictEqual([s1]);
    expect(ok('/sidechain/span/list?page=3&limit=1')).toBeNull();
    expect(ok('/sidechain/span/list?page=0&limit=10')).toBeNull();
    expect(ok('/sidechain/span/list?page=1&limit=100000')).toStrictEqual([s0, s1]);
  });

  it('/sidechain/next-span-seed-block: the parent block after the one span 1 used', () => {
    expect(ok('/sidechain/next-span-seed-block')).toStrictEqual({ block: 2 });
  });

  it('errors: bad span id 400, missing span 500 with the double-encoded ABCI log, list without page/limit 400', () => {
    for (const bad of ['x', '-1', '1.5', '0x1', '1e3', '18446744073709551616', '%20']) {
      const shown = bad === '%20' ? ' ' : bad;
      fails(`/sidechain/span/${bad}`, 400, notUint(shown));
    }
    fails('/sidechain/span/2', 500, SPAN_NOT_FOUND);
    fails('/sidechain/span/18446744073709551615', 500, SPAN_NOT_FOUND);
    const body = query('/sidechain/span/2').body as { error: string };
    expect(JSON.parse(body.error)).toStrictEqual({
      codespace: 'sdk',
      code: 1,
      message: 'could not get span; span not found for id',
    });
    for (const q of ['', '?page=1', '?limit=1']) expect(query(`/sidechain/span/list${q}`).status).toBe(400);
    fails('/sidechain/span/list?page=x&limit=1', 400, notUint('x'));
    fails('/sidechain/span/list?page=1&limit=-5', 400, notUint('-5'));
  });
});

// --- auth --------------------------------------------------------------------------------------

describe('auth routes', () => {
  it('/auth/accounts/{address}: {type:"auth/Account", value:{address, coins:[{denom, amount:{i}}], public_key, account_number, sequence}}', () => {
    const k = W.v[2]!;
    const acc = getAccount(W.chain.app.store, k.address)!;
    expect(acc.sequence).toBeGreaterThan(0n);
    const a = ok<AccountJson>(`/auth/accounts/${k.address}`);
    expect(Object.keys(a)).toEqual(['type', 'value']);
    expect(Object.keys(a.value)).toEqual(['address', 'coins', 'public_key', 'account_number', 'sequence']);
    expect(a).toStrictEqual({
      type: 'auth/Account',
      value: {
        address: k.address,
        coins: [{ denom: 'matic', amount: { i: W.chain.balance(k.address).toString() } }],
        public_key: {
          type: 'tendermint/PubKeySecp256k1',
          value: Buffer.from(k.pubKey.slice(2), 'hex').toString('base64'),
        },
        account_number: acc.accountNumber.toString(),
        sequence: acc.sequence.toString(),
      },
    });
    // Top-up minted, withdrawal and fees subtracted: the balance is what the bank holds, as a decimal string.
    expect(a.value.coins[0]!.amount.i).toMatch(/^[1-9][0-9]*$/);
    // Addresses are read case-insensitively and answered in lower case.
    expect(ok(`/auth/accounts/${k.address.toUpperCase().replace('0X', '0x')}`)).toStrictEqual(a);
  });

  it('an unknown account is an empty BaseAccount (200)', () => {
    expect(ok(`/auth/accounts/${OUTSIDER}`)).toStrictEqual({
      type: 'auth/Account',
      value: { address: OUTSIDER, coins: [], public_key: null, account_number: '0', sequence: '0' },
    });
  });

  it('/auth/accounts/{address}/sequence: {address, account_number, sequence}', () => {
    const k = W.v[3]!;
    const acc = getAccount(W.chain.app.store, k.address)!;
    const s = ok(`/auth/accounts/${k.address}/sequence`);
    expect(Object.keys(s)).toEqual(['address', 'account_number', 'sequence']);
    expect(s).toStrictEqual({
      address: k.address,
      account_number: acc.accountNumber.toString(),
      sequence: acc.sequence.toString(),
    });
    expect(s.sequence).toBe(ok<AccountJson>(`/auth/accounts/${k.address}`).value.sequence);
    expect(ok(`/auth/accounts/${OUTSIDER}/sequence`)).toStrictEqual({
      address: OUTSIDER,
      account_number: '0',
      sequence: '0',
    });
  });

  it('/auth/params: the seven auth parameters', () => {
    const p = ok('/auth/params');
    expect(p).toStrictEqual(AUTH_PARAMS);
    expect(Object.keys(p)).toEqual(Object.keys(AUTH_PARAMS));
  });

  it('errors: an invalid or zero address is 404 "Invalid address"', () => {
    for (const bad of [
      'garbage',
      ZERO,
      '0x' + '1'.repeat(39),
      '0x' + '1'.repeat(41),
      '1'.repeat(40),
      '0x' + 'g'.repeat(40),
      '0x' + '1'.repeat(38) + '%20',
    ]) {
      fails(`/auth/accounts/${bad}`, 404, 'Invalid address');
      fails(`/auth/accounts/${bad}/sequence`, 404, 'Invalid address');
    }
  });
});

// --- staking -----------------------------------------------------------------------------------

describe('staking routes', () => {
  it('/staking/validator-set: {validators, proposer} in the info form (last_updated an integer)', () => {
    const s = ok<ValidatorSetJson>('/staking/validator-set');
    expectValidatorSet(s, 'info');
    expect(s.validators.map((v) => ({ signer: v.signer, power: v.power, accum: v.accum }))).toEqual(setMembers());
    expect(s.proposer.signer).toBe(getValidatorSet(W.chain.app.store).proposer.address);
    // Genesis validators were never updated by an event: 0; validator 2 carries the stake update's sequence.
    const byId = new Map<number, ValidatorJson>(s.validators.map((v) => [v.ID, v]));
    expect(byId.get(1)!.last_updated).toBe(0);
    expect(byId.get(2)).toMatchObject({ power: 150, last_updated: 777 * 100000 + 2 });
  });

  it('/staking/validator/{id} and /staking/signer/{address}: one Validator, the same as in the set', () => {
    const set = ok<ValidatorSetJson>('/staking/validator-set');
    for (const member of set.validators) {
      const v = ok<ValidatorJson>(`/staking/validator/${member.ID}`);
      expectValidator(v, 'info');
      expect(v).toStrictEqual(member);
      expect(ok(`/staking/signer/${member.signer}`)).toStrictEqual(member);
    }
  });

  it('/staking/current-proposer and /staking/proposer/{times}: the proposer and the ones after it', () => {
    const set = ok<ValidatorSetJson>('/staking/validator-set');
    expect(ok('/staking/current-proposer')).toStrictEqual(set.proposer);
    const copy = getValidatorSet(W.chain.app.store).copy();
    const expected: Array<{ signer: Address; accum: number }> = [];
    for (let i = 0; i < 4; i++) {
      expected.push({ signer: copy.proposer.address, accum: Number(copy.proposer.proposerPriority) });
      copy.incrementProposerPriority(1);
    }
    const four = ok<ValidatorJson[]>('/staking/proposer/4');
    for (const v of four) expectValidator(v, 'info');
    expect(four.map((v) => ({ signer: v.signer, accum: v.accum }))).toEqual(expected);
    expect(four[0]).toStrictEqual(set.proposer);
    expect(ok('/staking/proposer/1')).toStrictEqual([set.proposer]);
    expect(ok('/staking/proposer/0')).toStrictEqual([]);
    // Capped at the set size; the query does not rotate the stored set.
    expect(ok('/staking/proposer/18446744073709551615')).toStrictEqual(four);
    expect(ok('/staking/validator-set')).toStrictEqual(set);
  });

  it('/staking/totalpower: {result: N}', () => {
    expect(ok('/staking/totalpower')).toStrictEqual({ result: 450 });
  });

  it('/staking/isoldtx?txhash=&logindex=: true for a processed staking event only', () => {
    expect(ok(`/staking/isoldtx?txhash=${W.stake.txHash}&logindex=2`)).toBe(true);
    expect(ok(`/staking/isoldtx?txhash=${W.stake.txHash.toUpperCase().replace('0X', '0x')}&logindex=2`)).toBe(true);
    expect(ok(`/staking/isoldtx?txhash=${W.stake.txHash}&logindex=3`)).toBe(false);
    expect(ok(`/staking/isoldtx?txhash=${W.topup.txHash}&logindex=3`)).toBe(false);
  });

  it('errors: bad ids 400, unknown validator 404, bad signer 400, isoldtx without or with bad params 400', () => {
    for (const bad of ['x', '-1', '18446744073709551616']) {
      fails(`/staking/validator/${bad}`, 400, notUint(bad));
      fails(`/staking/proposer/${bad}`, 400, notUint(bad));
    }
    fails('/staking/validator/0', 404, 'No validator found');
    fails('/staking/validator/5', 404, 'No validator found');
    fails(`/staking/signer/${OUTSIDER}`, 404, 'No validator found');
    fails('/staking/signer/garbage', 400, 'Invalid address');
    fails(`/staking/signer/${ZERO}`, 400, 'Invalid address');
    fails('/staking/isoldtx', 400, 'txhash and logindex query params required');
    fails(`/staking/isoldtx?txhash=${W.stake.txHash}`, 400, 'txhash and logindex query params required');
    fails(`/staking/isoldtx?txhash=${W.stake.txHash}&logindex=x`, 400, notUint('x'));
    for (const h of ['0x12', 'zz', '0x' + 'ab'.repeat(33)]) {
      const r = query(`/staking/isoldtx?txhash=${h}&logindex=0`);
      expect(r.status, h).toBe(400);
      expect(Object.keys(r.body as object)).toEqual(['error']);
    }
  });
});

// --- checkpoints -------------------------------------------------------------------------------

describe('checkpoint routes', () => {
  it('/checkpoints/{number}, /checkpoints/latest, /checkpoints/list: camelCase checkpoints with id', () => {
    const stored = { id: 1, ...checkpointJson(W.cp1, W.cp1Timestamp) };
    const one = ok('/checkpoints/1');
    expect(one).toStrictEqual(stored);
    expect(Object.keys(one)).toEqual(['id', ...CHECKPOINT_KEYS]);
    expect(ok('/checkpoints/latest')).toStrictEqual(stored);
    expect(ok('/checkpoints/list?page=1&limit=10')).toStrictEqual([stored]);
    expect(ok('/checkpoints/list?page=1&limit=1')).toStrictEqual([stored]);
    expect(ok('/checkpoints/list?page=2&limit=10')).toBeNull();
    expect(ok('/checkpoints/list?page=0&limit=10')).toBeNull();
    expect(ok('/checkpoints/list?page=1&limit=0')).toBeNull();
  });

  it('/checkpoints/buffer: the buffered checkpoint, without id', () => {
    const b = ok('/checkpoints/buffer');
    expect(b).toStrictEqual(checkpointJson(W.cp2, W.cp2Timestamp));
    expect(Object.keys(b)).toEqual(CHECKPOINT_KEYS);
    // It carries the dividend root after the withdrawal, which differs from checkpoint 1's.
    expect(b.accountRootHash).toBe(ok('/topup/dividend-account-root').accountRootHash);
    expect(b.accountRootHash).not.toBe(W.cp1.accountRootHash);
  });

  it('/checkpoints/count and /checkpoints/last-no-ack: {result: N} (double "result")', () => {
    expect(ok('/checkpoints/count')).toStrictEqual({ result: 1 });
    expect(ok('/checkpoints/last-no-ack')).toStrictEqual({ result: seconds(W.noAckTimeMs) });
    expect(seconds(W.noAckTimeMs)).toBe(W.cp1Timestamp + 1000);
  });

  it('/checkpoints/parama (the spec spelling) and /checkpoints/params: the reference params JSON in Go nanoseconds', () => {
    for (const path of ['/checkpoints/parama', '/checkpoints/params']) {
      const p = ok(path);
      expect(p).toStrictEqual(CHECKPOINT_PARAMS);
      expect(Object.keys(p)).toEqual([
        'checkpoint_buffer_time',
        'avg_checkpoint_length',
        'max_checkpoint_length',
        'child_chain_block_interval',
      ]);
    }
  });

  it('/checkpoints/prepare?start=&end= (with observers): {proposer, rootHash, startBlock, endBlock}', () => {
    const p = ok('/checkpoints/prepare?start=512&end=767');
    expect(Object.keys(p)).toEqual(['proposer', 'rootHash', 'startBlock', 'endBlock']);
    expect(p).toStrictEqual({
      proposer: ok('/staking/current-proposer').signer,
      rootHash: sidechainRoot(512n, 767n),
      startBlock: 512,
      endBlock: 767,
    });
    // Up to MaxCheckpointLength blocks.
    expect(ok('/checkpoints/prepare?start=0&end=1023').rootHash).toBe(sidechainRoot(0n, 1023n));
    expect(ok('/checkpoints/prepare?start=7&end=7').rootHash).toBe(sidechainRoot(7n, 7n));
  });

  it('/overview: ack_count, checkpoint_buffer, validator_count, validator_set, last_noack_time (RFC3339)', () => {
    const o = ok('/overview');
    expect(Object.keys(o)).toEqual([
      'ack_count',
      'checkpoint_buffer',
      'validator_count',
      'validator_set',
      'last_noack_time',
    ]);
    expect(o).toStrictEqual({
      ack_count: 1,
      checkpoint_buffer: ok('/checkpoints/buffer'),
      validator_count: 4,
      validator_set: ok('/staking/validator-set'),
      last_noack_time: goTime(seconds(W.noAckTimeMs) * 1000),
    });
    expect(o.last_noack_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('errors: bad number 400, unknown number 400 (ABCI log), list without page/limit 400, prepare parameter errors', () => {
    for (const bad of ['x', '-1', '1.0', '18446744073709551616']) fails(`/checkpoints/${bad}`, 400, notUint(bad));
    fails('/checkpoints/2', 400, noCheckpoint(2));
    fails('/checkpoints/0', 400, noCheckpoint(0));
    for (const q of ['', '?page=1', '?limit=10']) expect(query(`/checkpoints/list${q}`).status, q).toBe(400);
    fails('/checkpoints/list', 400, 'page and limit query params required');
    fails('/checkpoints/list?page=one&limit=10', 400, notUint('one'));
    fails('/checkpoints/list?page=1&limit=ten', 400, notUint('ten'));
    const required = '`start` and `end` query params required';
    for (const q of ['', '?start=1', '?end=5', '?start=&end=5', '?start=1&end='])
      fails(`/checkpoints/prepare${q}`, 400, required);
    // A parse error is a plain 500 (reference: strconv error, not a querier error).
    fails('/checkpoints/prepare?start=x&end=5', 500, notUint('x'));
    fails('/checkpoints/prepare?start=1&end=-5', 500, notUint('-5'));
    fails('/checkpoints/prepare?start=9&end=5', 400, 'Invalid parameters start: 9 and end block: 5 params');
    // More than MaxCheckpointLength (1024) blocks: refused before asking the sidechain (reference GetRootHash).
    fails('/checkpoints/prepare?start=0&end=1024', 400, 'number of headers requested exceeds');
    fails('/checkpoints/prepare?start=0&end=18446744073709551615', 400, 'number of headers requested exceeds');
    // Without observers, or with blocks the sidechain does not have yet.
    fails('/checkpoints/prepare?start=0&end=255', 400, 'sidechain not reachable from this query', W.chain, null);
    const behind = new FakeObservers();
    behind.sidechainHead = 300n;
    fails(
      '/checkpoints/prepare?start=256&end=511',
      400,
      'could not get root hash: blocks not available',
      W.chain,
      behind,
    );
  });

  it('on a fresh chain: latest 400, buffer 500, count and last-no-ack 0, list null, overview empty', () => {
    fails('/checkpoints/latest', 400, noCheckpoint(0), fresh);
    fails('/checkpoints/1', 400, noCheckpoint(1), fresh);
    fails('/checkpoints/buffer', 500, NO_BUFFER, fresh);
    expect(JSON.parse((query('/checkpoints/buffer', fresh).body as { error: string }).error)).toStrictEqual({
      codespace: 'sdk',
      code: 1,
      message: 'could not fetch checkpoint buffer; No checkpoint found in buffer',
    });
    expect(ok('/checkpoints/count', fresh)).toStrictEqual({ result: 0 });
    expect(ok('/checkpoints/last-no-ack', fresh)).toStrictEqual({ result: 0 });
    expect(ok('/checkpoints/list?page=1&limit=10', fresh)).toBeNull();
    const o = ok('/overview', fresh);
    expect(o).toMatchObject({
      ack_count: 0,
      checkpoint_buffer: null,
      validator_count: 4,
      last_noack_time: '1970-01-01T00:00:00Z',
    });
    expect(o.validator_set).toStrictEqual(ok('/staking/validator-set', fresh));
    expect(query('/overview', fresh).body).toMatchObject({ height: '0' });
  });
});

// --- topup -------------------------------------------------------------------------------------

describe('topup routes', () => {
  it('/topup/isoldtx?txhash=&logindex=: true once the top-up was processed', () => {
    expect(ok(`/topup/isoldtx?txhash=${W.topup.txHash}&logindex=3`)).toBe(true);
    expect(ok(`/topup/isoldtx?txhash=${W.topup.txHash}&logindex=4`)).toBe(false);
    expect(ok(`/topup/isoldtx?txhash=${W.stake.txHash}&logindex=2`)).toBe(false);
  });

  it('/topup/dividend-account/{id}: {ID, feeAmount, slashedAmount}; /topup/dividend-account-root: {accountRootHash}', () => {
    const d3 = ok('/topup/dividend-account/3');
    expect(Object.keys(d3)).toEqual(['ID', 'feeAmount', 'slashedAmount']);
    expect(d3).toStrictEqual({ ID: 3, feeAmount: W.withdrawn.toString(), slashedAmount: '0' });
    for (const id of [1, 2, 4])
      expect(ok(`/topup/dividend-account/${id}`)).toStrictEqual({ ID: id, feeAmount: '0', slashedAmount: '0' });
    const root = ok('/topup/dividend-account-root');
    expect(Object.keys(root)).toEqual(['accountRootHash']);
    const fees = [0n, 0n, W.withdrawn, 0n];
    expect(root.accountRootHash).toBe(
      accountRootHash(fees.map((feeAmount, i) => ({ id: i + 1, feeAmount, slashedAmount: 0n }))),
    );
  });

  it('errors: bad id 400, unknown validator 404, isoldtx without params 400', () => {
    fails('/topup/dividend-account/x', 400, notUint('x'));
    fails(`/topup/dividend-account/${W.v[0]!.address}`, 400, notUint(W.v[0]!.address));
    fails('/topup/dividend-account/9', 404, 'No validator found');
    fails('/topup/isoldtx', 400, 'txhash and logindex query params required');
    fails(`/topup/isoldtx?logindex=3`, 400, 'txhash and logindex query params required');
    fails(`/topup/isoldtx?txhash=${W.topup.txHash}&logindex=1.5`, 400, notUint('1.5'));
  });
});

// --- clerk -------------------------------------------------------------------------------------

describe('clerk routes', () => {
  const record = () => ({
    id: 1,
    contract: CONTRACT,
    data: '0xcafe',
    tx_hash: W.synced.txHash,
    log_index: 1,
    sidechain_chain_id: SIDECHAIN_CHAIN_ID,
    record_time: goTime(W.recordTimeMs),
  });

  it('/clerk/event-record/{id}: the EventRecord keys', () => {
    const r = ok('/clerk/event-record/1');
    expect(Object.keys(r)).toEqual(RECORD_KEYS);
    expect(r).toStrictEqual(record());
    expect(W.recordTimeMs % 1000).not.toBe(0);
  });

  it("/clerk/event-record/list: plain paging, from-id + to-time (Bor's poll), from-time + to-time", () => {
    const after = seconds(W.recordTimeMs) + 1;
    expect(ok('/clerk/event-record/list?page=1&limit=10')).toStrictEqual([record()]);
    expect(ok('/clerk/event-record/list')).toStrictEqual([record()]);
    // An empty page is the reference's nil slice (null); from an id with no record, [].
    expect(ok('/clerk/event-record/list?page=2&limit=10')).toBeNull();
    expect(ok(`/clerk/event-record/list?from-id=1&to-time=${after}&limit=50`)).toStrictEqual([record()]);
    expect(ok(`/clerk/event-record/list?from-id=1&to-time=${seconds(W.recordTimeMs) - 1}&limit=50`)).toStrictEqual([]);
    expect(ok(`/clerk/event-record/list?from-id=2&to-time=${after}&limit=50`)).toStrictEqual([]);
    expect(ok(`/clerk/event-record/list?from-time=0&to-time=${after}`)).toStrictEqual([record()]);
    expect(ok(`/clerk/event-record/list?from-time=${after}&to-time=${after + 10}`)).toBeNull();
  });

  it('/clerk/isoldtx?txhash=&logindex=', () => {
    expect(ok(`/clerk/isoldtx?txhash=${W.synced.txHash}&logindex=1`)).toBe(true);
    expect(ok(`/clerk/isoldtx?txhash=${W.synced.txHash}&logindex=0`)).toBe(false);
  });

  it('errors: bad id 400, unknown id 404, bad list params 400, isoldtx without params 400', () => {
    fails('/clerk/event-record/x', 400, notUint('x'));
    fails('/clerk/event-record/2', 404, 'No record found');
    fails('/clerk/event-record/list?from-id=x&to-time=5', 400, notUint('x'));
    fails('/clerk/event-record/list?limit=-1', 400, notUint('-1'));
    fails('/clerk/event-record/list?to-time=later', 400, notUint('later'));
    fails('/clerk/isoldtx', 400, 'txhash and logindex query params required');
  });
});

// --- chain -------------------------------------------------------------------------------------

describe('chain routes', () => {
  it('/chain/params: confirmations and the sidechain chain id', () => {
    expect(ok('/chain/params')).toStrictEqual({
      parent_chain_tx_confirmations: 6,
      sidechain_tx_confirmations: 10,
      sidechain_chain_id: SIDECHAIN_CHAIN_ID,
    });
  });
});

// --- all paths, unknown paths and garbage ------------------------------------------------------

const SPEC_GET_PATHS = [
  '/sidechain/span/1',
  '/sidechain/latest-span',
  '/sidechain/params',
  'ACCOUNT',
  'ACCOUNT/sequence',
  '/auth/params',
  '/staking/validator-set',
  '/staking/validator/1',
  '/checkpoints/1',
  '/checkpoints/buffer',
  '/checkpoints/count',
  '/checkpoints/last-no-ack',
  '/checkpoints/latest',
  '/checkpoints/list?page=1&limit=10',
  '/checkpoints/parama',
  '/checkpoints/prepare?start=512&end=767',
  '/overview',
];

const EXTRA_GET_PATHS = [
  '/sidechain/span/list?page=1&limit=10',
  '/sidechain/next-span-seed-block',
  '/checkpoints/params',
  'SIGNER',
  '/staking/current-proposer',
  '/staking/proposer/2',
  '/staking/totalpower',
  'STAKING_ISOLD',
  'TOPUP_ISOLD',
  '/topup/dividend-account/1',
  '/topup/dividend-account-root',
  '/clerk/event-record/1',
  '/clerk/event-record/list?page=1&limit=10',
  'CLERK_ISOLD',
  '/chain/params',
];

function concrete(p: string): string {
  const a = W.v[0]!.address;
  return p
    .replace(/^ACCOUNT/, `/auth/accounts/${a}`)
    .replace(/^SIGNER$/, `/staking/signer/${a}`)
    .replace(/^STAKING_ISOLD$/, `/staking/isoldtx?txhash=${W.stake.txHash}&logindex=2`)
    .replace(/^TOPUP_ISOLD$/, `/topup/isoldtx?txhash=${W.topup.txHash}&logindex=3`)
    .replace(/^CLERK_ISOLD$/, `/clerk/isoldtx?txhash=${W.synced.txHash}&logindex=1`);
}

describe('every read path', () => {
  it("every GET path of the spec's REST table and every extra route answers 200 with the envelope", () => {
    for (const p of [...SPEC_GET_PATHS, ...EXTRA_GET_PATHS]) {
      const result = ok(concrete(p));
      expect(result, p).not.toBeUndefined();
    }
    // A trailing slash is tolerated.
    expect(ok('/sidechain/params/')).toStrictEqual(SIDECHAIN_PARAMS);
  });

  it('unknown paths (including the POST-only /checkpoint/* routes) are 404 {"error": …}', () => {
    for (const p of [
      '/nope',
      '/',
      '',
      '/sidechain',
      '/sidechain/span',
      '/checkpoint/new',
      '/checkpoint/ack',
      '/checkpoint/no-ack',
      '/checkpoints',
      '/staking/validator',
      '/auth/accounts',
      '/sidechain//params',
      '/SIDECHAIN/PARAMS',
      '/txs',
    ]) {
      const r = query(p);
      expect(r.status, p).toBe(404);
      expect(Object.keys(r.body as object)).toEqual(['error']);
      expect((r.body as { error: string }).error).toMatch(/^no route for "/);
    }
  });

  it('bad percent-encoding or unparsable paths are 400, never a throw', () => {
    for (const p of ['/%zz', '/sidechain/span/%', '/checkpoints/%E0%A4%A', '/auth/accounts/%ff'])
      fails(p, 400, 'malformed percent-encoding in path');
    for (const p of ['//[', '//a:b:c/x', 'http://[::1/x']) {
      const r = query(p);
      expect(r.status, p).toBe(400);
      expect((r.body as { error: string }).error).toMatch(/^malformed path /);
    }
    // A bad escape in the query string is only a value that is not a number.
    fails('/checkpoints/list?page=%zz&limit=1', 400, notUint('%zz'));
    // Encoded separators are decoded before routing, so they cannot reach a handler's argument.
    expect(query('/sidechain/span/1%2F2').status).toBe(404);
    expect(ok('/sidechain/span/%31')).toStrictEqual(ok('/sidechain/span/1'));
  });
});

// --- fuzz --------------------------------------------------------------------------------------

describe('fuzz: any path or query string', () => {
  const TEMPLATES = [
    '/sidechain/span/{}',
    '/sidechain/latest-span',
    '/sidechain/params',
    '/sidechain/span/list',
    '/sidechain/next-span-seed-block',
    '/auth/accounts/{}',
    '/auth/accounts/{}/sequence',
    '/auth/params',
    '/staking/validator-set',
    '/staking/validator/{}',
    '/staking/signer/{}',
    '/staking/current-proposer',
    '/staking/proposer/{}',
    '/staking/totalpower',
    '/staking/isoldtx',
    '/checkpoints/{}',
    '/checkpoints/buffer',
    '/checkpoints/count',
    '/checkpoints/last-no-ack',
    '/checkpoints/latest',
    '/checkpoints/list',
    '/checkpoints/parama',
    '/checkpoints/params',
    '/checkpoints/prepare',
    '/overview',
    '/clerk/event-record/{}',
    '/clerk/event-record/list',
    '/clerk/isoldtx',
    '/topup/isoldtx',
    '/topup/dividend-account/{}',
    '/topup/dividend-account-root',
    '/chain/params',
  ];
  const hex = (n: number) =>
    fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: n, maxLength: n });
  const value = () =>
    fc.oneof(
      fc.nat({ max: 2000 }).map(String),
      fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }).map(String),
      fc.constantFrom(
        '',
        '0',
        '1',
        '2',
        '255',
        '1023',
        '1024',
        'x',
        '-1',
        '1.5',
        '1e3',
        '0x10',
        '01',
        '18446744073709551615',
        '18446744073709551616',
        '%',
        '%zz',
        '%2F',
        '%00',
        '..',
        '.',
        ' ',
        '+1',
        '😀',
        '\u0000',
      ),
      hex(40).map((h) => `0x${h}`),
      hex(64).map((h) => `0x${h}`),
      fc.constantFrom(W.v[0]!.address, W.stake.txHash, W.topup.txHash, W.synced.txHash, ZERO),
      fc.string({ maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 8 }),
    );
  const queryString = () =>
    fc
      .array(
        fc.tuple(
          fc.constantFrom(
            'page',
            'limit',
            'start',
            'end',
            'txhash',
            'logindex',
            'from-id',
            'from-time',
            'to-time',
            'height',
            'x',
          ),
          value(),
        ),
        { maxLength: 4 },
      )
      .map((kv) => (kv.length ? `?${kv.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));
  const structured = () =>
    fc
      .tuple(fc.constantFrom(...TEMPLATES), value(), queryString(), fc.constantFrom('', '', '', '/', '#frag', '//'))
      .map(([t, seg, qs, tail]) => `${t.replace('{}', seg)}${tail}${qs}`);
  const garbage = () =>
    fc
      .array(
        fc.constantFrom(
          '/',
          '%',
          'z',
          '0',
          'F',
          'e',
          '?',
          '&',
          '=',
          '#',
          '\\',
          ' ',
          '..',
          '[',
          ']',
          ':',
          '@',
          'sidechain',
          'checkpoints',
          'span',
          '%2',
          '%E0',
        ),
        { maxLength: 16 },
      )
      .map((xs) => xs.join(''));
  const anyPath = () =>
    fc.oneof(
      { arbitrary: structured(), weight: 4 },
      { arbitrary: garbage(), weight: 1 },
      { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
    );

  it('300 random paths: a numeric status and either the success envelope or {error: string}; the state and app hash do not change', () => {
    const app = W.chain.app;
    const before = { appHash: app.appHash, storeHash: app.store.hash(), height: app.height, state: app.exportState() };
    const statuses = new Map<number, number>();
    fc.assert(
      fc.property(anyPath(), fc.boolean(), (path, withObservers) => {
        const r = restQuery(app, path, withObservers ? W.chain.observers : undefined);
        expect(typeof r.status).toBe('number');
        expect(Number.isInteger(r.status)).toBe(true);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        expect(r.body).toBeTypeOf('object');
        expect(r.body).not.toBeNull();
        // Serialisable as it stands (no bigint, no undefined, no class instances).
        expect(JSON.parse(JSON.stringify(r.body))).toStrictEqual(r.body);
        const body = r.body as Record<string, unknown>;
        if (r.status === 200) {
          expect(Object.keys(body)).toEqual(['height', 'result']);
          expect(body.height).toBe(app.height.toString());
          expect(body.result).not.toBeUndefined();
        } else {
          expect([400, 404, 500]).toContain(r.status);
          expect(Object.keys(body)).toEqual(['error']);
          expect(typeof body.error).toBe('string');
        }
      }),
      { numRuns: 300 },
    );
    // The fuzz reached both answers.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect([...statuses.keys()].some((s) => s >= 400)).toBe(true);
    expect({
      appHash: app.appHash,
      storeHash: app.store.hash(),
      height: app.height,
      state: app.exportState(),
    }).toStrictEqual(before);
  });
});
