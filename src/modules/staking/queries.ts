/**
 * The staking module's reads (spec REST table): the validator set, a validator by id or signer,
 * the current and upcoming proposers, total power, the replay check; and the spec's Validator shape.
 */
import { type Address } from '../../core/address';
import { type ValidatorSet } from '../../core/validatorSet';
import { type KVReader } from '../../store/kvStore';
import { failed, found, type QueryRoute } from '../framework/query';
import { addressArg, isOldTx, notUint, uintArg } from '../framework/queryArgs';
import { getValidator, getValidatorBySigner, getValidatorSet, isSeqSeen, type Validator } from './keeper';

/** The spec's Validator shape: ID, startEpoch, endEpoch, power, pubKey, signer, last_updated, accum. */
export function validatorJson(
  v: Validator,
  opts: { form: 'span' | 'info'; power?: bigint; accum?: bigint },
): Record<string, unknown> {
  return {
    ID: Number(v.id),
    startEpoch: Number(v.startEpoch),
    endEpoch: Number(v.endEpoch),
    power: Number(opts.power ?? v.power),
    pubKey: v.pubKey,
    signer: v.signer,
    last_updated: opts.form === 'span' ? '' : v.lastUpdated === null ? 0 : Number(v.lastUpdated),
    accum: Number(opts.accum ?? 0n),
  };
}

/** The validator set as `{validators, proposer}` in the spec's Validator shape. */
export function validatorSetJson(store: KVReader, set: ValidatorSet, form: 'span' | 'info'): Record<string, unknown> {
  const show = (address: Address, power: bigint, accum: bigint) => {
    const v = getValidatorBySigner(store, address);
    return v
      ? validatorJson(v, { form, power, accum })
      : {
          ID: 0,
          startEpoch: 0,
          endEpoch: 0,
          power: Number(power),
          pubKey: '0x',
          signer: address,
          last_updated: form === 'span' ? '' : 0,
          accum: Number(accum),
        };
  };
  const p = set.proposer;
  return {
    validators: set.validators.map((m) => show(m.address, m.power, m.proposerPriority)),
    proposer: p ? show(p.address, p.power, p.proposerPriority) : null,
  };
}

export const STAKING_QUERIES: readonly QueryRoute[] = [
  {
    name: 'staking.validatorSet',
    path: /^\/staking\/validator-set$/,
    handle: (q) => found(validatorSetJson(q.store, getValidatorSet(q.store), 'info')),
  },
  {
    name: 'staking.validator',
    path: /^\/staking\/validator\/([^/]+)$/,
    handle(q, [id]) {
      const n = uintArg(id);
      if (n === null) return notUint(id!);
      const v = getValidator(q.store, n);
      if (!v) return failed('notFound', 'No validator found');
      const m = getValidatorSet(q.store).getByAddress(v.signer);
      return found(validatorJson(v, { form: 'info', accum: m?.proposerPriority ?? 0n }));
    },
  },
  {
    name: 'staking.signer',
    path: /^\/staking\/signer\/([^/]+)$/,
    handle(q, [a]) {
      const address = addressArg(a!);
      if (!address) return failed('badArgument', 'Invalid address');
      const v = getValidatorBySigner(q.store, address);
      if (!v) return failed('notFound', 'No validator found');
      const m = getValidatorSet(q.store).getByAddress(v.signer);
      return found(validatorJson(v, { form: 'info', accum: m?.proposerPriority ?? 0n }));
    },
  },
  {
    name: 'staking.currentProposer',
    path: /^\/staking\/current-proposer$/,
    handle(q) {
      const p = getValidatorSet(q.store).proposer;
      const v = p ? getValidatorBySigner(q.store, p.address) : undefined;
      return v
        ? found(validatorJson(v, { form: 'info', power: p!.power, accum: p!.proposerPriority }))
        : failed('notFound', 'No proposer found');
    },
  },
  {
    name: 'staking.proposers',
    path: /^\/staking\/proposer\/([^/]+)$/,
    handle(q, [t]) {
      const times = uintArg(t);
      if (times === null) return notUint(t!);
      const set = getValidatorSet(q.store).copy();
      const n = Math.min(Number(times), set.validators.length);
      const out: unknown[] = [];
      for (let i = 0; i < n; i++) {
        const p = set.proposer!;
        const v = getValidatorBySigner(q.store, p.address);
        if (v) out.push(validatorJson(v, { form: 'info', power: p.power, accum: p.proposerPriority }));
        set.incrementProposerPriority(1);
      }
      return found(out);
    },
  },
  {
    name: 'staking.totalPower',
    path: /^\/staking\/totalpower$/,
    handle: (q) => found({ result: Number(getValidatorSet(q.store).totalVotingPower()) }),
  },
  { name: 'staking.isOldTx', path: /^\/staking\/isoldtx$/, handle: (q) => isOldTx(q, isSeqSeen) },
];
