/**
 * State-sync event records through the real app: MsgEventRecord's deliver checks, side vote and
 * post handler, and the clerk queries (by id, the list Bor polls, paging and the limit clamp).
 */
import { restQuery } from '../../rpc/testing/restQuery';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { TestChain, testKey, type TestKey } from '../../app/testing/testChain';
import { fakeTxHash as labelTxHash } from '../../app/testing/fakeObservers';
import { type SideTxResult, type TxResult } from '../../app/blockResults';
import { type StateSyncedEvent } from '../framework/observers';
import { MsgEventRecordDef, type MsgEventRecord } from './msgs';
import { recordTimeJson } from './queries';

// --- helpers ---------------------------------------------------------------------------------

const SIDECHAIN_CHAIN_ID = '15001';
const CONTRACT = testKey('clerk/receiver-contract').address;
const RECORD_KEYS = ['id', 'contract', 'data', 'tx_hash', 'log_index', 'sidechain_chain_id', 'record_time'];

let hashCounter = 0;
const fakeTxHash = (label: string): Hex => labelTxHash(`clerk-msgs-test/${label}/${hashCounter++}`);

function stateSynced(
  chain: TestChain,
  id: bigint,
  opts: Partial<StateSyncedEvent> = {},
  confirmations?: bigint,
): StateSyncedEvent {
  const ev: StateSyncedEvent = {
    name: 'StateSynced',
    txHash: fakeTxHash(`state-synced-${id}`),
    logIndex: 2n,
    blockNumber: 500n + id,
    id,
    contractAddress: CONTRACT,
    data: `0x${id.toString(16).padStart(4, '0')}cafe`,
    ...opts,
  };
  chain.observers.addEvent(ev, confirmations);
  return ev;
}

function recordMsg(from: Address, ev: StateSyncedEvent, over: Partial<MsgEventRecord> = {}): MsgEventRecord {
  return {
    from,
    txHash: ev.txHash,
    logIndex: ev.logIndex,
    id: ev.id,
    contractAddress: ev.contractAddress,
    data: ev.data,
    sidechainChainId: SIDECHAIN_CHAIN_ID,
    ...over,
  };
}

function expectOk(r: TxResult | SideTxResult | undefined): void {
  expect(r, 'result present').toBeDefined();
  expect({ code: r!.code, log: r!.log }).toEqual({ code: 0, log: '' });
}

function expectRejected(r: TxResult | SideTxResult | undefined, code: number, message?: string): void {
  expect(r, 'result present').toBeDefined();
  expect({ code: r!.code, codespace: r!.codespace }).toEqual({ code, codespace: '1' });
  const log = JSON.parse(r!.log) as { code: number; message: string };
  expect(log.code).toBe(code);
  if (message !== undefined) expect(log.message).toBe(message);
}

function settle(chain: TestChain, key: TestKey, msg: MsgEventRecord): { tx: TxResult; side: SideTxResult | undefined } {
  const r = chain.blockAndSettle([chain.tx(MsgEventRecordDef, msg, key)]);
  return { tx: r.txs[0]!, side: r.side[0] };
}

/** Go's time.Time JSON (RFC3339Nano, UTC) of a block time in ms. */
function goTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');
}

interface RecordJson {
  id: number;
  contract: Address;
  data: Hex;
  tx_hash: Hex;
  log_index: number;
  sidechain_chain_id: string;
  record_time: string;
}

const list = (chain: TestChain, query: string) => chain.queryResult<RecordJson[]>(`/clerk/event-record/list?${query}`);

/** Store records 1..n in one block (txs from all validators), all with the same record time. */
function storeRecords(chain: TestChain, n: number): number {
  const txs: Uint8Array[] = [];
  const sent = new Map<Address, bigint>();
  for (let i = 1; i <= n; i++) {
    const key = chain.validators[i % chain.validators.length]!;
    const ev = stateSynced(chain, BigInt(i));
    const offset = sent.get(key.address) ?? 0n;
    sent.set(key.address, offset + 1n);
    txs.push(chain.tx(MsgEventRecordDef, recordMsg(key.address, ev), key, { sequenceOffset: offset }));
  }
  const r = chain.blockAndSettle(txs);
  r.txs.forEach(expectOk);
  expect(r.side).toHaveLength(n);
  r.side.forEach(expectOk);
  return chain.timeMs;
}

// --- success ---------------------------------------------------------------------------------

