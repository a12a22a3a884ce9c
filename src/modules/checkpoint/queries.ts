/**
 * The checkpoint module's reads (spec REST table): params, count, buffer, latest, last no-ack, a
 * page of checkpoints, one by number, the prepared checkpoint, and the overview; the spec's shapes.
 */
import { ZERO_ADDRESS } from '../../core/address';
import { rfc3339FromUnixSeconds } from '../../core/time';
import { failed, found, type QueryCtx, type QueryOutcome, type QueryRoute } from '../framework/query';
import { notUint, paged, pageArgs, uintArg } from '../framework/queryArgs';
import { getValidatorSet } from '../staking/keeper';
import { validatorSetJson } from '../staking/queries';
import {
  allCheckpoints,
  type Checkpoint,
  getAckCount,
  getBuffer,
  getCheckpoint,
  getCheckpointParams,
  getLastCheckpoint,
  getLastNoAck,
} from './keeper';
import { checkpointParamsJson } from './params';

/** The spec's checkpoint shape (camelCase, README item 9); `id` for numbered results. */
export function checkpointJson(cp: Checkpoint, id?: bigint): Record<string, unknown> {
  const body = {
    proposer: cp.proposer,
    startBlock: Number(cp.startBlock),
    endBlock: Number(cp.endBlock),
    rootHash: cp.rootHash,
    accountRootHash: cp.accountRootHash,
    timestamp: Number(cp.timestamp),
  };
  return id === undefined ? body : { id: Number(id), ...body };
}

/** The reference caps a checkpoint list page at 10 000 (checkpoint/client/rest). */
const MAX_CHECKPOINT_PAGE = 10_000n;

function prepareCheckpoint(q: QueryCtx): QueryOutcome {
  const start = q.params.get('start');
  const end = q.params.get('end');
  // Reference (checkpoint/client/rest/query.go): an empty value counts as missing; GetRootHash
  // refuses more than MaxCheckpointLength blocks.
  if (!start || !end) return failed('missingArgument', '`start` and `end` query params required');
  const s = uintArg(start);
  const e = uintArg(end);
  if (s === null) return notUint(start);
  if (e === null) return notUint(end);
  if (s > e) return failed('invalidRequest', `Invalid parameters start: ${s} and end block: ${e} params`);
  if (e - s + 1n > getCheckpointParams(q.store).maxCheckpointLength)
    return failed('invalidRequest', 'number of headers requested exceeds');
  if (!q.observers) return failed('unavailable', 'sidechain not reachable from this query');
  const root = q.observers.sidechain.rootHash(s, e, 0n);
  if (root === null) return failed('unavailable', 'could not get root hash: blocks not available');
  const proposer = getValidatorSet(q.store).proposer;
  return found({
    proposer: proposer?.address ?? ZERO_ADDRESS,
    rootHash: root,
    startBlock: Number(s),
    endBlock: Number(e),
  });
}

export const CHECKPOINT_QUERIES: readonly QueryRoute[] = [
  {
    name: 'checkpoint.params',
    path: /^\/checkpoints\/(params|parama)$/,
    handle: (q) => found(checkpointParamsJson(getCheckpointParams(q.store))),
  },
  {
    name: 'checkpoint.count',
    path: /^\/checkpoints\/count$/,
    handle: (q) => found({ result: Number(getAckCount(q.store)) }),
  },
  {
    name: 'checkpoint.buffer',
    path: /^\/checkpoints\/buffer$/,
    handle(q) {
      const b = getBuffer(q.store);
      return b
        ? found(checkpointJson(b))
        : failed('querier', 'could not fetch checkpoint buffer; No checkpoint found in buffer');
    },
  },
  {
    name: 'checkpoint.latest',
    path: /^\/checkpoints\/latest$/,
    handle(q) {
      const last = getLastCheckpoint(q.store);
      return last
        ? found(checkpointJson(last.checkpoint, last.number))
        : failed('querier', `could not fetch checkpoint by index ${getAckCount(q.store)}; Invalid checkpoint Index`);
    },
  },
  {
    name: 'checkpoint.lastNoAck',
    path: /^\/checkpoints\/last-no-ack$/,
    handle: (q) => found({ result: Number(getLastNoAck(q.store)) }),
  },
  {
    name: 'checkpoint.list',
    path: /^\/checkpoints\/list$/,
    handle(q) {
      const pa = pageArgs(q);
      if ('ok' in pa) return pa;
      const limit = pa.limit > MAX_CHECKPOINT_PAGE ? MAX_CHECKPOINT_PAGE : pa.limit;
      return found(
        paged(allCheckpoints(q.store), pa.page, limit)?.map((c) => checkpointJson(c.checkpoint, c.number)) ?? null,
      );
    },
  },
  { name: 'checkpoint.prepare', path: /^\/checkpoints\/prepare$/, handle: prepareCheckpoint },
  {
    name: 'checkpoint.byNumber',
    path: /^\/checkpoints\/([^/]+)$/,
    handle(q, [n]) {
      const num = uintArg(n);
      if (num === null) return notUint(n!);
      const cp = getCheckpoint(q.store, num);
      return cp
        ? found(checkpointJson(cp, num))
        : failed('querier', `could not fetch checkpoint by index ${num}; Invalid checkpoint Index`);
    },
  },
  {
    name: 'checkpoint.overview',
    path: /^\/overview$/,
    handle(q) {
      const set = getValidatorSet(q.store);
      const buf = getBuffer(q.store);
      return found({
        ack_count: Number(getAckCount(q.store)),
        checkpoint_buffer: buf ? checkpointJson(buf) : null,
        validator_count: set.validators.length,
        validator_set: validatorSetJson(q.store, set, 'info'),
        last_noack_time: rfc3339FromUnixSeconds(getLastNoAck(q.store)),
      });
    },
  },
];
