/**
 * The inventory's own check (run by sim/rules/inventory.test.ts): every rule has a guard; an
 * oracle guard names an oracle of the OracleSuite whose source judges the rule (`this.saw('<id>')`);
 * a unit guard names a test file that exists and a test title that is in it; every id an oracle
 * names is in the table. Pure over what it is given (the table, the suite's oracles with their
 * source text, a file reader), so a test can plant a broken entry and see each check fire.
 */
import { type Rule } from './rule';

export type ProblemKind =
  | 'bad-id'
  | 'duplicate-id'
  | 'no-guard'
  | 'unknown-oracle'
  | 'not-judged'
  | 'missing-unit-file'
  | 'missing-unit-test'
  | 'unknown-rule-named'
  | 'opaque-saw';

export interface Problem {
  kind: ProblemKind;
  /** The rule (or the oracle source file, for the last two kinds). */
  where: string;
  message: string;
}

/** One oracle of the suite: its name and the source text of its class. */
export interface OracleSource {
  name: string;
  /** The oracle's class body (what `this.saw(...)` calls it makes), or null when it could not be found. */
  source: string | null;
}

export interface InventoryInputs {
  rules: readonly Rule[];
  /** The modules an id may start with. */
  modules: readonly string[];
  oracles: readonly OracleSource[];
  /** Every oracle source file (path → text), to find ids that are not in the table. */
  oracleFiles: ReadonlyMap<string, string>;
  /** A test file's text by repository path, or null when there is no such file. */
  readFile: (path: string) => string | null;
}

const ID_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*){2,}$/;
const SAW_RE = /\bthis\.saw\(\s*(?:'([^'\\]*)'|"([^"\\]*)"|([^)]*))\s*\)/g;
/** `it('title'`, `test("title"`, `it.each(...)('title'`: the title of each test, as written. */
const TEST_RE =
  /\b(?:it|test)(?:\.(?:each|only|concurrent|sequential)\s*(?:\([^()]*\))?)?\s*\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;

/** `static readonly judges: readonly RuleId[] = [ ... ];` and the string literals in it. */
const JUDGES_RE = /\bstatic\s+readonly\s+judges\b[^=]*=\s*\[([^\]]*)\]/g;
const LITERAL_RE = /'([^'\\]*)'|"([^"\\]*)"/g;

/**
 * The ids an oracle source names: with `this.saw('<id>')`, or in the `judges` list a class declares
 * when its ids come from a model (its `saw` calls may then pass a variable; the base class refuses
 * an id outside the list at run time). `opaque`: calls whose argument is not a literal, in a source
 * that declares no list.
 */
export function sawCalls(source: string): { ids: Set<string>; opaque: string[] } {
  const ids = new Set<string>();
  const opaque: string[] = [];
  const lists = [...source.matchAll(JUDGES_RE)].map((m) => m[1]!);
  for (const list of lists) for (const m of list.matchAll(LITERAL_RE)) ids.add(m[1] ?? m[2]!);
  const judges = lists.length > 0;
  SAW_RE.lastIndex = 0;
  for (let m = SAW_RE.exec(source); m !== null; m = SAW_RE.exec(source)) {
    const id = m[1] ?? m[2];
    if (id !== undefined) ids.add(id);
    else if (!judges) opaque.push(m[0]);
  }
  return { ids, opaque };
}

/** The titles of the tests in a test file (string literals; escapes undone). */
export function testTitles(text: string): Set<string> {
  const out = new Set<string>();
  TEST_RE.lastIndex = 0;
  for (let m = TEST_RE.exec(text); m !== null; m = TEST_RE.exec(text)) out.add(m[2]!.replace(/\\(.)/g, '$1'));
  return out;
}

/**
 * The source of `class <className>` in `text`: from its header to the next top-level class (or
 * the end of the file), or null when the file has no such class.
 */
