/**
 * One connection's subscriptions (geth `eth_subscribe` / `eth_unsubscribe` over WebSocket,
 * sidechain.md §4.4) and the notifications a chain change gives them, in geth's format:
 * `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":<id>,"result":…}}`.
 *
 * - `newHeads`: each block that becomes canonical, as the header object (`types.Header` JSON);
 *   after a reorg, every header of the new branch, so two headers may share a number.
 * - `logs` (with a filter: address, topics, and fromBlock/toBlock as block-number bounds): each
 *   matching log of each new canonical block, one notification per log; the logs of blocks a
 *   reorg or rewind removed are sent again first, with `removed: true`, before any of the
 *   connection's notifications of the new blocks (as geth's removed-logs event comes first). The state-sync logs are
 *   among them, as Bor delivers them to log subscribers.
 * Other names are geth's `no "<name>" subscription in eth namespace`; arguments are decoded and
 * refused as geth does (`non-array args`, `expected subscription name as first argument`, …).
 */
import { type SidechainReadPort } from '../../sidechain/readPort';
import { headerJson } from './blockJson';
import { type ChainChange } from './chainFollower';
import { type FilterCriteria, logMatches, parseFilterCriteria } from './filterCriteria';
import { type ArgSpec, bad, good, type Parsed, parseArgs, required } from './goArguments';
import { type RpcSession } from './jsonRpcEnvelope';
import { encodeJson } from './jsonText';
import { logJson } from './receiptJson';
import {
  JSONRPC_INVALID_PARAMS,
  JSONRPC_METHOD_NOT_FOUND,
  type RpcErrorObject,
  RpcFailure,
  handlerError,
} from './rpcErrors';

type Subscription =
  | { namespace: string; kind: 'newHeads' }
  | { namespace: string; kind: 'logs'; criteria: FilterCriteria };

/** geth's `SubscribeLogs` range rule: latest..latest, a number range, or a number up to latest. */
function checkLogsRange(c: FilterCriteria): FilterCriteria {
  const isTag = (b: FilterCriteria['fromBlock'], tag: string) => b !== undefined && 'tag' in b && b.tag === tag;
  if (isTag(c.fromBlock, 'pending') || isTag(c.toBlock, 'pending'))
    throw handlerError('pending logs are not supported');
  const from =
    c.fromBlock === undefined
      ? 'latest'
      : 'number' in c.fromBlock
        ? c.fromBlock.number
        : c.fromBlock.tag === 'earliest'
          ? 0n
          : c.fromBlock.tag;
  const to = c.toBlock === undefined ? 'latest' : 'number' in c.toBlock ? c.toBlock.number : c.toBlock.tag;
  const ok =
    (from === 'latest' && to === 'latest') ||
    (typeof from === 'bigint' && typeof to === 'bigint' && to >= from) ||
    (typeof from === 'bigint' && to === 'latest');
  if (!ok) throw handlerError('invalid block range params');
  return c;
}

const SUBSCRIPTIONS: ReadonlyMap<
  string,
  { args: ReadonlyArray<ArgSpec<unknown>>; create(namespace: string, args: unknown[]): Subscription }
> = new Map([
  ['eth/newHeads', { args: [], create: (namespace: string) => ({ namespace, kind: 'newHeads' as const }) }],
  [
    'eth/logs',
    {
      args: [required(parseFilterCriteria)],
      create: (namespace: string, [criteria]: unknown[]) => ({
        namespace,
        kind: 'logs' as const,
        criteria: checkLogsRange(criteria as FilterCriteria),
      }),
    },
  ],
]);

/** geth `parseSubscriptionName`: the params must be an array whose first item is a string. */
function subscriptionName(params: unknown): Parsed<string> {
  if (!Array.isArray(params)) return bad('non-array args');
  const first: unknown = params[0];
  return typeof first === 'string' ? good(first) : bad('expected subscription name as first argument');
}

/** A log's block number within the filter's numeric bounds (tags bound nothing, as in geth). */
function inBounds(blockNumber: bigint, c: FilterCriteria): boolean {
  if (c.fromBlock && 'number' in c.fromBlock && blockNumber < c.fromBlock.number) return false;
  if (c.toBlock && 'number' in c.toBlock && blockNumber > c.toBlock.number) return false;
  return true;
}

export class SubscriptionSet implements RpcSession {
  private readonly subs = new Map<string, Subscription>();

  /**
   * @param newId a fresh subscription id (geth: random, `0x`-hex)
   * @param onSubscribe called after a subscription is made (the server starts following the chain)
   */
  constructor(
    private readonly newId: () => string,
    private readonly onSubscribe: () => void = () => {},
  ) {}

  get size(): number {
    return this.subs.size;
  }

  subscribe(method: string, params: unknown): { ok: true; id: string } | { ok: false; error: RpcErrorObject } {
    const name = subscriptionName(params);
    if (!name.ok) return { ok: false, error: { code: JSONRPC_INVALID_PARAMS, message: name.message } };
    const namespace = method.split('_', 1)[0]!;
    const spec = SUBSCRIPTIONS.get(`${namespace}/${name.value}`);
    if (!spec)
      return {
        ok: false,
        error: {
          code: JSONRPC_METHOD_NOT_FOUND,
          message: `no ${JSON.stringify(name.value)} subscription in ${namespace} namespace`,
        },
      };
    try {
      // The name is argument 0, as in geth's positional decoding.
      const stringArg: ArgSpec<unknown> = { optional: false, parse: (v) => good(v) };
      const args = parseArgs(params, [stringArg, ...spec.args]).slice(1);
      const sub = spec.create(namespace, args);
      let id = this.newId();
      while (this.subs.has(id)) id = this.newId();
      this.subs.set(id, sub);
      this.onSubscribe();
      return { ok: true, id };
    } catch (e) {
      if (e instanceof RpcFailure) return { ok: false, error: { code: e.code, message: e.message } };
      throw e;
    }
  }

  unsubscribe(id: string): boolean {
    return this.subs.delete(id);
  }

  /** The notification texts a chain change gives this connection's subscriptions, in order. */
  notifications(change: ChainChange, chain: SidechainReadPort): string[] {
    const out: string[] = [];
    const send = (id: string, namespace: string, result: unknown) =>
      out.push(
        `{"jsonrpc":"2.0","method":"${namespace}_subscription","params":{"subscription":${encodeJson(id)},"result":${encodeJson(result)}}}`,
      );
    const matching = (
      id: string,
      sub: Extract<Subscription, { kind: 'logs' }>,
      removed: boolean,
      blocks: typeof change.added,
    ) => {
      for (const b of blocks)
        for (const l of chain.activity(b).logs)
          if (inBounds(l.blockNumber, sub.criteria) && logMatches(l, sub.criteria))
            send(id, sub.namespace, logJson(l, removed));
    };
    // As geth sends a reorg's removed logs before the new chain's events: first what left, for
    // every subscription of the connection, then the new headers and logs.
    for (const [id, sub] of this.subs) if (sub.kind === 'logs') matching(id, sub, true, change.removed);
    for (const [id, sub] of this.subs) {
      if (sub.kind === 'newHeads')
        for (const b of change.added) send(id, sub.namespace, headerJson(b.block.header, b.block.hash));
      else matching(id, sub, false, change.added);
    }
    return out;
  }
}
