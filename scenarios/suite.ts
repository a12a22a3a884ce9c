/**
 * The scenario suite, shared by its two test files: every file in scenarios/ and
 * scenarios/regressions/ runs on its fixed seed and must meet its expectations: the verdict (and,
 * for a failing one, the oracle that fires first) and the metric bounds. A regression may name a
 * planted bug (test builds only). Large networks (BOTH_PLACEMENTS_FROM_VALIDATORS and up) also run
 * in the worker placement, which must give the same trace hash; they are a file of their own
 * (large.test.ts) so the test runner can run them beside the rest of the suite.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isScenarioFileName, loadScenario, SCENARIOS_DIR } from '../sim/scenario/load';
import { type Scenario } from '../sim/scenario/scenario';
import { runScenario, runScenarioAsync } from '../sim/run/run';
import { checkExpectations } from '../sim/report/summary';

/** Sets this large also run in the worker placement, which must give the same trace hash. */
export const BOTH_PLACEMENTS_FROM_VALIDATORS = 65;

function suiteFiles(): string[] {
  return [
    ...readdirSync(SCENARIOS_DIR)
      .filter(isScenarioFileName)
      .map((f) => join(SCENARIOS_DIR, f)),
    ...(existsSync(join(SCENARIOS_DIR, 'regressions'))
      ? readdirSync(join(SCENARIOS_DIR, 'regressions'))
          .filter(isScenarioFileName)
          .map((f) => join(SCENARIOS_DIR, 'regressions', f))
      : []),
  ];
}

/** One test per scenario file that `pick` keeps, and a test that it keeps some. */
export function describeSuite(title: string, pick: (s: Scenario) => boolean): void {
  const picked = suiteFiles()
    .map((file) => ({ file, scenario: loadScenario(file).scenario }))
    .filter(({ scenario }) => pick(scenario));
  describe(title, () => {
    it('has scenarios', () => expect(picked.length).toBeGreaterThan(0));
    for (const { scenario } of picked) {
      const both = scenario.validators.length >= BOTH_PLACEMENTS_FROM_VALIDATORS;
      it(
        `${scenario.name}: ${scenario.expect.verdict}${scenario.expect.oracle ? ` (${scenario.expect.oracle})` : ''}${both ? ', inline and worker' : ''}`,
        async () => {
          const r = runScenario(scenario, { seed: scenario.seed ?? 1 });
          const failed = checkExpectations(scenario, r).filter((c) => !c.ok);
          expect(
            failed,
            `${r.message}; violations: ${r.violations.map((v) => `${v.oracle}: ${v.message}`).join(' | ')}`,
          ).toEqual([]);
          if (scenario.expect.oracle) expect(r.violation?.oracle).toBe(scenario.expect.oracle);
          if (both) {
            const w = await runScenarioAsync(scenario, { seed: scenario.seed ?? 1, placement: 'worker' });
            expect(
              checkExpectations(scenario, w).filter((c) => !c.ok),
              `worker placement: ${w.message}`,
            ).toEqual([]);
            expect(w.traceHash, 'worker placement: the same trace hash as inline').toBe(r.traceHash);
          }
        },
        // A hundred-validator network runs for tens of seconds per placement.
        both ? 300_000 : undefined,
      );
    }
  });
}
