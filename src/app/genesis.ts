/**
 * The service genesis: decoding with errors that name the bad field, and initialisation of every
 * module's state.
 */
import { type Address, parseAddress } from '../core/address';
import { type Hex } from '../core/bytes';
import { InputError } from '../core/errors';
import { addressOfPublicKey } from '../core/secp256k1';
import { type KVStore } from '../store/kvStore';
import { asArray, asObject, bool, noExtraKeys, optUint64, pubKey, str, uint64 } from '../modules/framework/decode';
import { type AuthParams, DEFAULT_AUTH_PARAMS, decodeAuthParams, setAuthParams } from '../modules/auth/params';
import { getOrCreateAccount } from '../modules/auth/keeper';
import { type Coin, addCoins, decodeCoins, setSendEnabled } from '../modules/bank/keeper';
import { type ChainParams, DEFAULT_CHAIN_PARAMS, setChainParams } from '../modules/chain/keeper';
import { type Validator, setValidator, setValidatorSet } from '../modules/staking/keeper';
import { ValidatorSet } from '../core/validatorSet';
import {
  type SpanParams,
  DEFAULT_SPAN_PARAMS,
  DEFAULT_FIRST_SPAN_DURATION,
  setSpanParams,
} from '../modules/span/params';
import { genesisSpan, setSpan } from '../modules/span/keeper';
import { type CheckpointParams, DEFAULT_CHECKPOINT_PARAMS, setCheckpointParams } from '../modules/checkpoint/keeper';
import { setAckCount } from '../modules/checkpoint/keeper';
import { compareBig } from '../core/order';

export interface GenesisValidator {
  id: bigint;
  pubKey: Hex;
  signer: Address;
  power: bigint;
  startEpoch: bigint;
}

export interface Genesis {
  chainId: string;
  genesisTimeMs: number;
  chain: ChainParams;
  auth: { params: AuthParams; accounts: Array<{ address: Address; coins: Coin[] }> };
  bank: { sendEnabled: boolean };
  staking: { validators: GenesisValidator[] };
  sidechain: { params: SpanParams; firstSpanDuration: bigint };
  checkpoint: { params: CheckpointParams };
}

