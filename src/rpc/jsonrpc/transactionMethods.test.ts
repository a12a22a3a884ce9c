/**
 * Transactions, receipts and logs over JSON-RPC (issue 16 item 5, issue 22; sidechain.md §2.8,
 * §4.3, §5): the fixture chain's signed transfers (and their LogTransfer logs) and state-sync
 * transactions read back by hash, by block and index, as receipts and as filtered logs, in geth's
 * shapes, and through ethers' formatters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcApiProvider, type JsonRpcError, type JsonRpcPayload, type JsonRpcResult, toBeHex } from 'ethers';
import { type Hex, fromHex } from '../../core/bytes';
import { keccak256Bytes } from '../../core/hash';
import { type SidechainChain, type StoredBlock } from '../../sidechain/chain';
import { chainReadPort } from '../../sidechain/readPort';
import { STATE_COMMITTED_TOPIC, STATE_RECEIVER_ADDRESS, stateSyncTxHash } from '../../sidechain/stateSync';
import { type SidechainView } from '../ports';
import { FIXTURE_CHAIN_ID, buildFixtureChain } from '../testing/sidechainPort';
import { type RpcResult, callRpc } from './methods';
import { toQuantity } from './quantity';

const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/;
const HASH = /^0x[0-9a-f]{64}$/;
const ADDRESS = /^0x[0-9a-f]{40}$/;

let chain: SidechainChain;
let view: SidechainView;
beforeAll(() => {
  chain = buildFixtureChain(14);
  view = { chain: chainReadPort(chain), chainId: FIXTURE_CHAIN_ID, peerCount: 3, syncing: null };
});

function ok(r: RpcResult): unknown {
  if (!r.ok) throw new Error(`expected a result, got ${r.error.code} ${r.error.message}`);
  return JSON.parse(JSON.stringify(r.result));
}
const err = (code: number, message: string) => ({ ok: false, error: { code, message } });
const call = (method: string, params: unknown[]) => callRpc(view, method, params);

type Json = Record<string, unknown>;
const syncBlocks = (): StoredBlock[] => chain.canonicalRange(0n).filter((b) => b.block.body.stateSyncs.length > 0);
const blockTxs = (n: bigint): Json[] =>
  (ok(call('eth_getBlockByNumber', [toQuantity(n), true])) as { transactions: Json[] }).transactions;

/** The bloom as a 2048-bit number: bit k set for each of the three 11-bit slices of keccak(item). */
function bloomOf(items: Hex[]): bigint {
  let bits = 0n;
  for (const item of items) {
    const h = keccak256Bytes(fromHex(item));
    for (const i of [0, 2, 4]) bits |= 1n << BigInt(((h[i]! << 8) | h[i + 1]!) & 2047);
  }
  return bits;
}

describe('the chain under test', () => {
  it('has transfers in blocks 10 and 12, and state syncs in 12 and other sprint starts', () => {
    expect(chain.byNumber(10n)!.block.body.txs).toHaveLength(2);
    expect(chain.byNumber(12n)!.block.body.txs).toHaveLength(2);
    expect(syncBlocks().map((b) => b.block.header.number)).toContain(12n);
    expect(syncBlocks().length).toBeGreaterThan(1);
  });
});

