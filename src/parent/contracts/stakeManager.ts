/**
 * StakeManager: where validator stake lives (the spec's "stake is held on the parent chain").
 *
 * A plain state machine modelled on Polygon's StakeManager, reduced to what the service observes:
 * stake / stakeFor, restake, unstake, updateSigner and topUpForFee, each emitting the spec's event
 * through the StakingInfo logger address. Every call either succeeds with its logs or fails with a
 * message and changes nothing (see callResult.ts).
 *
 * Epochs: `currentEpoch` starts at 1 and the RootChain advances it once per accepted checkpoint, so
 * it tracks the service's `ackCount + 1` (reference README item 17). A validator is current while
 * `activationEpoch <= currentEpoch` and (`deactivationEpoch == 0` or `deactivationEpoch > currentEpoch`).
 *
 * Slots (spec, Errors): at most `validatorThreshold` validators without an unstake in progress;
 * unstake frees the slot at once, even though the validator keeps signing until its deactivation epoch.
 */
import { type Address, compareAddresses } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { ONE_TOKEN } from '../../core/amount';
import { canonicalJson } from '../../core/canonicalJson';
import { InputError } from '../../core/errors';
import { encodeLog, type ParentEventArgs, type ParentLogName } from '../abi';
import { PARENT_CONTRACTS } from './addresses';
import {
  type CallResult,
  type ContractLog,
  argAddress,
  argSignerPubkey,
  argUint,
  execute,
  require_,
} from './callResult';

export interface StakedValidator {
  id: bigint;
  owner: Address;
  signer: Address;
  /** 65 bytes, 0x04-prefixed. */
  signerPubkey: Hex;
  /** Wei. */
  amount: bigint;
  activationEpoch: bigint;
  /** 0 while active; the epoch from which it is no longer current once it unstakes. */
  deactivationEpoch: bigint;
}

export interface CurrentValidator {
  id: bigint;
  signer: Address;
  /** floor(amount / 10^18) (heimdall.md §4.2). */
  power: bigint;
}

export interface StakeManagerOptions {
  /** Validator slots. */
  validatorThreshold: number;
  /** Where the staking events are emitted from (StakingInfo). */
  loggerAddress?: Address;
}

export class StakeManager {
  readonly validatorThreshold: number;
  readonly loggerAddress: Address;
  private epoch = 1n;
  private nextId = 1n;
  /** Tokens held by the contract: stake is released only by an unstake claim, which is not modelled. */
  private totalStakedWei = 0n;
  private totalFeesWei = 0n;
  /** Insertion order is id order (ids are sequential). */
  private readonly validators = new Map<bigint, StakedValidator>();
  /** Current signer of every validator ever staked (exited ones too): a signer is never shared. */
  private readonly idBySigner = new Map<Address, bigint>();

  constructor(options: StakeManagerOptions) {
    if (!Number.isSafeInteger(options.validatorThreshold) || options.validatorThreshold < 0) {
      throw new InputError('validatorThreshold', `expected a non-negative integer, got ${options.validatorThreshold}`);
    }
    this.validatorThreshold = options.validatorThreshold;
    this.loggerAddress = options.loggerAddress ?? PARENT_CONTRACTS.stakingInfo;
  }

  // --- views --------------------------------------------------------------------------------

  get currentEpoch(): bigint {
    return this.epoch;
  }

  /** Wei held by the contract (the `total` of Staked). */
  get totalStaked(): bigint {
    return this.totalStakedWei;
  }

  /** Wei paid in through topUpForFee. */
  get totalFees(): bigint {
    return this.totalFeesWei;
  }

  validator(id: bigint): StakedValidator | null {
    const v = this.validators.get(id);
    return v ? { ...v } : null;
  }

  validatorIdBySigner(signer: Address): bigint | null {
    return this.idBySigner.get(signer.toLowerCase() as Address) ?? null;
  }

  /** Every validator ever staked, by id. */
  allValidators(): StakedValidator[] {
    return [...this.validators.values()].map((v) => ({ ...v }));
  }

  /** Validators without an unstake in progress: the ones occupying a slot. */
  slotsInUse(): number {
    let n = 0;
    for (const v of this.validators.values()) if (v.deactivationEpoch === 0n) n++;
    return n;
  }

  /** The validators current at `currentEpoch`, in signer-address order (the order signatures are checked in). */
  currentValidators(): CurrentValidator[] {
    const e = this.epoch;
    const out: CurrentValidator[] = [];
    for (const v of this.validators.values()) {
      if (v.activationEpoch <= e && (v.deactivationEpoch === 0n || v.deactivationEpoch > e)) {
        out.push({ id: v.id, signer: v.signer, power: v.amount / ONE_TOKEN });
      }
    }
    return out.sort((a, b) => compareAddresses(a.signer, b.signer));
  }

  /** Everything the contract stores, as canonical JSON (tests compare it; nothing hashes it on chain). */
  stateJson(): string {
    return canonicalJson({
      epoch: this.epoch,
      nextId: this.nextId,
      totalStaked: this.totalStakedWei,
      totalFees: this.totalFeesWei,
      validators: this.allValidators().map((v) => ({ ...v })),
    });
  }

  // --- calls --------------------------------------------------------------------------------

  /** The caller stakes for itself: it becomes the owner. */
  stake(owner: Address, signerPubkey: Hex, amount: bigint): CallResult {
    return execute(() => this.stakeChecked(owner, signerPubkey, amount, true));
  }