/** Decode and validate a genesis document; every error names its field (`app_state.staking.validators[2].pub_key`). */
export function decodeGenesis(value: unknown): Genesis {
  const root = asObject(value, 'genesis');
  noExtraKeys(root, ['chain_id', 'genesis_time_ms', 'app_state'], 'genesis');
  const chainId = str(root, 'chain_id', 'genesis', { maxLength: 64 });
  if (!/^[a-zA-Z0-9._-]+$/.test(chainId))
    throw new InputError(
      'genesis.chain_id',
      `must be letters, digits, '.', '_' or '-', got ${JSON.stringify(chainId)}`,
    );
  const genesisTimeMs = Number(optUint64(root, 'genesis_time_ms', 'genesis', 0n));
  const app = asObject(root.app_state ?? {}, 'genesis.app_state');
  noExtraKeys(app, ['chain', 'auth', 'bank', 'staking', 'sidechain', 'checkpoint'], 'genesis.app_state');

  const chainObj = asObject(app.chain ?? {}, 'genesis.app_state.chain');
  const cp = 'genesis.app_state.chain';
  noExtraKeys(chainObj, ['parent_chain_tx_confirmations', 'sidechain_tx_confirmations', 'sidechain_chain_id'], cp);
  const chain: ChainParams = {
    parentChainTxConfirmations: optUint64(
      chainObj,
      'parent_chain_tx_confirmations',
      cp,
      DEFAULT_CHAIN_PARAMS.parentChainTxConfirmations,
    ),
    sidechainTxConfirmations: optUint64(
      chainObj,
      'sidechain_tx_confirmations',
      cp,
      DEFAULT_CHAIN_PARAMS.sidechainTxConfirmations,
    ),
    sidechainChainId:
      chainObj.sidechain_chain_id === undefined
        ? DEFAULT_CHAIN_PARAMS.sidechainChainId
        : str(chainObj, 'sidechain_chain_id', cp, { maxLength: 64 }),
  };
  if (!/^[0-9]+$/.test(chain.sidechainChainId))
    throw new InputError(`${cp}.sidechain_chain_id`, 'must be a decimal chain id');

  const authObj = asObject(app.auth ?? {}, 'genesis.app_state.auth');
  noExtraKeys(authObj, ['params', 'accounts'], 'genesis.app_state.auth');
  const authParams =
    authObj.params === undefined
      ? DEFAULT_AUTH_PARAMS
      : decodeAuthParams(authObj.params, 'genesis.app_state.auth.params');
  const seenAccounts = new Set<string>();
  const accounts = asArray(authObj.accounts ?? [], 'genesis.app_state.auth.accounts').map((item, i) => {
    const p = `genesis.app_state.auth.accounts[${i}]`;
    const o = asObject(item, p);
    noExtraKeys(o, ['address', 'coins'], p);
    const address = parseAddress(o.address, `${p}.address`);
    if (seenAccounts.has(address)) throw new InputError(`${p}.address`, `duplicate account ${address}`);
    seenAccounts.add(address);
    return { address, coins: o.coins === undefined ? [] : decodeCoins(o.coins, `${p}.coins`) };
  });

  const bankObj = asObject(app.bank ?? {}, 'genesis.app_state.bank');
  noExtraKeys(bankObj, ['send_enabled'], 'genesis.app_state.bank');
  const sendEnabled =
    bankObj.send_enabled === undefined ? true : bool(bankObj, 'send_enabled', 'genesis.app_state.bank');

  const stakingObj = asObject(app.staking ?? {}, 'genesis.app_state.staking');
  noExtraKeys(stakingObj, ['validators'], 'genesis.app_state.staking');
  const vlist = asArray(stakingObj.validators, 'genesis.app_state.staking.validators');
  if (vlist.length === 0)
    throw new InputError('genesis.app_state.staking.validators', 'at least one validator is required');
  const ids = new Set<bigint>();
  const signers = new Set<string>();
  const validators = vlist.map((item, i) => {
    const p = `genesis.app_state.staking.validators[${i}]`;
    const o = asObject(item, p);
    noExtraKeys(o, ['id', 'pub_key', 'power', 'start_epoch'], p);
    const id = uint64(o, 'id', p);
    if (id === 0n) throw new InputError(`${p}.id`, 'validator ids start at 1');
    if (ids.has(id)) throw new InputError(`${p}.id`, `duplicate validator id ${id}`);
    ids.add(id);
    const pk = pubKey(o, 'pub_key', p);
    const signer = addressOfPublicKey(pk);
    if (signers.has(signer)) throw new InputError(`${p}.pub_key`, `duplicate signer ${signer}`);
    signers.add(signer);
    const power = uint64(o, 'power', p);
    if (power === 0n) throw new InputError(`${p}.power`, 'must be at least 1');
    return { id, pubKey: pk, signer, power, startEpoch: optUint64(o, 'start_epoch', p, 0n) };
  });

  const scObj = asObject(app.sidechain ?? {}, 'genesis.app_state.sidechain');
  noExtraKeys(scObj, ['params', 'first_span_duration'], 'genesis.app_state.sidechain');
  const spObj = asObject(scObj.params ?? {}, 'genesis.app_state.sidechain.params');
  const sp = 'genesis.app_state.sidechain.params';
  noExtraKeys(spObj, ['sprint_duration', 'span_duration', 'producer_count'], sp);
  const scParams: SpanParams = {
    sprintDuration: optUint64(spObj, 'sprint_duration', sp, DEFAULT_SPAN_PARAMS.sprintDuration),
    spanDuration: optUint64(spObj, 'span_duration', sp, DEFAULT_SPAN_PARAMS.spanDuration),
    producerCount: optUint64(spObj, 'producer_count', sp, DEFAULT_SPAN_PARAMS.producerCount),
  };
  for (const [k, v] of Object.entries({
    sprint_duration: scParams.sprintDuration,
    span_duration: scParams.spanDuration,
    producer_count: scParams.producerCount,
  })) {
    if (v === 0n) throw new InputError(`${sp}.${k}`, 'must be non-zero');
  }
  if (scParams.spanDuration % scParams.sprintDuration !== 0n)
    throw new InputError(`${sp}.span_duration`, `must be a multiple of sprint_duration (${scParams.sprintDuration})`);
  const firstSpanDuration = optUint64(
    scObj,
    'first_span_duration',
    'genesis.app_state.sidechain',
    DEFAULT_FIRST_SPAN_DURATION,
  );
  if (firstSpanDuration === 0n || firstSpanDuration % scParams.sprintDuration !== 0n) {
    throw new InputError(
      'genesis.app_state.sidechain.first_span_duration',
      `must be a non-zero multiple of sprint_duration (${scParams.sprintDuration})`,
    );
  }

  const ckObj = asObject(app.checkpoint ?? {}, 'genesis.app_state.checkpoint');
  noExtraKeys(ckObj, ['params'], 'genesis.app_state.checkpoint');
  const kpObj = asObject(ckObj.params ?? {}, 'genesis.app_state.checkpoint.params');
  const kp = 'genesis.app_state.checkpoint.params';
  noExtraKeys(
    kpObj,
    ['checkpoint_buffer_time_ms', 'avg_checkpoint_length', 'max_checkpoint_length', 'child_chain_block_interval'],
    kp,
  );
  const ckParams: CheckpointParams = {
    checkpointBufferTimeMs: optUint64(
      kpObj,
      'checkpoint_buffer_time_ms',
      kp,
      DEFAULT_CHECKPOINT_PARAMS.checkpointBufferTimeMs,
    ),
    avgCheckpointLength: optUint64(kpObj, 'avg_checkpoint_length', kp, DEFAULT_CHECKPOINT_PARAMS.avgCheckpointLength),
    maxCheckpointLength: optUint64(kpObj, 'max_checkpoint_length', kp, DEFAULT_CHECKPOINT_PARAMS.maxCheckpointLength),
    childBlockInterval: optUint64(
      kpObj,
      'child_chain_block_interval',
      kp,
      DEFAULT_CHECKPOINT_PARAMS.childBlockInterval,
    ),
  };
  if (ckParams.checkpointBufferTimeMs < 1000n)
    throw new InputError(`${kp}.checkpoint_buffer_time_ms`, 'must be at least 1000');

  return {
    chainId,
    genesisTimeMs,
    chain,
    auth: { params: authParams, accounts },
    bank: { sendEnabled },
    staking: { validators },
    sidechain: { params: scParams, firstSpanDuration },
    checkpoint: { params: ckParams },
  };
}

/** Write the genesis state into an empty store. */
export function initGenesis(store: KVStore, g: Genesis): void {
  setChainParams(store, g.chain);
  setAuthParams(store, g.auth.params);
  setSendEnabled(store, g.bank.sendEnabled);
  for (const a of g.auth.accounts) {
    getOrCreateAccount(store, a.address);
    if (a.coins.length) addCoins(store, a.address, a.coins);
  }
  setSpanParams(store, g.sidechain.params);
  setCheckpointParams(store, g.checkpoint.params);
  setAckCount(store, 0n);

  const validators: Validator[] = [...g.staking.validators]
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
  // Heimdall's InitGenesis without a stored current set applies one more rotation (heimdall §4.3).
  set.incrementProposerPriority(1);
  setValidatorSet(store, set);
  setSpan(
    store,
    genesisSpan(
      set,
      validators,
      g.sidechain.firstSpanDuration,
      g.sidechain.params.producerCount,
      g.chain.sidechainChainId,
    ),
  );
}
