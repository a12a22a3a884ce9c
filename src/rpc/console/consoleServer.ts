/**
 * The sidechain node's operator console endpoint (service-spec "Operator console": the console
 * attaches to the node's IPC file): a Unix-domain socket speaking the line protocol of
 * `consoleFormat.ts`. Reads go to `evalConsole` over a fresh view; `debug.setHead(…)` goes to the
 * node as an operator command (`SidechainPort.setHead`).
 *
 * Each connection's lines are answered one at a time and in order, so a read sent after a setHead
 * sees the rewound chain. A line over 64 KiB is answered with an error and the connection is
 * closed: nothing legitimate is that long, and the server must not buffer without bound.
 *
 * The socket file is created owner-only (0600), as geth's IPC endpoint is, because the console can
 * rewind the chain. A stale socket left by a crashed node is removed at start; a live one (another
 * node answers on it) or a file that is not a socket is left alone and reported.
 */
import { chmodSync, lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import { type Server, type Socket, connect, createServer } from 'node:net';
import { dirname } from 'node:path';
import { type SidechainPort } from '../ports';
import { evalConsole } from './consoleEval';
import { type ConsoleAnswer, MAX_CONSOLE_LINE_BYTES, encodeConsoleAnswer, formatConsoleValue } from './consoleFormat';
import { parseSetHead } from './setHeadExpression';

export interface ConsoleServer {
  listen(): Promise<void>;
  close(): Promise<void>;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The answer to one expression line. Never rejects. */
export async function answerConsoleLine(port: SidechainPort, line: string): Promise<ConsoleAnswer> {
  try {
    const setHead = parseSetHead(line);
    if (setHead.kind === 'invalid') return { ok: false, error: setHead.error };
    if (setHead.kind === 'setHead') {
      const r = await port.setHead(setHead.block);
      // geth's debug.setHead returns nothing, which the console prints as null.
      return r.ok ? { ok: true, value: null, display: 'null' } : { ok: false, error: r.error };
    }
    const r = evalConsole(port.view(), line);
    return r.ok ? { ok: true, value: r.value, display: formatConsoleValue(r.value) } : { ok: false, error: r.error };
  } catch (e) {
    return { ok: false, error: `console failure: ${message(e)}` };
  }
}

/** Whether something accepts connections at `path` (a live server, not a stale file). */
function isLive(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

function lstatOrNull(path: string): ReturnType<typeof lstatSync> | null {
  try {
    return lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

function serveConnection(port: SidechainPort, socket: Socket): void {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let closed = false;
  // Lines are answered in order: each waits for the one before (a setHead may take a while).
  let queue: Promise<void> = Promise.resolve();

  const write = (a: ConsoleAnswer): void => {
    if (!socket.destroyed && socket.writable) socket.write(`${encodeConsoleAnswer(a)}\n`);
  };
  const enqueue = (line: string): void => {
    queue = queue.then(async () => {
      const a = await answerConsoleLine(port, line);
      write(a);
    });
  };
  const tooLong = (): void => {
    closed = true;
    pending = [];
    queue = queue.then(() => {
      write({ ok: false, error: `line too long: the console reads at most ${MAX_CONSOLE_LINE_BYTES} bytes per line` });
      // Flush the answer, then drop the connection both ways: the rest of what it sends is unread.
      socket.end(() => socket.destroy());
    });
  };

  socket.on('data', (chunk: Buffer) => {
    if (closed) return;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) break;
      const lineBytes = pendingBytes + (nl - start);
      if (lineBytes > MAX_CONSOLE_LINE_BYTES) return tooLong();
      const line = Buffer.concat([...pending, chunk.subarray(start, nl)]).toString('utf8');
      pending = [];
      pendingBytes = 0;
      enqueue(line.endsWith('\r') ? line.slice(0, -1) : line);
      start = nl + 1;
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      if (pendingBytes > MAX_CONSOLE_LINE_BYTES) tooLong();
    }
  });
  // A last line without a newline is still an expression.
  socket.on('end', () => {
    if (!closed && pendingBytes > 0) enqueue(Buffer.concat(pending).toString('utf8'));
    pending = [];
    queue = queue.then(() => {
      if (!socket.destroyed) socket.end();
    });
  });
  // A client that vanishes mid-answer is no concern of the node's.
  socket.on('error', () => socket.destroy());
}

export function createConsoleServer(port: SidechainPort, socketPath: string): ConsoleServer {
  let server: Server | null = null;
  const sockets = new Set<Socket>();

  const removeOurSocket = (): void => {
    const st = lstatOrNull(socketPath);
    if (st?.isSocket()) unlinkSync(socketPath);
  };

  return {
    async listen(): Promise<void> {
      if (server) throw new Error(`console server already listening at ${socketPath}`);
      mkdirSync(dirname(socketPath), { recursive: true });
      const st = lstatOrNull(socketPath);
      if (st) {
        if (!st.isSocket())
          throw new Error(`cannot serve the console at ${socketPath}: the path exists and is not a socket`);
        if (await isLive(socketPath))
          throw new Error(`cannot serve the console at ${socketPath}: another process is serving it`);
        unlinkSync(socketPath);
      }
      // Half-open: a client may send its last line and end its side, and still get the answer.
      const s = createServer({ allowHalfOpen: true }, (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        serveConnection(port, socket);
      });
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(socketPath, () => {
          s.off('error', reject);
          resolve();
        });
      });
      // Errors after start (none expected for a listening Unix socket) must not crash the node.
      s.on('error', () => {});
      chmodSync(socketPath, 0o600);
      server = s;
    },

    async close(): Promise<void> {
      const s = server;
      if (!s) return;
      server = null;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => s.close(() => resolve()));
      removeOurSocket();
    },
  };
}
