/**
 * Answers for requests Node's HTTP parser refuses before fastify sees them (a request line or
 * headers over the size limit, garbage instead of HTTP, a client too slow to send its headers).
 * fastify's default writes its own body shape; the servers pass a builder so these answers carry
 * the same JSON error body as every other error (`{"error":…}` for REST, a JSON-RPC envelope for
 * the status port).
 */
import { STATUS_CODES } from 'node:http';
import { type Socket } from 'node:net';

export type ErrorBodyBuilder = (status: number, message: string) => unknown;

function statusOf(code: string | undefined): [number, string] {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'request timeout'];
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'request line or headers too large'];
  return [400, `malformed HTTP request${code ? ` (${code})` : ''}`];
}

export function clientErrorHandler(
  bodyOf: ErrorBodyBuilder,
): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    // A reset connection has no one left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, message] = statusOf(error.code);
    const body = JSON.stringify(bodyOf(status, message));
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}
