/**
 * Stage (a): the sampled mutants against the unit test project, run by Stryker itself
 * (`@stryker-mutator/core` with its vitest runner, per-test coverage). Stryker mutates only the
 * sampled positions (its `mutate` ranges) and the sample checker (sampleChecker.mjs) drops the
 * other mutants Stryker generates there, so it tests exactly the sample.
 *
 * Facts this works around (checked with Stryker 9.6.1): Stryker rewrites the tsconfig it is
 * pointed at through the TypeScript JS API, which TypeScript 7 no longer has, so `tsconfigFile`
 * names a file that does not exist (vitest needs no tsconfig rewrite); the vitest runner has no
 * project option, so it gets a config with the unit project alone (vitest.unit.config.ts); its
 * sandboxes sit inside this checkout but hold no `.git`, so git is told not to look above them
 * (GIT_CEILING_DIRECTORIES) and a test of the checkout's commit sees what a copy outside git sees.
 */
import { cpus } from 'node:os';
import { join, relative, sep } from 'node:path';
import { Stryker } from '@stryker-mutator/core';
import { type MutantResult, type PartialStrykerOptions } from '@stryker-mutator/api/core';
import { EXCLUDED_MUTATORS, type MutantInfo, mutantKey } from './population';
import { TMP_DIR_NAME, runTmpDir } from './instrumentedTree';

/** How the unit tests judged a mutant (Stryker's statuses, in our words). */
export type UnitStatus = 'killed' | 'survived' | 'no-coverage' | 'timeout' | 'error' | 'static';

export interface UnitResult {
  status: UnitStatus;
  /** Stryker's status and reason (e.g. the failing test). */
  strykerStatus: string;
  detail: string;
}

export interface UnitStageOptions {
  root: string;
  workers: number;
  /** Stryker's progress reporter on a terminal, its append-only one elsewhere. */
  tty: boolean;
}

const STATUS: Record<string, UnitStatus> = {
  Killed: 'killed',
  Survived: 'survived',
  NoCoverage: 'no-coverage',
  Timeout: 'timeout',
  RuntimeError: 'error',
  CompileError: 'error',
  // Covered only while test files load (not by any test): Stryker would run the whole unit project
  // for it; `ignoreStatic` skips it (below).
  Ignored: 'static',
};

/** Stryker's `mutate` entries for a set of mutants: `file:line:column-line:column`, one per position. */
export function mutateRanges(sample: readonly MutantInfo[]): string[] {
  const seen = new Set<string>();
  for (const m of sample) seen.add(`${m.file}:${m.start.line}:${m.start.column}-${m.end.line}:${m.end.column}`);
  return [...seen].sort();
}

export function strykerOptions(sample: readonly MutantInfo[], o: UnitStageOptions): PartialStrykerOptions {
  return {
    testRunner: 'vitest',
    vitest: { configFile: 'bench/mutation/vitest.unit.config.ts' },
    coverageAnalysis: 'perTest',
    mutate: mutateRanges(sample),
    mutator: { excludedMutations: [...EXCLUDED_MUTATORS] },
    checkers: ['mutation-sample'],
    appendPlugins: [join(o.root, 'bench/mutation/sampleChecker.mjs')],
    mutationSample: { root: o.root, keys: sample.map((m) => m.key) },
    // No file of this name exists: Stryker skips the tsconfig rewrite (see the top of this file).
    tsconfigFile: 'bench/mutation/no-tsconfig-rewrite.json',
    disableTypeChecks: false,
    concurrency: Math.max(1, Math.min(o.workers, cpus().length)),
    // Stryker's defaults (a 5-minute initial run, 5 s over a mutant's expected test time) are
    // wall-clock budgets that a busy CI machine overruns: a run it cuts is reported as a crash
    // (the initial run) or a Timeout, which counts as detected. A mutant that really hangs costs
    // a minute more.
    dryRunTimeoutMinutes: 30,
    // Many unit test files build their fixtures while they load, outside any test, so Stryker sees
    // most mutants as "static" and would run the whole unit project for each (61% of a sample, 87%
    // of the estimated time). With ignoreStatic a mutant that a test also covers runs only the
    // tests that cover it (after a reload with it on); one covered only while files load is not
    // run, and the table counts it apart (unit: static).
    ignoreStatic: true,
    timeoutMS: 60_000,
    // This run's own folder: Stryker's sandbox goes in it, and the bench removes it at the end.
    tempDirName: runTmpDir(),
    cleanTempDir: true,
    ignorePatterns: ['/dist', '/reports', '/coverage', `/${TMP_DIR_NAME}`, '/.ci'],
    reporters: [o.tty ? 'progress' : 'progress-append-only'],
    logLevel: 'warn',
    fileLogLevel: 'off',
    incremental: false,
    allowConsoleColors: o.tty,
  } as PartialStrykerOptions;
}

/**
 * A result's identity. Stryker reports results in the mutation-testing report's positions (lines
 * and columns 1-based), while its mutants (and so the sample checker) count columns from 0.
 */
export function resultKey(root: string, r: MutantResult): string {
  return mutantKey({
    file: relative(root, r.fileName).split(sep).join('/'),
    start: { line: r.location.start.line, column: r.location.start.column - 1 },
    end: { line: r.location.end.line, column: r.location.end.column - 1 },
    mutator: r.mutatorName,
    replacement: r.replacement,
  });
}

/** Run Stryker on the sample; every sampled mutant gets a result or this throws. */
export async function runUnitStage(
  sample: readonly MutantInfo[],
  o: UnitStageOptions,
): Promise<Map<string, UnitResult>> {
  const ceiling = process.env.GIT_CEILING_DIRECTORIES;
  process.env.GIT_CEILING_DIRECTORIES = join(o.root, TMP_DIR_NAME);
  let results: MutantResult[];
  try {
    results = await new Stryker(strykerOptions(sample, o)).runMutationTest();
  } finally {
    if (ceiling === undefined) delete process.env.GIT_CEILING_DIRECTORIES;
    else process.env.GIT_CEILING_DIRECTORIES = ceiling;
  }
  const byKey = new Map<string, UnitResult>();
  const wanted = new Set(sample.map((m) => m.key));
  for (const r of results) {
    const key = resultKey(o.root, r);
    if (!wanted.has(key)) continue;
    const status = STATUS[r.status];
    if (status === undefined) throw new Error(`Stryker gave sampled mutant ${key} the status ${r.status}`);
    byKey.set(key, {
      status,
      strykerStatus: r.status,
      detail: r.statusReason ?? (r.killedBy?.length ? `killed by ${r.killedBy.join(', ')}` : ''),
    });
  }
  const missing = [...wanted].filter((k) => !byKey.has(k));
  if (missing.length)
    throw new Error(
      `Stryker returned no result for ${missing.length} sampled mutant(s), e.g. ${missing[0]}: the sample and Stryker's mutants disagree`,
    );
  return byKey;
}
