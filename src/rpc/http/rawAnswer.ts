/**
 * Answers written straight to a socket, for the requests no framework sees (malformed HTTP,
 * `CONNECT`, a refused WebSocket upgrade), and the polite way to close such a connection.
 *
 * Closing a socket while the client is still sending makes the kernel reset it, and the client
 * then sees EPIPE or ECONNRESET instead of the answer it was sent. So the answer is written, the
 * sending side is closed (FIN), and what the client still sends is read and discarded until it
 * stops or `drainMs` pass; only then is the socket destroyed.
 */
import { STATUS_CODES } from 'node:http';
import { type Duplex } from 'node:stream';

/** How long a closing connection keeps reading (and discarding) what the client still sends. */
export const DEFAULT_DRAIN_MS = 5_000;

/** An HTTP/1.1 response with a JSON body and `Connection: close`. */
export function rawAnswerText(status: number, body: unknown, headers: Record<string, string> = {}): string {
  const text = JSON.stringify(body);
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n${extra}Connection: close\r\n\r\n${text}`
  );
}

/** Read and discard until the client ends, then destroy; at most `drainMs` after the call. */
export function drainThenDestroy(socket: Duplex, drainMs: number = DEFAULT_DRAIN_MS): void {
  if (socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), drainMs);
  timer.unref();
  const done = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  socket.once('end', done);
  socket.once('close', () => clearTimeout(timer));
  socket.on('error', done);
  socket.on('data', () => {});
  socket.resume();
}

/** Write an answer, close the sending side, and drain before destroying the socket. */
export function answerAndClose(
  socket: Duplex,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  drainMs: number = DEFAULT_DRAIN_MS,
): void {
  if (socket.destroyed) return;
  if (socket.writable) socket.end(rawAnswerText(status, body, headers));
  drainThenDestroy(socket, drainMs);
}
