/**
 * The HTTP edge rules every devnet port shares (issue 16, item 6), on top of each server's own
 * error answers. Every answer is a well-formed error of the port's kind (the `errorBody` builder),
 * never an empty body or a dropped connection:
 *
 * - an HTTP/1.1 request without a `Host` header (Node answers those itself with an empty 400
 *   unless `requireHostHeader` is off, see HARDENED_HTTP_OPTIONS) gets a 400 with the port's
 *   body; HTTP/1.0 needs no Host;
 * - `CONNECT` (which Node hands to a `connect` listener, and drops without one) gets a 405 with
 *   the methods the port serves;
 * - an answer sent before the request body was read (a body over the limit, a body on a route
 *   that reads none) says `Connection: close`, and the connection then reads and discards what
 *   the client still sends, for a bounded time, before it closes: a client that is still sending
 *   reads the answer instead of EPIPE. Node destroys such a socket as soon as the answer is
 *   flushed (`destroySoon`); that step is replaced for this one socket.
 */
import { type IncomingMessage } from 'node:http';
import { type Socket } from 'node:net';
import { type FastifyInstance, type FastifyReply } from 'fastify';
import { type ErrorBodyBuilder } from './clientError';
import { DEFAULT_DRAIN_MS, answerAndClose } from './rawAnswer';

/** Pass as fastify's `http` option: the Host check moves into hardenHttp, where it has a body. */
export const HARDENED_HTTP_OPTIONS = { requireHostHeader: false } as const;

export interface HardeningOptions {
  /** The error body of this port's kind. */
  errorBody: ErrorBodyBuilder;
  /** The `Allow` header of the answer to CONNECT: the methods the port serves. */
  allow: string;
  /** How long a closing connection keeps discarding what the client sends (default 5 s). */
  drainMs?: number;
}

/** Whether the request announced a body (a length above zero, or chunks). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] !== undefined) return true;
  return length !== undefined && length !== '0';
}

/**
 * Replace Node's `destroySoon` on this socket: after the answer, close our side and keep reading
 * (Node discards the rest of the request body) until the body ends, the client closes, or
 * `drainMs` pass.
 */
function drainBeforeClose(req: IncomingMessage, socket: Socket, drainMs: number): void {
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    const destroy = () => {
      clearTimeout(timer);
      if (socket.writableFinished) socket.destroy();
      else socket.once('finish', () => socket.destroy());
    };
    const timer = setTimeout(destroy, drainMs);
    timer.unref();
    if (req.complete) destroy();
    else req.once('end', destroy);
    socket.once('close', () => clearTimeout(timer));
  };
}

export function hardenHttp(app: FastifyInstance, o: HardeningOptions): void {
  const drainMs = o.drainMs ?? DEFAULT_DRAIN_MS;
  const sendError = (reply: FastifyReply, status: number, message: string) =>
    reply
      .code(status)
      .header('content-type', 'application/json')
      .send(Buffer.from(JSON.stringify(o.errorBody(status, message)), 'utf8'));

  app.addHook('onRequest', (req, reply, done) => {
    if (req.raw.httpVersion === '1.1' && req.headers.host === undefined) {
      sendError(reply, 400, 'missing Host header (required by HTTP/1.1)');
      return;
    }
    done();
  });

  app.addHook('onSend', (req, reply, payload, done) => {
    const raw = req.raw;
    if (!raw.complete && hasBody(raw)) {
      reply.header('connection', 'close');
      drainBeforeClose(raw, raw.socket, drainMs);
    }
    done(null, payload);
  });

  app.server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    answerAndClose(
      socket,
      405,
      o.errorBody(405, `method CONNECT not allowed; this port serves ${o.allow}`),
      { Allow: o.allow },
      drainMs,
    );
  });
}
