/**
 * A rule of the rule inventory, named `<module>.<topic>.<rule>` in kebab case (for example
 * `checkpoint.noack.after-buffer-time`). Oracles name the rules they judge with `saw(id)`.
 */
export type RuleId = string;
