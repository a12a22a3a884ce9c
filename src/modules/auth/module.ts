/**
 * The auth module: accounts (number, sequence, public key, coins), the ante handler's params, and
 * the fee collector. It has no messages of its own: every transaction passes its ante handler
 * (ante.ts), and its error codes are the SDK root codespace's (framework/errors.ts).
 */
import { type Module } from '../framework/module';
import { AuthErrors } from './errors';
import { AUTH_GENESIS, type AuthGenesis } from './genesis';
import { AUTH_INVARIANTS } from './invariants';
import { getAuthParams } from './keeper';
import { AUTH_MSGS } from './msgs';
import { type AuthParams, authParamsJson, DEFAULT_AUTH_PARAMS } from './params';
import { AUTH_QUERIES } from './queries';

export const authModule: Module<AuthGenesis, AuthParams> = {
  name: 'auth',
  msgs: AUTH_MSGS,
  queries: AUTH_QUERIES,
  genesis: AUTH_GENESIS,
  errors: AuthErrors,
  params: { defaults: DEFAULT_AUTH_PARAMS, read: getAuthParams, json: authParamsJson },
  invariants: AUTH_INVARIANTS,
};
