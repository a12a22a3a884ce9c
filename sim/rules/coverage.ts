/**
 * Which rules of the inventory a run (or a campaign) exercised: the rules whose oracle judged at
 * least one event, and the oracle-guarded rules it did not. Unit-guarded rules are never exercised
 * by a run; they are counted apart. Lists are sorted by id, so reports stay deterministic.
 */
import { type Rule, RULES, RULE_MODULES, type RuleId, isOracleGuard, moduleOf, ruleById } from './index';

export interface RuleCoverage {
  /** Rules some oracle judged, sorted. */
  exercised: RuleId[];
  /** Oracle-guarded rules no oracle judged, sorted. */
  notExercised: RuleId[];
  /** How many rules only a unit test guards (a run cannot exercise them). */
  unitGuarded: number;
}

const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function ruleCoverage(exercised: Iterable<string>): RuleCoverage {
  const seen = new Set<string>(exercised);
  const out: RuleCoverage = { exercised: [], notExercised: [], unitGuarded: 0 };
  for (const r of RULES) {
    if (seen.has(r.id)) out.exercised.push(r.id);
    else if (isOracleGuard(r.guard)) out.notExercised.push(r.id);
    else out.unitGuarded++;
  }
  out.exercised.sort(byId);
  out.notExercised.sort(byId);
  return out;
}

/** Rules by module, in the inventory's module order (modules without any of `ids` left out). */
export function rulesByModule(ids: readonly string[]): Array<{ module: string; title: string; rules: Rule[] }> {
  return RULE_MODULES.map((m) => ({
    ...m,
    rules: ids
      .filter((id) => moduleOf(id) === m.module)
      .map((id) => ruleById(id))
      .filter((r): r is Rule => r !== undefined),
  })).filter((m) => m.rules.length > 0);
}
