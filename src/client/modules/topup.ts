import { type Hex } from '../../core/bytes';
import { MsgTopupDef, MsgWithdrawFeeDef } from '../../modules/topup/msgs';
import { type ClientIO, type TxArgs, DEFAULT_VALIDATOR_KEY, num, sendTx } from '../actions';
import { UsageError } from '../errors';
import { checkAll, parseHashFlag, parseUint64Flag, parseUintFlag } from '../flags';
import { type ModuleCommands, optU64, txArgs, txOptions } from '../commandKit';

export async function topupFee(
  a: TxArgs & { txHash: Hex; logIndex: bigint; validatorId?: bigint },
  io: ClientIO,
): Promise<number> {
  return sendTx(
    a,
    io,
    MsgTopupDef,
    () => DEFAULT_VALIDATOR_KEY,
    async ({ key, rest }) => {
      let id = a.validatorId;
      if (id === undefined) {
        const v = await rest.getOptional<{ ID: number | string }>(`/staking/signer/${key.address}`);
        if (!v)
          throw new UsageError(
            '--validator-id',
            `required: the signing key ${key.name} (${key.address}) is not a validator's signer, so there is no default`,
          );
        id = num(v.result.ID, 'validator ID');
      }
      return { fromAddress: key.address, id, txHash: a.txHash, logIndex: a.logIndex };
    },
  );
}

export async function topupWithdraw(a: TxArgs & { amount?: bigint }, io: ClientIO): Promise<number> {
  return sendTx(
    a,
    io,
    MsgWithdrawFeeDef,
    () => DEFAULT_VALIDATOR_KEY,
    ({ key }) => ({ fromAddress: key.address, amount: a.amount ?? 0n }),
  );
}

export const topupCommands: ModuleCommands = {
  tx: {
    group: 'topup',
    describe: 'Fee top-ups and withdrawals',
    commands: (m, { io, run }) =>
      m
        .command(
          'fee',
          'Send MsgTopup for a TopUpFee event on the parent chain',
          (c) =>
            txOptions(c, DEFAULT_VALIDATOR_KEY)
              .option('tx-hash', {
                type: 'string',
                demandOption: true,
                describe: 'parent-chain transaction hash of the top-up',
              })
              .option('log-index', {
                type: 'string',
                demandOption: true,
                describe: "the top-up event's log index in that transaction",
              })
              .option('validator-id', {
                type: 'string',
                describe: 'id of the validator topped up (default: the validator whose signer is --from)',
              })
              .check((a) =>
                checkAll(
                  () => parseHashFlag(a['tx-hash'], '--tx-hash'),
                  () => parseUint64Flag(a['log-index'], '--log-index'),
                  () => optU64(a, 'validator-id'),
                ),
              )
              .example(
                '$0 tx topup fee --tx-hash 0x3c41… --log-index 0 --validator-id 1 --home ./devnet',
                'credit the top-up of validator 1',
              ),
          run((a) => {
            const vid = optU64(a, 'validator-id');
            return topupFee(
              {
                ...txArgs(a, io.env),
                txHash: parseHashFlag(a['tx-hash'], '--tx-hash'),
                logIndex: parseUint64Flag(a['log-index'], '--log-index'),
                ...(vid !== undefined ? { validatorId: vid } : {}),
              },
              io,
            );
          }),
        )
        .command(
          'withdraw',
          "Send MsgWithdrawFee: move the signer's balance into its dividend account for the next checkpoint",
          (c) =>
            txOptions(c, DEFAULT_VALIDATOR_KEY)
              .option('amount', {
                type: 'string',
                describe: 'amount in the smallest unit (default 0: the whole matic balance)',
              })
              .check((a) => checkAll(() => a.amount === undefined || parseUintFlag(a.amount, '--amount')))
              .example('$0 tx topup withdraw --home ./devnet', 'withdraw the whole balance of validator-1')
              .example('$0 query auth account validator-1 --home ./devnet', 'then check the balance'),
          run((a) =>
            topupWithdraw(
              {
                ...txArgs(a, io.env),
                ...(a.amount !== undefined ? { amount: parseUintFlag(a.amount, '--amount') } : {}),
              },
              io,
            ),
          ),
        )
        .demandCommand(1, 'Name a command: lockstep tx topup fee|withdraw --help'),
  },
};
