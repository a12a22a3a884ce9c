/**
 * The devnet's `/node/N` path prefix: every port (REST, node status, JSON-RPC over HTTP and
 * WebSocket) answers for validator N's nodes under `/node/N/…` and for the default node without
 * the prefix. The prefix is taken off before routing (fastify's `rewriteUrl`), so the routes and
 * their answers are the same; the handler asks `nodeOf(request.raw)` which node was named.
 */
import { type IncomingMessage } from 'node:http';
import { type NodePorts } from '../ports';

const PREFIX = /^\/node\/([^/?#]*)(.*)$/s;

export class NodePrefix {
  private readonly named = new WeakMap<IncomingMessage, string>();

  /** For fastify's `rewriteUrl`: the URL without `/node/N` (remembering N for the request). */
  readonly rewriteUrl = (req: IncomingMessage): string => {
    const url = req.url ?? '/';
    const m = PREFIX.exec(url);
    if (!m) return url;
    this.named.set(req, decodeSegment(m[1]!));
    const rest = m[2]!;
    return rest === '' || rest.startsWith('?') ? `/${rest}` : rest;
  };

  /** The node segment of the request's prefix (`3`), or undefined without one. */
  nodeOf(req: IncomingMessage): string | undefined {
    return this.named.get(req);
  }
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export type NodePick<P> = { ok: true; port: P } | { ok: false; message: string };

/** The port a request speaks to: its `/node/N` prefix's, else the default. */
export function pickNode<P>(segment: string | undefined, fallback: P, nodes: NodePorts<P> | undefined): NodePick<P> {
  if (segment === undefined) return { ok: true, port: fallback };
  const range = nodes ? `1-${nodes.count}` : 'none';
  const n = /^[1-9]\d{0,5}$/.test(segment) ? Number(segment) : NaN;
  const port = nodes && Number.isInteger(n) ? nodes.node(n) : null;
  if (port === null)
    return {
      ok: false,
      message: `no node ${JSON.stringify(segment)} under /node/: this devnet's nodes are ${range} (e.g. /node/1/…)`,
    };
  return { ok: true, port };
}

/** The node segment of a raw URL (for a WebSocket upgrade, which fastify does not route). */
export function nodeSegmentOfUrl(url: string | undefined): string | undefined {
  const m = PREFIX.exec(url ?? '/');
  if (!m) return undefined;
  const rest = m[2]!;
  // `/node/3` and `/node/3/` (with or without a query) name node 3; anything longer is another path.
  return rest === '' || rest === '/' || rest.startsWith('?') || rest.startsWith('/?') ? decodeSegment(m[1]!) : '';
}
