/** The span module's reads (spec REST table): spans by id, the latest, a page of them, params; the Span shape. */
import { type Address } from '../../core/address';
import { ValidatorSet } from '../../core/validatorSet';
import { failed, found, type QueryRoute } from '../framework/query';
import { notUint, paged, pageArgs, uintArg } from '../framework/queryArgs';
import { type Validator } from '../staking/keeper';
import { validatorJson } from '../staking/queries';
import { allSpans, getLastSpan, getSpan, nextSpanSeedBlock, type Span, type SpanMember } from './keeper';
import { getSpanParams } from './keeper';
import { spanParamsJson } from './params';

/** The spec's Span shape, from the records frozen with the span (the store is no longer read). */
export function spanJson(span: Span): Record<string, unknown> {
  const set = ValidatorSet.fromJSON(span.validatorSet);
  const bySigner = new Map(span.members.map((m) => [m.signer, m]));
  const byId = new Map(span.members.map((m) => [m.id, m]));
  const record = (m: SpanMember): Validator => ({ ...m, power: 0n, lastUpdated: null, jailed: false });
  const show = (address: Address, power: bigint, accum: bigint) => {
    const m = bySigner.get(address);
    return m ? validatorJson(record(m), { form: 'span', power, accum }) : unknownValidator(address, power, accum);
  };
  const proposer = set.proposer;
  return {
    span_id: Number(span.id),
    start_block: Number(span.startBlock),
    end_block: Number(span.endBlock),
    validator_set: {
      validators: set.validators.map((m) => show(m.address, m.power, m.proposerPriority)),
      proposer: proposer ? show(proposer.address, proposer.power, proposer.proposerPriority) : null,
    },
    selected_producers: span.selectedProducers.map((p) => {
      const m = byId.get(p.id);
      const accum = set.getByAddress(p.signer)?.proposerPriority ?? 0n;
      return m
        ? validatorJson(record(m), { form: 'span', power: p.power, accum })
        : unknownValidator(p.signer, p.power, accum);
    }),
    sidechain_chain_id: span.sidechainChainId,
  };
}

function unknownValidator(address: Address, power: bigint, accum: bigint): Record<string, unknown> {
  return {
    ID: 0,
    startEpoch: 0,
    endEpoch: 0,
    power: Number(power),
    pubKey: '0x',
    signer: address,
    last_updated: '',
    accum: Number(accum),
  };
}

/** The reference caps a span list page at 150 (bor/client/rest). */
const MAX_SPAN_PAGE = 150n;

export const SPAN_QUERIES: readonly QueryRoute[] = [
  {
    name: 'span.list',
    path: /^\/sidechain\/span\/list$/,
    handle(q) {
      const pa = pageArgs(q);
      if ('ok' in pa) return pa;
      const limit = pa.limit > MAX_SPAN_PAGE ? MAX_SPAN_PAGE : pa.limit;
      return found(paged(allSpans(q.store), pa.page, limit)?.map((s) => spanJson(s)) ?? null);
    },
  },
  {
    name: 'span.byId',
    path: /^\/sidechain\/span\/([^/]+)$/,
    handle(q, [id]) {
      const n = uintArg(id);
      if (n === null) return notUint(id!);
      const span = getSpan(q.store, n);
      return span ? found(spanJson(span)) : failed('querier', 'could not get span; span not found for id');
    },
  },
  {
    name: 'span.latest',
    path: /^\/sidechain\/latest-span$/,
    handle(q) {
      const span = getLastSpan(q.store);
      return span ? found(spanJson(span)) : failed('querier', 'could not get span; span not found');
    },
  },
  { name: 'span.params', path: /^\/sidechain\/params$/, handle: (q) => found(spanParamsJson(getSpanParams(q.store))) },
  {
    name: 'span.nextSeedBlock',
    path: /^\/sidechain\/next-span-seed-block$/,
    handle: (q) => found({ block: Number(nextSpanSeedBlock(q.store)) }),
  },
];
