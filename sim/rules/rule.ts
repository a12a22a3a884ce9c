/**
 * One rule of the rule inventory (docs/RULES.md): a normative statement of the spec or of the
 * reference notes the project follows, in the project's own words, with where it comes from and
 * what guards it. A rule is guarded either by an oracle, which judges it on every relevant event of
 * every simulated run, or by a unit test, when a simulation cannot see it (a response shape, a CLI
 * output format), with the reason.
 */

/** An oracle of the OracleSuite (by its `name`) and the model state or fact it compares. */
export interface OracleGuard {
  readonly oracle: string;
  readonly compares: string;
}

/** A unit test (file path from the repository root, and the test's own title) and why only a unit test sees the rule. */
export interface UnitGuard {
  readonly unit: string;
  readonly test: string;
  readonly why: string;
}

export type Guard = OracleGuard | UnitGuard;

export interface Rule {
  /** `<module>.<topic>.<rule>`, kebab case. */
  readonly id: string;
  /** The rule in the project's own words. */
  readonly rule: string;
  /** Where it comes from: a section of the spec, or an item or section of the reference notes. */
  readonly source: string;
  readonly guard: Guard;
}

export const isOracleGuard = (g: Guard): g is OracleGuard => 'oracle' in g;
