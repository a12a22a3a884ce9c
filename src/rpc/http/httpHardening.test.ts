/**
 * The HTTP edge of every devnet port (the WebSocket port's plain HTTP side included), probed with raw sockets (issue 16, item 6): a request without
 * Host, CONNECT, a 5 MB body sent slowly, and garbage instead of HTTP each get a well-formed error
 * of the port's kind, and a client still sending its body reads the answer instead of EPIPE.
 */
import { type AddressInfo, connect } from 'node:net';
import { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJsonRpcServer } from '../jsonrpc/jsonRpcServer';
import { createWebSocketServer } from '../jsonrpc/webSocketServer';
import { createRestServer } from '../rest/restServer';
import { createStatusServer } from '../status/statusServer';
import { appServiceFixture } from '../testing/appServicePort';
import { createFixtureSidechainPort } from '../testing/sidechainPort';

interface Exchange {
  /** Everything the server sent. */
  text: string;
  /** Body bytes written when the first answer byte arrived. */
  sentWhenAnswered: number | null;
  sent: number;
  /** A socket error on our side (EPIPE, ECONNRESET), if any. */
  error: string | null;
}

/**
 * Send `head`, then `bodyBytes` bytes in 64 KiB chunks, 2 ms apart, half-open so we keep sending
 * after the server's FIN (as a client that has not looked at the answer yet does).
 */
function exchange(port: number, head: string, bodyBytes = 0): Promise<Exchange> {
  return new Promise((resolve) => {
    const s = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const r: Exchange = { text: '', sentWhenAnswered: null, sent: 0, error: null };
    s.on('data', (d) => {
      if (r.sentWhenAnswered === null) r.sentWhenAnswered = r.sent;
      r.text += d.toString('latin1');
    });
    s.on('error', (e: NodeJS.ErrnoException) => {
      r.error ??= e.code ?? e.message;
    });
    s.on('close', () => resolve(r));
    s.on('end', () => {
      if (r.sent >= bodyBytes) s.end();
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      if (s.destroyed) return;
      if (r.sent >= bodyBytes) {
        s.end();
        return;
      }
      const n = Math.min(chunk.length, bodyBytes - r.sent);
      r.sent += n;
      s.write(chunk.subarray(0, n), (e) => {
        if (!e) setTimeout(pump, 2);
      });
    };
    s.write(head, () => pump());
  });
}

function parseAnswer(text: string): { status: number; headers: Record<string, string>; body: unknown } {
  const end = text.indexOf('\r\n\r\n');
  expect(end, `a complete answer in ${JSON.stringify(text.slice(0, 200))}`).toBeGreaterThan(0);
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
  }
  const length = Number(headers['content-length']);
  const bodyText = text.slice(end + 4, end + 4 + length);
  expect(Buffer.byteLength(bodyText, 'latin1')).toBe(length);
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(bodyText) };
}

interface PortKind {
  name: string;
  create(): FastifyInstance;
  /** A path that answers 200 to GET (or POST for JSON-RPC). */
  okRequest: string;
  /** Whether a body is the port's kind of error. */
  isError(body: unknown): void;
}

const jsonRpcError = (body: unknown) =>
  expect(body).toMatchObject({
    jsonrpc: '2.0',
    id: null,
    error: { code: expect.any(Number), message: expect.any(String) },
  });

const KINDS: PortKind[] = [
  {
    name: 'REST (1317)',
    create: () => createRestServer(appServiceFixture().port),
    okRequest: 'GET /auth/params HTTP/1.0\r\n\r\n',
    isError: (body) => {
      expect(Object.keys(body as object)).toEqual(['error']);
      expect(typeof (body as { error: unknown }).error).toBe('string');
    },
  },
  {
    name: 'status RPC (26657)',
    create: () => createStatusServer(appServiceFixture().statusPort),
    okRequest: 'GET /status HTTP/1.0\r\n\r\n',
    isError: (body) =>
      expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number), message: expect.any(String) } }),
  },
  {
    name: 'JSON-RPC (8545)',
    create: () => createJsonRpcServer(createFixtureSidechainPort({ blocks: 2 })),
    okRequest:
      'POST / HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: 51\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}',
    isError: jsonRpcError,
  },
  {
    name: 'WebSocket JSON-RPC, its HTTP side (8546)',
    create: () => createWebSocketServer(createFixtureSidechainPort({ blocks: 2 })),
    okRequest:
      'POST / HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: 51\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}',
    isError: jsonRpcError,
  },
];

describe.each(KINDS)('$name', (kind) => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    app = kind.create();
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  it('HTTP/1.1 without a Host header: 400 with the port`s error body; HTTP/1.0 needs none', async () => {
    const r = await exchange(port, 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n');
    const a = parseAnswer(r.text);
    expect(a.status).toBe(400);
    kind.isError(a.body);
    expect(JSON.stringify(a.body)).toMatch(/Host/);
    const ok = parseAnswer((await exchange(port, kind.okRequest)).text);
    expect(ok.status).toBe(200);
  });

  it('CONNECT: 405 with Allow and the port`s error body', async () => {
    const r = await exchange(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    const a = parseAnswer(r.text);
    expect(a.status).toBe(405);
    expect(a.headers.allow).toMatch(/GET|POST/);
    kind.isError(a.body);
    expect(r.error).toBeNull();
  });

  it('a 5 MB body sent slowly: 413 before the body is complete, Connection: close, no EPIPE', async () => {
    const size = 5 * 1024 * 1024 + 64 * 1024;
    const r = await exchange(
      port,
      `POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
      size,
    );
    expect(r.error).toBeNull();
    expect(r.sent).toBe(size);
    expect(r.sentWhenAnswered).not.toBeNull();
    expect(r.sentWhenAnswered!).toBeLessThan(size);
    const a = parseAnswer(r.text);
    expect(a.status).toBe(413);
    expect(a.headers.connection).toBe('close');
    kind.isError(a.body);
    // Exactly one answer: the rest of the body was discarded, not read as requests.
    expect(r.text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });

  it('a chunked body over the limit: 413, and the client still sending reads it', async () => {
    const chunk = 'x'.repeat(60_000);
    const frames = Array.from({ length: 100 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const r = await exchange(
      port,
      `POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${frames}0\r\n\r\n`,
    );
    expect(r.error).toBeNull();
    const a = parseAnswer(r.text);
    expect([400, 405, 413]).toContain(a.status);
    kind.isError(a.body);
  });

  it('garbage instead of HTTP: 400 with the port`s error body', async () => {
    const r = await exchange(port, 'HELLO THERE\r\n\r\n');
    const a = parseAnswer(r.text);
    expect(a.status).toBe(400);
    kind.isError(a.body);
    expect(JSON.stringify(a.body)).toMatch(/malformed HTTP request/);
  });
});
