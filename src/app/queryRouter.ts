/**
 * Every GET path of the spec (plus the reference's read-only extras), answered from a store by
 * the modules' query routes. The answer says which route answered and what it found or why it
 * failed; the REST adapter (src/rpc/rest/queryReply.ts) turns that into the reference's envelope
 * `{"height":"<n>","result":…}`, error body and per-route HTTP status.
 */
import { type KVReader } from '../store/kvStore';
import { type Observers } from '../modules/framework/observers';
import { failed, type QueryCtx, type QueryOutcome, type QueryRoute } from '../modules/framework/query';

export interface QueryAnswer {
  /** The route that answered (`checkpoint.latest`), null when no route took the path. */
  readonly route: string | null;
  /** The committed height the answer is from. */
  readonly height: bigint;
  readonly outcome: QueryOutcome;
}

export class QueryRouter {
  constructor(private readonly routes: readonly QueryRoute[]) {
    const names = new Set<string>();
    for (const r of routes) {
      if (names.has(r.name)) throw new Error(`query route ${r.name} is defined twice`);
      names.add(r.name);
    }
  }

  /** Route a GET path (with its query string). Unknown paths are notFound. Never throws on bad input. */
  route(
    store: KVReader,
    at: { height: bigint; timeMs: number },
    pathWithQuery: string,
    observers?: Observers,
  ): QueryAnswer {
    const answer = (route: string | null, outcome: QueryOutcome): QueryAnswer => ({
      route,
      height: at.height,
      outcome,
    });
    let url: URL;
    try {
      url = new URL(pathWithQuery, 'http://query.local');
    } catch {
      return answer(null, failed('badArgument', `malformed path ${JSON.stringify(pathWithQuery.slice(0, 200))}`));
    }
    let path: string;
    try {
      path = decodeURIComponent(url.pathname).replace(/\/+$/, '') || '/';
    } catch {
      return answer(null, failed('badArgument', 'malformed percent-encoding in path'));
    }
    const q: QueryCtx = { store, height: at.height, timeMs: at.timeMs, params: url.searchParams, observers };
    for (const r of this.routes) {
      const m = r.path.exec(path);
      if (m) return answer(r.name, r.handle(q, m.slice(1)));
    }
    return answer(null, failed('notFound', `no route for ${JSON.stringify(path.slice(0, 200))}`));
  }
}
