import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Mutant } from '@stryker-mutator/api/core';
import { CheckStatus } from '@stryker-mutator/api/check';
import { PACKAGE_ROOT } from '../../cli/provenance';
import { instrument } from './population';
import { resultKey } from './unitStage';

interface CheckerModule {
  strykerMutantKey: (root: string, m: Mutant) => string;
  NOT_SAMPLED: string;
  strykerPlugins: Array<{
    injectableClass: new (
      o: unknown,
    ) => { check(ms: Mutant[]): Promise<Record<string, { status: string; reason?: string }>> };
  }>;
}

// A path held in a variable: the plugin is plain JavaScript, loaded here as Stryker loads it.
const CHECKER = './sampleChecker.mjs';

describe('the sample checker and the population name mutants alike', async () => {
  const checker = (await import(CHECKER)) as CheckerModule;
  const { mutants } = await instrument(PACKAGE_ROOT, ['src/modules/checkpoint/bufferTime.ts']);
  // Stryker's mutants as its checkers see them: 0-based lines, 0-based columns, absolute paths.
  const asStryker = mutants.map(
    (m): Mutant => ({
      id: m.strykerId,
      fileName: join(PACKAGE_ROOT, m.file),
      location: {
        start: { line: m.start.line - 1, column: m.start.column },
        end: { line: m.end.line - 1, column: m.end.column },
      },
      mutatorName: m.mutator,
      replacement: m.replacement,
    }),
  );

  it('the key of every mutant is the same in the plugin and in population.ts', () => {
    expect(mutants.length).toBeGreaterThan(5);
    expect(asStryker.map((m) => checker.strykerMutantKey(PACKAGE_ROOT, m))).toEqual(mutants.map((m) => m.key));
  });

  it("Stryker's results (1-based columns) map back to the same keys", () => {
    const results = asStryker.map((m) => ({
      ...m,
      status: 'Killed' as const,
      location: {
        start: { line: m.location.start.line + 1, column: m.location.start.column + 1 },
        end: { line: m.location.end.line + 1, column: m.location.end.column + 1 },
      },
    }));
    expect(results.map((r) => resultKey(PACKAGE_ROOT, r))).toEqual(mutants.map((m) => m.key));
  });

  it('lets through the sampled mutants only', async () => {
    const Checker = checker.strykerPlugins[0]!.injectableClass;
    const sampled = [mutants[1]!.key, mutants[3]!.key];
    const c = new Checker({ mutationSample: { root: PACKAGE_ROOT, keys: sampled } });
    const out = await c.check(asStryker);
    const passed = asStryker.filter((m) => out[m.id]!.status === CheckStatus.Passed).map((m) => m.id);
    expect(passed).toEqual([mutants[1]!.strykerId, mutants[3]!.strykerId]);
    expect(out[mutants[0]!.strykerId]).toEqual({ status: CheckStatus.CompileError, reason: checker.NOT_SAMPLED });
  });
});
