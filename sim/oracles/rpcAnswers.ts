/**
 * The sidechain JSON-RPC's transaction reads, judged: a simulated client (sim/workload/rpcProbe.ts)
 * asks one node's JSON-RPC for transactions, receipts, full blocks, block receipts and the
 * StateReceiver's logs; each answer (`sidechain.query`, with the node's head when it answered) is
 * compared with what the oracle's own model of that node's chain says it must be.
 *
 * The model is built from raw facts only: every imported block (`sidechain.imported`: hash,
 * number, parent, its transfers with their senders, the state-sync records it committed), and
 * which blocks each node imported. A node's canonical chain is the ancestry of the head it
 * answered from (a block it imported). What the answers must say, from the reference (sidechain.md
 * §2.8, §4.3, §5 items 6-7; geth's `eth_getTransactionByHash`/`Receipt`):
 *
 *  - a transaction of a canonical block: its hash, block hash and number, index and sender; its
 *    receipt the same placement, status 1, each log placed in that transaction;
 *  - a hash no canonical block carries: null (a pending transaction of the pool, without block, is
 *    also an answer), never an error;
 *  - a block that committed k state-sync records carries Bor's pseudo-transaction last, under the
 *    derived hash keccak256("matic-bor-receipt-" ‖ u64be(number) ‖ blockHash); its receipt holds k
 *    StateCommitted(id, true) logs of the StateReceiver (0x…1001), one per record in order, their
 *    log indexes consecutive; a block without records has none;
 *  - `eth_getBlockByNumber(n, full)` and `eth_getBlockReceipts(n)`: the canonical block at n (null
 *    past the head), its transactions and receipts in block order, the pseudo one last;
 *  - `eth_getLogs` from the StateReceiver over a range: the StateCommitted logs of the canonical
 *    blocks in the range, in order.
 *
 * A simulated chain has no contract code: the sidechain takes every state-sync receiver to be a
 * contract whose `onStateReceive` succeeds (its stated simplification of §2.7), so every record
 * emits its log, with `success` true.
 */
import { type Hex, concatBytes, fromHex, toHex, u64be, utf8 } from '../../src/core/bytes';
import { keccak256Bytes } from '../../src/core/hash';
import { Oracle, type RunRecord } from './oracle';
import { type RuleId } from './ruleId';

/** Bor's StateReceiver genesis contract (sidechain.md §2.1). */
const STATE_RECEIVER = '0x0000000000000000000000000000000000001001';
const STATE_COMMITTED_TOPIC = toHex(keccak256Bytes(utf8('StateCommitted(uint256,bool)')));
/** ABI `true`: a 32-byte word ending in 1. */
const TRUE_WORD = `0x${'0'.repeat(63)}1`;
const ZERO_HASH: Hex = `0x${'00'.repeat(32)}`;

/** Bor's derived hash of a block's state-sync transaction (sidechain.md §2.8). */
export function borStateSyncTxHash(number: bigint, blockHash: Hex): Hex {
  return toHex(keccak256Bytes(concatBytes(utf8('matic-bor-receipt-'), u64be(number), fromHex(blockHash))));
}

interface ModelTx {
  hash: Hex;
  /** Lower case; null for the state-sync pseudo-transaction. */
  from: string | null;
}

interface ModelBlock {
  number: bigint;
  hash: Hex;
  parentHash: Hex;
  /** The block's transactions in order: its transfers, then the pseudo-transaction when it committed records. */
  txs: ModelTx[];
  stateSyncIds: bigint[];
}

type Json = Record<string, unknown>;

const quantity = (n: bigint | number): string => `0x${n.toString(16)}`;
const lower = (v: unknown): unknown => (typeof v === 'string' ? v.toLowerCase() : v);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const word = (n: bigint): string => `0x${n.toString(16).padStart(64, '0')}`;

/** A wrong answer: what is wrong, with what was expected and what came. */
class Wrong {
  constructor(
    readonly what: string,
    readonly expected: unknown,
    readonly got: unknown,
  ) {}
}

/** Field `key` of `obj` must be `want` (hex compared in lower case). */
function field(obj: Json, key: string, want: unknown, where: string): void {
  const got = obj[key];
  if (lower(got) !== lower(want)) throw new Wrong(`${where}: ${key}`, want, got ?? null);
}

function object(v: unknown, where: string): Json {
  if (!isObject(v)) throw new Wrong(`${where}: not an object`, 'an object', v ?? null);
  return v;
}

