/** `lockstep tx staking validator-join` and `lockstep query staking validator-info`: the staking module's messages and reads. */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { MsgValidatorJoinDef } from '../../modules/staking/msgs';
import {
  type ClientIO,
  type CommonArgs,
  type TxArgs,
  DEFAULT_VALIDATOR_KEY,
  num,
  printQuery,
  sendTx,
} from '../actions';
import { type RestClient } from '../http';
import { UsageError } from '../errors';
import { KEY_NAME, addressOrKeyName, resolveHome } from '../keys';
import { checkAll, parseAddressFlag, parseHashFlag, parsePubKeyFlag, parseUint64Flag } from '../flags';
import { type ModuleCommands, commonArgs, optU64, queryOptions, str, txArgs, txOptions } from '../commandKit';

/** The first validator id above the current set that the service does not know (a joining validator's likely id). */
async function nextUnknownValidatorId(rest: RestClient): Promise<bigint> {
  const set = (await rest.get<{ validators?: Array<{ ID: number | string }> | null }>('/staking/validator-set')).result;
  let id = 1n;
  for (const v of set.validators ?? []) {
    const n = num(v.ID, 'validator ID');
    if (n >= id) id = n + 1n;
  }
  for (let i = 0; i < 10_000; i++, id++) {
    if ((await rest.getOptional(`/staking/validator/${id}`)) === undefined) return id;
  }
  throw new UsageError('--id', 'could not find a free validator id; name it with --id');
}

export async function validatorJoin(
  a: TxArgs & { signerPubkey: Hex; txHash: Hex; logIndex: bigint; id?: bigint },
  io: ClientIO,
): Promise<number> {
  return sendTx(
    a,
    io,
    MsgValidatorJoinDef,
    () => DEFAULT_VALIDATOR_KEY,
    async ({ key, rest }) => {
      let id = a.id;
      if (id === undefined) {
        id = await nextUnknownValidatorId(rest);
        io.err(
          `lockstep: --id not given: using validator id ${id} (the first id the service does not know); pass --id if the parent chain assigned another\n`,
        );
      }
      return { from: key.address, id, pubKey: a.signerPubkey, txHash: a.txHash, logIndex: a.logIndex };
    },
  );
}

export async function queryValidatorInfo(
  a: CommonArgs & { validator?: Address; id?: bigint },
  io: ClientIO,
): Promise<number> {
  if (a.validator === undefined && a.id === undefined)
    throw new UsageError('--validator', 'name the validator with --validator=<signer address> or --id=<validator id>');
  return printQuery(a, io, a.validator !== undefined ? `/staking/signer/${a.validator}` : `/staking/validator/${a.id}`);
}

export const stakingCommands: ModuleCommands = {
  tx: {
    group: 'staking',
    describe: 'Validator transactions',
    commands: (m, { io, run }) =>
      m
        .command(
          'validator-join',
          'Send MsgValidatorJoin for a Staked event on the parent chain',
          (c) =>
            txOptions(c, DEFAULT_VALIDATOR_KEY)
              .option('signer-pubkey', {
                type: 'string',
                demandOption: true,
                describe: "the new validator's signer public key (0x04 + 128 hex; the 64-byte form is accepted)",
              })
              .option('tx-hash', {
                type: 'string',
                demandOption: true,
                describe: 'parent-chain transaction hash that emitted Staked',
              })
              .option('log-index', {
                type: 'string',
                demandOption: true,
                describe: "the Staked event's log index in that transaction",
              })
              .option('id', {
                type: 'string',
                describe:
                  'validator id from the Staked event (default: the first id the service does not know; the parent chain is not readable over REST)',
              })
              .check((a) =>
                checkAll(
                  () => parsePubKeyFlag(a['signer-pubkey'], '--signer-pubkey'),
                  () => parseHashFlag(a['tx-hash'], '--tx-hash'),
                  () => parseUint64Flag(a['log-index'], '--log-index'),
                  () => optU64(a, 'id'),
                ),
              )
              .example(
                '$0 tx staking validator-join --signer-pubkey 0x04ab… --tx-hash 0x5f2e… --log-index 1 --id 5 --home ./devnet',
                'acknowledge validator 5 joining',
              ),
          run((a) => {
            const id = optU64(a, 'id');
            return validatorJoin(
              {
                ...txArgs(a, io.env),
                signerPubkey: parsePubKeyFlag(a['signer-pubkey'], '--signer-pubkey'),
                txHash: parseHashFlag(a['tx-hash'], '--tx-hash'),
                logIndex: parseUint64Flag(a['log-index'], '--log-index'),
                ...(id !== undefined ? { id } : {}),
              },
              io,
            );
          }),
        )
        .demandCommand(1, 'Name a command: lockstep tx staking validator-join --help'),
  },
  query: {
    group: 'staking',
    describe: 'Validators',
    commands: (m, { io, run }) =>
      m
        .command(
          'validator-info',
          'Print a validator by signer address or id',
          (c) =>
            queryOptions(c)
              .option('validator', {
                type: 'string',
                describe: 'signer address of the validator, or the name of its key in <home>/keys',
              })
              .option('id', { type: 'string', describe: 'validator id' })
              .conflicts('validator', 'id')
              .check((a) =>
                checkAll(
                  () => {
                    if (a.validator === undefined && a.id === undefined)
                      throw new UsageError(
                        '--validator',
                        'name the validator with --validator=<signer address> or --id=<validator id>',
                      );
                  },
                  () =>
                    a.validator === undefined ||
                    KEY_NAME.test(String(a.validator)) ||
                    parseAddressFlag(a.validator, '--validator'),
                  () => optU64(a, 'id'),
                ),
              )
              .example(
                '$0 query staking validator-info --validator validator-2 --home ./devnet',
                'by the signer of a key',
              )
              .example('$0 query staking validator-info --id=1 --json', 'by id, as JSON'),
          run((a) => {
            const id = optU64(a, 'id');
            return queryValidatorInfo(
              {
                ...commonArgs(a, io.env),
                ...(a.validator !== undefined
                  ? {
                      validator: addressOrKeyName(
                        String(a.validator),
                        resolveHome(str(a, 'home'), io.env),
                        '--validator',
                      ),
                    }
                  : {}),
                ...(id !== undefined ? { id } : {}),
              },
              io,
            );
          }),
        )
        .demandCommand(1, 'Name a command: lockstep query staking validator-info --help'),
  },
};
