/**
 * The module registry: every module has the same shape, and the app's genesis, message registry,
 * query router and error codes come from iterating them without a clash.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, InvariantError, defineErrors } from '../core/errors';
import { MemoryStore } from '../store/kvStore';
import { SdkErrors, CommonErrors } from '../modules/framework/errors';
import { decodeGenesis, exportAppState, initGenesis } from './genesis';
import { MODULES, QUERY_ROUTER } from './modules';
import { MSG_DEFS, MSG_REGISTRY } from './registry';
import { TestChain } from './testing/testChain';

const MODULES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'modules');
const FIELDS = ['name', 'msgs', 'queries', 'genesis', 'errors', 'params', 'invariants'];
/** The files of every module folder: one per part of the Module (and the keeper its parts use). */
const PART_FILES = [
  'module.ts',
  'keeper.ts',
  'msgs.ts',
  'queries.ts',
  'genesis.ts',
  'params.ts',
  'errors.ts',
  'invariants.ts',
];

/** The module folders on disk (every folder under src/modules but the shared framework). */
function moduleFolders(): string[] {
  return readdirSync(MODULES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'framework')
    .map((d) => d.name)
    .sort();
}

describe('every module has the same shape', () => {
  it('one module per folder under src/modules (but framework), named after it, in genesis order', () => {
    expect(MODULES.map((m) => m.name).sort()).toEqual(moduleFolders());
    // Genesis order: a module may read what an earlier one wrote.
    const order = MODULES.map((m) => m.name);
    expect(order.indexOf('chain')).toBeLessThan(order.indexOf('span'));
    expect(order.indexOf('staking')).toBeLessThan(order.indexOf('span'));
  });

  it.each(MODULES.map((m) => [m.name, m] as const))('%s: the same fields, and invariants stated', (name, m) => {
    expect(Object.keys(m).sort()).toEqual([...FIELDS].sort());
    expect(m.invariants.length, `${name} states invariants`).toBeGreaterThan(0);
  });

  it.each(moduleFolders())('%s/ has a file for every part, and its Module is built from them', (name) => {
    const dir = join(MODULES_DIR, name);
    const missing = PART_FILES.filter((f) => !existsSync(join(dir, f)));
    expect(
      missing,
      `src/modules/${name}/ lacks ${missing.join(', ')} (a part it does not have still gets its file, saying why)`,
    ).toEqual([]);
    // module.ts names its parts from their files (the keeper only where it reads the params).
    const moduleTs = readFileSync(join(dir, 'module.ts'), 'utf8');
    for (const f of PART_FILES.filter((x) => x !== 'module.ts' && x !== 'keeper.ts'))
      expect(moduleTs, `src/modules/${name}/module.ts imports ./${f.replace('.ts', '')}`).toContain(
        `from './${f.replace('.ts', '')}';`,
      );
  });

  it('queries are named <module>.<what>, once each; messages are defined once', () => {
    const names = MODULES.flatMap((m) => m.queries.map((q) => q.name));
    expect(new Set(names).size).toBe(names.length);
    for (const m of MODULES) for (const q of m.queries) expect(q.name.startsWith(`${m.name}.`), q.name).toBe(true);
    expect(MSG_REGISTRY.size).toBe(MSG_DEFS.length);
    expect(MSG_DEFS.length).toBe(13);
    for (const m of MODULES) for (const d of m.msgs) expect(MSG_REGISTRY.get(d.type)).toBe(d);
  });

  it('the router answers every module route and names it', () => {
    const store = new MemoryStore();
    const chain = new TestChain();
    for (const [path, route] of [
      ['/auth/params', 'auth.params'],
      ['/chain/params', 'chain.params'],
      ['/staking/validator-set', 'staking.validatorSet'],
      ['/sidechain/latest-span', 'span.latest'],
      ['/checkpoints/count', 'checkpoint.count'],
      ['/clerk/event-record/list', 'clerk.list'],
      ['/topup/dividend-account-root', 'topup.accountRoot'],
    ] as const) {
      const a = chain.app.query(path);
      expect(a.route, path).toBe(route);
      expect(a.outcome.ok, path).toBe(true);
    }
    expect(QUERY_ROUTER.route(store, { height: 0n, timeMs: 0 }, '/nowhere').outcome).toEqual({
      ok: false,
      kind: 'notFound',
      message: 'no route for "/nowhere"',
    });
  });
});

describe('error codes', () => {
  it("every module's codes (variants included) are registered codes, and the registry holds each pair once", () => {
    const keys = ERROR_CODES.list().map((e) => `${e.codespace}/${e.code}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const table of [SdkErrors, CommonErrors, ...MODULES.map((m) => m.errors)])
      for (const e of Object.values(table)) expect(keys, e.message).toContain(`${e.codespace}/${e.code}`);
    // Each module's own table registers codes no other module registered.
    const owner = new Map<string, string>();
    for (const m of MODULES)
      for (const e of Object.values(m.errors)) {
        const key = `${e.codespace}/${e.code}`;
        expect(owner.get(key) ?? m.name, key).toBe(m.name);
        owner.set(key, m.name);
      }
  });

  it('a second registration of a module code is refused (1505 is one code with two texts)', () => {
    expect(() => defineErrors('1', { InvalidNoAckProposer: [1505, 'Invalid No ACK Proposer'] })).toThrow(
      InvariantError,
    );
    expect(() => defineErrors('sdk', { TxDecode: [2, 'tx parse error'] })).toThrow(
      /registered once.*registeredAs="TxDecode"/,
    );
    const codes1505 = ERROR_CODES.list().filter((e) => e.codespace === '1' && e.code === 1505);
    expect(codes1505).toEqual([
      {
        codespace: '1',
        code: 1505,
        message: 'Invalid No ACK -- Waiting for last checkpoint ACK',
        name: 'InvalidNoAck',
      },
    ]);
  });
});

describe('genesis from the modules', () => {
  it('every section decodes, initialises and exports back to what decodes the same', () => {
    const chain = new TestChain({ validators: 3 });
    const exported = exportAppState(chain.app.store);
    expect(Object.keys(exported)).toEqual(MODULES.map((m) => m.genesis.key));
    const again = decodeGenesis({ chain_id: chain.chainId, app_state: exported });
    expect(again.sections).toEqual(chain.app.genesis.sections);
    const store = new MemoryStore();
    initGenesis(store, again);
    expect(store.hash()).toBe(chain.app.store.hash());
  });

  it('a section a document leaves out is the module default; an unknown section or field is named', () => {
    const chain = new TestChain({ validators: 1 });
    const minimal = { chain_id: 'x', app_state: { staking: exportAppState(chain.app.store).staking } };
    const g = decodeGenesis(minimal);
    for (const m of MODULES) if (m.name !== 'staking') expect(g.sections[m.genesis.key]).toEqual(m.genesis.defaults());
    expect(() => decodeGenesis({ ...minimal, app_state: { ...minimal.app_state, nope: {} } })).toThrow(
      /genesis\.app_state\.nope: unknown field/,
    );
    expect(() => decodeGenesis({ ...minimal, app_state: { ...minimal.app_state, clerk: { records: [] } } })).toThrow(
      /genesis\.app_state\.clerk\.records: unknown field/,
    );
    expect(() =>
      decodeGenesis({ ...minimal, app_state: { ...minimal.app_state, auth: { params: { max_tx_gaz: 1 } } } }),
    ).toThrow(/genesis\.app_state\.auth\.params\.max_tx_gaz: unknown field/);
  });
});
