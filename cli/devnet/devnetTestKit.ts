/**
 * What the devnet's end-to-end tests share: the `lockstep` binary as a child process, waiting for
 * a condition, free ports.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

export const BIN = resolve(import.meta.dirname, '../../bin/lockstep.js');

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** Run `lockstep ARGS` (LOCKSTEP_HOME set to `home` when given). */
export function lockstep(args: string[], home?: string, timeoutMs = 120_000): Promise<CliRun> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { timeout: timeoutMs, env: { ...process.env, ...(home ? { LOCKSTEP_HOME: home } : {}) } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        done({ code, out: String(stdout), err: String(stderr) });
      },
    );
  });
}

export async function until<T>(
  probe: () => Promise<T | null | undefined> | T | null | undefined,
  what: string,
  timeoutMs = 120_000,
): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await probe();
    if (v !== null && v !== undefined) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A port free right now (for a devnet whose ports must stay the same across a restart). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => done(port));
    });
  });
}

/** One JSON-RPC call. */
export async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await r.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}
