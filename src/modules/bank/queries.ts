/**
 * The bank module answers no queries of its own: balances are part of the account, which the auth
 * module's account query returns (as the reference's `/auth/accounts/{address}` does), and its one
 * param (`send_enabled`) is in the genesis export.
 */
import { type QueryRoute } from '../framework/query';

export const BANK_QUERIES: readonly QueryRoute[] = [];
