/** Span parameters (spec "Module parameters": sprint 16, span 1600, 4 producers; first span 256). */
import { type KVReader, type KVStore } from '../../store/kvStore';

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

/** The store key keeps the REST and genesis name of the module (`sidechain`, Heimdall's `bor`). */
const KEY = 'sidechain/params';

export function getSpanParams(store: KVReader): SpanParams {
  return store.get<SpanParams>(KEY) ?? DEFAULT_SPAN_PARAMS;
}

export function setSpanParams(store: KVStore, p: SpanParams): void {
  store.set(KEY, p);
}

export function spanParamsJson(p: SpanParams): Record<string, number> {
  return {
    sprint_duration: Number(p.sprintDuration),
    span_duration: Number(p.spanDuration),
    producer_count: Number(p.producerCount),
  };
}