export function classSource(text: string, className: string): string | null {
  const head = new RegExp(`^(?:export\\s+)?(?:abstract\\s+)?class\\s+${className}\\b`, 'm').exec(text);
  if (!head) return null;
  const rest = text.slice(head.index + head[0].length);
  const next = /^(?:export\s+)?(?:abstract\s+)?class\s+\w+/m.exec(rest);
  return text.slice(head.index, head.index + head[0].length + (next ? next.index : rest.length));
}

const blank = (s: unknown): boolean => typeof s !== 'string' || s.trim() === '';

export function checkInventory(x: InventoryInputs): Problem[] {
  const out: Problem[] = [];
  const add = (kind: ProblemKind, where: string, message: string) => out.push({ kind, where, message });
  const ids = new Set<string>();
  const oracles = new Map(x.oracles.map((o) => [o.name, o]));
  const judged = new Map<string, Set<string>>();
  for (const o of x.oracles) if (o.source !== null) judged.set(o.name, sawCalls(o.source).ids);
  const titlesOf = new Map<string, Set<string> | null>();

  for (const r of x.rules) {
    if (!ID_RE.test(r.id) || !x.modules.includes(r.id.slice(0, r.id.indexOf('.'))))
      add('bad-id', r.id, `rule id '${r.id}' is not <module>.<topic>.<rule> in kebab case with a known module`);
    if (ids.has(r.id)) add('duplicate-id', r.id, `rule id '${r.id}' is in the table twice`);
    ids.add(r.id);
    if (blank(r.rule) || blank(r.source)) add('no-guard', r.id, `rule '${r.id}' has no text or no source`);
    const g = r.guard as Partial<Record<'oracle' | 'compares' | 'unit' | 'test' | 'why', unknown>> | undefined;
    if (!g || (!('oracle' in g) && !('unit' in g))) {
      add(
        'no-guard',
        r.id,
        `rule '${r.id}' has no guard: give it an oracle (with what it compares) or a unit test (with why)`,
      );
      continue;
    }
    if ('oracle' in g) {
      if (blank(g.oracle) || blank(g.compares)) {
        add('no-guard', r.id, `rule '${r.id}' names no oracle or not what it compares`);
        continue;
      }
      const name = g.oracle as string;
      const o = oracles.get(name);
      if (!o) {
        add(
          'unknown-oracle',
          r.id,
          `rule '${r.id}' is guarded by oracle '${name}', which is not in the OracleSuite (sim/oracles/suite.ts) — an oracle still to be written, or a misspelt name`,
        );
        continue;
      }
      if (o.source === null) {
        add(
          'not-judged',
          r.id,
          `rule '${r.id}': the source of oracle '${name}' was not found, so it cannot be shown to judge the rule`,
        );
        continue;
      }
      if (!judged.get(name)!.has(r.id))
        add(
          'not-judged',
          r.id,
          `rule '${r.id}' is guarded by oracle '${name}', but its source never calls this.saw('${r.id}') where it judges the rule`,
        );
    } else {
      if (blank(g.unit) || blank(g.test) || blank(g.why)) {
        add('no-guard', r.id, `rule '${r.id}' names no unit test file, title or reason`);
        continue;
      }
      const file = g.unit as string;
      if (!titlesOf.has(file)) {
        const text = x.readFile(file);
        titlesOf.set(file, text === null ? null : testTitles(text));
      }
      const titles = titlesOf.get(file);
      if (titles === null || titles === undefined)
        add('missing-unit-file', r.id, `rule '${r.id}' is guarded by the unit test file ${file}, which does not exist`);
      else if (!titles.has(g.test as string))
        add('missing-unit-test', r.id, `rule '${r.id}': ${file} has no test titled '${g.test as string}'`);
    }
  }

  for (const [file, text] of x.oracleFiles) {
    const { ids: named, opaque } = sawCalls(text);
    for (const id of [...named].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
      if (!ids.has(id))
        add('unknown-rule-named', file, `${file} calls this.saw('${id}'), which is not a rule of the inventory`);
    for (const call of opaque)
      add(
        'opaque-saw',
        file,
        `${file}: ${call.trim()} does not name its rule as a string literal (the inventory check reads the ids from the source)`,
      );
  }
  return out;
}
