/**
 * `eth_getLogs` over one node's chain, as geth's `FilterAPI.GetLogs` and Bor's state-sync log
 * filter answer it (sidechain.md §2.8, §5 item 4):
 * - with `blockHash`: the logs of that block (on any branch the node stores), or "unknown block";
 * - otherwise the canonical blocks from `fromBlock` to `toBlock` (both default to latest): two
 *   numbers in the wrong order are "invalid block range params"; `pending` is "pending logs are
 *   not supported"; `finalized`/`safe` without a finalized block are "finalized header not
 *   found" / "safe header not found"; a range that ends above the head stops at the head, one
 *   that starts above it is empty.
 * User transactions' logs and the state-sync logs come out together, ordered by block then log
 * index (Bor's `MergeBorLogs`).
 */
import { type SidechainLog, type SidechainReadPort } from '../../sidechain/readPort';
import { type FilterCriteria, logMatches } from './filterCriteria';
import { type BlockNumberArg } from './goArguments';
import { handlerError } from './rpcErrors';

function resolveBound(chain: SidechainReadPort, arg: BlockNumberArg | undefined): bigint {
  if (arg === undefined) return chain.head().block.header.number;
  if ('number' in arg) return arg.number;
  switch (arg.tag) {
    case 'latest':
      return chain.head().block.header.number;
    case 'earliest':
      return 0n;
    case 'pending':
      throw handlerError('pending logs are not supported');
    case 'finalized':
    case 'safe': {
      const b = chain.finalized();
      if (!b) throw handlerError(`${arg.tag} header not found`);
      return b.block.header.number;
    }
  }
}

export function queryLogs(chain: SidechainReadPort, criteria: FilterCriteria): SidechainLog[] {
  if (criteria.blockHash !== undefined) {
    const b = chain.byHash(criteria.blockHash);
    if (!b) throw handlerError('unknown block');
    return chain.activity(b).logs.filter((l) => logMatches(l, criteria));
  }
  const from = criteria.fromBlock;
  const to = criteria.toBlock;
  // geth checks the order of two explicit positive numbers before anything else.
  if (from && to && 'number' in from && 'number' in to && from.number > 0n && to.number > 0n && from.number > to.number)
    throw handlerError('invalid block range params');
  if ((from && 'tag' in from && from.tag === 'pending') || (to && 'tag' in to && to.tag === 'pending'))
    throw handlerError('pending logs are not supported');
  const begin = resolveBound(chain, from);
  const head = chain.head().block.header.number;
  let end = resolveBound(chain, to);
  if (end > head) end = head;
  const out: SidechainLog[] = [];
  for (let n = begin; n <= end; n++) {
    const b = chain.byNumber(n);
    if (!b) break;
    for (const l of chain.activity(b).logs) if (logMatches(l, criteria)) out.push(l);
  }
  return out;
}
