/**
 * The `lockstep node pause|resume|step|status|snapshot|revert|fault|report` side of the admin
 * namespace: one JSON-RPC call (`lockstep_*`) to the running devnet of a home, at the JSON-RPC
 * port it bound (data/ports.json).
 */
import { existsSync, readFileSync } from 'node:fs';
import { InputError } from '../../src/core/errors';
import { paths } from './home';

export interface BoundPorts {
  host: string;
  rest: number;
  status: number;
  jsonRpc: number;
  ws: number;
  console: string;
}

/** The ports a running devnet of `home` bound, or null when none runs there. */
export function boundPorts(home: string): BoundPorts | null {
  const f = paths(home).ports;
  if (!existsSync(f)) return null;
  try {
    return JSON.parse(readFileSync(f, 'utf8')) as BoundPorts;
  } catch {
    return null;
  }
}

/** A JSON-RPC error the devnet answered (its message is for the user): exit code 1, as bad input. */
export class AdminError extends InputError {
  constructor(
    method: string,
    readonly code: number,
    message: string,
  ) {
    super(method, message);
    this.name = 'AdminError';
  }
}

export async function adminCall(home: string, method: string, params: unknown[] = []): Promise<unknown> {
  const ports = boundPorts(home);
  if (!ports)
    throw new InputError(
      '--home',
      `no devnet is running in ${home} (no data/ports.json): start it with \`lockstep node start --home ${home}\``,
    );
  const url = `http://${ports.host}:${ports.jsonRpc}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    throw new InputError(
      '--home',
      `cannot reach the devnet of ${home} at ${url} (${cause ?? (e as Error).message}): is \`lockstep node start\` running?`,
    );
  }
  const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
  if (body.error) throw new AdminError(method, body.error.code, body.error.message);
  return body.result;
}
