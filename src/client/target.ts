/**
 * Which node the client asks, decided again for every request:
 *
 * - `--node URL`: that REST API, always (the status port is then unknown);
 * - otherwise the devnet running in the home: its `data/ports.json` (REST and status ports), with
 *   `/node/N` for `--node N`, read again on every request, so a client that waits (`--wait`)
 *   follows a devnet restarted on new ports (port 0 in its config);
 * - a home named by `--home` or LOCKSTEP_HOME that is not running is an error naming it, never a
 *   silent fallback to the default port, where another devnet with the same keys may answer. Only
 *   when no home was named and the default one is not running does the client ask the default
 *   node (1317, a node of its own).
 * Once a wait has begun, a missing ports.json means the devnet is restarting: unreachable for now.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_NODE, normalizeNodeUrl } from './http';
import { NodeUnreachableError, UsageError } from './errors';

/** The default node's status RPC (Tendermint's port). */
const DEFAULT_STATUS = 'http://127.0.0.1:26657';

export interface NodeTarget {
  /** The REST API's base URL now. */
  rest(): string;
  /** The node status RPC's base URL now, when known. */
  status(): string | undefined;
}

interface Ports {
  host: string;
  rest: number;
  status?: number;
}

function readPorts(home: string): Ports | undefined {
  const file = join(home, 'data', 'ports.json');
  if (!existsSync(file)) return undefined;
  try {
    const p = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    if (typeof p.host !== 'string' || typeof p.rest !== 'number') return undefined;
    return { host: p.host, rest: p.rest, ...(typeof p.status === 'number' ? { status: p.status } : {}) };
  } catch {
    // Being written by a devnet that is starting: not readable yet.
    return undefined;
  }
}

const url = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * The target of `--node` (a URL, a validator number, or none) for `home`; `homeNamed` when --home
 * or LOCKSTEP_HOME chose the home.
 */
export function resolveTarget(flag: string | undefined, home: string, homeNamed: boolean): NodeTarget {
  if (flag !== undefined && !/^[1-9]\d*$/.test(flag)) {
    const fixed = normalizeNodeUrl(flag);
    return { rest: () => fixed, status: () => undefined };
  }
  const suffix = flag === undefined ? '' : `/node/${flag}`;
  if (!homeNamed && !readPorts(home))
    return { rest: () => `${DEFAULT_NODE}${suffix}`, status: () => `${DEFAULT_STATUS}${suffix}` };
  // Checked at the first request (after the command's own flags): not running is the user's to fix;
  // once the devnet answered, a missing file means it is restarting.
  let seen = false;
  const now = (): Ports => {
    const p = readPorts(home);
    if (p) {
      seen = true;
      return p;
    }
    if (!seen)
      throw new UsageError(
        '--home',
        `no devnet is running in ${home} (no data/ports.json): start it with \`lockstep node start --home ${home}\`, or give --node URL`,
      );
    throw new NodeUnreachableError(`the devnet in ${home}`, 'no data/ports.json: it is not running (or restarting)');
  };
  return {
    rest: () => {
      const p = now();
      return `${url(p.host, p.rest)}${suffix}`;
    },
    status: () => {
      const p = readPorts(home);
      return p?.status === undefined ? undefined : `${url(p.host, p.status)}${suffix}`;
    },
  };
}
