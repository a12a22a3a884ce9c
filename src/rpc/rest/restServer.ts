/**
 * The service's REST API (port 1317): a thin fastify adapter over a ServicePort.
 *
 * - every GET path goes to `port.query`, which answers in the reference's envelopes and statuses
 *   (unknown paths included: 404 `{"error":…}`);
 * - `POST /txs` decodes the signed tx, re-encodes it to wire bytes and broadcasts it; a tx the chain
 *   rejects is still a 200 carrying its code and log, as in Cosmos;
 * - `POST /checkpoint/*` and `/topup/*` answer a prepared unsigned StdTx (prepareTx.ts);
 * - `GET /txs/{hash}` finds a tx the node received or committed (Cosmos's tx lookup), when the
 *   port can look txs up: 200 with the TxResponse of a committed tx (or of one refused at CheckTx:
 *   height "0" and its code), 404 while it is pending or unknown;
 * - with `nodes` (a devnet), `/node/N/…` speaks to validator N's node and `/…` to the default one;
 * - while a devnet restart replays its journal, reads wait at the port's catch-up gate and are
 *   answered 503 when it does not open in time (a write is queued: it enters after the replay).
 *
 * Every error answer is the reference's `{"error":"<msg>"}` with `Content-Type: application/json`,
 * and no request, however malformed, stops the server: handlers throw RestError, and the error
 * handler turns that and anything unexpected (a 500) into that body.
 */
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import {
  type BroadcastMode,
  BroadcastTimeoutError,
  type NodePorts,
  type ServicePort,
  TxFateUnknownError,
} from '../ports';
import { NodePrefix, pickNode } from '../http/nodePrefix';
import { parseBroadcastRequest } from './broadcastRequest';
import { PREPARE_ROUTES, prepareTx } from './prepareTx';
import { RestError, errorBody } from './restError';
import { restQueryReply } from './queryReply';
import { clientErrorHandler } from '../http/clientError';
import { HARDENED_HTTP_OPTIONS, hardenHttp } from '../http/httpHardening';

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export interface RestServerOptions {
  /** Largest accepted request body; larger ones are answered 413. Default 1 MiB. */
  bodyLimitBytes?: number;
  /** fastify's logger option (false by default: the devnet logs requests itself if it wants to). */
  logger?: FastifyServerOptions['logger'];
  /** A pino logger instead (fastify's `loggerInstance`). */
  loggerInstance?: FastifyBaseLogger;
  /** Every node's port: `/node/N/…` speaks to node N (a devnet). */
  nodes?: NodePorts<ServicePort>;
}

const POST_PATHS: ReadonlySet<string> = new Set(['/txs', ...PREPARE_ROUTES.keys()]);

/** JSON with 64-bit integers as decimal strings (amino's rule), so a bigint never fails a reply. */
function toJson(body: unknown): string {
  return JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply.code(status).type('application/json').send(toJson(body));
}

/** The path of a request URL, without its query string or trailing slashes (as routing sees it). */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return (q < 0 ? url : url.slice(0, q)).replace(/(.)\/+$/, '$1');
}

/**
 * A URL beginning `//` or `/\` is a scheme-relative URL to the WHATWG parser the query router
 * uses, which would read the first segment as a host and answer the rest (`//x/auth/params` would
 * serve `/auth/params`). Collapse the leading run so such paths are just unknown.
 */
function normalizeLeadingSlashes(url: string): string {
  return url.replace(/^[/\\]{2,}/, '/');
}

const clip = (s: string, n = 200) => (s.length > n ? `${s.slice(0, n)}…` : s);

