/**
 * A rule of the rule inventory (sim/rules, docs/RULES.md), named `<module>.<topic>.<rule>` in kebab
 * case (for example `checkpoint.noack.after-buffer-time`). Oracles name the rules they judge with
 * `saw(id)`; a type-only re-export, so an oracle imports no rule code.
 */
export type { RuleId } from '../rules';
