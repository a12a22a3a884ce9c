/**
 * The sidechain node's WebSocket JSON-RPC endpoint, on its own port as Bor serves WS beside HTTP
 * (geth's default 8546). Over a WebSocket every message is a JSON-RPC request or batch answered
 * by the same envelope and methods as over HTTP, and a connection can hold subscriptions
 * (subscriptions.ts): `eth_subscribe("newHeads")` and `eth_subscribe("logs", filter)`, which the
 * block watchers of ethers (`WebSocketProvider`, `provider.on('block')`) and viem (`watchBlocks`,
 * `watchBlockNumber` over a webSocket transport) use.
 *
 * The port's plain HTTP side is the JSON-RPC HTTP server (POST JSON-RPC, hardened edge), as geth
 * answers when HTTP and WS share a port; an upgrade it refuses is answered with a JSON-RPC error
 * object too. While anything is subscribed, the node's chain is looked at every `pollMs` and each
 * change goes to the subscribers (chainFollower.ts). A client that does not read its
 * notifications is disconnected once `maxBufferedBytes` wait for it, as geth drops a subscriber
 * whose queue overflows; a client that stops answering pings is dropped too.
 */
import { randomBytes } from 'node:crypto';
import { type IncomingMessage } from 'node:http';
import { type Duplex } from 'node:stream';
import { type FastifyInstance } from 'fastify';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { answerAndClose } from '../http/rawAnswer';
import { type SidechainPort } from '../ports';
import { ChainFollower, DEFAULT_FOLLOW_BLOCKS } from './chainFollower';
import {
  DEFAULT_BATCH_ITEM_LIMIT,
  DEFAULT_BATCH_RESPONSE_MAX_BYTES,
  answerJsonRpc,
  errorResponseText,
  transportErrorBody,
} from './jsonRpcEnvelope';
import { type JsonRpcServerOptions, createJsonRpcServer } from './jsonRpcServer';
import { JSONRPC_INTERNAL_ERROR } from './rpcErrors';
import { SubscriptionSet } from './subscriptions';

/** geth's `wsDefaultReadLimit`. */
export const DEFAULT_WS_MESSAGE_LIMIT_BYTES = 32 * 1024 * 1024;

export interface WebSocketServerOptions extends JsonRpcServerOptions {
  /** Largest message a client may send (default 32 MiB, geth's); a larger one closes the connection (1009). */
  maxMessageBytes?: number;
  /** How often the chain is looked at while anything is subscribed (default 50 ms). */
  pollMs?: number;
  /** Most blocks announced at once after a jump (default 128). */
  followBlocks?: number;
  /** Bytes waiting for a slow client before it is disconnected (default 16 MiB). */
  maxBufferedBytes?: number;
  /** Ping interval; a client that has not answered the last ping is dropped (default 30 s, geth's). */
  pingMs?: number;
}

/** geth's subscription ids: 16 random bytes as a hex quantity. */
function newSubscriptionId(): string {
  const hex = randomBytes(16).toString('hex').replace(/^0+/, '');
  return `0x${hex || '0'}`;
}

interface Client {
  ws: WebSocket;
  subs: SubscriptionSet;
  alive: boolean;
}

export function createWebSocketServer(port: SidechainPort, opts: WebSocketServerOptions = {}): FastifyInstance {
  const app = createJsonRpcServer(port, opts);
  const limits = {
    batchItemLimit: opts.batchItemLimit ?? DEFAULT_BATCH_ITEM_LIMIT,
    batchResponseMaxBytes: opts.batchResponseMaxBytes ?? DEFAULT_BATCH_RESPONSE_MAX_BYTES,
  };
  const pollMs = opts.pollMs ?? 50;
  const maxBuffered = opts.maxBufferedBytes ?? 16 * 1024 * 1024;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: opts.maxMessageBytes ?? DEFAULT_WS_MESSAGE_LIMIT_BYTES,
    perMessageDeflate: false,
  });
  const clients = new Set<Client>();
  const follower = new ChainFollower(opts.followBlocks ?? DEFAULT_FOLLOW_BLOCKS);
  let poller: NodeJS.Timeout | null = null;

  const subscribed = () => [...clients].some((c) => c.subs.size > 0);

  const poll = () => {
    if (!subscribed()) {
      if (poller) clearInterval(poller);
      poller = null;
      follower.reset();
      return;
    }
    let texts: Array<[Client, string[]]>;
    try {
      const view = port.view();
      const change = follower.poll(view.chain);
      if (change.added.length === 0 && change.removed.length === 0) return;
      texts = [...clients].map((c) => [c, c.subs.notifications(change, view.chain)]);
    } catch {
      // A view that cannot be read now is read again at the next tick.
      return;
    }
    for (const [c, list] of texts) {
      for (const t of list) {
        if (c.ws.bufferedAmount > maxBuffered) {
          c.ws.close(1008, 'subscription notifications not read: too far behind');
          break;
        }
        c.ws.send(t);
      }
    }
  };

  /** The first subscription: take the chain as it is now, and look again every pollMs. */
  const startFollowing = () => {
    if (poller) return;
    follower.reset();
    try {
      follower.poll(port.view().chain);
    } catch {
      // Taken at the first tick instead.
    }
    poller = setInterval(poll, pollMs);
    poller.unref();
  };

  const serve = (ws: WebSocket) => {
    const client: Client = { ws, subs: new SubscriptionSet(newSubscriptionId, startFollowing), alive: true };
    clients.add(client);
    ws.on('pong', () => {
      client.alive = true;
    });
    ws.on('message', (data: RawData) => {
      let text: string | null;
      try {
        const body = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
        text = answerJsonRpc(body.toString('utf8'), () => port.view(), limits, client.subs);
      } catch {
        text = errorResponseText(undefined, { code: JSONRPC_INTERNAL_ERROR, message: 'internal error' });
      }
      if (text !== null && ws.readyState === ws.OPEN) ws.send(text);
    });
    ws.on('close', () => clients.delete(client));
    // A broken connection is the client's concern; it must not reach the process.
    ws.on('error', () => ws.terminate());
  };

  const refuse = (socket: Duplex, status: number, message: string) =>
    answerAndClose(socket, status, transportErrorBody(message));

  // ws reports a handshake it refuses here instead of writing its own plain-text answer.
  wss.on('wsClientError', (error: Error, socket: Duplex) =>
    refuse(socket, error.message === 'Invalid HTTP method' ? 405 : 400, `WebSocket upgrade refused: ${error.message}`),
  );

  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (req.httpVersion === '1.1' && req.headers.host === undefined) {
      refuse(socket, 400, 'missing Host header (required by HTTP/1.1)');
      return;
    }
    wss.handleUpgrade(req, socket, head, serve);
  });

  const pingMs = opts.pingMs ?? 30_000;
  const pinger = setInterval(() => {
    for (const c of clients) {
      if (!c.alive) {
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
  }, pingMs);
  pinger.unref();

  app.addHook('onClose', async () => {
    clearInterval(pinger);
    if (poller) clearInterval(poller);
    poller = null;
    for (const c of clients) c.ws.terminate();
    clients.clear();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });

  return app;
}
