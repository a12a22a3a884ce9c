/**
 * A query answer as the reference's REST server sends it: `{"height":"<n>","result":…}` with 200,
 * or `{"error":"<msg>"}` with the status the reference gives that route's failure (heimdall.md
 * §2.4, §3.8, §6.4). A querier failure's message is the ABCI log of an sdk code-1 error.
 */
import { abciLog } from '../../core/errors';
import { type QueryFailureKind } from '../../modules/framework/query';
import { type QueryAnswer } from '../../app/queryRouter';

export interface QueryResponse {
  status: number;
  body: unknown;
}

const DEFAULT_STATUS: Readonly<Record<QueryFailureKind, number>> = {
  missingArgument: 400,
  badArgument: 400,
  invalidRequest: 400,
  notFound: 404,
  querier: 500,
  unavailable: 400,
};

/** Routes whose failures the reference answers with another status than the default. */
const ROUTE_STATUS: Readonly<Record<string, Partial<Record<QueryFailureKind, number>>>> = {
  // auth/client/rest: a bad address is "not found" (there is no such account to show).
  'auth.account': { badArgument: 404 },
  'auth.sequence': { badArgument: 404 },
  // checkpoint/client/rest: a missing checkpoint is a bad request, and /prepare answers a start or
  // end that does not parse with a plain 500.
  'checkpoint.latest': { querier: 400 },
  'checkpoint.byNumber': { querier: 400 },
  'checkpoint.prepare': { badArgument: 500 },
};

export function queryStatus(route: string | null, kind: QueryFailureKind): number {
  return (route !== null ? ROUTE_STATUS[route]?.[kind] : undefined) ?? DEFAULT_STATUS[kind];
}

export function restQueryReply(a: QueryAnswer): QueryResponse {
  const o = a.outcome;
  if (o.ok) return { status: 200, body: { height: a.height.toString(), result: o.result } };
  const message = o.kind === 'querier' ? abciLog({ codespace: 'sdk', code: 1, message: o.message }) : o.message;
  return { status: queryStatus(a.route, o.kind), body: { error: message } };
}