describe('eth_getTransactionByHash', () => {
  it('answers every transaction of every block as the block lists it, the state-sync one included', () => {
    const every = new Map<string, Json>();
    for (const b of chain.canonicalRange(0n))
      for (const tx of blockTxs(b.block.header.number)) every.set(tx.hash as string, tx);
    expect(every.size).toBe(4 + syncBlocks().length);
    for (const [hash, tx] of every) expect(ok(call('eth_getTransactionByHash', [hash]))).toEqual(tx);
    expect((ok(call('eth_getTransactionByHash', [blockTxs(10n)[0]!.hash])) as Json).blockNumber).toBe('0xa');
    const s = chain.byNumber(12n)!;
    expect(ok(call('eth_getTransactionByHash', [stateSyncTxHash(12n, s.block.hash)]))).toMatchObject({
      hash: stateSyncTxHash(12n, s.block.hash),
      transactionIndex: '0x2',
      blockNumber: '0xc',
      blockHash: s.block.hash,
    });
  });

  it('null for an unknown hash; geth errors for a bad one', () => {
    expect(ok(call('eth_getTransactionByHash', [`0x${'ab'.repeat(32)}`]))).toBeNull();
    expect(call('eth_getTransactionByHash', ['0x12'])).toEqual(
      err(-32602, 'invalid argument 0: hex string has length 2, want 64 for common.Hash'),
    );
    expect(call('eth_getTransactionByHash', [])).toEqual(err(-32602, 'missing value for required argument 0'));
  });
});

describe('eth_getTransactionReceipt', () => {
  it('a transfer: status 1, 21,000 gas, cumulative gas, its type and price, its LogTransfer, every field in geth format', () => {
    const b = chain.byNumber(12n)!;
    const baseFee = b.block.header.baseFee!;
    const txs = blockTxs(12n).slice(0, 2);
    txs.forEach((tx, i) => {
      const r = ok(call('eth_getTransactionReceipt', [tx.hash])) as Json & { logs: Json[] };
      const signed = b.block.body.txs[i]!;
      const price = signed.type === 0 ? signed.maxFeePerGas : baseFee + signed.maxPriorityFeePerGas;
      const topics = (r.logs[0]!.topics as Hex[]) ?? [];
      expect(r).toEqual({
        blockHash: b.block.hash,
        blockNumber: '0xc',
        transactionHash: tx.hash,
        transactionIndex: toQuantity(i),
        from: tx.from,
        to: tx.to,
        gasUsed: '0x5208',
        cumulativeGasUsed: toQuantity(21_000 * (i + 1)),
        contractAddress: null,
        logs: [
          {
            address: '0x0000000000000000000000000000000000001010',
            topics,
            data: r.logs[0]!.data,
            blockNumber: '0xc',
            transactionHash: tx.hash,
            transactionIndex: toQuantity(i),
            blockHash: b.block.hash,
            logIndex: toQuantity(i),
            removed: false,
          },
        ],
        logsBloom: r.logsBloom,
        type: toQuantity(signed.type),
        effectiveGasPrice: toQuantity(price),
        status: '0x1',
      });
      expect(topics.slice(2)).toEqual([toBeHex(BigInt(signed.from), 32), toBeHex(BigInt(signed.to), 32)]);
      expect(BigInt(r.logsBloom as string)).toBe(bloomOf(['0x0000000000000000000000000000000000001010', ...topics]));
    });
  });

  it('the state-sync receipt: derived hash, last index, zero addresses and gas, one StateCommitted log per record', () => {
    for (const b of syncBlocks()) {
      const n = b.block.header.number;
      const hash = stateSyncTxHash(n, b.block.hash);
      const r = ok(call('eth_getTransactionReceipt', [hash])) as Json & { logs: Json[]; logsBloom: string };
      const index = b.block.body.txs.length;
      expect(r).toMatchObject({
        blockHash: b.block.hash,
        blockNumber: toQuantity(n),
        transactionHash: hash,
        transactionIndex: toQuantity(index),
        from: '0x0000000000000000000000000000000000000000',
        to: '0x0000000000000000000000000000000000000000',
        gasUsed: '0x0',
        cumulativeGasUsed: '0x0',
        contractAddress: null,
        status: '0x1',
        type: '0x0',
        effectiveGasPrice: '0x0',
      });
      expect(r.logs).toEqual(
        b.block.body.stateSyncs.map((s, i) => ({
          address: STATE_RECEIVER_ADDRESS,
          topics: [STATE_COMMITTED_TOPIC, toBeHex(s.id, 32)],
          data: `0x${'00'.repeat(31)}01`,
          blockNumber: toQuantity(n),
          transactionHash: hash,
          transactionIndex: toQuantity(index),
          blockHash: b.block.hash,
          // After the transfers' logs (a transfer of value 0 logs nothing).
          logIndex: toQuantity(i + b.outcomes.reduce((k, o) => k + o.logs.length, 0)),
          removed: false,
        })),
      );
      const items = b.block.body.stateSyncs.flatMap((s) => [
        STATE_RECEIVER_ADDRESS,
        STATE_COMMITTED_TOPIC,
        toBeHex(s.id, 32) as Hex,
      ]);
      expect(BigInt(r.logsBloom)).toBe(bloomOf(items));
      expect(r.logsBloom).toMatch(/^0x[0-9a-f]{512}$/);
    }
  });

  it('null for an unknown transaction', () => {
    expect(ok(call('eth_getTransactionReceipt', [`0x${'cd'.repeat(32)}`]))).toBeNull();
  });

  it('block receipts: every receipt, the state-sync one last; Bor`s eth_getBorBlockReceipt alone', () => {
    const b = chain.byNumber(12n)!;
    const receipts = ok(call('eth_getBlockReceipts', ['0xc'])) as Json[];
    expect(receipts.map((r) => r.transactionHash)).toEqual(blockTxs(12n).map((t) => t.hash));
    expect(ok(call('eth_getTransactionReceiptsByBlock', [b.block.hash]))).toEqual(receipts);
    expect(ok(call('eth_getBorBlockReceipt', [b.block.hash]))).toEqual(receipts[2]);
    expect(ok(call('eth_getBlockReceipts', ['0x1']))).toEqual([]);
    expect(ok(call('eth_getBlockReceipts', ['0x63']))).toBeNull();
    expect(call('eth_getTransactionReceiptsByBlock', ['0x63'])).toEqual(err(-32000, 'block not found'));
    expect(call('eth_getBorBlockReceipt', [chain.byNumber(1n)!.block.hash])).toEqual(err(-32000, 'not found'));
  });
});

