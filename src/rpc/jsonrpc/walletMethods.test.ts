/**
 * What a wallet needs from the sidechain's JSON-RPC (issue 22): transactions read back are the
 * signed transactions that were sent (ethers re-derives the hash from the fields and refuses a
 * mismatch; viem recovers the sender from the raw bytes), and the account and fee methods a wallet
 * calls before it signs answer from the node's state: balance, nonce (latest and pending), gas
 * price, priority fee, gas estimate, eth_call, eth_getCode, fee history.
 */
import { Transaction, toBeHex } from 'ethers';
import { recoverTransactionAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { createFixtureSidechainPort } from '../testing/sidechainPort';
import { type RpcResult, callRpc } from './methods';
import { answerJsonRpc } from './jsonRpcEnvelope';

function ok(r: RpcResult): unknown {
  if (!r.ok) throw new Error(`expected a result, got ${r.error.code} ${r.error.message}`);
  return r.result;
}

type TxJson = Record<string, string | null | unknown[]>;

const port = createFixtureSidechainPort();
const view = port.view();

function transfersOf(blockNumber: string): TxJson[] {
  const b = ok(callRpc(view, 'eth_getBlockByNumber', [blockNumber, true])) as { transactions: TxJson[] };
  // The state-sync pseudo-transaction (to the zero address, unsigned) is Bor's, not a wallet's.
  return b.transactions.filter((t) => t.to !== '0x0000000000000000000000000000000000000000');
}

describe('signed sidechain transactions through JSON-RPC', () => {
  it('a transfer read back is the signed transaction: ethers checks its hash, viem recovers its sender', async () => {
    const txs = [...transfersOf('0xa'), ...transfersOf('0xc')];
    expect(txs.length).toBeGreaterThanOrEqual(2);
    const types = new Set<string>();
    for (const t of txs) {
      types.add(String(t.type));
      // ethers rebuilds the transaction from the JSON fields and throws "hash mismatch" unless
      // keccak256 of its signed encoding is the hash the node reported.
      const rebuilt = Transaction.from({
        type: Number(t.type),
        chainId: BigInt(t.chainId as string),
        nonce: Number(t.nonce),
        to: t.to as string,
        value: BigInt(t.value as string),
        data: t.input as string,
        gasLimit: BigInt(t.gas as string),
        ...(t.type === '0x2'
          ? {
              maxFeePerGas: BigInt(t.maxFeePerGas as string),
              maxPriorityFeePerGas: BigInt(t.maxPriorityFeePerGas as string),
            }
          : { gasPrice: BigInt(t.gasPrice as string) }),
        signature: {
          r: toBeHex(BigInt(t.r as string), 32),
          s: toBeHex(BigInt(t.s as string), 32),
          v: BigInt(t.v as string),
        },
        hash: t.hash as string,
      });
      expect(rebuilt.hash).toBe(t.hash);
      expect(rebuilt.from?.toLowerCase()).toBe(t.from);
      const raw = ok(callRpc(view, 'eth_getRawTransactionByHash', [t.hash])) as `0x${string}`;
      expect(Transaction.from(raw).hash).toBe(t.hash);
      expect((await recoverTransactionAddress({ serializedTransaction: raw as never })).toLowerCase()).toBe(t.from);
    }
    // Both kinds a wallet sends: EIP-155 legacy and EIP-1559.
    expect([...types].sort()).toEqual(['0x0', '0x2']);
  });

  it('a receipt says what the transfer paid: its type, the effective gas price, and Bor’s LogTransfer', () => {
    const [t] = transfersOf('0xa');
    const r = ok(callRpc(view, 'eth_getTransactionReceipt', [t!.hash])) as Record<string, unknown>;
    expect(r).toMatchObject({ status: '0x1', gasUsed: '0x5208', type: t!.type, from: t!.from, to: t!.to });
    expect(BigInt(r.effectiveGasPrice as string)).toBeGreaterThan(0n);
    const logs = r.logs as Array<{ address: string; topics: string[] }>;
    expect(logs).toHaveLength(1);
    expect(logs[0]!.address).toBe('0x0000000000000000000000000000000000001010');
  });

  it('balance, nonce, gas price, priority fee, estimate, call, code and fee history answer from the state', () => {
    const [t] = transfersOf('0xa');
    const from = t!.from as string;
    const balance = BigInt(ok(callRpc(view, 'eth_getBalance', [from, 'latest'])) as string);
    expect(balance).toBeGreaterThan(0n);
    const before = BigInt(ok(callRpc(view, 'eth_getBalance', [from, '0x9'])) as string);
    expect(before).toBeGreaterThan(balance);
    const latest = BigInt(ok(callRpc(view, 'eth_getTransactionCount', [from, 'latest'])) as string);
    expect(latest).toBeGreaterThan(BigInt(t!.nonce as string));
    expect(ok(callRpc(view, 'eth_getTransactionCount', [from, '0x0']))).toBe('0x0');
    expect(BigInt(ok(callRpc(view, 'eth_getTransactionCount', [from, 'pending'])) as string)).toBe(latest);
    expect(BigInt(ok(callRpc(view, 'eth_gasPrice', [])) as string)).toBeGreaterThan(0n);
    expect(BigInt(ok(callRpc(view, 'eth_maxPriorityFeePerGas', [])) as string)).toBeGreaterThan(0n);
    expect(ok(callRpc(view, 'eth_estimateGas', [{ from, to: t!.to, value: '0x1' }]))).toBe('0x5208');
    expect(ok(callRpc(view, 'eth_call', [{ to: t!.to, data: '0x' }, 'latest']))).toBe('0x');
    expect(ok(callRpc(view, 'eth_getCode', [t!.to, 'latest']))).toBe('0x');
    const h = ok(callRpc(view, 'eth_feeHistory', ['0x4', 'latest', [50]])) as {
      oldestBlock: string;
      baseFeePerGas: string[];
      gasUsedRatio: number[];
      reward: string[][];
    };
    expect(h.baseFeePerGas).toHaveLength(5);
    expect(h.gasUsedRatio).toHaveLength(4);
    expect(h.reward).toHaveLength(4);
  });
});

describe('eth_sendRawTransaction', () => {
  const limits = { batchItemLimit: 0, batchResponseMaxBytes: 0 };
  const call = (id: number, method: string, params: unknown[]) => ({ jsonrpc: '2.0', id, method, params });

  it('hands the raw bytes to the node and answers its hash, or its geth error (-32000); a batch reads the pool again after it', async () => {
    const sent: string[] = [];
    let pending = 0n;
    const views: number[] = [];
    const viewWithPool = () => {
      views.push(1);
      return {
        ...port.view(),
        pool: { pendingNonce: () => pending, transaction: () => undefined },
        submit: async (raw: `0x${string}`) => {
          sent.push(raw);
          if (raw === '0xdead') return { ok: false as const, error: 'nonce too low: next nonce 3, tx nonce 1' };
          pending++;
          return { ok: true as const, hash: `0x${'ab'.repeat(32)}` as `0x${string}` };
        },
      };
    };
    const body = JSON.stringify([
      call(1, 'eth_sendRawTransaction', ['0xbeef']),
      call(2, 'eth_getTransactionCount', ['0x0000000000000000000000000000000000000001', 'pending']),
      call(3, 'eth_sendRawTransaction', ['0xdead']),
      call(4, 'eth_sendRawTransaction', ['beef']),
    ]);
    const answers = JSON.parse((await answerJsonRpc(body, viewWithPool, limits))!) as Array<Record<string, unknown>>;
    expect(answers[0]).toMatchObject({ id: 1, result: `0x${'ab'.repeat(32)}` });
    expect(answers[1]).toMatchObject({ id: 2, result: '0x1' });
    expect(answers[2]).toMatchObject({
      id: 3,
      error: { code: -32000, message: 'nonce too low: next nonce 3, tx nonce 1' },
    });
    expect(answers[3]).toMatchObject({
      id: 4,
      error: {
        code: -32602,
        message:
          'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type hexutil.Bytes',
      },
    });
    expect(sent).toEqual(['0xbeef', '0xdead']);
    expect(views.length).toBeGreaterThan(1);
  });

  it('a node that cannot be sent to does not have the method', async () => {
    const text = await answerJsonRpc(
      JSON.stringify(call(1, 'eth_sendRawTransaction', ['0x00'])),
      () => port.view(),
      limits,
    );
    expect(JSON.parse(text!)).toMatchObject({
      error: { code: -32601, message: 'the method eth_sendRawTransaction does not exist/is not available' },
    });
  });
});
