/** Span parameters (spec "Module parameters": sprint 16, span 1600, 4 producers; first span 256). */
import { type KVReader, type KVStore } from '../../store/kvStore';

export interface SidechainParams {
  sprintDuration: bigint;
  spanDuration: bigint;
  producerCount: bigint;
}

export const DEFAULT_SIDECHAIN_PARAMS: SidechainParams = {
  sprintDuration: 16n,
  spanDuration: 1600n,
  producerCount: 4n,
};

/** Span 0 covers blocks 0..255 (reference DefaultFirstSpanDuration). */
export const DEFAULT_FIRST_SPAN_DURATION = 256n;

const KEY = 'sidechain/params';

export function getSidechainParams(store: KVReader): SidechainParams {
  return store.get<SidechainParams>(KEY) ?? DEFAULT_SIDECHAIN_PARAMS;
}

export function setSidechainParams(store: KVStore, p: SidechainParams): void {
  store.set(KEY, p);
}

export function sidechainParamsJson(p: SidechainParams): Record<string, number> {
  return {
    sprint_duration: Number(p.sprintDuration),
    span_duration: Number(p.spanDuration),
    producer_count: Number(p.producerCount),
  };
}
