import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JsonRpcApiProvider, type JsonRpcPayload, type JsonRpcResult, type JsonRpcError } from 'ethers';
import { type Address, ZERO_ADDRESS } from '../../core/address';
import { fromHex, toHex } from '../../core/bytes';
import { keccak256Bytes } from '../../core/hash';
import { SidechainChain, type StoredBlock } from '../../sidechain/chain';
import { buildBlock, planProduction, type ProductionInputs } from '../../sidechain/producer';
import { type SidechainBlock } from '../../sidechain/block';
import { type SignedTx } from '../../sidechain/transaction';
import { chainReadPort } from '../../sidechain/readPort';
import { stateSyncTxHash } from '../../sidechain/stateSync';
import {
  FIXTURE_CONFIG,
  type FixtureKey as Key,
  fixtureAlloc,
  fixtureKeys,
  fixtureProducers,
  fixtureTransfer,
  fixtureRecords,
  fixtureSpans,
} from '../../sidechain/testing/fixture';
import { type SidechainView } from '../ports';
import { decodeUint64Hex } from './goArguments';
import { RPC_METHODS, type RpcResult, callRpc } from './methods';
import { toQuantity } from './quantity';

// --- a small chain with real producers (helpers as in chain.test.ts) -------------------------------

const keys = fixtureKeys('sidechain-test');
const cfg = FIXTURE_CONFIG;
const producers = fixtureProducers(keys);
const spans = () => fixtureSpans(producers, { rotate: true });
const records = fixtureRecords(10, 1000n);

const inputs = (txs: readonly SignedTx[] = []): ProductionInputs => {
  const spanMap = spans();
  return {
    span: (id) => spanMap.get(id) ?? null,
    stateSyncs: (fromId, toTimeS) => records.filter((r) => r.id >= fromId && r.timeS < toTimeS),
    txs,
  };
};

const keyOf = (a: Address): Key => keys.find((k) => k.address === a)!;
const inTurn = (parent: StoredBlock): Address => parent.snapshot.validatorSet.proposer.address;
const FAR = 10n ** 12n;

function produce(
  chain: SidechainChain,
  parent: StoredBlock,
  who: Address,
  txs: readonly SignedTx[] = [],
): SidechainBlock {
  const plan = planProduction(chain.cfg, parent, who)!;
  return buildBlock(chain, plan, keyOf(who).sk, who, inputs(txs), plan.timeS);
}

function grow(chain: SidechainChain, n: number, txsAt: (number: bigint) => readonly SignedTx[] = () => []): void {
  for (let i = 0; i < n; i++) {
    const head = chain.head();
    const b = produce(chain, head, inTurn(head), txsAt(head.block.header.number + 1n));
    expect(chain.import(b, FAR, 0)).toMatchObject({ status: 'imported', newHead: true });
  }
}

const alice = keys[0]!.address;
const bob = keys[1]!.address;
const transferAt = (n: bigint): SignedTx[] => {
  const nonce = n === 10n ? 0n : 1n;
  return [
    fixtureTransfer(keys[0]!, bob, nonce, { value: 5n * 10n ** 18n, type: 0 }),
    fixtureTransfer(keys[1]!, alice, nonce, { value: 0n, type: 2 }),
  ];
};
const transfers = transferAt(10n);

/** 14 blocks; 10 carries two transfers, 12 (a sprint start) carries transfers and state syncs. */
function buildChain(): SidechainChain {
  const chain = new SidechainChain(cfg, { timeS: 1000n, producers, alloc: fixtureAlloc(keys) });
  grow(chain, 14, (n) => (n === 10n || n === 12n ? transferAt(n) : []));
  return chain;
}

const CHAIN_ID = 15001n;
const viewOf = (chain: SidechainChain, over: Partial<Omit<SidechainView, 'chain'>> = {}): SidechainView => ({
  chain: chainReadPort(chain),
  chainId: CHAIN_ID,
  peerCount: 3,
  syncing: null,
  ...over,
});

function ok(r: RpcResult): unknown {
  if (!r.ok) throw new Error(`expected a result, got ${r.error.code} ${r.error.message}`);
  return r.result;
}

/** Through the wire: what a client would see. */
const wire = (r: RpcResult): unknown => JSON.parse(JSON.stringify(ok(r)));

const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/;
const DATA = /^0x([0-9a-f]{2})*$/;
const HASH = /^0x[0-9a-f]{64}$/;
const ADDRESS = /^0x[0-9a-f]{40}$/;

let chain: SidechainChain;
let view: SidechainView;
beforeAll(() => {
  chain = buildChain();
  view = viewOf(chain);
});

const syncBlocks = (): StoredBlock[] => chain.canonicalRange(0n).filter((b) => b.block.body.stateSyncs.length > 0);

