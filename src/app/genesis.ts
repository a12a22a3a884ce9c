/**
 * The service genesis: chain id, genesis time and one section per module (`app_state.<key>`),
 * decoded and initialised by iterating the modules (modules.ts). Every error names its field
 * (`genesis.app_state.staking.validators[2].pub_key`).
 */
import { InputError } from '../core/errors';
import { type KVReader, type KVStore } from '../store/kvStore';
import { asObject, noExtraKeys, optUint64, str } from '../modules/framework/decode';
import { type AuthGenesis } from '../modules/auth/genesis';
import { type BankGenesis } from '../modules/bank/genesis';
import { type ChainParams } from '../modules/chain/params';
import { type CheckpointGenesis } from '../modules/checkpoint/genesis';
import { type SpanGenesis } from '../modules/span/genesis';
import { type StakingGenesis } from '../modules/staking/genesis';
import { MODULES } from './modules';

export interface Genesis {
  chainId: string;
  genesisTimeMs: number;
  chain: ChainParams;
  auth: AuthGenesis;
  bank: BankGenesis;
  staking: StakingGenesis;
  /** The span module's section (the reference's name for it). */
  sidechain: SpanGenesis;
  checkpoint: CheckpointGenesis;
  /** Every module's section by its key, as decoded (the typed fields above are among them). */
  sections: Readonly<Record<string, unknown>>;
}

/** Decode and validate a genesis document; every error names its field. */
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
  noExtraKeys(
    app,
    MODULES.map((m) => m.genesis.key),
    'genesis.app_state',
  );
  const sections: Record<string, unknown> = {};
  for (const m of MODULES)
    sections[m.genesis.key] = m.genesis.decode(app[m.genesis.key], `genesis.app_state.${m.genesis.key}`);
  return {
    chainId,
    genesisTimeMs,
    chain: sections.chain as ChainParams,
    auth: sections.auth as AuthGenesis,
    bank: sections.bank as BankGenesis,
    staking: sections.staking as StakingGenesis,
    sidechain: sections.sidechain as SpanGenesis,
    checkpoint: sections.checkpoint as CheckpointGenesis,
    sections,
  };
}

/** Write the genesis state into an empty store, module by module in the list's order. */
export function initGenesis(store: KVStore, g: Genesis): void {
  for (const m of MODULES) m.genesis.init(store, g.sections[m.genesis.key]);
}

/** The `app_state` of the state in `store`, one section per module, in the form decodeGenesis reads. */
export function exportAppState(store: KVReader): Record<string, unknown> {
  return Object.fromEntries(MODULES.map((m) => [m.genesis.key, m.genesis.export(store)]));
}
