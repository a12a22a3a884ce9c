/** Span parameters (spec "Module parameters": sprint 16, span 1600, 4 producers; first span 256). */
import { InputError } from '../../core/errors';
import { asObject, noExtraKeys, optUint64 } from '../framework/decode';

export interface SpanParams {
  sprintDuration: bigint;
  spanDuration: bigint;
  producerCount: bigint;
}

export const DEFAULT_SPAN_PARAMS: SpanParams = {
  sprintDuration: 16n,
  spanDuration: 1600n,
  producerCount: 4n,
};

/** Span 0 covers blocks 0..255 (reference DefaultFirstSpanDuration). */
export const DEFAULT_FIRST_SPAN_DURATION = 256n;

/** The query output; also the genesis form. */
export function spanParamsJson(p: SpanParams): Record<string, number> {
  return {
    sprint_duration: Number(p.sprintDuration),
    span_duration: Number(p.spanDuration),
    producer_count: Number(p.producerCount),
  };
}

/** The genesis form: every field optional (the default), non-zero, the span a whole number of sprints. */
export function decodeSpanParams(value: unknown, path: string): SpanParams {
  const o = asObject(value, path);
  noExtraKeys(o, ['sprint_duration', 'span_duration', 'producer_count'], path);
  const D = DEFAULT_SPAN_PARAMS;
  const params: SpanParams = {
    sprintDuration: optUint64(o, 'sprint_duration', path, D.sprintDuration),
    spanDuration: optUint64(o, 'span_duration', path, D.spanDuration),
    producerCount: optUint64(o, 'producer_count', path, D.producerCount),
  };
  for (const [k, v] of Object.entries({
    sprint_duration: params.sprintDuration,
    span_duration: params.spanDuration,
    producer_count: params.producerCount,
  })) {
    if (v === 0n) throw new InputError(`${path}.${k}`, 'must be non-zero');
  }
  if (params.spanDuration % params.sprintDuration !== 0n)
    throw new InputError(`${path}.span_duration`, `must be a multiple of sprint_duration (${params.sprintDuration})`);
  return params;
}