describe('MsgEventRecord success', () => {
  it('stores the record with record_time = block time of the post block; the id and list queries return it', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const ev = stateSynced(chain, 1n, { logIndex: 9n, data: '0xdeadbeef' });
    const h = chain.block([chain.tx(MsgEventRecordDef, recordMsg(a!.address, ev), a!)]);
    expectOk(h.txs[0]);
    expect(restQuery(chain.app, '/clerk/event-record/1').status).toBe(404);
    chain.block();
    expect(restQuery(chain.app, '/clerk/event-record/1').status).toBe(404);
    const post = chain.block();
    const side = post.end.sideTxResults[0];
    expectOk(side);
    expect(side!.msgType).toBe('clerk/MsgEventRecord');
    expect(side!.events).toContainEqual({
      type: 'record',
      attributes: { 'record-id': '1', 'record-contract': CONTRACT },
    });
    const postTimeMs = chain.timeMs;
    expect(postTimeMs).toBe(15_000);

    const rec = chain.queryResult<RecordJson>('/clerk/event-record/1');
    expect(Object.keys(rec)).toEqual(RECORD_KEYS);
    expect(rec).toEqual({
      id: 1,
      contract: CONTRACT,
      data: '0xdeadbeef',
      tx_hash: ev.txHash,
      log_index: 9,
      sidechain_chain_id: SIDECHAIN_CHAIN_ID,
      record_time: goTime(postTimeMs),
    });
    expect(rec.record_time).toBe('1970-01-01T00:00:15Z');

    // Bor's poll: from-id with to-time in unix seconds; record_time < to-time.
    expect(list(chain, 'from-id=1&to-time=16&limit=50')).toEqual([rec]);
    expect(list(chain, 'from-id=1&to-time=15&limit=50')).toEqual([]);
    expect(list(chain, 'from-id=2&to-time=16&limit=50')).toEqual([]);
    expect(chain.queryResult(`/clerk/isoldtx?txhash=${ev.txHash}&logindex=9`)).toBe(true);
  });

  it('record_time keeps fractional seconds as Go does (no trailing zeros)', () => {
    const chain = new TestChain();
    chain.blockTimeMs = 5_250;
    const [a] = chain.validators;
    const ev = stateSynced(chain, 1n);
    expectOk(settle(chain, a!, recordMsg(a!.address, ev)).side);
    expect(chain.timeMs).toBe(15_750);
    expect(chain.queryResult<RecordJson>('/clerk/event-record/1').record_time).toBe('1970-01-01T00:00:15.75Z');
    expect(list(chain, 'from-id=1&to-time=16').map((r) => r.id)).toEqual([1]);
    expect(list(chain, 'from-id=1&to-time=15')).toEqual([]);
  });

  it('record_time formatting equals Go RFC3339Nano (UTC) for any time in years 1970..9999', () => {
    for (const ms of [0, 999, 1000, 86_399_999, 86_400_000, 951_782_400_000, 1_709_164_800_123, 253_402_300_799_999])
      expect(recordTimeJson(ms), String(ms)).toBe(goTime(ms));
    expect(recordTimeJson(1_709_164_800_120)).toBe('2024-02-29T00:00:00.12Z');
    fc.assert(fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => recordTimeJson(ms) === goTime(ms)));
  });

  it('empty data is stored as 0x', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const ev = stateSynced(chain, 1n, { data: '0x' });
    expectOk(settle(chain, a!, recordMsg(a!.address, ev)).side);
    expect(chain.queryResult<RecordJson>('/clerk/event-record/1').data).toBe('0x');
  });
});

// --- rejections ------------------------------------------------------------------------------

