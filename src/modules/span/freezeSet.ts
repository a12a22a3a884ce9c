/**
 * FreezeSet (heimdall §1.2): a new span records the current validator set and newly selected
 * producers, and snapshots their validator records. Selection uses the spec's slots + swap-or-not
 * shuffle seeded with a parent-chain block hash (`lastEthBlock + 1`, the reference's pre-Jorvik
 * rule, README item 5). Span 0 is built from the genesis set.
 */
import { compareAddresses } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { compareBig } from '../../core/order';
import { type ValidatorSet } from '../../core/validatorSet';
import { type KVReader, type KVStore } from '../../store/kvStore';
import { getValidator, getValidatorBySigner, getValidatorSet, type Validator } from '../staking/keeper';
import { spanEligibleValidators } from '../staking/currentValidators';
import { advanceSeedBlock, type Producer, setSpan, type Span, type SpanMember } from './keeper';
import { getSpanParams } from './keeper';
import { selectNextProducers } from './selection';

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
  advanceSeedBlock(store);
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
