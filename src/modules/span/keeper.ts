/**
 * Spans by id, the last span id, and the parent-chain block whose hash seeds the next selection.
 * The store keys keep the module's REST and genesis name (`sidechain`, Heimdall's `bor`).
 */
import { isPlanted } from '../../core/plants';
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { assert } from '../../core/errors';
import { type KVReader, type KVStore } from '../../store/kvStore';
import { idKey } from '../framework/storeKeys';
import { DEFAULT_SPAN_PARAMS, type SpanParams } from './params';

export interface Producer {
  id: bigint;
  signer: Address;
  /** Power in the span: slots won (or the real power when all eligible validators are taken). */
  power: bigint;
}

/** A validator record as it stood when the span was frozen. */
export interface SpanMember {
  id: bigint;
  startEpoch: bigint;
  endEpoch: bigint;
  pubKey: Hex;
  signer: Address;
}

export interface Span {
  id: bigint;
  startBlock: bigint;
  endBlock: bigint;
  /** The validator set at freeze time (JSON form of ValidatorSet). */
  validatorSet: unknown;
  selectedProducers: Producer[];
  sidechainChainId: string;
  /**
   * The records of the set members and producers at freeze time, so a span result never changes
   * afterwards (the reference stores the whole span; a later signer change must not rewrite it).
   */
  members: SpanMember[];
}

const spanKey = (id: bigint) => `sidechain/span/${idKey(id)}`;
const LAST_SPAN_KEY = 'sidechain/last_span_id';
const LAST_ETH_BLOCK_KEY = 'sidechain/last_eth_block';
const PARAMS_KEY = 'sidechain/params';

export function getSpan(store: KVReader, id: bigint): Span | undefined {
  const s = store.get<Span>(spanKey(id));
  if (s !== undefined)
    assert(
      s.id === id && s.startBlock <= s.endBlock,
      'a span is stored under its id and does not end before it starts',
      {
        id,
        stored: s.id,
        startBlock: s.startBlock,
        endBlock: s.endBlock,
      },
    );
  return s;
}

/**
 * Whether a span starting at `startBlock` continues `last`: it starts on the block after the last
 * one's end. The one place the rule is stated (the handler and the keeper's assertion both ask
 * here), so a planted slip in the rule bends both, as a misread rule would.
 */
export function continuesSpan(last: Span, startBlock: bigint): boolean {
  return isPlanted('span-continuity') ? startBlock > last.endBlock : startBlock === last.endBlock + 1n;
}

/** Record a span: span 0 first, then each next one starting where the last one ended. */
export function setSpan(store: KVStore, span: Span): void {
  assert(span.startBlock <= span.endBlock && span.selectedProducers.length > 0, 'a span has blocks and producers', {
    id: span.id,
    startBlock: span.startBlock,
    endBlock: span.endBlock,
    producers: span.selectedProducers.length,
  });
  const last = getLastSpan(store);
  assert(
    last === undefined ? span.id === 0n : span.id === last.id + 1n && continuesSpan(last, span.startBlock),
    'spans are recorded in order, each continuing the last',
    { id: span.id, startBlock: span.startBlock, lastId: last?.id, lastEnd: last?.endBlock },
  );
  store.set(spanKey(span.id), span);
  store.set(LAST_SPAN_KEY, span.id);
}

export function getLastSpan(store: KVReader): Span | undefined {
  const id = store.get<bigint>(LAST_SPAN_KEY);
  return id === undefined ? undefined : getSpan(store, id);
}

/** Spans in id order (numeric; the reference's ASCII order is a storage accident we do not copy). */
export function allSpans(store: KVReader): Span[] {
  return store.iterate<Span>('sidechain/span/').map(([, s]) => s);
}

export function getLastEthBlock(store: KVReader): bigint {
  return store.get<bigint>(LAST_ETH_BLOCK_KEY) ?? 0n;
}

/** The parent-chain block whose hash seeds the next span's selection. */
export function nextSpanSeedBlock(store: KVReader): bigint {
  return getLastEthBlock(store) + 1n;
}

/** FreezeSet consumed the seed block: the next span is seeded by the block after it. */
export function advanceSeedBlock(store: KVStore): void {
  store.set(LAST_ETH_BLOCK_KEY, getLastEthBlock(store) + 1n);
}

export function getSpanParams(store: KVReader): SpanParams {
  return store.get<SpanParams>(PARAMS_KEY) ?? DEFAULT_SPAN_PARAMS;
}

export function setSpanParams(store: KVStore, p: SpanParams): void {
  store.set(PARAMS_KEY, p);
}
