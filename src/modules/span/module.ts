/**
 * The span module (Heimdall's bor module; REST paths and genesis key `sidechain`): spans of
 * sidechain blocks and the producers selected for each, proposed with MsgProposeSpan.
 */
import { type Module } from '../framework/module';
import { SpanErrors } from './errors';
import { SPAN_GENESIS, type SpanGenesis } from './genesis';
import { SPAN_INVARIANTS } from './invariants';
import { getSpanParams } from './keeper';
import { MsgProposeSpanDef } from './msgs';
import { DEFAULT_SPAN_PARAMS, type SpanParams, spanParamsJson } from './params';
import { SPAN_QUERIES } from './queries';

export const spanModule: Module<SpanGenesis, SpanParams> = {
  name: 'span',
  msgs: [MsgProposeSpanDef],
  queries: SPAN_QUERIES,
  genesis: SPAN_GENESIS,
  errors: SpanErrors,
  params: { defaults: DEFAULT_SPAN_PARAMS, read: getSpanParams, json: spanParamsJson },
  invariants: SPAN_INVARIANTS,
};
