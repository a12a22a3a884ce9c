/**
 * The rules section of report.html: the rules of docs/RULES.md the run exercised (an oracle judged
 * them on at least one event) and the oracle-guarded ones it did not, each with its text and its
 * guard, grouped by module. Closed <details> per list, so the page opens short.
 */
import { isOracleGuard } from '../../rules';
import { ruleCoverage, rulesByModule } from '../../rules/coverage';
import { esc } from './format';

function ruleTable(ids: readonly string[]): string {
  const out: string[] = [];
  for (const m of rulesByModule(ids)) {
    out.push(`<h3>${esc(m.title)}</h3><table><tr><th>rule</th><th>what it says</th><th>oracle</th></tr>`);
    for (const r of m.rules)
      out.push(
        `<tr><td class="mono">${esc(r.id)}</td><td>${esc(r.rule)}</td><td>${isOracleGuard(r.guard) ? esc(r.guard.oracle) : ''}</td></tr>`,
      );
    out.push('</table>');
  }
  return out.join('\n');
}

export function rulesSection(exercised: readonly string[]): string {
  const c = ruleCoverage(exercised);
  const guarded = c.exercised.length + c.notExercised.length;
  return [
    '<section id="rules"><h2>Rules</h2>',
    `<p>The oracles judged <b>${c.exercised.length}</b> of the ${guarded} rules an oracle guards (docs/RULES.md); ` +
      `${c.unitGuarded} more rules are guarded by unit tests only. A rule not exercised was not checked by this run.</p>`,
    `<details class="rules"><summary>exercised (${c.exercised.length})</summary>${ruleTable(c.exercised)}</details>`,
    `<details class="rules"><summary>not exercised (${c.notExercised.length})</summary>${ruleTable(c.notExercised)}</details>`,
    '</section>',
  ].join('\n');
}