describe('transaction counts and transactions by block and index', () => {
  it('count the state-sync transaction, as Bor does', () => {
    for (const b of chain.canonicalRange(0n)) {
      const n = b.block.header.number;
      const expected = toQuantity(b.block.body.txs.length + (b.block.body.stateSyncs.length > 0 ? 1 : 0));
      expect(ok(call('eth_getBlockTransactionCountByNumber', [toQuantity(n)])), `block ${n}`).toBe(expected);
      expect(ok(call('eth_getBlockTransactionCountByHash', [b.block.hash]))).toBe(expected);
      expect(expected).toBe(toQuantity(blockTxs(n).length));
    }
    expect(ok(call('eth_getBlockTransactionCountByNumber', ['latest']))).toMatch(QUANTITY);
    expect(ok(call('eth_getBlockTransactionCountByNumber', ['0x63']))).toBeNull();
    expect(ok(call('eth_getBlockTransactionCountByHash', [`0x${'ab'.repeat(32)}`]))).toBeNull();
  });

  it('by index: each transaction in block order, null past the end', () => {
    const b = chain.byNumber(12n)!;
    const txs = blockTxs(12n);
    txs.forEach((tx, i) => {
      expect(ok(call('eth_getTransactionByBlockNumberAndIndex', ['0xc', toQuantity(i)]))).toEqual(tx);
      expect(ok(call('eth_getTransactionByBlockHashAndIndex', [b.block.hash, toQuantity(i)]))).toEqual(tx);
    });
    expect(ok(call('eth_getTransactionByBlockNumberAndIndex', ['0xc', toQuantity(txs.length)]))).toBeNull();
    expect(ok(call('eth_getTransactionByBlockNumberAndIndex', ['0xc', '0xffffffffffffffff']))).toBeNull();
    expect(ok(call('eth_getTransactionByBlockNumberAndIndex', ['0x63', '0x0']))).toBeNull();
    expect(call('eth_getTransactionByBlockNumberAndIndex', ['0xc', 1])).toEqual(
      err(-32602, 'invalid argument 1: json: cannot unmarshal non-string into Go value of type hexutil.Uint'),
    );
    expect(call('eth_getTransactionByBlockNumberAndIndex', ['0xc', '0x01'])).toEqual(
      err(
        -32602,
        'invalid argument 1: json: cannot unmarshal hex number with leading zero digits into Go value of type hexutil.Uint',
      ),
    );
  });
});