describe('sidechain RPC: the chain under test', () => {
  it('has a block with state syncs, one with transfers and one with both', () => {
    expect(chain.head().block.header.number).toBe(14n);
    expect(syncBlocks().length).toBeGreaterThan(0);
    expect(chain.byNumber(10n)!.block.body.txs).toHaveLength(2);
    const b12 = chain.byNumber(12n)!.block.body;
    expect(b12.txs).toHaveLength(2);
    expect(b12.stateSyncs.length).toBeGreaterThan(0);
  });
});

describe('sidechain RPC: simple methods (§4.3)', () => {
  it('eth_blockNumber, eth_chainId, net_version, net_peerCount, net_listening', () => {
    expect(ok(callRpc(view, 'eth_blockNumber', []))).toBe('0xe');
    expect(ok(callRpc(view, 'eth_chainId', []))).toBe('0x3a99');
    expect(ok(callRpc(view, 'net_version', []))).toBe('15001');
    expect(ok(callRpc(view, 'net_peerCount', []))).toBe('0x3');
    expect(ok(callRpc(viewOf(chain, { peerCount: 0 }), 'net_peerCount', []))).toBe('0x0');
    expect(ok(callRpc(view, 'net_listening', []))).toBe(true);
    // params may be omitted or null
    expect(ok(callRpc(view, 'eth_blockNumber', undefined))).toBe('0xe');
    expect(ok(callRpc(view, 'eth_blockNumber', null))).toBe('0xe');
  });

  it('quantities are minimal hex', () => {
    expect(toQuantity(0n)).toBe('0x0');
    expect(toQuantity(255n)).toBe('0xff');
    expect(toQuantity(1234)).toBe('0x4d2');
    const fresh = new SidechainChain(cfg, { timeS: 1000n, producers });
    expect(ok(callRpc(viewOf(fresh), 'eth_blockNumber', []))).toBe('0x0');
  });

  it('eth_syncing: false, or an object of hex quantities', () => {
    expect(ok(callRpc(view, 'eth_syncing', []))).toBe(false);
    const s = ok(
      callRpc(
        viewOf(chain, { syncing: { startingBlock: 0n, currentBlock: 14n, highestBlock: 1000n } }),
        'eth_syncing',
        [],
      ),
    ) as Record<string, string>;
    expect(s).toMatchObject({ startingBlock: '0x0', currentBlock: '0xe', highestBlock: '0x3e8' });
    for (const v of Object.values(s)) expect(v).toMatch(QUANTITY);
  });
});

