/**
 * What the staking state always satisfies after a block: the signer index and the validator
 * records agree both ways, and the stored validator set is exactly the current validators with
 * their power (end block applied the changes), unless that would have emptied it (then the set
 * stays as it was and no validator is current).
 */
import { type Address } from '../../core/address';
import { type Invariant } from '../framework/module';
import { getAckCount } from '../checkpoint/keeper';
import { isCurrentValidator } from './currentValidators';
import { allValidators, getValidator, getValidatorSet, signerIndex } from './keeper';

export const STAKING_INVARIANTS: readonly Invariant[] = [
  {
    name: 'signerIndex',
    check(store) {
      const validators = allValidators(store);
      const index = signerIndex(store);
      for (const v of validators)
        if (index.get(v.signer) !== v.id) return `validator ${v.id}'s signer ${v.signer} is not indexed to it`;
      for (const [signer, id] of index)
        if (getValidator(store, id)?.signer !== signer) return `signer ${signer} is indexed to validator ${id}`;
      return null;
    },
  },
  {
    name: 'setIsCurrentValidators',
    check(store) {
      const ack = getAckCount(store);
      const current = new Map<Address, bigint>();
      for (const v of allValidators(store)) if (isCurrentValidator(v, ack)) current.set(v.signer, v.power);
      const set = getValidatorSet(store);
      if (set.validators.length === 0) return 'the validator set is empty';
      if (current.size === 0) return null;
      for (const m of set.validators)
        if (current.get(m.address) !== m.power)
          return `set member ${m.address} has power ${m.power}, current power ${current.get(m.address) ?? 'none'}`;
      if (current.size !== set.validators.length)
        return `${current.size} current validators, ${set.validators.length} in the set`;
      return null;
    },
  },
];
