/**
 * The module registry: every module has the same shape, and the app's genesis, message registry,
 * query router and error codes come from iterating them without a clash.
 */
import { existsSync, readdirSync } from 'node:fs';
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

describe('every module has the same shape', () => {
  it('one module per folder under src/modules (but framework), named after it, in genesis order', () => {
    const folders = readdirSync(MODULES_DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'framework')
      .map((d) => d.name)
      .sort();
    expect(MODULES.map((m) => m.name).sort()).toEqual(folders);
    // Genesis order: a module may read what an earlier one wrote.
    const order = MODULES.map((m) => m.name);
    expect(order.indexOf('chain')).toBeLessThan(order.indexOf('span'));
    expect(order.indexOf('staking')).toBeLessThan(order.indexOf('span'));
  });

  it.each(MODULES.map((m) => [m.name, m] as const))(
    '%s: the same fields, and a file for each part it has',
    (name, m) => {
      expect(Object.keys(m).sort()).toEqual([...FIELDS].sort());
      const dir = join(MODULES_DIR, name);
      const has = (f: string) => existsSync(join(dir, f));
      // Every module states its keeper, its invariants and its Module.
      for (const f of ['module.ts', 'keeper.ts', 'invariants.ts']) expect(has(f), `${name}/${f}`).toBe(true);
      expect(m.invariants.length, `${name} states invariants`).toBeGreaterThan(0);
      // The optional parts live in their own file exactly when the module has them.
      expect(has('msgs.ts'), `${name}/msgs.ts`).toBe(m.msgs.length > 0);
      expect(has('queries.ts'), `${name}/queries.ts`).toBe(m.queries.length > 0);
      expect(has('params.ts'), `${name}/params.ts`).toBe(m.params !== null);
      expect(has('errors.ts'), `${name}/errors.ts`).toBe(Object.keys(m.errors).length > 0);
      const emptyGenesis = Object.keys(m.genesis.defaults() as object).length === 0;
      expect(has('genesis.ts'), `${name}/genesis.ts`).toBe(!emptyGenesis);
    },
  );

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
