/**
 * The node status RPC (port 26657): `GET /status` and `GET /net_info` in Tendermint's shapes
 * (tendermintJson.ts), over a NodeStatusPort, and Tendermint's `GET /unconfirmed_txs?limit=N` where
 * the port tells (a devnet: the client reads it to take the sequence after a pending transaction's).
 * Anything else is a JSON-RPC error envelope, never an HTML page or a dropped connection. With `nodes` (a
 * devnet), `/node/N/status` is validator N's node. `/status` never waits while a restart replays
 * its journal: it answers `catching_up: true` (the port's `catchingUp`) instead.
 */
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { type NodePorts, type NodeStatusPort } from '../ports';
import { NodePrefix, pickNode } from '../http/nodePrefix';
import { clientErrorHandler } from '../http/clientError';
import { HARDENED_HTTP_OPTIONS, hardenHttp } from '../http/httpHardening';
import { RpcErrorCode, netInfoResult, rpcError, rpcResult, statusResult, unconfirmedTxsResult } from './tendermintJson';

export interface StatusServerOptions {
  logger?: FastifyServerOptions['logger'];
  /** A pino logger instead (fastify's `loggerInstance`). */
  loggerInstance?: FastifyBaseLogger;
  /** Every node's port: `/node/N/status` speaks for node N (a devnet). */
  nodes?: NodePorts<NodeStatusPort>;
}

const ROUTES: ReadonlySet<string> = new Set(['/status', '/net_info', '/unconfirmed_txs']);

/** Requests carry no body worth reading; a small limit keeps a flood from buffering megabytes. */
const BODY_LIMIT_BYTES = 64 * 1024;

function send(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type('application/json').send(JSON.stringify(body));
}

const pathOf = (url: string) => url.split('?', 1)[0]!.replace(/\/+$/, '') || '/';

export function createStatusServer(port: NodeStatusPort, opts: StatusServerOptions = {}): FastifyInstance {
  const prefix = opts.nodes ? new NodePrefix() : null;
  const app = Fastify({
    ...(opts.loggerInstance ? { loggerInstance: opts.loggerInstance } : { logger: opts.logger ?? false }),
    ...(prefix ? { rewriteUrl: prefix.rewriteUrl } : {}),
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: (error, _request, reply) => {
      send(
        reply,
        400,
        rpcError(RpcErrorCode.InvalidRequest, 'Invalid Request', `malformed URL: ${error.message.slice(0, 200)}`),
      );
    },
    clientErrorHandler: clientErrorHandler((_status, message) =>
      rpcError(RpcErrorCode.InvalidRequest, 'Invalid Request', message),
    ),
    http: HARDENED_HTTP_OPTIONS,
  });
  hardenHttp(app, {
    errorBody: (_status, message) => rpcError(RpcErrorCode.InvalidRequest, 'Invalid Request', message),
    allow: 'GET, HEAD',
  });
  // Bodies are ignored whatever their type, rather than refused with an HTML-less 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));

  app.setErrorHandler((thrown: unknown, request, reply) => {
    const error: Partial<FastifyError> & Error = thrown instanceof Error ? thrown : new Error(String(thrown));
    const status = error.statusCode;
    if (status !== undefined && status >= 400 && status < 500)
      return send(reply, status, rpcError(RpcErrorCode.InvalidRequest, 'Invalid Request', error.message));
    request.log.error({ err: error }, 'status handler failed');
    return send(reply, 500, rpcError(RpcErrorCode.InternalError, 'Internal error', error.message));
  });

  app.setNotFoundHandler((request, reply) => {
    if (ROUTES.has(pathOf(request.url))) {
      reply.header('allow', 'GET, HEAD');
      return send(
        reply,
        405,
        rpcError(RpcErrorCode.InvalidRequest, 'Invalid Request', `method ${request.method} not allowed; use GET`),
      );
    }
    return send(reply, 404, rpcError(RpcErrorCode.MethodNotFound, 'Method not found'));
  });

  /** The port a request speaks for (its `/node/N` prefix's, else the default); null after a 404 answer. */
  const portOf = (request: FastifyRequest, reply: FastifyReply): NodeStatusPort | null => {
    const picked = pickNode(prefix?.nodeOf(request.raw), port, opts.nodes);
    if (picked.ok) return picked.port;
    send(reply, 404, rpcError(RpcErrorCode.InvalidRequest, 'Invalid Request', picked.message));
    return null;
  };

  app.get('/status', async (request, reply) => {
    const p = portOf(request, reply);
    return p ? send(reply, 200, rpcResult(statusResult(p.status()))) : reply;
  });
  app.get('/net_info', async (request, reply) => {
    const p = portOf(request, reply);
    return p ? send(reply, 200, rpcResult(netInfoResult(p.netInfo()))) : reply;
  });

  app.get('/unconfirmed_txs', async (request, reply) => {
    const p = portOf(request, reply);
    if (!p) return reply;
    if (!p.unconfirmedTxs) return send(reply, 404, rpcError(RpcErrorCode.MethodNotFound, 'Method not found'));
    const q = request.query as Record<string, unknown>;
    const raw = q.limit === undefined ? '30' : String(q.limit).replace(/^"|"$/g, '');
    if (!/^\d+$/.test(raw))
      return send(
        reply,
        400,
        rpcError(RpcErrorCode.InvalidParams, 'Invalid params', `limit: expected a number, got ${raw}`),
      );
    return send(reply, 200, rpcResult(unconfirmedTxsResult(p.unconfirmedTxs(), Number(raw))));
  });

  return app;
}
