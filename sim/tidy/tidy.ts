/**
 * The tidy check of the architecture's determinism contract:
 *  1. banned nondeterministic APIs anywhere in src/ and sim/ outside the real adapters;
 *  2. the import direction (direction.ts): src/ <- sim/ <- cli/ at the top level, between the
 *     folders of src/, and between the floors of sim/;
 *  3. no import cycle of more than two files (cycles.ts), type imports included;
 *  4. the oracles' independence: sim/oracles/ imports no rule code from anywhere (see ORACLE_VALUE_IMPORTS);
 *  5. no hidden process-wide cache: a module-level Map, WeakMap or Set that is not a read-only
 *     table is made with src/core/memo.ts (bounded, counted, cleared between runs), or named below.
 * It reads files as text; it runs nothing. Test files are skipped: they are not part of a run.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep, dirname, posix } from 'node:path';
import { knots } from './cycles';
import { directionBreach, layerOf } from './direction';
import { DYNAMIC_IMPORT_RE, SIDE_EFFECT_IMPORT_RE, STATEMENT_RE, importsOf, targetOf } from './imports';

export interface TidyFinding {
  file: string;
  line: number;
  rule: 'banned-api' | 'import-direction' | 'import-cycle' | 'oracle-imports' | 'module-cache';
  message: string;
}

interface BannedApi {
  pattern: RegExp;
  name: string;
  hint: string;
}

// The patterns are written so that this file does not itself contain the calls it bans.
const BANNED: BannedApi[] = [
  { pattern: /\bDate\s*\.\s*now\s*\(/, name: 'Date.now', hint: 'use the engine clock (Clock.nowMs) instead' },
  { pattern: /\bnew\s+Date\s*\(/, name: 'new Date', hint: 'use the engine clock; format times from virtual ms' },
  { pattern: /\bMath\s*\.\s*random\s*\(/, name: 'Math.random', hint: 'use a seeded Rng stream (rng.fork(name))' },
  {
    pattern: /\bperformance\s*\.\s*now\s*\(/,
    name: 'performance.now',
    hint: 'use the engine clock; wall time only in real adapters and bench/',
  },
  { pattern: /\bsetTimeout\s*\(/, name: 'setTimeout', hint: 'schedule an engine event (engine.after) instead' },
  { pattern: /\bsetInterval\s*\(/, name: 'setInterval', hint: 'schedule a recurring engine event instead' },
  {
    pattern: /\bsetImmediate\s*\(/,
    name: 'setImmediate',
    hint: 'schedule an engine event at the current time instead',
  },
  {
    pattern: /\brandomBytes\s*\(/,
    name: 'crypto.randomBytes',
    hint: 'draw bytes from a seeded Rng stream (rng.bytes)',
  },
  {
    pattern: /\.sort\(\s*\)/,
    name: '.sort() without a comparator',
    hint: 'pass a comparator from src/core/order (canonical order)',
  },
  {
    pattern: /\blocaleCompare\b/,
    name: 'localeCompare',
    hint: 'use compareStrings from src/core/order (locale-independent)',
  },
];

/** Where the real adapters live: wall clock, sockets and files are allowed there. */
const REAL_ADAPTERS = [
  /^src\/node\/real/,
  /^src\/rpc\//,
  /^src\/client\//,
  /^cli\//,
  /^sim\/workers\//,
  /^sim\/campaign\//,
  /^sim\/tidy\//,
];

/**
 * Module-level mutable maps that are not caches, and why (everything else goes through
 * src/core/memo.ts). A constant table is declared ReadonlyMap / ReadonlySet and needs no entry.
 */
const MODULE_STATE: Readonly<Record<string, string>> = {
  'src/core/memo.ts': 'the registry of the caches themselves',
  'src/core/signatureScheme.ts':
    "the fast scheme's key registry: a signature made with a registered key must stay verifiable",
};

const MODULE_MAP_RE = /^(?:export\s+)?(?:const|let)\s+[\w$]+\s*(:\s*([^=]+?))?\s*=\s*new\s+(?:Weak)?(?:Map|Set)\b/;

/**
 * An oracle never shares rule code with what it checks (it keeps its own model, written from the
 * spec and the reference). sim/oracles/ may import values only from itself and from these plain
 * helpers: byte/hex conversion and the keccak/sha256 hash functions. Everything else only as
 * types. Not allowed, for instance: src/core/merkle.ts and src/core/hashRules.ts (the checkpoint
 * hash rules are checked, so the oracles build their own trees), src/core/validatorSet.ts (the
 * proposer-priority rule under test), anything in src/sidechain, src/modules, src/consensus.
 */
export const ORACLE_VALUE_IMPORTS: readonly string[] = [
  'src/core/bytes',
  'src/core/hash',
  // A curve primitive (ECDSA public-key recovery), not the project's rule code: the service model
  // recovers transaction signers over sign bytes it builds itself.
  '@noble/curves/secp256k1.js',
  // A library's transaction codec (the EIP-155 / EIP-1559 signing digest and the recovery of its
  // signer), not the project's decoder: the sidechain-accounts oracle recovers each included
  // transaction's sender itself, where the node's rule for which signature names whom is checked.
  'ethers',
];

/** `{ type A, type B }`: every specifier is a type. */
function onlyTypes(clause: string): boolean {
  if (!clause.startsWith('{')) return false;
  const names = clause
    .slice(1, -1)
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
  return names.every((n) => /^type\s/.test(n));
}

