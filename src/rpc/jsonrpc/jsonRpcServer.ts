/**
 * The sidechain node's JSON-RPC endpoint (service-spec "Sidechain JSON-RPC", local port 8545): an
 * HTTP transport over `answerJsonRpc`, which follows geth's `rpc` package (sidechain.md §4.4, §5).
 *
 * HTTP status is 200 for every JSON-RPC answer, errors included; HTTP errors are kept for
 * transport problems, as geth's `rpc/http.go` does, checked in geth's order before the body is
 * read:
 * - 405 `method not allowed` for anything but POST (the reference's rule; geth itself also lets an
 *   empty GET through as a health check, which the reference leaves out);
 * - 413 `content length too large (<n>><limit>)` for a body over the limit (default 5 MiB, geth's);
 * - 415 `invalid content type, only application/json is supported` unless the media type is
 *   `application/json`, `application/json-rpc` or `application/jsonrequest` (parameters such as
 *   charset allowed, case ignored).
 * Those bodies are JSON-RPC error objects with id null (code -32600, or -32700 when the body could
 * not be read), so a JSON client still gets something to show.
 *
 * A response with nothing to say (only notifications, or only responses) is an empty 200 body with
 * content-type application/json, as geth writes it. The view is read fresh for each request.
 * Nothing a client sends stops the server: a failure inside is answered `-32603`.
 *
 * The HTTP edge (a missing Host, CONNECT, an answer before the body was read, malformed HTTP) is
 * answered with JSON-RPC error objects with id null too (src/rpc/http).
 */
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { type NodePorts, type SidechainPort } from '../ports';
import {
  DEFAULT_BATCH_ITEM_LIMIT,
  DEFAULT_BATCH_RESPONSE_MAX_BYTES,
  type EnvelopeExtensions,
  answerJsonRpc,
  errorResponseText,
  transportErrorBody,
} from './jsonRpcEnvelope';
import { NodePrefix, pickNode } from '../http/nodePrefix';
import { JSONRPC_INTERNAL_ERROR, JSONRPC_INVALID_REQUEST, JSONRPC_PARSE_ERROR } from './rpcErrors';
import { clientErrorHandler } from '../http/clientError';
import { HARDENED_HTTP_OPTIONS, hardenHttp } from '../http/httpHardening';

/** geth's default HTTP body limit. */
export const DEFAULT_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

/** Media types geth accepts (JSON-RPC over HTTP, historical spec). */
const ACCEPTED_CONTENT_TYPES: ReadonlySet<string> = new Set([
  'application/json',
  'application/json-rpc',
  'application/jsonrequest',
]);

export interface JsonRpcServerOptions {
  /** Largest request body accepted (default 5 MiB). */
  bodyLimitBytes?: number;
  /** Most items in one batch (default 1000, geth's `BatchRequestLimit`); 0 = unlimited. */
  batchItemLimit?: number;
  /** Result bytes one batch may return (default 25 MB, geth's `BatchResponseMaxSize`); 0 = unlimited. */
  batchResponseMaxBytes?: number;
  /** Every node's port: `/node/N` speaks to node N (a devnet); without it there is only `/`. */
  nodes?: NodePorts<SidechainPort>;
  /**
   * Methods beyond the node's (a devnet's `lockstep_*` and `evm_*`), for the node a request speaks
   * to (its `/node/N` number, undefined for the default node).
   */
  extraMethods?: (node: number | undefined) => EnvelopeExtensions['method'];
  /** A pino logger for the server (fastify's `loggerInstance`); none by default. */
  loggerInstance?: FastifyBaseLogger;
}

/** The envelope's extensions for a port: the extra methods and the port's catch-up gate. */
export function extensionsFor(
  port: SidechainPort,
  node: number | undefined,
  opts: Pick<JsonRpcServerOptions, 'extraMethods'>,
): EnvelopeExtensions {
  const method = opts.extraMethods?.(node);
  return { ...(method ? { method } : {}), ...(port.gate ? { gate: port.gate } : {}) };
}

const JSON_CONTENT_TYPE = 'application/json';

/** Bodies go out as bytes, so the content type stays exactly `application/json` (fastify adds a charset to strings). */
function sendJson(reply: FastifyReply, status: number, text: string): FastifyReply {
  return reply.code(status).header('content-type', JSON_CONTENT_TYPE).send(Buffer.from(text, 'utf8'));
}

