/**
 * The rpc-answers oracle: right JSON-RPC answers about a node's chain pass; a wrong answer of each
 * kind (misplaced transaction, error instead of null, a receipt for an unknown hash, a pseudo
 * transaction under another hash or with a log missing, an error where the block has records,
 * receipts out of order, logs missing, an answer from a head the node never imported) is named.
 */
import { describe, expect, it } from 'vitest';
import { id } from 'ethers';
import { type Hex } from '../../src/core/bytes';
import { type Observation, type SidechainBlockFact } from '../../src/node/observations';
import { stateSyncTxHash } from '../../src/sidechain/stateSync';
import { RpcAnswersOracle, borStateSyncTxHash } from './rpcAnswers';
import { CHAIN_ID, address, hash, imported, inTurnChain, rec, sidechainStarted } from './testing/observations';

const SENDER = address(9);
const T = hash('transfer-1');
const UNKNOWN = hash('nobody-sent-this');
const RECEIVER = '0x0000000000000000000000000000000000001001';
const TOPIC = id('StateCommitted(uint256,bool)');
const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const q = (n: bigint | number) => `0x${n.toString(16)}`;

/** Blocks 1-4; block 2 carries transfer T, block 4 (a sprint start) commits state syncs 7 and 8. */
function chain(): SidechainBlockFact[] {
  const blocks = inTurnChain(4);
  blocks[1] = {
    ...blocks[1]!,
    transfers: {
      balances: [],
      txs: [
        {
          hash: T,
          type: 2,
          chainId: CHAIN_ID,
          nonce: 0n,
          from: SENDER,
          // A made-up signature: this oracle compares answers with facts, it recovers no sender.
          r: word(1) as Hex,
          s: word(2) as Hex,
          yParity: 0,
          to: address(8),
          value: 1n,
          gasLimit: 21_000n,
          maxFeePerGas: 2n,
          maxPriorityFeePerGas: 1n,
          gasUsed: 21_000n,
          effectiveGasPrice: 2n,
        },
      ],
      accounts: [],
    },
  };
  blocks[3] = { ...blocks[3]!, stateSyncs: [7n, 8n].map((i) => ({ id: i, timeS: 0n })) };
  return blocks;
}

const BLOCKS = chain();
const B2 = BLOCKS[1]!;
const B4 = BLOCKS[3]!;
const P = borStateSyncTxHash(4n, B4.hash);
const HEAD = { hash: B4.hash, number: 4n };

const transferTx = () => ({ hash: T, blockHash: B2.hash, blockNumber: '0x2', transactionIndex: '0x0', from: SENDER });
const transferReceipt = () => ({
  transactionHash: T,
  blockHash: B2.hash,
  blockNumber: '0x2',
  transactionIndex: '0x0',
  from: SENDER,
  status: '0x1',
  logs: [{ transactionHash: T, blockHash: B2.hash, logIndex: '0x0' }],
});
const pseudoTx = (hash: Hex = P) => ({
  hash,
  blockHash: B4.hash,
  blockNumber: '0x4',
  transactionIndex: '0x0',
  from: address(0),
});
const stateLog = (stateId: number, logIndex: number) => ({
  address: RECEIVER,
  topics: [TOPIC, word(stateId)],
  data: word(1),
  blockNumber: '0x4',
  transactionHash: P,
  transactionIndex: '0x0',
  blockHash: B4.hash,
  logIndex: q(logIndex),
});
const pseudoReceipt = (logs = [stateLog(7, 0), stateLog(8, 1)]) => ({
  transactionHash: P,
  blockHash: B4.hash,
  blockNumber: '0x4',
  transactionIndex: '0x0',
  from: address(0),
  status: '0x1',
  logs,
});

type Query = Extract<Observation, { kind: 'sidechain.query' }>;
const ok = (result: unknown): Query['answer'] => ({ ok: true, result });
const crashed: Query['answer'] = { ok: false, code: -32603, message: 'method handler crashed' };
const logsFilter = { fromBlock: '0x4', toBlock: '0x4', address: RECEIVER };