  /** Anyone stakes on behalf of `user`, who becomes the owner. */
  stakeFor(from: Address, user: Address, signerPubkey: Hex, amount: bigint): CallResult {
    return execute(() => {
      argAddress(from, 'sender');
      return this.stakeChecked(user, signerPubkey, amount, true);
    });
  }

  /**
   * A validator staked at genesis: the same rules, activation epoch 1, no logs (there is no
   * transaction to attach them to). Only before the first checkpoint.
   */
  stakeAtGenesis(owner: Address, signerPubkey: Hex, amount: bigint): CallResult {
    return execute(() => {
      require_(this.epoch === 1n, 'genesis stake after the first checkpoint');
      return this.stakeChecked(owner, signerPubkey, amount, false);
    });
  }

  private stakeChecked(ownerArg: unknown, pubkeyArg: unknown, amountArg: unknown, emit: boolean): ContractLog[] {
    const owner = argAddress(ownerArg, 'owner');
    const { pubkey, signer } = argSignerPubkey(pubkeyArg);
    const amount = argUint(amountArg, 'amount');
    require_(this.slotsInUse() < this.validatorThreshold, 'no more slots');
    require_(amount >= ONE_TOKEN, 'amount must be at least 1 token');
    require_(!this.idBySigner.has(signer), 'signer already staked');

    const id = this.nextId;
    const v: StakedValidator = {
      id,
      owner,
      signer,
      signerPubkey: pubkey,
      amount,
      activationEpoch: this.epoch,
      deactivationEpoch: 0n,
    };
    this.nextId = id + 1n;
    this.validators.set(id, v);
    this.idBySigner.set(signer, id);
    this.totalStakedWei += amount;
    if (!emit) return [];
    return [
      this.log('Staked', {
        signer,
        validatorId: id,
        activationEpoch: v.activationEpoch,
        amount,
        total: this.totalStakedWei,
        signerPubkey: withoutPrefix(pubkey),
      }),
    ];
  }

  /** Add `amount` wei to the owner's own active validator. */
  restake(owner: Address, validatorId: bigint, amount: bigint): CallResult {
    return execute(() => {
      const v = this.ownedValidator(owner, validatorId);
      require_(v.deactivationEpoch === 0n, 'validator is not active');
      const add = argUint(amount, 'amount');
      require_(add > 0n, 'amount must be positive');

      v.amount += add;
      this.totalStakedWei += add;
      return [this.log('StakeUpdate', { validatorId: v.id, newAmount: v.amount })];
    });
  }

  /** Start the owner's exit: current until the next checkpoint, and the slot is free at once. */
  unstake(owner: Address, validatorId: bigint): CallResult {
    return execute(() => {
      const v = this.ownedValidator(owner, validatorId);
      require_(v.deactivationEpoch === 0n, 'unstake already in progress');

      // Polygon's notice period: one epoch.
      v.deactivationEpoch = this.epoch + 1n;
      return [
        this.log('UnstakeInit', {
          user: v.owner,
          validatorId: v.id,
          deactivationEpoch: v.deactivationEpoch,
          amount: v.amount,
        }),
      ];
    });
  }

  /** Replace the signer key of the owner's active validator. */
  updateSigner(owner: Address, validatorId: bigint, signerPubkey: Hex): CallResult {
    return execute(() => {
      const v = this.ownedValidator(owner, validatorId);
      require_(v.deactivationEpoch === 0n, 'validator is not active');
      const { pubkey, signer } = argSignerPubkey(signerPubkey);
      require_(signer !== v.signer, 'new signer same as old signer');
      require_(!this.idBySigner.has(signer), 'signer already in use');

      const oldSigner = v.signer;
      this.idBySigner.delete(oldSigner);
      this.idBySigner.set(signer, v.id);
      v.signer = signer;
      v.signerPubkey = pubkey;
      return [
        this.log('SignerChange', {
          validatorId: v.id,
          oldSigner,
          newSigner: signer,
          signerPubkey: withoutPrefix(pubkey),
        }),
      ];
    });
  }

  /** Pay `fee` wei for `user`'s fee balance on the service chain. */
  topUpForFee(from: Address, user: Address, fee: bigint): CallResult {
    return execute(() => {
      argAddress(from, 'sender');
      const to = argAddress(user, 'user');
      const amount = argUint(fee, 'fee');
      require_(amount > 0n, 'fee must be positive');

      this.totalFeesWei += amount;
      return [this.log('TopUpFee', { user: to, fee: amount })];
    });
  }

  /** The RootChain calls this once per accepted checkpoint. */
  advanceEpoch(): void {
    this.epoch += 1n;
  }

  // --- helpers ------------------------------------------------------------------------------

  private ownedValidator(ownerArg: unknown, idArg: unknown): StakedValidator {
    const owner = argAddress(ownerArg, 'sender');
    const id = argUint(idArg, 'validator id');
    const v = this.validators.get(id);
    require_(v !== undefined, `no validator ${id}`);
    require_(v.owner === owner, 'not the owner');
    return v;
  }

  private log<N extends ParentLogName>(name: N, args: ParentEventArgs[N]): ContractLog {
    return { address: this.loggerAddress, ...encodeLog(name, args) };
  }
}

/** The 64-byte key the events carry (Polygon's contracts take keys without the 0x04 prefix). */
function withoutPrefix(pubkey: Hex): Hex {
  return `0x${pubkey.slice(4)}`;
}