describe('sidechain RPC: block objects (§4.3, §5 item 5)', () => {
  const REQUIRED = [
    'number',
    'hash',
    'parentHash',
    'nonce',
    'mixHash',
    'sha3Uncles',
    'logsBloom',
    'stateRoot',
    'miner',
    'difficulty',
    'extraData',
    'size',
    'gasLimit',
    'gasUsed',
    'timestamp',
    'transactionsRoot',
    'receiptsRoot',
    'transactions',
    'uncles',
  ];

  function checkBlock(o: Record<string, unknown>, b: StoredBlock): void {
    const h = b.block.header;
    for (const k of REQUIRED) expect(o, k).toHaveProperty(k);
    expect(o).not.toHaveProperty('totalDifficulty');
    for (const k of ['number', 'difficulty', 'size', 'gasLimit', 'gasUsed', 'timestamp'])
      expect(o[k], k).toMatch(QUANTITY);
    for (const k of ['hash', 'parentHash', 'mixHash', 'sha3Uncles', 'stateRoot', 'transactionsRoot', 'receiptsRoot'])
      expect(o[k], k).toMatch(HASH);
    expect(o.logsBloom).toMatch(/^0x[0-9a-f]{512}$/);
    expect(o.nonce).toMatch(/^0x[0-9a-f]{16}$/);
    expect(o.extraData).toMatch(DATA);
    expect(o.miner).toBe(ZERO_ADDRESS);
    expect(o.uncles).toEqual([]);
    expect(BigInt(o.number as string)).toBe(h.number);
    expect(BigInt(o.timestamp as string)).toBe(h.time);
    expect(BigInt(o.difficulty as string)).toBe(h.difficulty);
    expect(BigInt(o.gasLimit as string)).toBe(h.gasLimit);
    expect(BigInt(o.gasUsed as string)).toBe(h.gasUsed);
    expect(o.hash).toBe(b.block.hash);
    expect(o.parentHash).toBe(h.parentHash);
    expect(o.extraData).toBe(h.extraData);
    expect(o.transactionsRoot).toBe(h.txHash);
    expect(o.receiptsRoot).toBe(h.receiptHash);
    expect(o.stateRoot).toBe(h.stateRoot);
    // size is the RLP length of [header, txs, uncles]: at least the header's fixed fields.
    expect(Number(BigInt(o.size as string))).toBeGreaterThan(32 * 6 + 256 + 20 + (h.extraData.length - 2) / 2);
  }

  it('every canonical block, by number and by hash, with and without full transactions', () => {
    for (const b of chain.canonicalRange(0n)) {
      for (const full of [false, true]) {
        const byNumber = wire(
          callRpc(view, 'eth_getBlockByNumber', [toQuantity(b.block.header.number), full]),
        ) as Record<string, unknown>;
        checkBlock(byNumber, b);
        expect(wire(callRpc(view, 'eth_getBlockByHash', [b.block.hash, full]))).toEqual(byNumber);
        // A hash in upper case finds the same block.
        expect(wire(callRpc(view, 'eth_getBlockByHash', [`0x${b.block.hash.slice(2).toUpperCase()}`, full]))).toEqual(
          byNumber,
        );
      }
    }
  });

  it('the state-sync pseudo-transaction is appended, as a hash or as a transaction object', () => {
    for (const b of syncBlocks()) {
      const n = b.block.header.number;
      const expected = stateSyncTxHash(n, b.block.hash);
      const hashes = (ok(callRpc(view, 'eth_getBlockByNumber', [toQuantity(n), false])) as { transactions: string[] })
        .transactions;
      expect(hashes).toHaveLength(b.block.body.txs.length + 1);
      expect(hashes[hashes.length - 1]).toBe(expected);
      const full = (
        wire(callRpc(view, 'eth_getBlockByNumber', [toQuantity(n), true])) as {
          transactions: Array<Record<string, unknown>>;
        }
      ).transactions;
      expect(full[full.length - 1]).toEqual({
        hash: expected,
        from: ZERO_ADDRESS,
        to: ZERO_ADDRESS,
        value: '0x0',
        nonce: '0x0',
        gas: '0x0',
        gasPrice: '0x0',
        input: '0x',
        r: '0x0',
        s: '0x0',
        v: '0x0',
        type: '0x0',
        blockHash: b.block.hash,
        blockNumber: toQuantity(n),
        transactionIndex: toQuantity(b.block.body.txs.length),
      });
    }
    // Blocks without state syncs have no pseudo-transaction.
    const plain = (ok(callRpc(view, 'eth_getBlockByNumber', ['0x1', false])) as { transactions: string[] })
      .transactions;
    expect(plain).toEqual([]);
  });

  it('user transfers appear with hash = keccak256 of their signed encoding', () => {
    const b = chain.byNumber(10n)!;
    const expectedHashes = transfers.map((t) => toHex(keccak256Bytes(fromHex(t.raw))));
    expect(transfers.map((t) => t.hash)).toEqual(expectedHashes);
    expect(
      (ok(callRpc(view, 'eth_getBlockByNumber', ['0xa', false])) as { transactions: string[] }).transactions,
    ).toEqual(expectedHashes);
    const full = (
      wire(callRpc(view, 'eth_getBlockByNumber', ['0xa', true])) as { transactions: Array<Record<string, string>> }
    ).transactions;
    expect(full).toHaveLength(2);
    full.forEach((tx, i) => {
      const t = transfers[i]!;
      expect(tx).toMatchObject({
        hash: expectedHashes[i],
        from: t.from,
        to: t.to,
        value: toQuantity(t.value),
        nonce: toQuantity(t.nonce),
        blockHash: b.block.hash,
        blockNumber: '0xa',
        transactionIndex: toQuantity(i),
      });
      for (const k of ['gas', 'gasPrice', 'r', 's', 'v', 'type', 'value', 'nonce', 'transactionIndex', 'blockNumber'])
        expect(tx[k], k).toMatch(QUANTITY);
      expect(tx.from).toMatch(ADDRESS);
      expect(tx.to).toMatch(ADDRESS);
      expect(tx.input).toBe('0x');
    });
    // Block 12: transfers first, the pseudo-transaction last with index = number of transfers.
    const b12 = (ok(callRpc(view, 'eth_getBlockByNumber', ['0xc', false])) as { transactions: string[] }).transactions;
    expect(b12).toEqual([...transferAt(12n).map((t) => t.hash), stateSyncTxHash(12n, chain.byNumber(12n)!.block.hash)]);
  });

  it('block tags: latest, earliest, pending, finalized and safe', () => {
    const head = chain.head();
    expect((ok(callRpc(view, 'eth_getBlockByNumber', ['latest', false])) as { hash: string }).hash).toBe(
      head.block.hash,
    );
    expect((ok(callRpc(view, 'eth_getBlockByNumber', ['earliest', false])) as { hash: string }).hash).toBe(
      chain.genesis.block.hash,
    );
    const pending = ok(callRpc(view, 'eth_getBlockByNumber', ['pending', true])) as Record<string, unknown>;
    expect(pending).toMatchObject({ number: '0xe', hash: null, nonce: null, miner: null });
    // Before the first checkpoint nothing but genesis is final (ethers could not coalesce the old error).
    for (const tag of ['finalized', 'safe']) {
      expect((ok(callRpc(view, 'eth_getBlockByNumber', [tag, false])) as { hash: string }).hash).toBe(
        chain.genesis.block.hash,
      );
      expect(ok(callRpc(view, 'eth_getTdByNumber', [tag]))).toEqual({ blockNumber: '0x0', totalDifficulty: '0x1' });
    }
    const c = buildChain();
    c.setFinalized(9n);
    for (const tag of ['finalized', 'safe']) {
      expect((ok(callRpc(viewOf(c), 'eth_getBlockByNumber', [tag, false])) as { number: string }).number).toBe('0x9');
      expect(ok(callRpc(viewOf(c), 'eth_getTdByNumber', [tag]))).toEqual({
        blockNumber: '0x9',
        totalDifficulty: toQuantity(c.byNumber(9n)!.td),
      });
    }
  });

  it('unknown blocks are null', () => {
    expect(ok(callRpc(view, 'eth_getBlockByNumber', ['0xf', false]))).toBeNull();
    expect(ok(callRpc(view, 'eth_getBlockByNumber', ['0x7fffffffffffffff', true]))).toBeNull();
    expect(ok(callRpc(view, 'eth_getBlockByHash', [`0x${'ab'.repeat(32)}`, false]))).toBeNull();
    expect(ok(callRpc(view, 'eth_getTdByNumber', ['0x10']))).toBeNull();
    expect(ok(callRpc(view, 'eth_getTdByHash', [`0x${'ab'.repeat(32)}`]))).toBeNull();
  });

  it('eth_getTdByNumber / eth_getTdByHash', () => {
    const b = chain.byNumber(5n)!;
    expect(ok(callRpc(view, 'eth_getTdByNumber', ['0x5']))).toEqual({
      blockNumber: '0x5',
      totalDifficulty: toQuantity(b.td),
    });
    expect(ok(callRpc(view, 'eth_getTdByHash', [b.block.hash]))).toEqual({
      blockHash: b.block.hash,
      totalDifficulty: toQuantity(b.td),
    });
    expect(ok(callRpc(view, 'eth_getTdByNumber', ['latest']))).toEqual({
      blockNumber: '0xe',
      totalDifficulty: toQuantity(chain.head().td),
    });
  });
});