/** Every read the client makes in a round, answered rightly. */
function rightAnswers(): Array<[string, unknown[], Query['answer']]> {
  return [
    ['eth_getTransactionByHash', [T], ok(transferTx())],
    ['eth_getTransactionReceipt', [T], ok(transferReceipt())],
    ['eth_getTransactionByHash', [UNKNOWN], ok(null)],
    ['eth_getTransactionReceipt', [UNKNOWN], ok(null)],
    ['eth_getBlockByNumber', ['0x4', true], ok({ hash: B4.hash, number: '0x4', transactions: [pseudoTx()] })],
    ['eth_getBlockByNumber', ['0x2', false], ok({ hash: B2.hash, number: '0x2', transactions: [T] })],
    ['eth_getBlockByNumber', ['0x9', true], ok(null)],
    ['eth_getBlockReceipts', ['0x4'], ok([pseudoReceipt()])],
    ['eth_getLogs', [logsFilter], ok([stateLog(7, 0), stateLog(8, 1)])],
    ['eth_getTransactionByHash', [P], ok(pseudoTx())],
    ['eth_getTransactionReceipt', [P], ok(pseudoReceipt())],
  ];
}

function harness() {
  const oracle = new RpcAnswersOracle();
  let t = 0;
  const feed = (obs: Observation, node = 'sc-1') => oracle.observe(rec(++t, node, obs));
  feed(sidechainStarted());
  for (const b of BLOCKS) feed(imported(b));
  const ask = (method: string, params: unknown[], answer: Query['answer'], head = HEAD, node = 'sc-1') =>
    feed({ kind: 'sidechain.query', head, method, params, answer }, node);
  return { oracle, ask };
}

/** The first violation's message after one wrong answer. */
function firesOn(method: string, params: unknown[], answer: Query['answer']): string {
  const { oracle, ask } = harness();
  ask(method, params, answer);
  expect(oracle.violation).toMatchObject({ oracle: 'rpc-answers', class: 'safety', node: 'sc-1' });
  return oracle.violation!.message;
}

