import { type Hex } from '../../core/bytes';
import { formatDurationMs } from '../../core/duration';
import { MsgCheckpointAckDef, MsgCheckpointDef, MsgCheckpointNoAckDef } from '../../modules/checkpoint/msgs';
import {
  type ClientIO,
  type CommonArgs,
  type TxArgs,
  DEFAULT_VALIDATOR_KEY,
  client,
  keyNameOf,
  sendTx,
} from '../actions';
import { type RestClient } from '../http';
import { NodeReplyError } from '../errors';
import { render } from '../format';
import { checkAll, parseHashFlag, parseUint64Flag } from '../flags';
import { type ModuleCommands, commonArgs, optHash, queryOptions, txArgs, txOptions } from '../commandKit';

/** The default signer of a checkpoint message: the key of the proposer at `position` (0 = current), if the home holds it. */
async function proposerKey(home: string, rest: RestClient, position: number): Promise<string> {
  try {
    const list = (await rest.get<Array<{ signer: string }>>(`/staking/proposer/${position + 1}`)).result;
    const signer = Array.isArray(list) ? list[position]?.signer : undefined;
    if (signer) return keyNameOf(home, signer) ?? DEFAULT_VALIDATOR_KEY;
  } catch (e) {
    if (!(e instanceof NodeReplyError)) throw e;
  }
  return DEFAULT_VALIDATOR_KEY;
}

export async function sendCheckpoint(
  a: TxArgs & { startBlock: bigint; endBlock: bigint; rootHash?: Hex; accountRootHash?: Hex },
  io: ClientIO,
): Promise<number> {
  return sendTx(
    a,
    io,
    MsgCheckpointDef,
    (home, rest) => proposerKey(home, rest, 0),
    async ({ key, rest }) => {
      const rootHash =
        a.rootHash ??
        (await rest.get<{ rootHash: Hex }>(`/checkpoints/prepare?start=${a.startBlock}&end=${a.endBlock}`)).result
          .rootHash;
      const accountRootHash =
        a.accountRootHash ??
        (await rest.get<{ accountRootHash: Hex }>('/topup/dividend-account-root')).result.accountRootHash;
      return { proposer: key.address, startBlock: a.startBlock, endBlock: a.endBlock, rootHash, accountRootHash };
    },
  );
}

export async function sendAck(
  a: TxArgs & { txHash: Hex; logIndex: bigint; header: bigint },
  io: ClientIO,
): Promise<number> {
  return sendTx(
    a,
    io,
    MsgCheckpointAckDef,
    () => DEFAULT_VALIDATOR_KEY,
    ({ key }) => ({ from: key.address, headerBlock: a.header, txHash: a.txHash, logIndex: a.logIndex }),
  );
}

export async function sendNoAck(a: TxArgs, io: ClientIO): Promise<number> {
  return sendTx(
    a,
    io,
    MsgCheckpointNoAckDef,
    (home, rest) => proposerKey(home, rest, 1),
    ({ key }) => ({ from: key.address }),
  );
}

/** checkpoint_buffer_time (Go Duration nanoseconds on the wire) is printed as 16m40s. */
export function checkpointParamsView(result: unknown): Record<string, unknown> {
  const r = { ...(result as Record<string, unknown>) };
  const t = r.checkpoint_buffer_time;
  if (typeof t === 'number' || (typeof t === 'string' && /^\d+$/.test(t)))
    r.checkpoint_buffer_time = formatDurationMs(Number(BigInt(t) / 1_000_000n));
  return r;
}

export async function queryCheckpointParams(a: CommonArgs, io: ClientIO): Promise<number> {
  const rest = client(a, io);
  // The spec's path is /checkpoints/parama; /checkpoints/params (the reference's) is the fallback.
  const res = (await rest.getOptional('/checkpoints/parama')) ?? (await rest.get('/checkpoints/params'));
  io.out(render(checkpointParamsView(res.result), a.json));
  return 0;
}

