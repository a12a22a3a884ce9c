/**
 * The client never misleads (issue 22, item 4):
 * - `--home` names a devnet: a home that is not running is an error naming it, never a silent
 *   fallback to the default port 1317 (where another devnet may answer);
 * - `--wait` re-reads the home's data/ports.json on every retry, so it follows a devnet restarted on
 *   new ports (port 0);
 * - before printing "failed" for a hash, the client asks the chain what it knows of that hash: a
 *   copy refused as a duplicate of a committed or pending transaction is reported as what it is;
 * - a second transaction never takes a pending one's sequence without saying so: the client reads
 *   the node's unconfirmed transactions (the status port's `/unconfirmed_txs`) and uses the next.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FastifyInstance } from 'fastify';
import { EXIT } from '../core/exitCodes';
import { TOKEN, testKey } from '../app/testing/testChain';
import { AppNodeStatusPort, appServiceFixture, type AppServiceFixture } from '../rpc/testing/appServicePort';
import { createRestServer } from '../rpc/rest/restServer';
import { createStatusServer } from '../rpc/status/statusServer';
import { type BroadcastMode, type BroadcastResult, type ServicePort, type TxLookup } from '../rpc/ports';
import { encodeTx, signTx, txHash } from '../modules/auth/stdTx';
import { MsgSendDef } from '../modules/bank/msgs';
import { realScheme } from '../core/signatureScheme';
import { tendermintHash } from '../rpc/rest/txResponse';
import { restQueryReply } from '../rpc/rest/queryReply';
import { cli, writeKey } from './testing/clientCli';

function newHome(chainId: string): string {
  const home = mkdtempSync(join(tmpdir(), 'lockstep-honest-'));
  for (const d of ['keys', 'config', 'data']) mkdirSync(join(home, d), { recursive: true });
  writeFileSync(join(home, 'config', 'genesis.json'), JSON.stringify({ chain_id: chainId }));
  writeKey(home, 'user-1', user1);
  writeKey(home, 'user-2', user2);
  return home;
}

function writePorts(home: string, rest: number, status?: number): void {
  writeFileSync(
    join(home, 'data', 'ports.json'),
    JSON.stringify({ host: '127.0.0.1', rest, ...(status !== undefined ? { status } : {}) }),
  );
}

/**
 * A devnet-like port: broadcasts are recorded and answered as `answer` says; GET /txs/{hash} answers
 * from `book` (what the chain knows).
 */
class ScriptedPort implements ServicePort {
  readonly sent: Uint8Array[] = [];
  readonly book = new Map<string, TxLookup>();
  answer: (tx: Uint8Array) => BroadcastResult = (tx) => ({
    height: '0',
    txhash: tendermintHash(txHash(tx)),
    code: 0,
    raw_log: '',
  });
  constructor(private readonly inner: ServicePort) {}
  get chainId() {
    return this.inner.chainId;
  }
  query(p: string) {
    return this.inner.query(p);
  }
  async broadcast(tx: Uint8Array, _mode: BroadcastMode): Promise<BroadcastResult> {
    this.sent.push(tx);
    return this.answer(tx);
  }
  lookupTx(hash: string): TxLookup {
    return this.book.get(hash) ?? { status: 'unknown', message: `tx ${tendermintHash(hash)} is unknown` };
  }
}

const user1 = testKey('honest-user-1');
const user2 = testKey('honest-user-2');
let f: AppServiceFixture;
let port: ScriptedPort;
let statusPort: AppNodeStatusPort & { unconfirmed: Uint8Array[] };
let rest: FastifyInstance;
let status: FastifyInstance;
let restPort: number;
let statusPortNumber: number;

const portOf = (s: FastifyInstance) => (s.server.address() as { port: number }).port;

beforeAll(async () => {
  f = appServiceFixture({ accounts: [{ key: user1, amount: 100n * TOKEN }] });
  port = new ScriptedPort(f.port);
  rest = createRestServer(port);
  statusPort = Object.assign(new AppNodeStatusPort(f.chain), { unconfirmed: [] as Uint8Array[] });
  (statusPort as unknown as { unconfirmedTxs: () => Uint8Array[] }).unconfirmedTxs = () => statusPort.unconfirmed;
  status = createStatusServer(statusPort);
  await rest.listen({ host: '127.0.0.1', port: 0 });
  await status.listen({ host: '127.0.0.1', port: 0 });
  restPort = portOf(rest);
  statusPortNumber = portOf(status);
});

afterAll(async () => {
  await rest.close();
  await status.close();
});

/** A signed transfer of user-1 with this sequence. */
function transferOf(sequence: bigint, amount: bigint): Uint8Array {
  const acc = (
    restQueryReply(f.port.query(`/auth/accounts/${user1.address}/sequence`)).body as {
      result: { account_number: string };
    }
  ).result;
  return encodeTx(
    signTx(
      MsgSendDef,
      { fromAddress: user1.address, toAddress: user2.address, amount: [{ denom: 'matic', amount }] },
      { chainId: f.chain.chainId, accountNumber: BigInt(acc.account_number), sequence, memo: '' },
      user1.privateKey,
      realScheme,
    ),
  );
}