function checkOracleImports(rel: string, code: string): TidyFinding[] {
  const out: TidyFinding[] = [];
  const lineAt = (index: number) => code.slice(0, index).split('\n').length;
  const where = (spec: string): string =>
    spec.startsWith('.')
      ? posix.normalize(posix.join(posix.dirname(rel), spec)).replace(/\.(ts|js|mts|mjs)$/, '')
      : spec;
  const allowed = (target: string) => target.startsWith('sim/oracles/') || ORACLE_VALUE_IMPORTS.includes(target);
  const report = (index: number, what: string) =>
    out.push({
      file: rel,
      line: lineAt(index),
      rule: 'oracle-imports',
      message: `sim/oracles must not ${what}: an oracle keeps its own model of the rule it checks (values only from sim/oracles and ${ORACLE_VALUE_IMPORTS.join(', ')}; anything else as \`import type\`)`,
    });
  STATEMENT_RE.lastIndex = 0;
  for (let m = STATEMENT_RE.exec(code); m !== null; m = STATEMENT_RE.exec(code)) {
    const [, , typeKeyword, clause, spec] = m;
    if (typeKeyword !== undefined || onlyTypes(clause!)) continue;
    const target = where(spec!);
    if (!allowed(target)) report(m.index + m[0].search(/import|export/), `import values from ${target}`);
  }
  SIDE_EFFECT_IMPORT_RE.lastIndex = 0;
  for (let m = SIDE_EFFECT_IMPORT_RE.exec(code); m !== null; m = SIDE_EFFECT_IMPORT_RE.exec(code)) {
    const target = where(m[1]!);
    if (!allowed(target)) report(m.index + m[0].search(/import/), `import ${target} for its effects`);
  }
  DYNAMIC_IMPORT_RE.lastIndex = 0;
  for (let m = DYNAMIC_IMPORT_RE.exec(code); m !== null; m = DYNAMIC_IMPORT_RE.exec(code))
    report(m.index, 'import modules at run time');
  return out;
}

export function listSourceFiles(root: string, dirs: string[] = ['src', 'sim', 'cli']): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of entries.sort(byName)) {
      const full = join(dir, name);
      if (name === 'node_modules') continue;
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|mts|js|mjs)$/.test(name) && !/\.test\.ts$/.test(name)) out.push(full);
    }
  };
  for (const d of dirs) walk(join(root, d));
  return out;
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Strip comments so prose about `Date.now` does not count; keep line numbers. */
function stripComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, (_m, p1: string) => p1);
}

export function checkFile(root: string, file: string, text: string = readFileSync(file, 'utf8')): TidyFinding[] {
  const rel = relative(root, file).split(sep).join('/');
  const code = stripComments(text);
  const lines = code.split('\n');
  const violations: TidyFinding[] = [];

  if (!REAL_ADAPTERS.some((re) => re.test(rel))) {
    lines.forEach((line, i) => {
      for (const b of BANNED) {
        if (b.pattern.test(line))
          violations.push({
            file: rel,
            line: i + 1,
            rule: 'banned-api',
            message: `${b.name} is banned here: ${b.hint}`,
          });
      }
    });
  }

  if (rel.startsWith('sim/oracles/')) violations.push(...checkOracleImports(rel, code));

  if (MODULE_STATE[rel] === undefined) {
    lines.forEach((line, i) => {
      const m = MODULE_MAP_RE.exec(line);
      if (m && !/^Readonly(Map|Set)\b/.test((m[2] ?? '').trim()))
        violations.push({
          file: rel,
          line: i + 1,
          rule: 'module-cache',
          message:
            'a module-level Map/WeakMap/Set lives as long as the process: make a cache with boundedMemo/weakMemo (src/core/memo.ts: bounded, counted, cleared between runs), or type a constant table ReadonlyMap/ReadonlySet',
        });
    });
  }

  const from = layerOf(rel);
  if (from !== null)
    for (const imp of importsOf(code)) {
      if (!imp.spec.startsWith('.')) continue;
      const to = layerOf(targetOf(rel, imp.spec));
      if (to === null || to === from) continue;
      const message = directionBreach(from, to, imp.spec);
      if (message !== null) violations.push({ file: rel, line: imp.line, rule: 'import-direction', message });
    }
  return violations;
}

export function checkTree(root: string): TidyFinding[] {
  const files = listSourceFiles(root);
  return [...files.flatMap((f) => checkFile(root, f)), ...checkCycles(root, files)];
}

/** Every loop of more than two files in the import graph of src/, sim/ and cli/ (type imports included). */
function checkCycles(root: string, files: readonly string[]): TidyFinding[] {
  const rels = files.map((f) => relative(root, f).split(sep).join('/'));
  const known = new Set(rels);
  const resolve = (t: string) => [`${t}.ts`, `${t}/index.ts`, `${t}.mjs`, t].find((c) => known.has(c)) ?? null;
  const edges = new Map<string, string[]>();
  files.forEach((f, i) => {
    const rel = rels[i]!;
    const out: string[] = [];
    for (const imp of importsOf(stripComments(readFileSync(f, 'utf8'))))
      if (imp.spec.startsWith('.')) {
        const to = resolve(targetOf(rel, imp.spec));
        if (to !== null && to !== rel) out.push(to);
      }
    edges.set(rel, out);
  });
  return knots(rels, edges).map((loop) => ({
    file: loop[0]!,
    line: 1,
    rule: 'import-cycle' as const,
    message: `${loop.length} files import each other in a loop (${loop.join(', ')}): give the shared part a file of its own, or let one side see the other through a narrow interface`,
  }));
}

export function formatFindings(vs: TidyFinding[]): string {
  return vs.map((v) => `${v.file}:${v.line}: [${v.rule}] ${v.message}`).join('\n');
}

export const tidyRoot = (): string => join(dirname(new URL(import.meta.url).pathname), '..', '..');