export const checkpointCommands: ModuleCommands = {
  tx: {
    group: 'checkpoint',
    describe: 'Checkpoint transactions',
    commands: (m, { io, run }) =>
      m
        .command(
          'send-checkpoint',
          'Send MsgCheckpoint for sidechain blocks start..end',
          (c) =>
            txOptions(c, 'the key of the current checkpoint proposer, else validator-1')
              .option('start-block', {
                type: 'string',
                demandOption: true,
                describe: 'first sidechain block of the checkpoint',
              })
              .option('end-block', {
                type: 'string',
                demandOption: true,
                describe: 'last sidechain block of the checkpoint',
              })
              .option('root-hash', {
                type: 'string',
                describe: 'Merkle root of the block hashes (default: from /checkpoints/prepare)',
              })
              .option('account-root-hash', {
                type: 'string',
                describe: 'dividend-account root (default: from /topup/dividend-account-root)',
              })
              .check((a) =>
                checkAll(
                  () => parseUint64Flag(a['start-block'], '--start-block'),
                  () => parseUint64Flag(a['end-block'], '--end-block'),
                  () => optHash(a, 'root-hash'),
                  () => optHash(a, 'account-root-hash'),
                ),
              )
              .example(
                '$0 tx checkpoint send-checkpoint --start-block 0 --end-block 255 --root-hash 0x9c1e… --account-root-hash 0x0d7a… --home ./devnet',
                'propose a checkpoint',
              )
              .example(
                '$0 tx checkpoint send-checkpoint --start-block 0 --end-block 255',
                'hashes and chain id filled in from the node and the home folder',
              ),
          run((a) => {
            const rootHash = optHash(a, 'root-hash');
            const accountRootHash = optHash(a, 'account-root-hash');
            return sendCheckpoint(
              {
                ...txArgs(a, io.env),
                startBlock: parseUint64Flag(a['start-block'], '--start-block'),
                endBlock: parseUint64Flag(a['end-block'], '--end-block'),
                ...(rootHash !== undefined ? { rootHash } : {}),
                ...(accountRootHash !== undefined ? { accountRootHash } : {}),
              },
              io,
            );
          }),
        )
        .command(
          'send-ack',
          'Send MsgCheckpointAck after the checkpoint landed on the parent chain',
          (c) =>
            txOptions(c, DEFAULT_VALIDATOR_KEY)
              .option('tx-hash', {
                type: 'string',
                demandOption: true,
                describe: 'parent-chain transaction hash of the checkpoint submission',
              })
              .option('log-index', {
                type: 'string',
                demandOption: true,
                describe: "the checkpoint event's log index in that transaction",
              })
              .option('header', {
                type: 'string',
                demandOption: true,
                describe: 'checkpoint number (header block index) on the parent chain',
              })
              .check((a) =>
                checkAll(
                  () => parseHashFlag(a['tx-hash'], '--tx-hash'),
                  () => parseUint64Flag(a['log-index'], '--log-index'),
                  () => parseUint64Flag(a.header, '--header'),
                ),
              )
              .example(
                '$0 tx checkpoint send-ack --tx-hash 0x77b0… --log-index 0 --header 1 --home ./devnet',
                'acknowledge checkpoint 1',
              ),
          run((a) =>
            sendAck(
              {
                ...txArgs(a, io.env),
                txHash: parseHashFlag(a['tx-hash'], '--tx-hash'),
                logIndex: parseUint64Flag(a['log-index'], '--log-index'),
                header: parseUint64Flag(a.header, '--header'),
              },
              io,
            ),
          ),
        )
        .command(
          'send-noack',
          'Send MsgCheckpointNoAck (the checkpoint was not acknowledged within checkpoint_buffer_time)',
          (c) =>
            txOptions(c, 'the key of the next checkpoint proposer, else validator-1').example(
              '$0 tx checkpoint send-noack --home ./devnet',
              'time out the current proposer',
            ),
          run((a) => sendNoAck(txArgs(a, io.env), io)),
        )
        .demandCommand(1, 'Name a command: lockstep tx checkpoint send-checkpoint|send-ack|send-noack --help'),
  },
  query: {
    group: 'checkpoint',
    describe: 'Checkpoint parameters',
    commands: (m, { io, run }) =>
      m
        .command(
          'params',
          'Print checkpoint_buffer_time (as 16m40s) and the other checkpoint parameters',
          (c) =>
            queryOptions(c).example('$0 query checkpoint params --trust-node', 'checkpoint_buffer_time: 16m40s, …'),
          run((a) => queryCheckpointParams(commonArgs(a, io.env), io)),
        )
        .demandCommand(1, 'Name a command: lockstep query checkpoint params --help'),
  },
};