describe('eth_getLogs', () => {
  /** The state-sync logs, block by block. */
  const stateLogs = (): Json[] =>
    syncBlocks().flatMap(
      (b) =>
        (
          ok(call('eth_getTransactionReceipt', [stateSyncTxHash(b.block.header.number, b.block.hash)])) as {
            logs: Json[];
          }
        ).logs,
    );
  /** Every log of every block: the transfers' and the state syncs'. */
  const allLogs = (): Json[] =>
    chain
      .canonicalRange(0n)
      .flatMap((b) =>
        (ok(call('eth_getBlockReceipts', [toQuantity(b.block.header.number)])) as Array<{ logs: Json[] }>).flatMap(
          (r) => r.logs,
        ),
      );
  const logs = (filter: unknown): Json[] => ok(call('eth_getLogs', [filter])) as Json[];
  const idTopic = (id: number) => toBeHex(id, 32);

  it('a range: every log, ordered by block and log index; the default range is the head alone', () => {
    const all = allLogs();
    expect(all.length).toBeGreaterThan(2);
    expect(logs({ fromBlock: '0x0', toBlock: 'latest' })).toEqual(all);
    expect(logs({ fromBlock: 'earliest' })).toEqual(all);
    const head = chain.head();
    expect(logs({})).toEqual(head.block.body.stateSyncs.length ? logs({ blockHash: head.block.hash }) : []);
    expect(logs(null)).toEqual(logs({}));
    // One block, by number and by hash.
    const b12 = chain.byNumber(12n)!;
    const in12 = all.filter((l) => l.blockNumber === '0xc');
    expect(in12.length).toBeGreaterThan(0);
    expect(logs({ fromBlock: '0xc', toBlock: '0xc' })).toEqual(in12);
    expect(logs({ blockHash: b12.block.hash })).toEqual(in12);
    // A range past the head stops at the head; one that starts past it is empty.
    expect(logs({ fromBlock: '0x0', toBlock: '0x3e8' })).toEqual(all);
    expect(logs({ fromBlock: '0x3e8', toBlock: '0x3e9' })).toEqual([]);
    // Keys are matched as Go matches struct fields.
    expect(logs({ FROMBLOCK: '0xc', toblock: '0xc' })).toEqual(in12);
  });

  it('address: one or any of several', () => {
    const all = stateLogs();
    expect(allLogs().length).toBe(all.length + 3);
    expect(logs({ fromBlock: '0x0', address: STATE_RECEIVER_ADDRESS })).toEqual(all);
    expect(logs({ fromBlock: '0x0', address: STATE_RECEIVER_ADDRESS.toUpperCase().replace('0X', '0x') })).toEqual(all);
    expect(logs({ fromBlock: '0x0', address: [`0x${'11'.repeat(20)}`, STATE_RECEIVER_ADDRESS] })).toEqual(all);
    expect(logs({ fromBlock: '0x0', address: `0x${'11'.repeat(20)}` })).toEqual([]);
    expect(logs({ fromBlock: '0x0', address: [] })).toEqual(allLogs());
  });

  it('topics: positions, OR-arrays, nulls, and more positions than a log has', () => {
    const all = stateLogs();
    const everything = allLogs();
    const transfers = everything.filter((l) => (l.topics as string[]).length === 4);
    expect(transfers).toHaveLength(3);
    const byId = (ids: number[]) => all.filter((l) => ids.includes(Number(BigInt((l.topics as string[])[1]!))));
    expect(logs({ fromBlock: '0x0', topics: [STATE_COMMITTED_TOPIC] })).toEqual(all);
    expect(logs({ fromBlock: '0x0', topics: [null, idTopic(2)] })).toEqual(byId([2]));
    expect(logs({ fromBlock: '0x0', topics: [null, [idTopic(1), idTopic(3)]] })).toEqual(byId([1, 3]));
    expect(logs({ fromBlock: '0x0', topics: [[STATE_COMMITTED_TOPIC, `0x${'ee'.repeat(32)}`], idTopic(1)] })).toEqual(
      byId([1]),
    );
    // A null inside an OR-array, or an empty array, matches anything in that position.
    expect(logs({ fromBlock: '0x0', topics: [null, [idTopic(1), null]] })).toEqual(everything);
    expect(logs({ fromBlock: '0x0', topics: [[], []] })).toEqual(everything);
    expect(logs({ fromBlock: '0x0', topics: [`0x${'ee'.repeat(32)}`] })).toEqual([]);
    // StateCommitted has two topics: a third position matches it never, even as null; LogTransfer has four.
    expect(logs({ fromBlock: '0x0', topics: [null, null, null] })).toEqual(transfers);
    expect(logs({ fromBlock: '0x0', topics: [STATE_COMMITTED_TOPIC], address: STATE_RECEIVER_ADDRESS })).toEqual(all);
  });

  it("geth's errors", () => {
    const e = (filter: unknown) => call('eth_getLogs', [filter]);
    expect(e({ fromBlock: '0x5', toBlock: '0x4' })).toEqual(err(-32000, 'invalid block range params'));
    expect(e({ fromBlock: 'pending' })).toEqual(err(-32000, 'pending logs are not supported'));
    expect(e({ toBlock: 'pending' })).toEqual(err(-32000, 'pending logs are not supported'));
    expect(e({ fromBlock: 'finalized' })).toEqual(err(-32000, 'finalized header not found'));
    expect(e({ toBlock: 'safe' })).toEqual(err(-32000, 'safe header not found'));
    expect(e({ blockHash: `0x${'ab'.repeat(32)}` })).toEqual(err(-32000, 'unknown block'));
    const p = (message: string) => err(-32602, `invalid argument 0: ${message}`);
    expect(e({ blockHash: chain.head().block.hash, fromBlock: '0x1' })).toEqual(
      p('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other'),
    );
    expect(e({ topics: [null, null, null, null, null] })).toEqual(p('exceed max topics'));
    expect(e({ topics: [5] })).toEqual(p('invalid topic(s)'));
    expect(e({ topics: [[5]] })).toEqual(p('invalid topic(s)'));
    expect(e({ topics: ['0x1234'] })).toEqual(p('hex has invalid length 2 after decoding; expected 32 for topic'));
    expect(e({ topics: 'x' })).toEqual(
      p('json: cannot unmarshal string into Go struct field input.topics of type []interface {}'),
    );
    expect(e({ address: '0x12' })).toEqual(
      p('invalid address: hex has invalid length 1 after decoding; expected 20 for address'),
    );
    expect(e({ address: 'ab'.repeat(20) })).toEqual(p('invalid address: hex string without 0x prefix'));
    expect(e({ address: [STATE_RECEIVER_ADDRESS, 7] })).toEqual(p('non-string address at index 1'));
    expect(e({ address: [STATE_RECEIVER_ADDRESS, '0xzz'] })).toEqual(
      p('invalid address at index 1: invalid hex string'),
    );
    expect(e({ address: 5 })).toEqual(p('invalid addresses in query'));
    expect(e({ fromBlock: 12 })).toEqual(p('hex string without 0x prefix'));
    expect(e({ blockHash: 'ab' })).toEqual(
      p('json: cannot unmarshal hex string without 0x prefix into Go struct field input.blockHash of type common.Hash'),
    );
    expect(e('latest')).toEqual(p('json: cannot unmarshal string into Go value of type filters.input'));
    expect(call('eth_getLogs', [])).toEqual(err(-32602, 'missing value for required argument 0'));
  });

  it('finalized and safe bounds once a checkpoint made a block final', () => {
    const c = buildFixtureChain(14);
    c.setFinalized(12n);
    const v: SidechainView = { ...view, chain: chainReadPort(c) };
    const got = ok(callRpc(v, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'finalized' }])) as Json[];
    expect(got).toEqual(allLogs().filter((l) => BigInt(l.blockNumber as string) <= 12n));
    expect(ok(callRpc(v, 'eth_getLogs', [{ fromBlock: 'safe', toBlock: 'safe' }]))).toEqual(
      allLogs().filter((l) => l.blockNumber === '0xc'),
    );
  });
});