describe('MsgEventRecord rejections', () => {
  it('5400 at deliver when the record id exists', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const ev = stateSynced(chain, 1n);
    expectOk(settle(chain, a!, recordMsg(a!.address, ev)).side);
    const again = stateSynced(chain, 1n, { data: '0x01' });
    const before = chain.app.appHash;
    const r = chain.block([chain.tx(MsgEventRecordDef, recordMsg(a!.address, again), a!)]);
    expectRejected(r.txs[0], 5400, 'Event record already synced');
    expect(chain.app.appHash).toBe(before);
  });

  it('3506 at deliver on a wrong sidechain chain id', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const ev = stateSynced(chain, 1n);
    const r = chain.blockAndSettle([
      chain.tx(MsgEventRecordDef, recordMsg(a!.address, ev, { sidechainChainId: '137' }), a!),
    ]);
    expectRejected(r.txs[0], 3506, 'Invalid Bor chain id');
    expect(r.side).toEqual([]);
    expect(restQuery(chain.app, '/clerk/event-record/1').status).toBe(404);
  });

  it('1401 at deliver for a replayed (tx_hash, log_index) under another id', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const ev = stateSynced(chain, 1n);
    expectOk(settle(chain, a!, recordMsg(a!.address, ev)).side);
    const r = chain.block([chain.tx(MsgEventRecordDef, recordMsg(a!.address, ev, { id: 2n }), a!)]);
    expectRejected(r.txs[0], 1401, 'Old txhash not allowed');
  });

  it('1401 at post for the second of two identical records in one block', () => {
    const chain = new TestChain();
    const [a, b] = chain.validators;
    const ev = stateSynced(chain, 1n);
    const r = chain.blockAndSettle([
      chain.tx(MsgEventRecordDef, recordMsg(a!.address, ev), a!),
      chain.tx(MsgEventRecordDef, recordMsg(b!.address, ev), b!),
    ]);
    expectOk(r.txs[0]);
    expectOk(r.txs[1]);
    expectOk(r.side[0]);
    expectRejected(r.side[1], 1401);
    expect(r.side[1]!.events).toEqual([]);
    expect(list(chain, 'page=1&limit=50')).toHaveLength(1);
  });

  it('data, id, contract or event type differing from the parent chain: validators vote no, 5502', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const ev = stateSynced(chain, 1n, { data: '0xaabb' });
    const wrongType = chain.observers.addEvent({
      name: 'TopUpFee',
      txHash: fakeTxHash('topup'),
      logIndex: 0n,
      blockNumber: 1n,
      user: a!.address,
      fee: 5n,
    });
    const cases: MsgEventRecord[] = [
      recordMsg(a!.address, ev, { data: '0xaabc' }),
      recordMsg(a!.address, ev, { data: '0x' }),
      recordMsg(a!.address, ev, { id: 2n }),
      recordMsg(a!.address, ev, { contractAddress: testKey('clerk/other-contract').address }),
      { ...recordMsg(a!.address, ev), txHash: wrongType.txHash, logIndex: wrongType.logIndex },
    ];
    for (const msg of cases) {
      const r = settle(chain, a!, msg);
      expectOk(r.tx);
      expectRejected(r.side, 5502, 'External call majority validation failed. ');
      expect(r.side!.tally.result).toBe('no');
    }
    // No record: an empty page, which the reference answers as null (Go's nil slice).
    expect(list(chain, 'page=1&limit=50')).toBeNull();
    // The replay key was not burnt: the honest message still goes through.
    expectOk(settle(chain, a!, recordMsg(a!.address, ev)).side);
    expect(chain.queryResult<RecordJson>('/clerk/event-record/1').data).toBe('0xaabb');
  });

  it('an event with more than 30000 bytes of data is relayed with empty data; up to 30000 bytes it must match', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const big = stateSynced(chain, 1n, { data: `0x${'5a'.repeat(30_001)}` });
    const r = settle(chain, a!, recordMsg(a!.address, big, { data: '0x' }));
    expectOk(r.side);
    expect(chain.queryResult<RecordJson>('/clerk/event-record/1')).toMatchObject({ id: 1, data: '0x' });
    const limit = stateSynced(chain, 2n, { data: `0x${'5a'.repeat(30_000)}` });
    const r2 = settle(chain, a!, recordMsg(a!.address, limit, { data: '0x' }));
    expectRejected(r2.side, 5502);
    expect(r2.side!.tally.result).toBe('no');
    // Truncation only to empty: a partial payload is still a mismatch.
    const big3 = stateSynced(chain, 2n, { data: `0x${'5a'.repeat(30_001)}` });
    const r3 = settle(chain, a!, recordMsg(a!.address, big3, { data: '0x5a5a' }));
    expectRejected(r3.side, 5502);
  });

  it('a missing or unconfirmed event makes validators skip: 5502', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const ev = stateSynced(chain, 1n, {}, 5n);
    const r = settle(chain, a!, recordMsg(a!.address, ev));
    expectRejected(r.side, 5502);
    expect(r.side!.tally.result).toBe('skip');
    const missing = settle(chain, a!, recordMsg(a!.address, ev, { txHash: fakeTxHash('missing') }));
    expectRejected(missing.side, 5502);
    expect(restQuery(chain.app, '/clerk/event-record/1').status).toBe(404);
  });

  it('5403 for data above 100000 bytes (ValidateBasic in the ante handler)', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const ev = stateSynced(chain, 1n);
    const big = `0x${'ab'.repeat(100_001)}` as Hex;
    const r = chain.block([chain.tx(MsgEventRecordDef, recordMsg(a!.address, ev, { data: big }), a!)]);
    expectRejected(r.txs[0], 5403, 'Data size exceed');
  });

  it('decode errors name the field (sdk code 2)', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const good = chain.tx(MsgEventRecordDef, recordMsg(a!.address, stateSynced(chain, 1n)), a!);
    const tamper = (edit: (v: Record<string, unknown>) => void) => {
      const tx = JSON.parse(new TextDecoder().decode(good)) as { msg: { value: Record<string, unknown> } };
      edit(tx.msg.value);
      return new TextEncoder().encode(JSON.stringify(tx));
    };
    const cases: Array<[string, (v: Record<string, unknown>) => void]> = [
      ['tx.msg.value.data', (v) => (v.data = '0xabc')],
      ['tx.msg.value.contract_address', (v) => delete v.contract_address],
      ['tx.msg.value.tx_hash', (v) => (v.tx_hash = '0x00')],
      ['tx.msg.value.bor_chain_id', (v) => (v.bor_chain_id = '15001')],
      ['tx.msg.value.block_number', (v) => (v.block_number = '1')],
    ];
    const results = chain.block(cases.map(([, e]) => tamper(e))).txs;
    cases.forEach(([field], i) => {
      expect({ code: results[i]!.code, codespace: results[i]!.codespace }).toEqual({ code: 2, codespace: 'sdk' });
      expect(JSON.parse(results[i]!.log).message.startsWith(`${field}:`), results[i]!.log).toBe(true);
    });
  });
});

