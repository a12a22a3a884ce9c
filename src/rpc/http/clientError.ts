/**
 * Answers for requests Node's HTTP parser refuses before fastify sees them (a request line or
 * headers over the size limit, garbage instead of HTTP, a client too slow to send its headers).
 * fastify's default writes its own body shape; the servers pass a builder so these answers carry
 * the same JSON error body as every other error of the port (`{"error":…}` for REST, a JSON-RPC
 * error object with id null for the JSON-RPC ports, the status port's JSON-RPC-style error).
 */
import { type Socket } from 'node:net';
import { answerAndClose } from './rawAnswer';

export type ErrorBodyBuilder = (status: number, message: string) => unknown;

function statusOf(code: string | undefined): [number, string] {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'request timeout'];
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'request line or headers too large'];
  return [400, `malformed HTTP request${code ? ` (${code})` : ''}`];
}

export function clientErrorHandler(
  bodyOf: ErrorBodyBuilder,
): (error: Error & { code?: string }, socket: Socket) => void {
  // The parser reports every later chunk of a broken stream again: answer once.
  const answered = new WeakSet<Socket>();
  return (error, socket) => {
    // A reset connection has no one left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (answered.has(socket)) return;
    answered.add(socket);
    const [status, message] = statusOf(error.code);
    answerAndClose(socket, status, bodyOf(status, message));
  };
}
