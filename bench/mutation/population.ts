/**
 * The mutants the bench samples from: every mutant Stryker's instrumenter generates in the target
 * files with the logic mutators, each named by a stable identity (file, position, mutator,
 * replacement) rather than Stryker's run-local id, so results, shards and the judgements file can
 * refer to it across runs and machines.
 *
 * The mutators are Stryker's own; the bench adds nothing to them. The planted bugs' switches
 * (src/core/plants.ts) are more code to mutate, except where a mutant gives a switch the value it
 * has while no plant is on (`isPlanted('x')` made `false`, `!isPlanted('x')` made `true`, a
 * conjunction with a switch made `false`): the same program in every run the benches make, which
 * only the plants' own test tells apart (isPlantSwitchEquivalent; left out of the population).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { type Mutant as StrykerMutant } from '@stryker-mutator/api/core';
import { quietLogger } from './strykerLogger';

/** The folders and files mutated (paths relative to the package root). */
export const TARGETS: readonly string[] = [
  'src/modules',
  'src/consensus',
  'src/sidechain',
  'src/bridge',
  'src/core/validatorSet.ts',
];

/**
 * Stryker's logic mutators (its names). Left out: literals (StringLiteral, ObjectLiteral,
 * ArrayDeclaration, Regex: mostly messages and shapes), BlockStatement and ArrowFunction (whole
 * bodies emptied: crashes, not rule slips), AssignmentOperator, MethodExpression and
 * OptionalChaining (outside the list).
 */
export const MUTATORS: readonly string[] = [
  'ArithmeticOperator',
  'BooleanLiteral',
  'ConditionalExpression',
  'EqualityOperator',
  'LogicalOperator',
  'UnaryOperator',
  'UpdateOperator',
];

const ALL_STRYKER_MUTATORS: readonly string[] = [
  ...MUTATORS,
  'ArrayDeclaration',
  'ArrowFunction',
  'AssignmentOperator',
  'BlockStatement',
  'MethodExpression',
  'ObjectLiteral',
  'OptionalChaining',
  'Regex',
  'StringLiteral',
];

export const EXCLUDED_MUTATORS: readonly string[] = ALL_STRYKER_MUTATORS.filter((m) => !MUTATORS.includes(m));

/** A position as people read it: line 1-based, column 0-based (Stryker's columns). */
export interface Position {
  line: number;
  column: number;
}

export interface MutantInfo {
  /** The stable identity: `file:line:column-endLine:endColumn Mutator replacement`. */
  key: string;
  /** Relative to the package root, with `/`. */
  file: string;
  /** The top folder it counts under in the tables (`src/modules`, … or the file). */
  folder: string;
  start: Position;
  end: Position;
  mutator: string;
  /** The source text it replaces, and the replacement (Stryker's printed code). */
  original: string;
  replacement: string;
}

export function mutantKey(m: Pick<MutantInfo, 'file' | 'start' | 'end' | 'mutator' | 'replacement'>): string {
  return `${m.file}:${m.start.line}:${m.start.column}-${m.end.line}:${m.end.column} ${m.mutator} ${m.replacement}`;
}

function isSourceFile(path: string): boolean {
  return path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.d.ts');
}

/** The target source files: no tests, no test fixtures (`testing/` folders). */
export function targetFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    const abs = join(root, rel);
    if (statSync(abs).isFile()) {
      if (isSourceFile(rel)) out.push(rel);
      return;
    }
    for (const name of readdirSync(abs).sort()) {
      if (name === 'testing') continue;
      walk(`${rel}/${name}`);
    }
  };
  for (const t of TARGETS) walk(t);
  return out.sort();
}

export function folderOf(file: string): string {
  return TARGETS.find((t) => file === t || file.startsWith(`${t}/`)) ?? file;
}