// --- list query ------------------------------------------------------------------------------

describe('clerk list query', () => {
  it('from-id + to-time pages through consecutive ids; limit is clamped to 50', () => {
    const chain = new TestChain();
    const t = storeRecords(chain, 60);
    const toTime = t / 1000 + 1;
    const first = list(chain, `from-id=1&to-time=${toTime}&limit=50`);
    expect(first.map((r) => r.id)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(first.every((r) => r.record_time === goTime(t))).toBe(true);
    expect(list(chain, `from-id=1&to-time=${toTime}&limit=500`)).toHaveLength(50);
    expect(list(chain, `from-id=1&to-time=${toTime}`)).toHaveLength(50);
    expect(list(chain, `from-id=51&to-time=${toTime}&limit=50`).map((r) => r.id)).toEqual(
      Array.from({ length: 10 }, (_, i) => i + 51),
    );
    expect(list(chain, `from-id=5&to-time=${toTime}&limit=3`).map((r) => r.id)).toEqual([5, 6, 7]);
    expect(list(chain, `from-id=61&to-time=${toTime}&limit=50`)).toEqual([]);
    // Records at or after to-time are excluded.
    expect(list(chain, `from-id=1&to-time=${t / 1000}&limit=50`)).toEqual([]);
  });

  it('from-id stops at the first record not older than to-time', () => {
    const chain = new TestChain();
    const [a] = chain.validators;
    const ev1 = stateSynced(chain, 1n);
    expectOk(settle(chain, a!, recordMsg(a!.address, ev1)).side);
    const t1 = chain.timeMs;
    chain.block();
    chain.block();
    const ev2 = stateSynced(chain, 2n);
    expectOk(settle(chain, a!, recordMsg(a!.address, ev2)).side);
    const t2 = chain.timeMs;
    expect(t2).toBeGreaterThan(t1 + 1000);
    expect(list(chain, `from-id=1&to-time=${t2 / 1000}&limit=50`).map((r) => r.id)).toEqual([1]);
    expect(list(chain, `from-id=1&to-time=${t2 / 1000 + 1}&limit=50`).map((r) => [r.id, r.record_time])).toEqual([
      [1, goTime(t1)],
      [2, goTime(t2)],
    ]);
    // from-time + to-time: [from, to).
    expect(list(chain, `from-time=${t1 / 1000}&to-time=${t2 / 1000}`).map((r) => r.id)).toEqual([1]);
    expect(list(chain, `from-time=${t1 / 1000 + 1}&to-time=${t2 / 1000 + 1}`).map((r) => r.id)).toEqual([2]);
  });

  it('page/limit paging over ids in the order of their keys (the id as decimal text), limit clamped to 50', () => {
    const chain = new TestChain();
    storeRecords(chain, 55);
    // Heimdall keys a record by its id as text: 1, 10, 11, …, 19, 2, 20, …
    const byText = Array.from({ length: 55 }, (_, i) => i + 1).sort((a, b) =>
      String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0,
    );
    expect(list(chain, 'page=1&limit=100').map((r) => r.id)).toEqual(byText.slice(0, 50));
    expect(list(chain, 'page=1&limit=3').map((r) => r.id)).toEqual([1, 10, 11]);
    expect(list(chain, 'page=2&limit=50').map((r) => r.id)).toEqual(byText.slice(50));
    expect(list(chain, 'page=3&limit=20').map((r) => r.id)).toEqual(byText.slice(40, 55));
    // Past the last record: an empty page, null as the reference answers it.
    expect(list(chain, 'page=4&limit=50')).toBeNull();
  });

  it('record queries reject malformed ids and report unknown records', () => {
    const chain = new TestChain();
    expect(restQuery(chain.app, '/clerk/event-record/abc')).toEqual({
      status: 400,
      body: { error: "'abc' is not a valid uint64" },
    });
    expect(restQuery(chain.app, '/clerk/event-record/3')).toEqual({ status: 404, body: { error: 'No record found' } });
    expect(restQuery(chain.app, '/clerk/event-record/list?from-id=x&to-time=1').status).toBe(400);
  });
});
