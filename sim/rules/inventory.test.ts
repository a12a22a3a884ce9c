/**
 * The rule inventory holds: every rule has a guard; an oracle guard names an oracle of the
 * OracleSuite (the names come from a suite built here, not from a list) whose source judges the
 * rule (`this.saw('<id>')`); a unit guard names a test file and title that exist; every id an
 * oracle names is in the table; docs/RULES.md is what `npm run rules` writes. Each check is shown
 * to fire on a planted broken entry.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadScenario } from '../scenario/load';
import { OracleSuite } from '../oracles/suite';
import { RULES, RULE_MODULES, isOracleGuard, type Rule } from './index';
import {
  type InventoryInputs,
  type OracleSource,
  type Problem,
  type ProblemKind,
  checkInventory,
  classSource,
  testTitles,
} from './inventoryCheck';
import { rulesMarkdown } from './markdown';

const ROOT = join(import.meta.dirname, '..', '..');
const ORACLES_DIR = join(ROOT, 'sim', 'oracles');

/** Every oracle source file under sim/oracles (tests excluded), by repository path. */
function oracleFiles(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts') && !name.endsWith('.test.ts'))
        out.set(relative(ROOT, full).split('\\').join('/'), readFileSync(full, 'utf8'));
    }
  };
  walk(ORACLES_DIR);
  return out;
}

const FILES = oracleFiles();

/** The suite's oracles (built from the default scenario), each with the source of its class. */
function suiteOracles(): OracleSource[] {
  const suite = new OracleSuite(loadScenario('default').scenario);
  return suite.oracles.map((o) => {
    const cls = o.constructor.name;
    let source: string | null = null;
    for (const text of FILES.values()) source ??= classSource(text, cls);
    return { name: o.name, source };
  });
}

const readFile = (path: string): string | null => {
  const full = join(ROOT, path);
  return existsSync(full) && statSync(full).isFile() ? readFileSync(full, 'utf8') : null;
};

const inputs = (over: Partial<InventoryInputs> = {}): InventoryInputs => ({
  rules: RULES,
  modules: RULE_MODULES.map((m) => m.module),
  oracles: suiteOracles(),
  oracleFiles: FILES,
  readFile,
  ...over,
});

const PROBLEMS = checkInventory(inputs());
const of = (ps: Problem[], ...kinds: ProblemKind[]): string[] =>
  ps.filter((p) => kinds.includes(p.kind)).map((p) => p.message);

describe('the rule inventory', () => {
  it('has well over a hundred rules, each with a well-formed unique id, its text, a source and a guard', () => {
    expect(RULES.length).toBeGreaterThan(150);
    expect(of(PROBLEMS, 'bad-id', 'duplicate-id', 'no-guard')).toEqual([]);
  });

  it('every unit guard names a test file that exists and a test title that is in it', () => {
    expect(of(PROBLEMS, 'missing-unit-file', 'missing-unit-test')).toEqual([]);
  });

  it('every oracle guard names an oracle of the OracleSuite', () => {
    const missing = new Map<string, string[]>();
    for (const r of RULES)
      if (isOracleGuard(r.guard) && PROBLEMS.some((p) => p.kind === 'unknown-oracle' && p.where === r.id)) {
        const list = missing.get(r.guard.oracle) ?? [];
        list.push(r.id);
        missing.set(r.guard.oracle, list);
      }
    const report = [...missing].map(
      ([oracle, ids]) =>
        `oracle '${oracle}' is not in the OracleSuite (sim/oracles/suite.ts) but guards ${ids.length} rule(s): ${ids.join(', ')}`,
    );
    expect(
      report,
      'rules guarded by oracles the suite does not have (yet): write and wire the oracle, or fix the name',
    ).toEqual([]);
  });

  it("every oracle-guarded rule is judged in its oracle's source (this.saw), and oracles name only rules of the table", () => {
    expect(of(PROBLEMS, 'not-judged', 'unknown-rule-named', 'opaque-saw')).toEqual([]);
  });

  it('docs/RULES.md is generated from the table (npm run rules writes it)', () => {
    expect(readFileSync(join(ROOT, 'docs', 'RULES.md'), 'utf8')).toBe(rulesMarkdown());
  });
});