function array(v: unknown, length: number, where: string): unknown[] {
  if (!Array.isArray(v)) throw new Wrong(`${where}: not an array`, 'an array', v ?? null);
  if (v.length !== length) throw new Wrong(`${where}: length`, length, v.length);
  return v;
}

export class RpcAnswersOracle extends Oracle {
  readonly name = 'rpc-answers';
  readonly class = 'safety' as const;
  readonly reads = ['sidechain.started', 'sidechain.imported', 'sidechain.query'] as const;
  static readonly judges: readonly RuleId[] = [
    'jsonrpc.tx.by-hash',
    'jsonrpc.tx.receipt',
    'jsonrpc.block.transactions',
    'jsonrpc.block.receipts',
    'jsonrpc.logs.range',
    'jsonrpc.state-sync.pseudo-tx',
  ];

  private readonly blocks = new Map<Hex, ModelBlock>();
  /** Transaction hash (the pseudo ones included) → the blocks that carry it. */
  private readonly carriers = new Map<Hex, Hex[]>();
  /** Per node, the blocks it imported (its genesis included). */
  private readonly importedBy = new Map<string, Set<Hex>>();

  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'sidechain.started') {
      const g = o.genesis.hash.toLowerCase() as Hex;
      if (!this.blocks.has(g))
        this.blocks.set(g, { number: 0n, hash: g, parentHash: ZERO_HASH, txs: [], stateSyncIds: [] });
      this.nodeSet(r.node).add(g);
      return;
    }
    if (o.kind === 'sidechain.imported') {
      const hash = o.block.hash.toLowerCase() as Hex;
      this.nodeSet(r.node).add(hash);
      if (!this.blocks.has(hash)) this.addBlock(hash, o.block);
      return;
    }
    if (o.kind !== 'sidechain.query') return;
    const head = o.head.hash.toLowerCase() as Hex;
    if (!this.nodeSet(r.node).has(head) || !this.blocks.has(head)) {
      this.fail(
        r.t,
        r.node,
        `${o.method} answered from head ${o.head.hash}, a block the node never reported importing`,
        {
          method: o.method,
          head: o.head.hash,
        },
      );
      return;
    }
    try {
      this.judge(head, o.method, o.params, o.answer);
    } catch (e) {
      if (!(e instanceof Wrong)) throw e;
      this.fail(
        r.t,
        r.node,
        `${o.method}(${JSON.stringify(o.params)}) at head ${o.head.number}: ${e.what} is ${JSON.stringify(e.got)}, expected ${JSON.stringify(e.expected)}`,
        { method: o.method, params: o.params, head: o.head, what: e.what, expected: e.expected, got: e.got },
      );
    }
  }

  private nodeSet(node: string): Set<Hex> {
    let s = this.importedBy.get(node);
    if (!s) {
      s = new Set();
      this.importedBy.set(node, s);
    }
    return s;
  }

  private addBlock(
    hash: Hex,
    b: {
      number: bigint;
      parentHash: Hex;
      stateSyncs: ReadonlyArray<{ id: bigint }>;
      transfers?: { txs: ReadonlyArray<{ hash: Hex; from: string }> };
    },
  ): void {
    const txs: ModelTx[] = (b.transfers?.txs ?? []).map((t) => ({
      hash: t.hash.toLowerCase() as Hex,
      from: t.from.toLowerCase(),
    }));
    if (b.stateSyncs.length > 0) txs.push({ hash: borStateSyncTxHash(b.number, hash), from: null });
    this.blocks.set(hash, {
      number: b.number,
      hash,
      parentHash: b.parentHash.toLowerCase() as Hex,
      txs,
      stateSyncIds: b.stateSyncs.map((s) => s.id),
    });
    for (const t of txs) {
      const list = this.carriers.get(t.hash);
      if (list) list.push(hash);
      else this.carriers.set(t.hash, [hash]);
    }
  }

  /** The canonical block at height n under `head` (undefined above the head). */
  private canonicalAt(head: Hex, n: bigint): ModelBlock | undefined {
    let b = this.blocks.get(head);
    while (b && b.number > n) b = this.blocks.get(b.parentHash);
    return b && b.number === n ? b : undefined;
  }

  /** Where a transaction is on the chain under `head`: the highest canonical block carrying it. */
  private locate(head: Hex, txHash: Hex): { block: ModelBlock; index: number } | null {
    let found: ModelBlock | null = null;
    for (const h of this.carriers.get(txHash) ?? []) {
      const b = this.blocks.get(h)!;
      if (this.canonicalAt(head, b.number)?.hash === h && (!found || b.number > found.number)) found = b;
    }
    return found ? { block: found, index: found.txs.findIndex((t) => t.hash === txHash) } : null;
  }

  private judge(head: Hex, method: string, params: readonly unknown[], answer: RunRecordAnswer): void {
    /** The answer's result; an error is wrong (`expected`: what should have come instead). */
    const result = (expected: unknown = 'a result'): unknown => {
      if (!answer.ok)
        throw new Wrong('the answer', expected, { error: { code: answer.code, message: answer.message } });
      return answer.result;
    };
    switch (method) {
      case 'eth_getTransactionByHash':
      case 'eth_getTransactionReceipt': {
        const receipt = method === 'eth_getTransactionReceipt';
        this.saw(receipt ? 'jsonrpc.tx.receipt' : 'jsonrpc.tx.by-hash');
        const h = String(params[0]).toLowerCase() as Hex;
        const at = this.locate(head, h);
        const got = result(
          at === null ? null : `the ${receipt ? 'receipt' : 'transaction'} in block ${at.block.number}`,
        );
        if (at === null) {
          // geth: a pending transaction of the pool, without block; a receipt only in a block.
          if (got === null) return;
          const o = object(got, 'a transaction no canonical block carries');
          if (receipt) throw new Wrong('the receipt of a transaction no canonical block carries', null, o);
          field(o, 'hash', h, 'a pending transaction');
          field(o, 'blockHash', null, 'a pending transaction');
          return;
        }
        const o = object(got, `transaction ${h} of block ${at.block.number}`);
        if (receipt) this.receipt(o, at.block, at.index, `the receipt of ${h}`);
        else this.transaction(o, at.block, at.index, `transaction ${h}`);
        return;
      }
      case 'eth_getBlockByNumber':
      case 'eth_getBlockReceipts': {
        const n = typeof params[0] === 'string' && /^0x[0-9a-f]+$/i.test(params[0]) ? BigInt(params[0]) : null;
        // Only the forms the client sends (a hex number) are judged.
        if (n === null) return;
        const receipts = method === 'eth_getBlockReceipts';
        this.saw(receipts ? 'jsonrpc.block.receipts' : 'jsonrpc.block.transactions');
        const b = this.canonicalAt(head, n);
        const got = result();
        if (!b) {
          if (got !== null) throw new Wrong(`block ${n} above the head`, null, got);
          return;
        }
        if (b.stateSyncIds.length > 0) this.saw('jsonrpc.state-sync.pseudo-tx');
        if (receipts) {
          const list = array(got, b.txs.length, `the receipts of block ${n}`);
          for (const [i, x] of list.entries()) {
            const where = `receipt ${i} of block ${n}`;
            this.receipt(object(x, where), b, i, where);
          }
          return;
        }
        const o = object(got, `block ${n}`);
        field(o, 'hash', b.hash, `block ${n}`);
        field(o, 'number', quantity(n), `block ${n}`);
        const full = params[1] === true;
        const txs = array(o.transactions, b.txs.length, `the transactions of block ${n}`);
        txs.forEach((x, i) => {
          const where = `transaction ${i} of block ${n}`;
          if (full) this.transaction(object(x, where), b, i, where);
          else if (lower(x) !== b.txs[i]!.hash) throw new Wrong(where, b.txs[i]!.hash, x);
        });
        return;
      }
      case 'eth_getLogs': {
        const f = isObject(params[0]) ? params[0] : null;
        // Judged: the StateReceiver's logs over a range of numbers (the user transfers' logs are not modelled).
        if (
          !f ||
          lower(f.address) !== STATE_RECEIVER ||
          f.blockHash !== undefined ||
          f.topics !== undefined ||
          typeof f.fromBlock !== 'string' ||
          typeof f.toBlock !== 'string' ||
          !/^0x[0-9a-f]+$/i.test(f.fromBlock) ||
          !/^0x[0-9a-f]+$/i.test(f.toBlock)
        )
          return;
        this.saw('jsonrpc.logs.range');
        const from = BigInt(f.fromBlock);
        const to = BigInt(f.toBlock);
        const expected: Array<{ block: ModelBlock; id: bigint }> = [];
        for (let n = from; n <= to; n++) {
          const b = this.canonicalAt(head, n);
          if (!b) break;
          if (b.stateSyncIds.length > 0) this.saw('jsonrpc.state-sync.pseudo-tx');
          for (const id of b.stateSyncIds) expected.push({ block: b, id });
        }
        const logs = array(result(), expected.length, `the StateReceiver's logs of blocks ${from}-${to}`);
        let prev: { hash: Hex; index: bigint } | null = null;
        logs.forEach((x, k) => {
          const e = expected[k]!;
          const where = `log ${k} (state sync ${e.id} of block ${e.block.number})`;
          const log = object(x, where);
          this.stateCommitted(log, e.block, e.id, where);
          const index = BigInt(String(log.logIndex));
          if (prev && prev.hash === e.block.hash && index !== prev.index + 1n)
            throw new Wrong(`${where}: logIndex`, quantity(prev.index + 1n), log.logIndex);
          prev = { hash: e.block.hash, index };
        });
        return;
      }
      default:
        return;
    }
  }

  /** A transaction object placed at `index` of canonical block `b`. */
  private transaction(o: Json, b: ModelBlock, index: number, where: string): void {
    const t = b.txs[index]!;
    if (t.from === null) this.saw('jsonrpc.state-sync.pseudo-tx');
    field(o, 'hash', t.hash, where);
    field(o, 'blockHash', b.hash, where);
    field(o, 'blockNumber', quantity(b.number), where);
    field(o, 'transactionIndex', quantity(index), where);
    if (t.from !== null) field(o, 'from', t.from, where);
  }

  /** A receipt of the transaction at `index` of canonical block `b`. */
  private receipt(o: Json, b: ModelBlock, index: number, where: string): void {
    const t = b.txs[index]!;
    field(o, 'transactionHash', t.hash, where);
    field(o, 'blockHash', b.hash, where);
    field(o, 'blockNumber', quantity(b.number), where);
    field(o, 'transactionIndex', quantity(index), where);
    field(o, 'status', '0x1', where);
    if (t.from !== null) {
      field(o, 'from', t.from, where);
      if (!Array.isArray(o.logs)) throw new Wrong(`${where}: logs`, 'an array', o.logs ?? null);
      o.logs.forEach((x, i) => {
        const log = object(x, `${where}, log ${i}`);
        field(log, 'transactionHash', t.hash, `${where}, log ${i}`);
        field(log, 'blockHash', b.hash, `${where}, log ${i}`);
      });
      return;
    }
    this.saw('jsonrpc.state-sync.pseudo-tx');
    const logs = array(o.logs, b.stateSyncIds.length, `${where}: logs`);
    let first: bigint | null = null;
    logs.forEach((x, i) => {
      const id = b.stateSyncIds[i]!;
      const log = object(x, `${where}, log ${i}`);
      this.stateCommitted(log, b, id, `${where}, log ${i} (state sync ${id})`);
      const logIndex = BigInt(String(log.logIndex));
      first ??= logIndex;
      if (logIndex !== first + BigInt(i))
        throw new Wrong(`${where}, log ${i}: logIndex`, quantity(first + BigInt(i)), log.logIndex);
    });
  }

  /** The StateReceiver's StateCommitted(id, true) log, placed in block `b`'s pseudo-transaction. */
  private stateCommitted(log: Json, b: ModelBlock, id: bigint, where: string): void {
    const pseudo = b.txs[b.txs.length - 1]!;
    field(log, 'address', STATE_RECEIVER, where);
    if (!Array.isArray(log.topics) || log.topics.length !== 2)
      throw new Wrong(`${where}: topics`, [STATE_COMMITTED_TOPIC, word(id)], log.topics ?? null);
    if (lower(log.topics[0]) !== STATE_COMMITTED_TOPIC || lower(log.topics[1]) !== word(id))
      throw new Wrong(`${where}: topics`, [STATE_COMMITTED_TOPIC, word(id)], log.topics);
    field(log, 'data', TRUE_WORD, where);
    field(log, 'transactionHash', pseudo.hash, where);
    field(log, 'transactionIndex', quantity(b.txs.length - 1), where);
    field(log, 'blockHash', b.hash, where);
    field(log, 'blockNumber', quantity(b.number), where);
  }
}

type RunRecordAnswer = Extract<RunRecord['obs'], { kind: 'sidechain.query' }>['answer'];
