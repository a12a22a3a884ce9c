import { MsgProposeSpanDef } from '../../modules/span/msgs';
import {
  type ClientIO,
  type CommonArgs,
  type TxArgs,
  DEFAULT_VALIDATOR_KEY,
  num,
  printQuery,
  sendTx,
} from '../actions';
import { UsageError } from '../errors';
import { checkAll } from '../flags';
import { type ModuleCommands, commonArgs, optU64, queryOptions, str, txArgs, txOptions } from '../commandKit';

interface SpanJson {
  span_id: number | string;
  start_block: number | string;
  end_block: number | string;
  sidechain_chain_id?: string;
}

export async function proposeSpan(
  a: TxArgs & { startBlock?: bigint; spanId?: bigint; sidechainChainId?: string },
  io: ClientIO,
): Promise<number> {
  return sendTx(
    a,
    io,
    MsgProposeSpanDef,
    () => DEFAULT_VALIDATOR_KEY,
    async ({ key, rest }) => {
      const latest = (await rest.get<SpanJson>('/sidechain/latest-span')).result;
      const params = (await rest.get<{ span_duration: number | string }>('/sidechain/params')).result;
      const startBlock = a.startBlock ?? num(latest.end_block, 'latest-span end_block') + 1n;
      const spanDuration = num(params.span_duration, 'span_duration');
      let sidechainChainId = a.sidechainChainId;
      if (sidechainChainId === undefined) {
        const chain = await rest.getOptional<{ sidechain_chain_id?: string }>('/chain/params');
        sidechainChainId = chain?.result.sidechain_chain_id ?? latest.sidechain_chain_id;
      }
      if (sidechainChainId === undefined || sidechainChainId === '')
        throw new UsageError('--sidechain-chain-id', 'required: the node reports no sidechain chain id');
      return {
        spanId: a.spanId ?? num(latest.span_id, 'latest-span span_id') + 1n,
        proposer: key.address,
        startBlock,
        endBlock: startBlock + spanDuration - 1n,
        sidechainChainId,
      };
    },
  );
}

export async function querySpan(a: CommonArgs & { spanId?: bigint }, io: ClientIO): Promise<number> {
  return printQuery(a, io, a.spanId === undefined ? '/sidechain/latest-span' : `/sidechain/span/${a.spanId}`);
}

export async function querySidechainParams(a: CommonArgs, io: ClientIO): Promise<number> {
  return printQuery(a, io, '/sidechain/params');
}

export const spanCommands: ModuleCommands = {
  tx: {
    group: 'sidechain',
    describe: 'Span transactions',
    commands: (m, { io, run }) =>
      m
        .command(
          'propose-span',
          'Send MsgProposeSpan for the next span',
          (c) =>
            txOptions(c, DEFAULT_VALIDATOR_KEY)
              .option('start-block', {
                type: 'string',
                describe: 'first sidechain block of the new span (default: end_block of the latest span + 1)',
              })
              .option('span-id', { type: 'string', describe: 'id of the new span (default: latest span id + 1)' })
              .option('sidechain-chain-id', {
                type: 'string',
                describe: "sidechain chain id (default: the node's, from /chain/params)",
              })
              .check((a) =>
                checkAll(
                  () => optU64(a, 'start-block'),
                  () => optU64(a, 'span-id'),
                ),
              )
              .example(
                '$0 tx sidechain propose-span --start-block 256 --home ./devnet',
                'propose span 1 (end block = start + span_duration - 1)',
              ),
          run(async (a) => {
            const sb = optU64(a, 'start-block');
            const sid = optU64(a, 'span-id');
            const scid = str(a, 'sidechain-chain-id');
            return proposeSpan(
              {
                ...txArgs(a, io.env),
                ...(sb !== undefined ? { startBlock: sb } : {}),
                ...(sid !== undefined ? { spanId: sid } : {}),
                ...(scid !== undefined ? { sidechainChainId: scid } : {}),
              },
              io,
            );
          }),
        )
        .demandCommand(1, 'Name a command: lockstep tx sidechain propose-span --help'),
  },
  query: {
    group: 'sidechain',
    describe: 'Spans and sidechain parameters',
    commands: (m, { io, run }) =>
      m
        .command(
          'span',
          'Print a span (--span-id N, or `span latest-span`)',
          (c) =>
            queryOptions(c)
              .option('span-id', { type: 'string', describe: 'the span to print' })
              .check((a) => checkAll(() => optU64(a, 'span-id')))
              .command(
                'latest-span',
                'Print the latest span',
                (l) => queryOptions(l).example('$0 query sidechain span latest-span', 'the current span'),
                run((a) => querySpan(commonArgs(a, io.env), io)),
              )
              .example('$0 query sidechain span --span-id 1', 'span 1')
              .example('$0 query sidechain span latest-span --json', 'the latest span as JSON'),
          run((a) => {
            const spanId = optU64(a, 'span-id');
            if (spanId === undefined)
              throw new UsageError(
                '--span-id',
                'name the span with --span-id <span_id>, or use `query sidechain span latest-span`',
              );
            return querySpan({ ...commonArgs(a, io.env), spanId }, io);
          }),
        )
        .command(
          'params',
          'Print sprint_duration, span_duration, producer_count',
          (c) => queryOptions(c).example('$0 query sidechain params', 'the sidechain module parameters'),
          run((a) => querySidechainParams(commonArgs(a, io.env), io)),
        )
        .demandCommand(1, 'Name a command: lockstep query sidechain span|params --help'),
  },
};