describe('the inventory check fires on a planted broken entry', () => {
  const modules = ['x'];
  const rule = (id: string, guard: unknown): Rule => ({ id, rule: 'a rule', source: 'spec: here', guard }) as Rule;
  const oracle: OracleSource = {
    name: 'planted-oracle',
    source: "class Planted extends Oracle {\n  observe() { this.saw('x.a.judged'); }\n}\n",
  };
  const testFile = 'it(\'a real title\', () => {});\ntest("another one", () => {});\n';
  const plant = (rules: Rule[], over: Partial<InventoryInputs> = {}) =>
    checkInventory({
      rules,
      modules,
      oracles: [oracle],
      oracleFiles: new Map(),
      readFile: (p) => (p === 'x.test.ts' ? testFile : null),
      ...over,
    });
  const kinds = (ps: Problem[]) => ps.map((p) => p.kind);

  it('the control: a judged oracle rule and a unit rule with a real title pass', () => {
    expect(
      plant([
        rule('x.a.judged', { oracle: 'planted-oracle', compares: 'a fact' }),
        rule('x.a.unit', { unit: 'x.test.ts', test: 'another one', why: 'a format' }),
      ]),
    ).toEqual([]);
  });

  it('a rule without a guard, or with an empty one', () => {
    expect(kinds(plant([rule('x.a.none', undefined)]))).toEqual(['no-guard']);
    expect(kinds(plant([rule('x.a.empty', { oracle: 'planted-oracle', compares: '' })]))).toEqual(['no-guard']);
    expect(kinds(plant([rule('x.a.why', { unit: 'x.test.ts', test: 'a real title', why: ' ' })]))).toEqual([
      'no-guard',
    ]);
  });

  it('a malformed, unknown-module or duplicate id', () => {
    const g = { unit: 'x.test.ts', test: 'a real title', why: 'a format' };
    expect(kinds(plant([rule('x.Bad_id.rule', g)]))).toEqual(['bad-id']);
    expect(kinds(plant([rule('x.two', g)]))).toEqual(['bad-id']);
    expect(kinds(plant([rule('y.a.rule', g)]))).toEqual(['bad-id']);
    expect(kinds(plant([rule('x.a.rule', g), rule('x.a.rule', g)]))).toEqual(['duplicate-id']);
  });

  it('an oracle that is not in the suite', () => {
    const ps = plant([rule('x.a.judged', { oracle: 'no-such-oracle', compares: 'a fact' })]);
    expect(kinds(ps)).toEqual(['unknown-oracle']);
    expect(ps[0]!.message).toMatch(/'no-such-oracle', which is not in the OracleSuite/);
  });

  it('an oracle that never judges the rule it guards', () => {
    const ps = plant([rule('x.a.unjudged', { oracle: 'planted-oracle', compares: 'a fact' })]);
    expect(kinds(ps)).toEqual(['not-judged']);
    expect(ps[0]!.message).toMatch(/never calls this\.saw\('x\.a\.unjudged'\)/);
  });

  it('a unit test file that does not exist, or a title that is not in it', () => {
    expect(kinds(plant([rule('x.a.file', { unit: 'nope.test.ts', test: 'a real title', why: 'w' })]))).toEqual([
      'missing-unit-file',
    ]);
    expect(kinds(plant([rule('x.a.title', { unit: 'x.test.ts', test: 'a made-up title', why: 'w' })]))).toEqual([
      'missing-unit-test',
    ]);
  });

  it('an oracle naming a rule id that is not in the table, or naming it by a non-literal', () => {
    const files = new Map([['sim/oracles/planted.ts', "this.saw('x.a.ghost');\nthis.saw(id);\n"]]);
    const ps = plant([rule('x.a.judged', { oracle: 'planted-oracle', compares: 'a fact' })], { oracleFiles: files });
    expect(kinds(ps)).toEqual(['unknown-rule-named', 'opaque-saw']);
  });

  it('an oracle whose ids come from a model declares them in a judges list: that list counts, and a variable passes', () => {
    const source = [
      'class Modelled extends Oracle {',
      '  static readonly judges: readonly RuleId[] = [\'x.a.judged\', "x.b.judged"];',
      '  observe() { this.saw(outcome.rule); }',
      '}',
    ].join('\n');
    const ps = plant(
      [
        rule('x.a.judged', { oracle: 'planted-oracle', compares: 'a fact' }),
        rule('x.b.judged', { oracle: 'planted-oracle', compares: 'a fact' }),
        rule('x.c.judged', { oracle: 'planted-oracle', compares: 'a fact' }),
      ],
      { oracles: [{ name: 'planted-oracle', source }], oracleFiles: new Map([['sim/oracles/m.ts', source]]) },
    );
    // x.c is guarded by the oracle but not in its list; the variable is no opaque call.
    expect(ps.map((p) => `${p.kind} ${p.where}`)).toEqual(['not-judged x.c.judged']);
  });

  it('reads test titles as written: quotes, escapes and it.each', () => {
    const t = testTitles("it('a \\'quoted\\' one', f);\nit(\"with 'single'\", f);\nit.each([1])('each %s', f);\n");
    expect([...t]).toEqual(["a 'quoted' one", "with 'single'", 'each %s']);
  });

  it('finds the class of each oracle of the suite', () => {
    expect(suiteOracles().filter((o) => o.source === null)).toEqual([]);
  });
});