describe('ethers v6 reads transactions, receipts and logs', () => {
  class InProcessProvider extends JsonRpcApiProvider {
    constructor(private readonly target: () => SidechainView) {
      super(undefined, { batchMaxCount: 1, staticNetwork: true });
    }
    override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<Array<JsonRpcResult | JsonRpcError>> {
      const list = JSON.parse(JSON.stringify(Array.isArray(payload) ? payload : [payload])) as JsonRpcPayload[];
      return list.map((p) => {
        const r = callRpc(this.target(), p.method, p.params);
        return JSON.parse(JSON.stringify(r.ok ? { id: p.id, result: r.result } : { id: p.id, error: r.error }));
      });
    }
  }
  let provider: InProcessProvider;
  beforeAll(() => {
    provider = new InProcessProvider(() => view);
  });
  afterAll(() => provider.destroy());

  it('a transfer, its receipt, the state-sync receipt and a filtered log query', async () => {
    const b12 = chain.byNumber(12n)!;
    const hash = blockTxs(12n)[1]!.hash as string;
    const tx = (await provider.getTransaction(hash))!;
    expect(tx.hash).toBe(hash);
    expect(tx.blockNumber).toBe(12);
    expect(tx.index).toBe(1);
    expect(tx.from.toLowerCase()).toBe(b12.block.body.txs[1]!.from);
    expect(tx.value).toBe(b12.block.body.txs[1]!.value);
    const receipt = (await provider.getTransactionReceipt(hash))!;
    expect(receipt.status).toBe(1);
    expect(receipt.gasUsed).toBe(21_000n);
    expect(receipt.cumulativeGasUsed).toBe(42_000n);
    expect(receipt.blockHash).toBe(b12.block.hash);

    const syncHash = stateSyncTxHash(12n, b12.block.hash);
    const sync = (await provider.getTransactionReceipt(syncHash))!;
    expect(sync.hash).toBe(syncHash);
    expect(sync.index).toBe(2);
    expect(sync.logs.length).toBe(b12.block.body.stateSyncs.length);
    expect(sync.logs[0]!.topics[0]).toBe(STATE_COMMITTED_TOPIC);
    expect(sync.logs[0]!.address.toLowerCase()).toBe(STATE_RECEIVER_ADDRESS);
    expect((await provider.getTransaction(syncHash))!.to).toBe('0x0000000000000000000000000000000000000000');

    const found = await provider.getLogs({
      fromBlock: 0,
      toBlock: 'latest',
      address: STATE_RECEIVER_ADDRESS,
      topics: [STATE_COMMITTED_TOPIC, [toBeHex(1, 32), toBeHex(2, 32)]],
    });
    expect(found.map((l) => Number(BigInt(l.topics[1]!)))).toEqual([1, 2]);
    for (const l of found) {
      expect(l.transactionHash).toMatch(HASH);
      expect(l.address.toLowerCase()).toMatch(ADDRESS);
      expect(l.removed).toBe(false);
    }
  });
});