function sendTransportError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return sendJson(reply, status, errorResponseText(undefined, { code, message }));
}

/** The media type without parameters, lower-cased, as Go's mime.ParseMediaType yields it. */
function mediaType(header: string | undefined): string {
  if (header === undefined) return '';
  return header.split(';', 1)[0]!.trim().toLowerCase();
}

/** The other common HTTP methods on `/`: each is a 405 (fastify answers 404 for unknown ones). */
const NOT_ALLOWED_METHODS = ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

export function createJsonRpcServer(port: SidechainPort, opts: JsonRpcServerOptions = {}): FastifyInstance {
  const bodyLimit = opts.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const limits = {
    batchItemLimit: opts.batchItemLimit ?? DEFAULT_BATCH_ITEM_LIMIT,
    batchResponseMaxBytes: opts.batchResponseMaxBytes ?? DEFAULT_BATCH_RESPONSE_MAX_BYTES,
  };
  const transportError = (_status: number, message: string) => transportErrorBody(message);
  const prefix = opts.nodes ? new NodePrefix() : null;
  const app = Fastify({
    ...(opts.loggerInstance ? { loggerInstance: opts.loggerInstance } : { logger: false }),
    ...(prefix ? { rewriteUrl: prefix.rewriteUrl } : {}),
    bodyLimit,
    forceCloseConnections: 'idle',
    // Malformed HTTP is answered with a JSON-RPC error object too, not fastify's own body.
    clientErrorHandler: clientErrorHandler(transportError),
    http: HARDENED_HTTP_OPTIONS,
  });
  hardenHttp(app, { errorBody: transportError, allow: 'POST' });

  // The body is decoded here, not by fastify: a malformed body is a JSON-RPC parse error, not a 400.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit },
    (_req: FastifyRequest, body: Buffer, done: (err: Error | null, body?: unknown) => void) => done(null, body),
  );

  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const declared = Number(req.headers['content-length']);
      const message =
        Number.isFinite(declared) && declared > bodyLimit
          ? `content length too large (${declared}>${bodyLimit})`
          : `request body too large (>${bodyLimit} bytes)`;
      return sendTransportError(reply, 413, JSONRPC_INVALID_REQUEST, message);
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      return sendTransportError(
        reply,
        415,
        JSONRPC_INVALID_REQUEST,
        `invalid content type, only ${JSON_CONTENT_TYPE} is supported`,
      );
    const status =
      typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : undefined;
    // A body that could not be read (aborted, bad length): geth's "read error".
    if (status !== undefined) return sendTransportError(reply, status, JSONRPC_PARSE_ERROR, 'read error');
    return sendTransportError(reply, 200, JSONRPC_INTERNAL_ERROR, 'internal error');
  });

  app.route({
    method: [...NOT_ALLOWED_METHODS],
    url: '/',
    exposeHeadRoute: false,
    handler: (_req, reply) =>
      sendTransportError(reply.header('allow', 'POST'), 405, JSONRPC_INVALID_REQUEST, 'method not allowed'),
  });

  app.route({
    method: 'POST',
    url: '/',
    // Checked before fastify reads the body, in geth's order: size first, then content type.
    onRequest: (req, reply, done) => {
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > bodyLimit) {
        sendTransportError(reply, 413, JSONRPC_INVALID_REQUEST, `content length too large (${declared}>${bodyLimit})`);
        return;
      }
      if (!ACCEPTED_CONTENT_TYPES.has(mediaType(req.headers['content-type']))) {
        sendTransportError(
          reply,
          415,
          JSONRPC_INVALID_REQUEST,
          `invalid content type, only ${JSON_CONTENT_TYPE} is supported`,
        );
        return;
      }
      done();
    },
    handler: async (req, reply) => {
      const segment = prefix?.nodeOf(req.raw);
      const picked = pickNode(segment, port, opts.nodes);
      if (!picked.ok) return sendTransportError(reply, 404, JSONRPC_INVALID_REQUEST, picked.message);
      const target = picked.port;
      let text: string | null;
      try {
        const body = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
        const node = segment === undefined ? undefined : Number(segment);
        text = await answerJsonRpc(body, () => target.view(), limits, undefined, extensionsFor(target, node, opts));
      } catch {
        text = errorResponseText(undefined, { code: JSONRPC_INTERNAL_ERROR, message: 'internal error' });
      }
      return sendJson(reply, 200, text ?? '');
    },
  });

  return app;
}
