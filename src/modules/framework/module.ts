/**
 * The shape every module has. A module folder holds its keeper (store access only), its messages,
 * its queries with their JSON shapes, its genesis section, its error codes, its params and the
 * invariants it states, and exports one `Module` that names them. Every folder has the same files
 * (module, keeper, msgs, queries, genesis, params, errors, invariants; src/app/modules.test.ts
 * checks): a part a module lacks is an empty one in its file, with a comment saying why. The app
 * builds the genesis, the query router, the message registry and the invariant check by iterating
 * the modules (src/app/modules.ts), so adding a module is one folder and one line there.
 */
import { type ResultError } from '../../core/errors';
import { type KVReader, type KVStore } from '../../store/kvStore';
import { type MsgDef } from './msgDef';
import { type QueryRoute } from './query';

/** The module's section of the genesis document, `app_state.<key>`. */
export interface ModuleGenesis<G> {
  /** The `app_state` key (the reference's module name, which may differ from the folder's). */
  readonly key: string;
  /** The section a chain starts from when the document leaves it out. */
  defaults(): G;
  /** Decode and check the section; throws an InputError naming the bad field under `path`. */
  decode(value: unknown, path: string): G;
  /**
   * Write the section into the store. Modules are initialised in the order of the module list; a
   * module may read what an earlier one wrote (the span module reads the validator set).
   */
  init(store: KVStore, genesis: G): void;
  /** The section as stored now, in the form `decode` reads. */
  export(store: KVReader): Record<string, unknown>;
}

export interface ModuleParams<P> {
  readonly defaults: P;
  read(store: KVReader): P;
  /** The params as the module's query shows them. */
  json(params: P): Record<string, unknown>;
}

/**
 * A rule about the committed state that holds after every block, whatever the transactions:
 * `check` returns what is wrong, or null. A broken invariant is a bug in Lockstep, never a bad
 * transaction (those are rejected by the handlers).
 */
export interface Invariant {
  readonly name: string;
  check(store: KVReader): string | null;
}

export interface Module<G = unknown, P = unknown> {
  /** The folder's name: `auth`, `bank`, `chain`, `staking`, `span`, `checkpoint`, `topup`, `clerk`. */
  readonly name: string;
  readonly msgs: readonly MsgDef[];
  readonly queries: readonly QueryRoute[];
  readonly genesis: ModuleGenesis<G>;
  /** The codes this module registered (each registered once, see core/errors.ts). */
  readonly errors: Readonly<Record<string, ResultError>>;
  readonly params: ModuleParams<P> | null;
  readonly invariants: readonly Invariant[];
}