/** The text between two positions of a file's lines (line 1-based, column 0-based). */
export function sourceText(lines: readonly string[], start: Position, end: Position): string {
  if (start.line === end.line) return lines[start.line - 1]!.slice(start.column, end.column);
  const parts = [lines[start.line - 1]!.slice(start.column)];
  for (let l = start.line + 1; l < end.line; l++) parts.push(lines[l - 1]!);
  parts.push(lines[end.line - 1]!.slice(0, end.column));
  return parts.join('\n');
}

/** A Stryker mutant (0-based lines, absolute or relative file name) as a MutantInfo. */
export function fromStryker(root: string, m: StrykerMutant, lines: readonly string[]): MutantInfo {
  const file = relative(root, m.fileName).split(sep).join('/');
  const start = { line: m.location.start.line + 1, column: m.location.start.column };
  const end = { line: m.location.end.line + 1, column: m.location.end.column };
  const base = { file, start, end, mutator: m.mutatorName, replacement: m.replacement ?? '' };
  return {
    key: mutantKey(base),
    folder: folderOf(file),
    original: sourceText(lines, start, end),
    ...base,
  };
}

const SWITCH = String.raw`isPlanted\('[a-z0-9-]+'\)`;
const SWITCH_ALONE = new RegExp(`^${SWITCH}$`);
const NOT_SWITCH = new RegExp(`^!${SWITCH}$`);
const SWITCH_CONJUNCT = new RegExp(`(^${SWITCH}\\s*&&)|(&&\\s*${SWITCH}$)`);

/**
 * Whether a mutant only writes down the value a plant switch has while no plant is on: the
 * program is then the same as the original in every run without a plant (an equivalent mutant).
 * A conjunction counts only without `||` or `?` in it, so that the switch is one of its top-level
 * terms and the whole is false while the switch is.
 */
export function isPlantSwitchEquivalent(m: Pick<MutantInfo, 'original' | 'replacement'>): boolean {
  const original = m.original.trim();
  if (m.replacement === 'true') return NOT_SWITCH.test(original);
  if (m.replacement !== 'false') return false;
  if (SWITCH_ALONE.test(original)) return true;
  return !/\|\||\?/.test(original) && SWITCH_CONJUNCT.test(original);
}

export interface InstrumentedFile {
  file: string;
  content: string;
}

export interface Instrumented {
  /** Every mutant generated (excluded mutators and ignored ones left out), with Stryker's id of this run. */
  mutants: Array<MutantInfo & { strykerId: string }>;
  files: InstrumentedFile[];
}

/**
 * Instrument `files` with Stryker's instrumenter: mutants of the logic mutators, placed as
 * switches (mutant schemata) read at run time from `globalThis.__stryker__.activeMutant`.
 * `ranges` narrows a file to some mutant positions (the sample); absent, the whole file.
 */
export async function instrument(
  root: string,
  files: readonly string[],
  ranges?: ReadonlyMap<string, ReadonlyArray<{ start: Position; end: Position }>>,
): Promise<Instrumented> {
  const contents = new Map(files.map((f) => [f, readFileSync(join(root, f), 'utf8')]));
  const input = files.map((f) => {
    const r = ranges?.get(f);
    return {
      name: join(root, f),
      content: contents.get(f)!,
      // Stryker's ranges: 0-based lines.
      mutate: r
        ? r.map(({ start, end }) => ({
            start: { line: start.line - 1, column: start.column },
            end: { line: end.line - 1, column: end.column },
          }))
        : true,
    };
  });
  const result = await new Instrumenter(quietLogger()).instrument(input, {
    plugins: null,
    excludedMutations: [...EXCLUDED_MUTATORS],
    ignorers: [],
  });
  const linesOf = new Map([...contents].map(([f, c]) => [f, c.split('\n')]));
  const mutants = result.mutants
    .filter((m) => m.status !== 'Ignored')
    .map((m) => {
      const file = relative(root, m.fileName).split(sep).join('/');
      return { ...fromStryker(root, m, linesOf.get(file)!), strykerId: m.id };
    })
    .filter((m) => !isPlantSwitchEquivalent(m));
  return {
    mutants,
    files: result.files.map((f) => ({ file: relative(root, f.name).split(sep).join('/'), content: f.content })),
  };
}
