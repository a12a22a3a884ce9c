/**
 * docs/RULES.md, generated from the rule table (`npm run rules` writes it; a test fails while the
 * file is stale): a short introduction, a count per module, then each module's rules with their
 * source and guard.
 */
import { type Rule, RULE_MODULES, RULES, isOracleGuard, moduleOf } from './index';

const INTRO = `# Rules

<!-- Generated from sim/rules/ by \`npm run rules\`; do not edit by hand (a test fails while it is stale). -->

Every normative rule of the service's specification, and of the reference behaviour the project
follows where the specification is silent (see [ARCHITECTURE.md](ARCHITECTURE.md), "Where the
behaviour comes from"), stated in the project's own words, with where it comes from and what
guards it. The table lives in the code, one file per module under \`sim/rules/\`; this page is
generated from it.

- A **rule** has an id \`<module>.<topic>.<rule>\` (kebab case), the rule itself and its source: a
  section of the spec, or an item of the reference notes (the README of the reference lists each
  difference between the spec and the reference and the side the project took).
- Its **guard** is either an **oracle** (\`sim/oracles/\`, named as in a scenario's
  \`expect.oracle\`) with the model state or fact it compares, judged on every relevant event of
  every simulated run; or a **unit test** (file and title) with the reason a simulation cannot see
  the rule, typically a response shape or an output format that no client reads during a run.
- A rule is **exercised** by a run when its oracle saw at least one event the rule speaks about and
  judged it, whether it held or not (the oracle calls \`this.saw('<id>')\` there). \`lockstep run
  --json\`, \`summary.json\` and \`report.html\` list the rules a run exercised and the ones it did not;
  \`lockstep test\` and \`lockstep fuzz\` give the union over their runs and the rules never exercised.
  A green run says nothing about a rule it did not exercise.

\`sim/rules/inventory.test.ts\` fails when a rule has no guard, names an oracle that is not in the
\`OracleSuite\` or a test file or title that does not exist, when an oracle never calls
\`this.saw\` for a rule it guards, or when an oracle names an id that is not in the table.

**Adding a rule.** Add an entry to the module's file in \`sim/rules/\` (the id, the rule in your
own words, the source, the guard). For an oracle guard, call \`this.saw('<id>')\` in that oracle
where it judges the rule on an event (before deciding whether it holds); the id is type-checked
(\`RuleId\` is the union of the table's ids). For a unit guard, name the test file and its exact
title, and say why a simulation cannot see the rule. Then run \`npm run rules\` to rewrite this page.
`;

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function guardText(r: Rule): string {
  const g = r.guard;
  if (isOracleGuard(g)) return `oracle \`${g.oracle}\`: ${g.compares}`;
  return `unit \`${g.unit}\` › “${g.test}” (${g.why})`;
}

export function rulesMarkdown(rules: readonly Rule[] = RULES): string {
  const lines = [INTRO];
  const counts = RULE_MODULES.map((m) => ({ ...m, rules: rules.filter((r) => moduleOf(r.id) === m.module) }));
  const oracleGuarded = rules.filter((r) => isOracleGuard(r.guard)).length;
  lines.push(
    `${rules.length} rules: ${oracleGuarded} guarded by an oracle, ${rules.length - oracleGuarded} by a unit test.`,
    '',
    '| module | rules | by an oracle | by a unit test |',
    '| --- | --- | --- | --- |',
    ...counts.map((m) => {
      const o = m.rules.filter((r) => isOracleGuard(r.guard)).length;
      return `| [${m.module}](#${m.module}) | ${m.rules.length} | ${o} | ${m.rules.length - o} |`;
    }),
    '',
  );
  for (const m of counts) {
    if (m.rules.length === 0) continue;
    lines.push(`## ${m.module}`, '', m.title.slice(m.title.indexOf(':') + 2), '', '| id | rule | source | guard |');
    lines.push('| --- | --- | --- | --- |');
    for (const r of m.rules)
      lines.push(`| \`${r.id}\` | ${cell(r.rule)} | ${cell(r.source)} | ${cell(guardText(r))} |`);
    lines.push('');
  }
  return lines.join('\n');
}
