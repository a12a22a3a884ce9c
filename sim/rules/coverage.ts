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

/** What a campaign (`lockstep fuzz`, `lockstep test`, a merge of shards) says about the rules. */
export interface CampaignRules {
  /** Each rule some run exercised, with the number of runs that did (keys sorted). */
  exercised: Record<string, number>;
  /** Oracle-guarded rules no run of the campaign exercised, sorted. */
  neverExercised: RuleId[];
  unitGuarded: number;
}

/** From per-rule run counts (a missing part, e.g. a summary of an older build, counts nothing). */
function fromCounts(counts: ReadonlyMap<string, number>): CampaignRules {
  const c = ruleCoverage(counts.keys());
  const exercised: Record<string, number> = {};
  for (const id of c.exercised) exercised[id] = counts.get(id)!;
  return { exercised, neverExercised: c.notExercised, unitGuarded: c.unitGuarded };
}

/** The union over a campaign's runs, each given by the rules it exercised. */
export function campaignRules(runs: Iterable<readonly string[]>): CampaignRules {
  const counts = new Map<string, number>();
  for (const run of runs) for (const id of new Set(run)) counts.set(id, (counts.get(id) ?? 0) + 1);
  return fromCounts(counts);
}

/** The union of several campaigns' rules (shards of one campaign). */
export function mergeCampaignRules(parts: ReadonlyArray<CampaignRules | undefined>): CampaignRules {
  const counts = new Map<string, number>();
  for (const p of parts)
    for (const [id, n] of Object.entries(p?.exercised ?? {})) counts.set(id, (counts.get(id) ?? 0) + n);
  return fromCounts(counts);
}

/** Terminal lines: how many rules the campaign exercised, and the ones it never did. */
export function campaignRulesLines(c: CampaignRules, runs: string): string[] {
  const n = Object.keys(c.exercised).length;
  const lines = [
    `rules       ${n} of ${n + c.neverExercised.length} oracle-guarded rules exercised by at least one ${runs} (${c.unitGuarded} more by unit tests only)`,
  ];
  if (c.neverExercised.length)
    lines.push(`never exercised (${c.neverExercised.length}): ${c.neverExercised.join(', ')}`);
  return lines;
}