describe('rpc-answers oracle', () => {
  it("derives Bor's state-sync transaction hash as the reference's vectors and the sidechain do", () => {
    expect(borStateSyncTxHash(4n, `0x${'00'.repeat(32)}`)).toBe(
      '0x7d258cbf50823fee2b2f9b3edbfe5fb8665a95206023eaad23cb683631b33ef3',
    );
    expect(borStateSyncTxHash(16n, `0x${'11'.repeat(32)}`)).toBe(
      '0xb1317de0d984956dd24a4c3fd47292d817373e6e69a7dab753c8fe3af87e2af6',
    );
    expect(P).toBe(stateSyncTxHash(4n, B4.hash));
  });

  it('passes right answers, and judges every rule it guards', () => {
    const { oracle, ask } = harness();
    for (const [method, params, answer] of rightAnswers()) ask(method, params, answer);
    expect(oracle.violation).toBeNull();
    expect([...oracle.exercised].sort()).toEqual(
      [...RpcAnswersOracle.judges].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  });

  it('passes a pending transaction of the pool for a hash no canonical block carries', () => {
    const { oracle, ask } = harness();
    ask('eth_getTransactionByHash', [UNKNOWN], ok({ hash: UNKNOWN, blockHash: null, blockNumber: null }));
    expect(oracle.violation).toBeNull();
  });

  it('judges against the head the node answered from: a block above it is null, a transaction above it unknown', () => {
    const { oracle, ask } = harness();
    const head = { hash: BLOCKS[0]!.hash, number: 1n };
    ask('eth_getBlockByNumber', ['0x2', false], ok(null), head);
    ask('eth_getTransactionByHash', [T], ok(null), head);
    expect(oracle.violation).toBeNull();
    ask('eth_getTransactionReceipt', [T], ok(transferReceipt()), head);
    expect(oracle.violation!.message).toMatch(/the receipt of a transaction no canonical block carries/);
  });

  it('fires on a canonical transaction placed in another block', () => {
    expect(firesOn('eth_getTransactionByHash', [T], ok({ ...transferTx(), blockHash: B4.hash }))).toMatch(
      /transaction 0x.*: blockHash is .*, expected/,
    );
  });

  it('fires on a canonical transaction with another sender', () => {
    expect(firesOn('eth_getTransactionByHash', [T], ok({ ...transferTx(), from: address(7) }))).toMatch(/from/);
  });

  it('fires on a canonical transaction answered null', () => {
    expect(firesOn('eth_getTransactionReceipt', [T], ok(null))).toMatch(/not an object/);
  });

  it('fires on an error where an unknown hash answers null', () => {
    expect(firesOn('eth_getTransactionByHash', [UNKNOWN], crashed)).toMatch(
      /the answer is .*method handler crashed.*, expected null$/,
    );
    expect(firesOn('eth_getTransactionReceipt', [UNKNOWN], crashed)).toMatch(/method handler crashed/);
  });

  it('fires on a receipt for a hash no canonical block carries', () => {
    expect(
      firesOn('eth_getTransactionReceipt', [UNKNOWN], ok({ ...transferReceipt(), transactionHash: UNKNOWN })),
    ).toMatch(/the receipt of a transaction no canonical block carries/);
  });

  it('fires on a pseudo-transaction listed under another hash than the derived one', () => {
    const other = hash('keccak-of-rlp');
    expect(
      firesOn(
        'eth_getBlockByNumber',
        ['0x4', true],
        ok({ hash: B4.hash, number: '0x4', transactions: [pseudoTx(other)] }),
      ),
    ).toMatch(/transaction 0 of block 4: hash/);
  });

  it('fires on a block with records answered without its pseudo-transaction', () => {
    expect(
      firesOn('eth_getBlockByNumber', ['0x4', true], ok({ hash: B4.hash, number: '0x4', transactions: [] })),
    ).toMatch(/the transactions of block 4: length is 0, expected 1/);
  });

  it('fires on a pseudo-transaction receipt with a log missing, or a log of another record', () => {
    expect(firesOn('eth_getTransactionReceipt', [P], ok(pseudoReceipt([stateLog(7, 0)])))).toMatch(
      /logs: length is 1, expected 2/,
    );
    expect(firesOn('eth_getTransactionReceipt', [P], ok(pseudoReceipt([stateLog(7, 0), stateLog(9, 1)])))).toMatch(
      /topics/,
    );
    expect(firesOn('eth_getTransactionReceipt', [P], ok(pseudoReceipt([stateLog(7, 0), stateLog(8, 3)])))).toMatch(
      /logIndex/,
    );
  });

  it('fires on every read of a block with records answering an error', () => {
    for (const [method, params] of rightAnswers().filter(([, p]) => JSON.stringify(p).includes('0x4') || p[0] === P))
      expect(firesOn(method, params, crashed)).toMatch(/method handler crashed/);
  });

  it('fires on the pseudo-transaction unknown (null)', () => {
    expect(firesOn('eth_getTransactionByHash', [P], ok(null))).toMatch(/not an object/);
  });

  it('fires on block receipts out of order or missing the state-sync receipt', () => {
    expect(firesOn('eth_getBlockReceipts', ['0x4'], ok([]))).toMatch(/length is 0, expected 1/);
    expect(firesOn('eth_getBlockReceipts', ['0x2'], ok([pseudoReceipt()]))).toMatch(
      /receipt 0 of block 2: transactionHash/,
    );
  });

  it('fires on logs missing or in another order', () => {
    expect(firesOn('eth_getLogs', [logsFilter], ok([stateLog(7, 0)]))).toMatch(/length is 1, expected 2/);
    expect(firesOn('eth_getLogs', [logsFilter], ok([stateLog(8, 1), stateLog(7, 0)]))).toMatch(/topics/);
  });

  it('fires on an answer from a head the node never imported', () => {
    const { oracle, ask } = harness();
    ask('eth_getTransactionByHash', [UNKNOWN], ok(null), HEAD, 'sc-2');
    expect(oracle.violation!.message).toMatch(/a block the node never reported importing/);
  });
});
