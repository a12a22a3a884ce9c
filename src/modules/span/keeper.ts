/**
 * Spans: storage, the genesis span, and FreezeSet (producer selection for a new span).
 * Selection uses the spec's slots + swap-or-not shuffle seeded with a parent-chain block hash
 * (`lastEthBlock + 1`, the reference's pre-Jorvik rule, README item 5).
 */
import { type Address, compareAddresses } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { compareBig } from '../../core/order';
import { type KVReader, type KVStore } from '../../store/kvStore';
import { idKey } from '../framework/storeKeys';
import { ValidatorSet } from '../../core/validatorSet';
import {
  getValidator,
  getValidatorBySigner,
  getValidatorSet,
  spanEligibleValidators,
  type Validator,
  validatorJson,
} from '../staking/keeper';
import { getSpanParams } from './params';
import { selectNextProducers } from './selection';

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

export function getSpan(store: KVReader, id: bigint): Span | undefined {
  return store.get<Span>(spanKey(id));
}

export function setSpan(store: KVStore, span: Span): void {
  store.set(spanKey(span.id), span);
  const last = store.get<bigint>(LAST_SPAN_KEY);
  if (last === undefined || span.id > last) store.set(LAST_SPAN_KEY, span.id);
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

function spanMember(v: Validator): SpanMember {
  return { id: v.id, startEpoch: v.startEpoch, endEpoch: v.endEpoch, pubKey: v.pubKey, signer: v.signer };
}

/** Snapshot of the records of the set members and the producers (each once, set order first). */
function spanMembers(store: KVReader, set: ValidatorSet, producers: readonly Producer[]): SpanMember[] {
  const out: SpanMember[] = [];
  const seen = new Set<bigint>();
  const add = (v: Validator | undefined) => {
    if (v && !seen.has(v.id)) {
      seen.add(v.id);
      out.push(spanMember(v));
    }
  };
  for (const m of set.validators) add(getValidatorBySigner(store, m.address));
  for (const p of producers) add(getValidator(store, p.id));
  return out;
}

function sortProducers(ps: Producer[]): Producer[] {
  return ps.sort((a, b) => compareAddresses(a.signer, b.signer));
}

/** Producers for a new span from the eligible validators (heimdall §1.2 with the legacy algorithm). */
export function selectProducers(eligible: readonly Validator[], seed: Hex, producerCount: bigint): Producer[] {
  if (BigInt(eligible.length) <= producerCount)
    return eligible.map((v) => ({ id: v.id, signer: v.signer, power: v.power }));
  const ids = selectNextProducers(
    seed,
    eligible.map((v) => ({ id: v.id, power: v.power })),
    Number(producerCount),
  );
  const counts = new Map<bigint, bigint>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0n) + 1n);
  const byId = new Map(eligible.map((v) => [v.id, v]));
  const out: Producer[] = [];
  for (const id of [...counts.keys()].sort(compareBig))
    out.push({ id, signer: byId.get(id)!.signer, power: counts.get(id)! });
  return sortProducers(out);
}

/** FreezeSet: record span `id` with the current validator set and newly selected producers. */
export function freezeSet(
  store: KVStore,
  id: bigint,
  startBlock: bigint,
  endBlock: bigint,
  sidechainChainId: string,
  seed: Hex,
): Span {
  const params = getSpanParams(store);
  const set = getValidatorSet(store);
  const selectedProducers = selectProducers(spanEligibleValidators(store), seed, params.producerCount);
  const span: Span = {
    id,
    startBlock,
    endBlock,
    validatorSet: set.toJSON(),
    selectedProducers,
    sidechainChainId,
    members: spanMembers(store, set, selectedProducers),
  };
  setSpan(store, span);
  store.set(LAST_ETH_BLOCK_KEY, getLastEthBlock(store) + 1n);
  return span;
}

/** Span 0: blocks 0..firstSpanDuration-1, the first producerCount validators by signer with full power. */
export function genesisSpan(
  set: ValidatorSet,
  validators: readonly Validator[],
  firstSpanDuration: bigint,
  producerCount: bigint,
  chainId: string,
): Span {
  const bySigner = new Map(validators.map((v) => [v.signer, v]));
  const producers = set.validators
    .slice(0, Number(producerCount))
    .map((m) => ({ id: bySigner.get(m.address)!.id, signer: m.address, power: m.power }));
  const members = set.validators.map((m) => spanMember(bySigner.get(m.address)!));
  return {
    id: 0n,
    startBlock: 0n,
    endBlock: firstSpanDuration - 1n,
    validatorSet: set.toJSON(),
    selectedProducers: producers,
    sidechainChainId: chainId,
    members,
  };
}

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
