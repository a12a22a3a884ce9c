/**
 * The staking module's genesis section: the validators (`app_state.staking`). The first validator
 * set is those active at epoch 1, with one proposer rotation already applied (Heimdall's
 * InitGenesis without a stored current set, heimdall §4.3).
 */
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { InputError } from '../../core/errors';
import { compareBig } from '../../core/order';
import { addressOfPublicKey } from '../../core/secp256k1';
import { ValidatorSet } from '../../core/validatorSet';
import { asArray, asObject, noExtraKeys, optUint64, pubKey, uint64 } from '../framework/decode';
import { type ModuleGenesis } from '../framework/module';
import { allValidators, setValidator, setValidatorSet, type Validator } from './keeper';

/** A validator as the genesis document lists it. */
export interface GenesisValidator {
  id: bigint;
  pubKey: Hex;
  signer: Address;
  power: bigint;
  startEpoch: bigint;
}

export interface StakingGenesis {
  /** At least one (a chain needs a validator; the defaults have none). */
  validators: GenesisValidator[];
}

export const STAKING_GENESIS: ModuleGenesis<StakingGenesis> = {
  key: 'staking',
  defaults: () => ({ validators: [] }),
  decode(value, path) {
    const o = asObject(value ?? {}, path);
    noExtraKeys(o, ['validators'], path);
    const list = asArray(o.validators, `${path}.validators`);
    if (list.length === 0) throw new InputError(`${path}.validators`, 'at least one validator is required');
    const ids = new Set<bigint>();
    const signers = new Set<string>();
    const validators = list.map((item, i) => {
      const p = `${path}.validators[${i}]`;
      const v = asObject(item, p);
      noExtraKeys(v, ['id', 'pub_key', 'power', 'start_epoch'], p);
      const id = uint64(v, 'id', p);
      if (id === 0n) throw new InputError(`${p}.id`, 'validator ids start at 1');
      if (ids.has(id)) throw new InputError(`${p}.id`, `duplicate validator id ${id}`);
      ids.add(id);
      const pk = pubKey(v, 'pub_key', p);
      const signer = addressOfPublicKey(pk);
      if (signers.has(signer)) throw new InputError(`${p}.pub_key`, `duplicate signer ${signer}`);
      signers.add(signer);
      const power = uint64(v, 'power', p);
      if (power === 0n) throw new InputError(`${p}.power`, 'must be at least 1');
      return { id, pubKey: pk, signer, power, startEpoch: optUint64(v, 'start_epoch', p, 0n) };
    });
    return { validators };
  },
  init(store, g) {
    const validators: Validator[] = [...g.validators]
      .sort((a, b) => compareBig(a.id, b.id))
      .map((v) => ({
        id: v.id,
        startEpoch: v.startEpoch,
        endEpoch: 0n,
        power: v.power,
        pubKey: v.pubKey,
        signer: v.signer,
        lastUpdated: null,
        jailed: false,
      }));
    for (const v of validators) setValidator(store, v);
    const set = new ValidatorSet(
      validators.filter((v) => v.startEpoch <= 1n).map((v) => ({ address: v.signer, power: v.power, id: v.id })),
    );
    set.incrementProposerPriority(1);
    setValidatorSet(store, set);
  },
  export: (store) => ({
    validators: allValidators(store).map((v) => ({
      id: v.id.toString(),
      pub_key: v.pubKey,
      power: v.power.toString(),
      start_epoch: v.startEpoch.toString(),
    })),
  }),
};