describe('sidechain RPC: sidechain_* methods (§4.1, §4.2)', () => {
  it('sidechain_getSigners: address-sorted producers of the snapshot at that block, default latest', () => {
    const head = chain.head();
    const latest = ok(callRpc(view, 'sidechain_getSigners', [])) as string[];
    expect(latest).toEqual(chain.signersAfter(head.block.hash));
    expect([...latest].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(latest);
    expect(ok(callRpc(view, 'sidechain_getSigners', [null]))).toEqual(latest);
    expect(ok(callRpc(view, 'sidechain_getSigners', ['latest']))).toEqual(latest);
    expect(ok(callRpc(view, 'sidechain_getSigners', ['0x3']))).toEqual(
      chain.signersAfter(chain.byNumber(3n)!.block.hash),
    );
    expect(ok(callRpc(view, 'sidechain_getSigners', ['0x3']))).toEqual(keys.map((k) => k.address));
    expect(callRpc(view, 'sidechain_getSigners', ['0x64'])).toEqual({
      ok: false,
      error: { code: -32000, message: 'unknown block' },
    });
  });

  it('sidechain_getSignersAtHash', () => {
    const b = chain.byNumber(7n)!;
    expect(ok(callRpc(view, 'sidechain_getSignersAtHash', [b.block.hash]))).toEqual(chain.signersAfter(b.block.hash));
    expect(callRpc(view, 'sidechain_getSignersAtHash', [`0x${'00'.repeat(32)}`])).toEqual({
      ok: false,
      error: { code: -32000, message: 'unknown block' },
    });
    expect(callRpc(view, 'sidechain_getSignersAtHash', [])).toEqual({
      ok: false,
      error: { code: -32602, message: 'missing value for required argument 0' },
    });
  });

  it('sidechain_getAuthor: the signer, by number, tag, hash or {blockHash}; default latest', () => {
    const head = chain.head();
    const b = chain.byNumber(6n)!;
    expect(ok(callRpc(view, 'sidechain_getAuthor', []))).toBe(head.block.signer);
    expect(ok(callRpc(view, 'sidechain_getAuthor', ['latest']))).toBe(head.block.signer);
    expect(ok(callRpc(view, 'sidechain_getAuthor', ['0x6']))).toBe(b.block.signer);
    expect(ok(callRpc(view, 'sidechain_getAuthor', [b.block.hash]))).toBe(b.block.signer);
    expect(ok(callRpc(view, 'sidechain_getAuthor', [{ blockHash: b.block.hash }]))).toBe(b.block.signer);
    expect(ok(callRpc(view, 'sidechain_getAuthor', [{ blockNumber: '0x6' }]))).toBe(b.block.signer);
    expect(callRpc(view, 'sidechain_getAuthor', [{ blockNumber: '0x6', blockHash: b.block.hash }])).toEqual({
      ok: false,
      error: {
        code: -32602,
        message: 'invalid argument 0: cannot specify both BlockHash and BlockNumber, choose one or the other',
      },
    });
    expect(callRpc(view, 'sidechain_getAuthor', ['0x63'])).toEqual({
      ok: false,
      error: { code: -32000, message: 'unknown block' },
    });
    expect(callRpc(view, 'sidechain_getAuthor', ['earliest'])).toEqual({
      ok: false,
      error: { code: -32000, message: 'recovery failed' },
    });
    expect(callRpc(view, 'sidechain_getAuthor', [7])).toEqual({
      ok: false,
      error: {
        code: -32602,
        message: 'invalid argument 0: json: cannot unmarshal number into Go value of type string',
      },
    });
  });

  it('sidechain_getRootHash / eth_getRootHash: JSON numbers (and hex strings), hex without 0x', () => {
    const expected = chain.rootHash(1n, 8n);
    expect(expected.ok).toBe(true);
    const root = (expected as { root: string }).root;
    for (const m of ['sidechain_getRootHash', 'eth_getRootHash']) {
      expect(ok(callRpc(view, m, [1, 8]))).toBe(root);
      expect(ok(callRpc(view, m, ['0x1', '0x8']))).toBe(root);
      expect(ok(callRpc(view, m, [1, '0x8']))).toBe(root);
    }
    expect(root).toMatch(/^[0-9a-f]{64}$/);
    // A single block: the root is its leaf.
    expect(ok(callRpc(view, 'sidechain_getRootHash', [3, 3]))).toBe((chain.rootHash(3n, 3n) as { root: string }).root);
  });

  it('sidechain_getRootHash: Bor errors with -32000, including the uint64 wrap quirk', () => {
    const err = (start: unknown, end: unknown) => callRpc(view, 'sidechain_getRootHash', [start, end]);
    expect(err(5, 20)).toEqual({
      ok: false,
      error: { code: -32000, message: 'Invalid parameters start: 5 and end block: 20 params' },
    });
    expect(err(6, 5)).toEqual({
      ok: false,
      error: { code: -32000, message: 'Invalid parameters start: 6 and end block: 5 params' },
    });
    expect(err(7, 5)).toEqual({
      ok: false,
      error: { code: -32000, message: 'Start: 7 and end block: 5 exceed max allowed checkpoint length: 32768' },
    });
    expect(err(0, 40000)).toEqual({
      ok: false,
      error: { code: -32000, message: 'Start: 0 and end block: 40000 exceed max allowed checkpoint length: 32768' },
    });
    expect(err('1', 5)).toEqual({
      ok: false,
      error: { code: -32602, message: 'invalid argument 0: hex string without 0x prefix' },
    });
    expect(err(1.5, 5)).toEqual({
      ok: false,
      error: {
        code: -32602,
        message: 'invalid argument 0: json: cannot unmarshal number 1.5 into Go value of type uint64',
      },
    });
    expect(err(1, -1)).toEqual({
      ok: false,
      error: {
        code: -32602,
        message: 'invalid argument 1: json: cannot unmarshal number -1 into Go value of type uint64',
      },
    });
    expect(err(true, 5)).toEqual({
      ok: false,
      error: { code: -32602, message: 'invalid argument 0: json: cannot unmarshal bool into Go value of type uint64' },
    });
    expect(err(1, 2 ** 64)).toEqual({
      ok: false,
      error: {
        code: -32602,
        message: 'invalid argument 1: json: cannot unmarshal number 18446744073709552000 into Go value of type uint64',
      },
    });
    expect(err(1, '0x10000000000000000')).toEqual({
      ok: false,
      error: { code: -32602, message: 'invalid argument 1: hex number > 64 bits' },
    });
    expect(callRpc(view, 'sidechain_getRootHash', [1])).toEqual({
      ok: false,
      error: { code: -32602, message: 'missing value for required argument 1' },
    });
    expect(callRpc(view, 'sidechain_getRootHash', [1, 2, 3])).toEqual({
      ok: false,
      error: { code: -32602, message: 'too many arguments, want at most 2' },
    });
  });

  it('sidechain_getCurrentProposer and sidechain_getCurrentValidators (JSON numbers)', () => {
    const set = chain.head().snapshot.validatorSet;
    expect(ok(callRpc(view, 'sidechain_getCurrentProposer', []))).toBe(set.proposer.address);
    const vs = wire(callRpc(view, 'sidechain_getCurrentValidators', [])) as Array<Record<string, unknown>>;
    expect(vs).toHaveLength(set.size);
    vs.forEach((v, i) => {
      const m = set.validators[i]!;
      expect(Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(['ID', 'accum', 'power', 'signer']);
      expect(v).toEqual({
        ID: Number(m.id),
        signer: m.address,
        power: Number(m.power),
        accum: Number(m.proposerPriority),
      });
      expect(typeof v.ID).toBe('number');
      expect(typeof v.power).toBe('number');
      expect(typeof v.accum).toBe('number');
    });
  });

  it('sidechain_getSnapshotProposerSequence: difficulties in the parent snapshot, the author and its difficulty', () => {
    for (const arg of [[], ['0x9'], [chain.byNumber(13n)!.block.hash]]) {
      const b = arg.length === 0 ? chain.head() : arg[0] === '0x9' ? chain.byNumber(9n)! : chain.byNumber(13n)!;
      const seq = wire(callRpc(view, 'sidechain_getSnapshotProposerSequence', arg)) as {
        Signers: Array<{ Signer: string; Difficulty: number }>;
        Diff: number;
        Author: string;
      };
      const parent = chain.get(b.block.header.parentHash)!;
      expect(seq.Author).toBe(b.block.signer);
      expect(seq.Diff).toBe(Number(b.block.header.difficulty));
      expect(seq.Signers.map((s) => s.Difficulty)).toEqual(
        Array.from({ length: parent.snapshot.validatorSet.size }, (_, i) => parent.snapshot.validatorSet.size - i),
      );
      expect(seq.Signers[0]!.Signer).toBe(parent.snapshot.validatorSet.proposer.address);
      expect(seq.Signers.map((s) => s.Signer).sort((x, y) => (x < y ? -1 : 1))).toEqual(
        chain.signersAfter(parent.block.hash),
      );
    }
    expect(callRpc(view, 'sidechain_getSnapshotProposerSequence', ['earliest'])).toEqual({
      ok: false,
      error: { code: -32000, message: 'unknown block' },
    });
  });

  it('sidechain_getSnapshot / AtHash / getSnapshotProposer', () => {
    const b = chain.byNumber(11n)!;
    const s = wire(callRpc(view, 'sidechain_getSnapshot', ['0xb'])) as Record<string, unknown>;
    expect(s).toMatchObject({ number: 11, hash: b.block.hash });
    expect((s.validatorSet as { validators: unknown[] }).validators).toHaveLength(b.snapshot.validatorSet.size);
    expect((s.validatorSet as { proposer: { signer: string } }).proposer.signer).toBe(
      b.snapshot.validatorSet.proposer.address,
    );
    expect(Object.values(s.recents as Record<string, string>)).toContain(b.block.signer);
    expect(wire(callRpc(view, 'sidechain_getSnapshotAtHash', [b.block.hash]))).toEqual(s);
    expect(ok(callRpc(view, 'sidechain_getSnapshotProposer', ['0xb']))).toBe(
      chain.byNumber(10n)!.snapshot.validatorSet.proposer.address,
    );
  });
});

describe('sidechain RPC: errors (§4.4)', () => {
  const e = (code: number, message: string) => ({ ok: false, error: { code, message } });

  it('unknown methods: -32601 with geth wording', () => {
    expect(callRpc(view, 'eth_getFooBar', [])).toEqual(
      e(-32601, 'the method eth_getFooBar does not exist/is not available'),
    );
    expect(callRpc(view, 'bor_getSigners', [])).toEqual(
      e(-32601, 'the method bor_getSigners does not exist/is not available'),
    );
    expect(callRpc(view, '', [])).toEqual(e(-32601, 'the method  does not exist/is not available'));
    // No prototype lookups.
    for (const m of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      expect(callRpc(view, m, [])).toEqual(e(-32601, `the method ${m} does not exist/is not available`));
    // The method is checked before the params.
    expect(callRpc(view, 'nope', { a: 1 })).toEqual(e(-32601, 'the method nope does not exist/is not available'));
  });

  it('params: non-array, too many, missing', () => {
    expect(callRpc(view, 'eth_blockNumber', { a: 1 })).toEqual(e(-32602, 'non-array args'));
    expect(callRpc(view, 'eth_blockNumber', 'x')).toEqual(e(-32602, 'non-array args'));
    expect(callRpc(view, 'eth_blockNumber', 5)).toEqual(e(-32602, 'non-array args'));
    expect(callRpc(view, 'eth_blockNumber', [1])).toEqual(e(-32602, 'too many arguments, want at most 0'));
    expect(callRpc(view, 'sidechain_getSigners', ['latest', 1])).toEqual(
      e(-32602, 'too many arguments, want at most 1'),
    );
    expect(callRpc(view, 'eth_getBlockByNumber', ['latest'])).toEqual(
      e(-32602, 'missing value for required argument 1'),
    );
    expect(callRpc(view, 'eth_getBlockByNumber', [])).toEqual(e(-32602, 'missing value for required argument 0'));
    expect(callRpc(view, 'eth_getBlockByHash', null)).toEqual(e(-32602, 'missing value for required argument 0'));
    // A bad argument is reported before a surplus one, as geth parses left to right.
    expect(callRpc(view, 'eth_getBlockByNumber', ['0x01', true, 3])).toEqual(
      e(-32602, 'invalid argument 0: hex number with leading zero digits'),
    );
  });

  it('block numbers: strict hex quantities like geth', () => {
    const bn = (v: unknown) => callRpc(view, 'eth_getBlockByNumber', [v, false]);
    expect(bn('0x')).toEqual(e(-32602, 'invalid argument 0: hex string "0x"'));
    expect(bn('0x01')).toEqual(e(-32602, 'invalid argument 0: hex number with leading zero digits'));
    expect(bn('0xg')).toEqual(e(-32602, 'invalid argument 0: invalid hex string'));
    expect(bn('12')).toEqual(e(-32602, 'invalid argument 0: hex string without 0x prefix'));
    expect(bn('')).toEqual(e(-32602, 'invalid argument 0: empty hex string'));
    expect(bn(12)).toEqual(e(-32602, 'invalid argument 0: hex string without 0x prefix'));
    expect(bn(null)).toEqual(e(-32602, 'invalid argument 0: hex string without 0x prefix'));
    expect(bn('Latest')).toEqual(e(-32602, 'invalid argument 0: hex string without 0x prefix'));
    expect(bn('0x10000000000000000')).toEqual(e(-32602, 'invalid argument 0: hex number > 64 bits'));
    expect(bn('0xffffffffffffffff')).toEqual(e(-32602, 'invalid argument 0: block number larger than int64'));
    expect(ok(bn('0X1'))).toMatchObject({ number: '0x1' });
    expect(ok(bn('0xA'))).toMatchObject({ number: '0xa' });
    expect(callRpc(view, 'eth_getBlockByNumber', ['0x1', 'true'])).toEqual(
      e(-32602, 'invalid argument 1: json: cannot unmarshal string into Go value of type bool'),
    );
    expect(callRpc(view, 'eth_getBlockByNumber', ['0x1', 1])).toEqual(
      e(-32602, 'invalid argument 1: json: cannot unmarshal number into Go value of type bool'),
    );
    // Go leaves a bool alone on null.
    expect(ok(callRpc(view, 'eth_getBlockByNumber', ['0x1', null]))).toMatchObject({ number: '0x1' });
  });

  it('decodeUint64Hex follows hexutil.DecodeUint64', () => {
    expect(decodeUint64Hex('0x0')).toEqual({ ok: true, value: 0n });
    expect(decodeUint64Hex('0xffffffffffffffff')).toEqual({ ok: true, value: (1n << 64n) - 1n });
    expect(decodeUint64Hex('0x00')).toEqual({ ok: false, message: 'hex number with leading zero digits' });
    expect(decodeUint64Hex('0xzz0000000000000000')).toEqual({ ok: false, message: 'invalid hex string' });
    // Scanned left to right like strconv.ParseUint: the first problem wins.
    expect(decodeUint64Hex('0x1000000000000000z')).toEqual({ ok: false, message: 'invalid hex string' });
    expect(decodeUint64Hex('0x10000000000000000z')).toEqual({ ok: false, message: 'hex number > 64 bits' });
  });

  it('hashes: 32-byte 0x hex', () => {
    const bh = (v: unknown) => callRpc(view, 'eth_getBlockByHash', [v, false]);
    expect(bh('0x1234')).toEqual(e(-32602, 'invalid argument 0: hex string has length 4, want 64 for common.Hash'));
    expect(bh('ab'.repeat(32))).toEqual(
      e(
        -32602,
        'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type common.Hash',
      ),
    );
    expect(bh(`0x${'a'.repeat(63)}`)).toEqual(
      e(
        -32602,
        'invalid argument 0: json: cannot unmarshal hex string of odd length into Go value of type common.Hash',
      ),
    );
    expect(bh(`0x${'zz'.repeat(32)}`)).toEqual(
      e(-32602, 'invalid argument 0: json: cannot unmarshal invalid hex string into Go value of type common.Hash'),
    );
    expect(bh(5)).toEqual(
      e(-32602, 'invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Hash'),
    );
    expect(bh('')).toEqual(e(-32602, 'invalid argument 0: hex string has length 0, want 64 for common.Hash'));
  });
});

describe('sidechain RPC: ethers v6 reads it through JsonRpcApiProvider', () => {
  class InProcessProvider extends JsonRpcApiProvider {
    constructor(private readonly target: SidechainView) {
      super(undefined, { batchMaxCount: 1 });
    }
    override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<Array<JsonRpcResult | JsonRpcError>> {
      const list = Array.isArray(payload) ? payload : [payload];
      // Through JSON, as over HTTP.
      const requests = JSON.parse(JSON.stringify(list)) as JsonRpcPayload[];
      return requests.map((p) => {
        const r = callRpc(this.target, p.method, p.params);
        return JSON.parse(JSON.stringify(r.ok ? { id: p.id, result: r.result } : { id: p.id, error: r.error }));
      });
    }
  }

  let provider: InProcessProvider;
  let fin: SidechainChain;
  beforeAll(() => {
    fin = buildChain();
    fin.setFinalized(8n);
    provider = new InProcessProvider(viewOf(fin));
  });
  afterAll(() => provider.destroy());

  it('network, block number and every block, with prefetched transactions', async () => {
    expect((await provider.getNetwork()).chainId).toBe(CHAIN_ID);
    expect(await provider.getBlockNumber()).toBe(14);
    for (const b of fin.canonicalRange(0n)) {
      const n = Number(b.block.header.number);
      const block = (await provider.getBlock(n, true))!;
      expect(block.hash).toBe(b.block.hash);
      expect(block.number).toBe(n);
      expect(block.parentHash).toBe(b.block.header.parentHash);
      expect(block.difficulty).toBe(b.block.header.difficulty);
      expect(block.timestamp).toBe(Number(b.block.header.time));
      expect(block.miner).toBe(ZERO_ADDRESS);
      const expectedCount = b.block.body.txs.length + (b.block.body.stateSyncs.length > 0 ? 1 : 0);
      expect(block.prefetchedTransactions).toHaveLength(expectedCount);
      if (b.block.body.stateSyncs.length > 0) {
        const pseudo = block.prefetchedTransactions[expectedCount - 1]!;
        expect(pseudo.hash).toBe(stateSyncTxHash(n, b.block.hash));
        expect(pseudo.from).toBe(ZERO_ADDRESS);
        expect(pseudo.to).toBe(ZERO_ADDRESS);
        expect(pseudo.value).toBe(0n);
        expect(pseudo.blockNumber).toBe(n);
      }
      const byHash = (await provider.getBlock(b.block.hash))!;
      expect(byHash.number).toBe(n);
      expect([...byHash.transactions]).toEqual(block.prefetchedTransactions.map((t) => t.hash));
    }
    const withTxs = (await provider.getBlock(10, true))!;
    expect(
      withTxs.prefetchedTransactions.map((t) => [t.from.toLowerCase(), t.to?.toLowerCase(), t.value, t.nonce]),
    ).toEqual(transfers.map((t) => [t.from, t.to, t.value, Number(t.nonce)]));
  });

  it('tags, unknown blocks and the unsupported-method mapping', async () => {
    expect((await provider.getBlock('finalized'))!.number).toBe(8);
    expect((await provider.getBlock('safe'))!.number).toBe(8);
    expect((await provider.getBlock('earliest'))!.number).toBe(0);
    expect((await provider.getBlock('latest'))!.number).toBe(14);
    const pending = (await provider.getBlock('pending'))!;
    expect(pending.hash).toBeNull();
    expect(await provider.getBlock(99)).toBeNull();
    await expect(provider.send('eth_newFilter', [{}])).rejects.toMatchObject({ code: 'UNSUPPORTED_OPERATION' });
    expect(await provider.send('sidechain_getSigners', ['latest'])).toEqual(fin.signersAfter(fin.head().block.hash));
  });
});

describe('sidechain RPC: never throws (property)', () => {
  const hexish = fc.oneof(
    fc.constantFrom(
      'latest',
      'earliest',
      'pending',
      'finalized',
      'safe',
      '0x',
      '0x0',
      '0x01',
      '0X5',
      '0xe',
      '0xf',
      '0x7fffffffffffffff',
      '0xffffffffffffffff',
      '0x10000000000000000',
      '',
    ),
    fc.bigInt({ min: 0n, max: (1n << 66n) - 1n }).map((n) => `0x${n.toString(16)}`),
    fc.integer({ min: 0, max: 20 }).map((n) => `0x${n.toString(16)}`),
    fc.stringMatching(/^0x[0-9a-fA-F]{0,70}$/),
  );
  const arg = fc.oneof(
    fc.jsonValue(),
    hexish,
    fc.integer({ min: -5, max: 40 }),
    fc.record({ blockNumber: hexish }),
    fc.record({ blockHash: hexish }),
  );
  const params = fc.oneof(fc.constant(undefined), fc.constant(null), fc.jsonValue(), fc.array(arg, { maxLength: 4 }));
  const method = fc.oneof(fc.constantFrom(...RPC_METHODS), fc.string({ maxLength: 30 }));

  it('every method answers any JSON with a well-formed result', () => {
    const finalized = buildChain();
    finalized.setFinalized(5n);
    const views = [
      view,
      viewOf(finalized, { syncing: { startingBlock: 0n, currentBlock: 5n, highestBlock: 20n }, peerCount: 0 }),
    ];
    fc.assert(
      fc.property(fc.constantFrom(0, 1), method, params, (vi, m, p) => {
        const r = callRpc(views[vi]!, m, p);
        expect(typeof r.ok).toBe('boolean');
        if (r.ok) {
          expect(() => JSON.stringify(r.result)).not.toThrow();
          expect(r.result).not.toBeUndefined();
        } else {
          expect(Object.keys(r.error).sort((a, b) => (a < b ? -1 : 1))).toEqual(['code', 'message']);
          expect([-32601, -32602, -32000]).toContain(r.error.code);
          expect(typeof r.error.message).toBe('string');
          expect(r.error.message.length).toBeGreaterThan(0);
          if (r.error.code === -32601) expect(r.error.message).toMatch(/the method .* does not exist/i);
          if (r.error.code === -32602)
            expect(r.error.message).toMatch(
              /^(invalid argument \d+: .+|missing value for required argument \d+|too many arguments, want at most \d+|non-array args)$/,
            );
        }
      }),
      { numRuns: 3000 },
    );
  });
});
