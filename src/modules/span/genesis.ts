/**
 * The span module's genesis section (`app_state.sidechain`, Heimdall's `bor`): params and the
 * length of span 0. Span 0 is built from the validator set the staking module wrote before it.
 */
import { InputError } from '../../core/errors';
import { getChainParams } from '../chain/keeper';
import { asObject, noExtraKeys, optUint64 } from '../framework/decode';
import { type ModuleGenesis } from '../framework/module';
import { allValidators, getValidatorSet } from '../staking/keeper';
import { genesisSpan } from './freezeSet';
import { getSpan, getSpanParams, setSpan, setSpanParams } from './keeper';
import {
  DEFAULT_FIRST_SPAN_DURATION,
  DEFAULT_SPAN_PARAMS,
  decodeSpanParams,
  type SpanParams,
  spanParamsJson,
} from './params';

export interface SpanGenesis {
  params: SpanParams;
  /** Span 0 covers blocks 0..firstSpanDuration-1. */
  firstSpanDuration: bigint;
}

export const SPAN_GENESIS: ModuleGenesis<SpanGenesis> = {
  key: 'sidechain',
  defaults: () => ({ params: DEFAULT_SPAN_PARAMS, firstSpanDuration: DEFAULT_FIRST_SPAN_DURATION }),
  decode(value, path) {
    const o = asObject(value ?? {}, path);
    noExtraKeys(o, ['params', 'first_span_duration'], path);
    const params = decodeSpanParams(o.params ?? {}, `${path}.params`);
    const firstSpanDuration = optUint64(o, 'first_span_duration', path, DEFAULT_FIRST_SPAN_DURATION);
    if (firstSpanDuration === 0n || firstSpanDuration % params.sprintDuration !== 0n) {
      throw new InputError(
        `${path}.first_span_duration`,
        `must be a non-zero multiple of sprint_duration (${params.sprintDuration})`,
      );
    }
    return { params, firstSpanDuration };
  },
  init(store, g) {
    setSpanParams(store, g.params);
    setSpan(
      store,
      genesisSpan(
        getValidatorSet(store),
        allValidators(store),
        g.firstSpanDuration,
        g.params.producerCount,
        getChainParams(store).sidechainChainId,
      ),
    );
  },
  export(store) {
    const span0 = getSpan(store, 0n);
    return {
      params: spanParamsJson(getSpanParams(store)),
      first_span_duration: ((span0?.endBlock ?? DEFAULT_FIRST_SPAN_DURATION - 1n) + 1n).toString(),
    };
  },
};