export function createRestServer(port: ServicePort, opts: RestServerOptions = {}): FastifyInstance {
  const bodyLimit = opts.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const prefix = opts.nodes ? new NodePrefix() : null;
  const app = Fastify({
    ...(opts.loggerInstance ? { loggerInstance: opts.loggerInstance } : { logger: opts.logger ?? false }),
    ...(prefix ? { rewriteUrl: prefix.rewriteUrl } : {}),
    bodyLimit,
    // `POST /txs/` is `POST /txs`, as the query router already treats `GET /auth/params/`.
    routerOptions: { ignoreTrailingSlash: true },
    // Errors raised before routing (a path with broken percent-encoding) bypass setErrorHandler.
    frameworkErrors: (error, _request, reply) => {
      sendJson(reply, 400, errorBody(`malformed URL: ${clip(error.message)}`));
    },
    clientErrorHandler: clientErrorHandler((_status, message) => errorBody(message)),
    http: HARDENED_HTTP_OPTIONS,
  });
  hardenHttp(app, { errorBody: (_status, message) => errorBody(message), allow: 'GET, HEAD, POST' });

  // The reference reads every body as JSON whatever its Content-Type (curl -d sends form
  // encoding), so any declared type is parsed as JSON; a request with no Content-Type at all
  // carries no body for fastify and is answered "empty body" by the handlers.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, text, done) => {
    try {
      done(null, JSON.parse(text as string));
    } catch (e) {
      done(new RestError(400, `failed to decode JSON payload: ${(e as Error).message}`), undefined);
    }
  });

  app.setErrorHandler((thrown: unknown, request, reply) => {
    // A port may reject with a non-Error value; it is still an internal error, not a crash.
    const error: Partial<FastifyError> & Error = thrown instanceof Error ? thrown : new Error(String(thrown));
    if (error instanceof RestError) return sendJson(reply, error.statusCode, errorBody(error.message));
    const status = error.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      // fastify's own rejections (body too large, bad Content-Type or Content-Length).
      const message =
        status === 413
          ? `request body too large (limit ${bodyLimit} bytes)`
          : status === 415
            ? `unsupported content type ${JSON.stringify(clip(String(request.headers['content-type'] ?? '')))}`
            : error.message;
      return sendJson(reply, status, errorBody(message));
    }
    request.log.error({ err: error }, 'REST handler failed');
    return sendJson(reply, 500, errorBody(`internal error: ${error.message}`));
  });

  // Reached for methods no route serves. Only GET (and HEAD) reads exist outside the POST paths.
  app.setNotFoundHandler((request, reply) => {
    const isPost = POST_PATHS.has(pathOf(request.url));
    reply.header('allow', isPost ? 'POST' : 'GET, HEAD');
    return sendJson(
      reply,
      405,
      errorBody(`method ${request.method} not allowed on ${clip(pathOf(request.url))}; use ${isPost ? 'POST' : 'GET'}`),
    );
  });

  /** The port a request speaks to (its `/node/N` prefix's, else the default). */
  const portOf = (request: FastifyRequest): ServicePort => {
    const picked = pickNode(prefix?.nodeOf(request.raw), port, opts.nodes);
    if (!picked.ok) throw new RestError(404, picked.message);
    return picked.port;
  };

  /** While a restart replays its journal, a read would show an older state: wait for it. */
  const caughtUp = async (p: ServicePort): Promise<void> => {
    if (!p.gate?.catchingUp()) return;
    try {
      await p.gate.caughtUp();
    } catch (e) {
      throw new RestError(503, e instanceof Error ? e.message : String(e));
    }
  };

  app.get('/txs/:hash', async (request, reply) => {
    const p = portOf(request);
    if (!p.lookupTx) return answerQuery(reply, p, normalizeLeadingSlashes(request.url));
    await caughtUp(p);
    const raw = (request.params as { hash: string }).hash;
    const body = raw.startsWith('0x') || raw.startsWith('0X') ? raw.slice(2) : raw;
    if (!/^[0-9a-fA-F]{64}$/.test(body))
      throw new RestError(400, `invalid tx hash ${JSON.stringify(clip(raw, 80))}: expected 64 hex digits`);
    const found = p.lookupTx(`0x${body.toLowerCase()}`);
    switch (found.status) {
      case 'committed':
      case 'refused':
        return sendJson(reply, 200, found.result);
      // 404 either way (not committed here), with what the node knows of it: a client deciding
      // whether a copy it sent was a duplicate reads `status`.
      case 'pending':
        return sendJson(reply, 404, { ...errorBody(found.message), status: 'pending' });
      case 'unknown':
        return sendJson(reply, 404, {
          ...errorBody(
            found.message ?? `tx ${body.toUpperCase()} not found: this node neither received nor committed it`,
          ),
          status: 'unknown',
        });
    }
  });

  app.get('/*', async (request, reply) => {
    const url = normalizeLeadingSlashes(request.url);
    if (POST_PATHS.has(pathOf(url))) {
      reply.header('allow', 'POST');
      throw new RestError(405, `method GET not allowed on ${pathOf(url)}; use POST`);
    }
    const p = portOf(request);
    await caughtUp(p);
    return answerQuery(reply, p, url);
  });

  app.post('/txs', async (request, reply) => {
    const p = portOf(request);
    const { txBytes, mode } = parseBroadcastRequest(request.body);
    return sendJson(reply, 200, await broadcast(p, txBytes, mode));
  });

  for (const [path, preparer] of PREPARE_ROUTES) {
    app.post(path, async (request, reply) => {
      portOf(request);
      return sendJson(reply, 200, prepareTx(preparer, request.body));
    });
  }

  return app;
}

function answerQuery(reply: FastifyReply, port: ServicePort, url: string): FastifyReply {
  const r = restQueryReply(port.query(url));
  return sendJson(reply, r.status, r.body);
}

async function broadcast(port: ServicePort, txBytes: Uint8Array, mode: BroadcastMode) {
  try {
    return await port.broadcast(txBytes, mode);
  } catch (e) {
    // The tx may still be committed later, so a timeout is a gateway timeout, not a failure.
    if (e instanceof BroadcastTimeoutError) throw new RestError(504, e.message);
    // Journaled, outcome unknown (the devnet stopped): the client must look it up, not resend it.
    if (e instanceof TxFateUnknownError) throw new RestError(503, e.message);
    throw e;
  }
}
