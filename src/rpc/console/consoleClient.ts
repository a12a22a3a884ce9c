/**
 * `lockstep console`: attach to the sidechain node's console socket, as `geth attach` does to its
 * IPC file. With `exec`, one expression is evaluated and its value printed (exit 0, or 1 on an
 * error); otherwise it is a prompt (`> `) that evaluates each line until `exit` or end of input
 * (Ctrl-D). Values print as geth's console prints them (`consoleFormat.ts`).
 */
import { type Socket, connect } from 'node:net';
import { createInterface } from 'node:readline';
import { type ConsoleAnswer, decodeConsoleAnswer, formatConsoleError } from './consoleFormat';

export interface RunConsoleOptions {
  socketPath: string;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Evaluate this one expression and return, instead of prompting. */
  exec?: string;
  /** Where errors go (default: `output`). */
  errorOutput?: NodeJS.WritableStream;
}

/** What connection failures mean to an operator. */
function connectError(socketPath: string, e: NodeJS.ErrnoException): string {
  // No file, a file nobody listens on (a node that crashed), or not a socket: no node is running.
  if (e.code === 'ENOENT' || e.code === 'ECONNREFUSED' || e.code === 'ENOTSOCK') {
    return `no sidechain console at ${socketPath}: is \`lockstep node start\` running?`;
  }
  return `cannot attach to the sidechain console at ${socketPath}: ${e.message}`;
}

/** One connection: requests are lines, and answers come back in the same order. */
class ConsoleConnection {
  private buffered = '';
  private readonly waiting: Array<{ resolve: (a: ConsoleAnswer) => void; reject: (e: Error) => void }> = [];
  private failure: Error | null = null;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffered += chunk;
      for (let nl = this.buffered.indexOf('\n'); nl >= 0; nl = this.buffered.indexOf('\n')) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        this.waiting.shift()?.resolve(decodeConsoleAnswer(line));
      }
    });
    const fail = (e: Error): void => {
      this.failure ??= e;
      for (const w of this.waiting.splice(0)) w.reject(this.failure);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the sidechain console closed the connection')));
  }

  static open(socketPath: string): Promise<ConsoleConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(socketPath);
      socket.once('connect', () => {
        socket.removeAllListeners('error');
        resolve(new ConsoleConnection(socket));
      });
      socket.once('error', (e: NodeJS.ErrnoException) => reject(new Error(connectError(socketPath, e))));
    });
  }

  request(expr: string): Promise<ConsoleAnswer> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      // One expression per line: a newline inside would split it into two requests.
      this.socket.write(`${expr.replace(/[\r\n]+/g, ' ')}\n`);
    });
  }

  close(): void {
    this.socket.end();
    this.socket.destroy();
  }
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Run the console; resolves to the process exit code. */
export async function runConsole(opts: RunConsoleOptions): Promise<number> {
  const { output } = opts;
  const errorOutput = opts.errorOutput ?? output;
  let conn: ConsoleConnection;
  try {
    conn = await ConsoleConnection.open(opts.socketPath);
  } catch (e) {
    errorOutput.write(`${message(e)}\n`);
    return 1;
  }
  try {
    if (opts.exec !== undefined) {
      const a = await conn.request(opts.exec);
      if (a.ok) output.write(`${a.display}\n`);
      else errorOutput.write(`${formatConsoleError(a.error)}\n`);
      return a.ok ? 0 : 1;
    }
    return await interactive(conn, opts.input, output, errorOutput);
  } catch (e) {
    errorOutput.write(`${message(e)}\n`);
    return 1;
  } finally {
    conn.close();
  }
}

async function interactive(
  conn: ConsoleConnection,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  errorOutput: NodeJS.WritableStream,
): Promise<number> {
  const rl = createInterface({ input, output, prompt: '> ', terminal: (input as { isTTY?: boolean }).isTTY === true });
  // Ctrl-C at the prompt leaves the console, as Ctrl-D does (readline would only pause).
  rl.on('SIGINT', () => rl.close());
  try {
    rl.prompt();
    for await (const raw of rl) {
      const line = raw.trim();
      if (line === 'exit' || line === 'exit;') break;
      if (line !== '') {
        const a = await conn.request(line);
        if (a.ok) output.write(`${a.display}\n`);
        else errorOutput.write(`${formatConsoleError(a.error)}\n`);
      }
      rl.prompt();
    }
    return 0;
  } finally {
    rl.close();
  }
}
