/** `lockstep tx bank send`: the bank module's transfer. */
import { type Address } from '../../core/address';
import { type Coin } from '../../modules/bank/coins';
import { MsgSendDef } from '../../modules/bank/msgs';
import { type ClientIO, type TxArgs, DEFAULT_USER_KEY, sendTx } from '../actions';
import { KEY_NAME, addressOrKeyName, resolveHome } from '../keys';
import { checkAll, parseAddressFlag, parseCoinsArg } from '../flags';
import { type ModuleCommands, str, txArgs, txOptions } from '../commandKit';

export async function bankSend(a: TxArgs & { to: Address; amount: Coin[] }, io: ClientIO): Promise<number> {
  return sendTx(
    a,
    io,
    MsgSendDef,
    () => DEFAULT_USER_KEY,
    ({ key }) => ({ fromAddress: key.address, toAddress: a.to, amount: a.amount }),
  );
}

export const bankCommands: ModuleCommands = {
  tx: {
    group: 'bank',
    describe: 'Balance transfers',
    commands: (m, { io, run }) =>
      m
        .command(
          'send <to_address> <amount>',
          'Send MsgSend: move coins from --from to <to_address>',
          (c) =>
            txOptions(c, DEFAULT_USER_KEY)
              .positional('to_address', {
                type: 'string',
                describe: 'recipient address (0x + 40 hex), or the name of a key in <home>/keys (user-2)',
              })
              .positional('amount', {
                type: 'string',
                describe: '<amount><denom>, e.g. 1000matic (several: 5matic,7stake)',
              })
              .check((a) =>
                checkAll(
                  () => KEY_NAME.test(String(a.to_address)) || parseAddressFlag(a.to_address, '<to_address>'),
                  () => parseCoinsArg(a.amount, '<amount>'),
                ),
              )
              .example('$0 tx bank send user-2 1000matic --home ./devnet', 'send 1000 matic from user-1 to user-2')
              .example(
                '$0 tx bank send user-2 1000matic --from validator-2 --json --home ./devnet',
                'from another key, JSON output',
              )
              .example(
                '$0 tx bank send 0x<address> 5matic --node 3 --wait --home ./devnet',
                "through validator 3's node, waiting for the commit",
              ),
          run((a) =>
            bankSend(
              {
                ...txArgs(a, io.env),
                to: addressOrKeyName(String(a.to_address), resolveHome(str(a, 'home'), io.env), '<to_address>'),
                amount: parseCoinsArg(a.amount, '<amount>'),
              },
              io,
            ),
          ),
        )
        .demandCommand(1, 'Name a command: lockstep tx bank send --help'),
  },
};