describe('--home names a running devnet', () => {
  it('a home that is not running is an error naming it; nothing is sent to port 1317', async () => {
    const home = newHome(f.chain.chainId);
    try {
      const urls: string[] = [];
      const spy: typeof fetch = async (input, init) => {
        urls.push(String(input));
        return fetch(input, init);
      };
      const q = await cli(['query', 'auth', 'account', 'user-1', '--home', home], spy);
      expect(q.code).toBe(EXIT.badInput);
      expect(q.err).toContain(`no devnet is running in ${home}`);
      expect(q.err).toContain('lockstep node start');
      const t = await cli(['tx', 'bank', 'send', 'user-2', '1matic', '--home', home], spy);
      expect(t.code).toBe(EXIT.badInput);
      expect(t.err).toContain(`no devnet is running in ${home}`);
      expect(urls).toEqual([]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('--wait follows a devnet restarted on new ports', () => {
  it('re-reads data/ports.json on every retry and finds the committed transaction there', async () => {
    const home = newHome(f.chain.chainId);
    try {
      // The devnet the broadcast reached listens on an old port; it is killed after the request
      // went through, and comes back on the fixture's port (port 0 in its config).
      const oldPort = 1; // never reached for real: the fake fetch below plays that devnet
      writePorts(home, oldPort);
      let committed: string | undefined;
      const urls: string[] = [];
      const lifecycle: typeof fetch = async (input, init) => {
        const u = String(input);
        urls.push(u);
        if (!u.startsWith(`http://127.0.0.1:${oldPort}/`)) return fetch(input, init);
        // Until it is killed, the old devnet answers (the account's sequence): the fixture plays it.
        if (committed === undefined && init?.method !== 'POST')
          return fetch(u.replace(`127.0.0.1:${oldPort}/`, `127.0.0.1:${restPort}/`), init);
        if (init?.method === 'POST') {
          // Journaled by the old devnet (it reaches the chain), then the process dies before answering.
          const body = JSON.parse(String(init.body)) as { tx: unknown };
          const bytes = new TextEncoder().encode(JSON.stringify(body.tx));
          committed = tendermintHash(txHash(bytes));
          writePorts(home, restPort);
          throw new TypeError('fetch failed', { cause: { code: 'UND_ERR_SOCKET', message: 'other side closed' } });
        }
        throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' } });
      };
      port.book.clear();
      const pending = cli(
        ['tx', 'bank', 'send', 'user-2', '2matic', '--wait', '--timeout', '10s', '--home', home],
        lifecycle,
      );
      // The restarted devnet commits it a moment later.
      await new Promise((r) => setTimeout(r, 600));
      expect(committed).toBeDefined();
      port.book.set(`0x${committed!.toLowerCase()}`, {
        status: 'committed',
        result: { height: '7', txhash: committed!, code: 0, raw_log: '' },
      });
      const r = await pending;
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain(`txhash: ${committed}`);
      expect(r.out).toContain('height: 7');
      expect(urls.some((u) => u.startsWith(`http://127.0.0.1:${restPort}/txs/`))).toBe(true);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 20_000);
});

describe('"failed" only when the chain says so', () => {
  it('a copy refused as a duplicate of a committed transaction is reported committed (exit 0), not failed', async () => {
    const home = newHome(f.chain.chainId);
    try {
      writePorts(home, restPort);
      port.book.clear();
      const hash = txHash(transferOf(0n, 3n * 10n ** 18n));
      // The chain committed these very bytes before (sent, answer lost, restarted): this copy is
      // refused (its sequence is used), but the hash is committed with code 0.
      port.book.set(hash, {
        status: 'committed',
        result: { height: '12', txhash: tendermintHash(hash), code: 0, raw_log: '' },
      });
      port.answer = (tx) => ({
        height: '0',
        txhash: tendermintHash(txHash(tx)),
        code: 4,
        codespace: 'sdk',
        raw_log: JSON.stringify({ codespace: 'sdk', code: 4, message: 'signature verification failed' }),
      });
      const r = await cli(['tx', 'bank', 'send', 'user-2', '3000000000000000000matic', '--home', home]);
      expect(r.err).not.toMatch(/failed \(code 4/);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain(`txhash: ${tendermintHash(hash)}`);
      expect(r.out).toContain('height: 12');
      expect(r.err).toContain('already committed');
    } finally {
      port.answer = (tx) => ({ height: '0', txhash: tendermintHash(txHash(tx)), code: 0, raw_log: '' });
      port.book.clear();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('a second transaction takes the next sequence after a pending one, and says so', async () => {
    const home = newHome(f.chain.chainId);
    try {
      writePorts(home, restPort, statusPortNumber);
      const first = transferOf(0n, 1n);
      statusPort.unconfirmed = [first];
      port.sent.length = 0;
      const r = await cli(['tx', 'bank', 'send', 'user-2', '1matic', '--broadcast-mode', 'async', '--home', home]);
      expect(r.code, r.err).toBe(0);
      expect(port.sent).toHaveLength(1);
      // The same transfer signed with sequence 1 (signatures are deterministic): the bytes sent.
      expect(txHash(port.sent[0]!)).toBe(txHash(transferOf(1n, 1n)));
      expect(r.err).toContain(`sequence 1: transaction ${tendermintHash(txHash(first))} (sequence 0) is still pending`);
    } finally {
      statusPort.unconfirmed = [];
      rmSync(home, { recursive: true, force: true });
    }
  });
});
