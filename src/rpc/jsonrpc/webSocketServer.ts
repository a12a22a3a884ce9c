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
import { type JsonRpcServerOptions, createJsonRpcServer, extensionsFor } from './jsonRpcServer';
import { nodeSegmentOfUrl, pickNode } from '../http/nodePrefix';
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
  /** The node the connection speaks to (its upgrade URL's `/node/N`, else the default). */
  port: SidechainPort;
  node: number | undefined;
  /** Messages are answered one at a time, in order. */
  queue: Promise<void>;
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
  /** One follower per node that has subscribers. */
  const followers = new Map<SidechainPort, ChainFollower>();
  let poller: NodeJS.Timeout | null = null;

  const poll = () => {
    for (const [p, follower] of followers) {
      const subscribers = [...clients].filter((c) => c.port === p && c.subs.size > 0);
      if (subscribers.length === 0) {
        followers.delete(p);
        continue;
      }
      // While a restart replays the journal the chain is behind what was announced: wait.
      if (p.gate?.catchingUp()) continue;
      let texts: Array<[Client, string[]]>;
      try {
        const view = p.view();
        const change = follower.poll(view.chain);
        if (change.added.length === 0 && change.removed.length === 0) continue;
        texts = subscribers.map((c) => [c, c.subs.notifications(change, view.chain)]);
      } catch {
        // A view that cannot be read now is read again at the next tick.
        continue;
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
    }
    if (followers.size === 0 && poller) {
      clearInterval(poller);
      poller = null;
    }
  };

  /** A node's first subscription: take its chain as it is now, and look again every pollMs. */
  const startFollowing = (p: SidechainPort) => {
    if (!followers.has(p)) {
      const follower = new ChainFollower(opts.followBlocks ?? DEFAULT_FOLLOW_BLOCKS);
      try {
        if (!p.gate?.catchingUp()) follower.poll(p.view().chain);
      } catch {
        // Taken at the first tick instead.
      }
      followers.set(p, follower);
    }
    if (poller) return;
    poller = setInterval(poll, pollMs);
    poller.unref();
  };

  const serve = (ws: WebSocket, target: SidechainPort, node: number | undefined) => {
    const client: Client = {
      ws,
      subs: new SubscriptionSet(newSubscriptionId, () => startFollowing(target)),
      alive: true,
      port: target,
      node,
      queue: Promise.resolve(),
    };
    clients.add(client);
    ws.on('pong', () => {
      client.alive = true;
    });
    const ext = extensionsFor(target, node, opts);
    ws.on('message', (data: RawData) => {
      client.queue = client.queue.then(async () => {
        let text: string | null;
        try {
          const body = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
          text = await answerJsonRpc(body.toString('utf8'), () => target.view(), limits, client.subs, ext);
        } catch {
          text = errorResponseText(undefined, { code: JSONRPC_INTERNAL_ERROR, message: 'internal error' });
        }
        if (text !== null && ws.readyState === ws.OPEN) ws.send(text);
      });
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
    // Without a node set (a single node's server) every path is that node's, as before.
    const segment = opts.nodes ? nodeSegmentOfUrl(req.url) : undefined;
    const picked = pickNode(segment, port, opts.nodes);
    if (!picked.ok) {
      refuse(socket, 404, picked.message);
      return;
    }
    const node = segment === undefined ? undefined : Number(segment);
    wss.handleUpgrade(req, socket, head, (ws) => serve(ws, picked.port, node));
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
