/** `lockstep query auth account|params`: the auth module's reads. */
import { type Address } from '../../core/address';
import { toHex } from '../../core/bytes';
import { type ClientIO, type CommonArgs, num, printQuery } from '../actions';
import { KEY_NAME, addressOrKeyName, resolveHome } from '../keys';
import { checkAll, parseAddressFlag } from '../flags';
import { type ModuleCommands, commonArgs, queryOptions, str } from '../commandKit';

/** The 65-byte key of an account's `public_key` as 0x hex ("" when the account has none yet). */
function pubkeyText(pk: unknown): string {
  if (pk === null || pk === undefined || pk === '') return '';
  if (typeof pk === 'string') return pk;
  const value = (pk as { value?: unknown }).value;
  if (typeof value === 'string') return value.startsWith('0x') ? value : toHex(Buffer.from(value, 'base64'));
  return JSON.stringify(pk);
}

/** The spec's account output: address, coins, pubkey, accountnumber, sequence. */
export function accountView(result: unknown): Record<string, unknown> {
  const r = result as { type?: string; value?: Record<string, unknown> } & Record<string, unknown>;
  const v = (r && typeof r.value === 'object' && r.value !== null && 'address' in r.value ? r.value : r) as Record<
    string,
    unknown
  >;
  const asNumber = (x: unknown) => {
    const n = num(x ?? 0, 'account field');
    return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString();
  };
  return {
    address: v.address,
    coins: Array.isArray(v.coins) ? v.coins : [],
    pubkey: pubkeyText(v.public_key ?? v.pubkey),
    accountnumber: asNumber(v.account_number),
    sequence: asNumber(v.sequence),
  };
}

export async function queryAccount(a: CommonArgs & { address: Address }, io: ClientIO): Promise<number> {
  return printQuery(a, io, `/auth/accounts/${a.address}`, accountView);
}

export async function queryAuthParams(a: CommonArgs, io: ClientIO): Promise<number> {
  return printQuery(a, io, '/auth/params');
}

export const authCommands: ModuleCommands = {
  query: {
    group: 'auth',
    describe: 'Accounts and auth parameters',
    commands: (m, { io, run }) =>
      m
        .command(
          'account <address>',
          'Print an account: address, coins, pubkey, accountnumber, sequence',
          (c) =>
            queryOptions(c)
              .positional('address', {
                type: 'string',
                describe: 'account address (0x + 40 hex), or the name of a key in <home>/keys (user-1)',
              })
              .check((a) =>
                checkAll(() => KEY_NAME.test(String(a.address)) || parseAddressFlag(a.address, '<address>')),
              )
              .example('$0 query auth account user-1 --home ./devnet', 'balance, account number and sequence')
              .example('$0 query auth account user-1 --node 3 --home ./devnet', "as validator 3's node sees it"),
          run((a) =>
            queryAccount(
              {
                ...commonArgs(a, io.env),
                address: addressOrKeyName(String(a.address), resolveHome(str(a, 'home'), io.env), '<address>'),
              },
              io,
            ),
          ),
        )
        .command(
          'params',
          'Print the auth parameters',
          (c) => queryOptions(c).example('$0 query auth params', 'max_memo_characters, tx_sig_limit, …, tx_fees'),
          run((a) => queryAuthParams(commonArgs(a, io.env), io)),
        )
        .demandCommand(1, 'Name a command: lockstep query auth account|params --help'),
  },
};
