// A Stryker checker plugin that lets through only the sampled mutants. The unit stage narrows
// Stryker's `mutate` option to the sampled mutants' positions, but Stryker then also generates the
// other mutants at those positions (another operator on the same expression, a mutant inside it);
// this checker marks every mutant whose identity is not in the sample as not to be run, so Stryker
// tests exactly the sample. Stryker loads it by path (`appendPlugins`) in its own process and in
// every child process, where no TypeScript loader runs: hence plain JavaScript.
import { relative, sep } from 'node:path';
import { CheckStatus } from '@stryker-mutator/api/check';
import { PluginKind, commonTokens, declareClassPlugin } from '@stryker-mutator/api/plugin';

export const NOT_SAMPLED = 'not in the sample';

/**
 * A Stryker mutant's identity, as bench/mutation/population.ts names it (`mutantKey`; a test keeps
 * the two equal): `file:line:column-endLine:endColumn Mutator replacement`, lines 1-based.
 * @param {string} root
 * @param {import('@stryker-mutator/api/core').Mutant} m
 */
export function strykerMutantKey(root, m) {
  const file = relative(root, m.fileName).split(sep).join('/');
  const { start, end } = m.location;
  return `${file}:${start.line + 1}:${start.column}-${end.line + 1}:${end.column} ${m.mutatorName} ${m.replacement}`;
}

class SampleChecker {
  static inject = [commonTokens.options];

  /** @param {{ mutationSample: { root: string, keys: string[] } }} options */
  constructor(options) {
    this.root = options.mutationSample.root;
    this.keys = new Set(options.mutationSample.keys);
  }

  async init() {}

  /** @param {import('@stryker-mutator/api/core').Mutant[]} mutants */
  async check(mutants) {
    /** @type {Record<string, import('@stryker-mutator/api/check').CheckResult>} */
    const out = {};
    for (const m of mutants)
      out[m.id] = this.keys.has(strykerMutantKey(this.root, m))
        ? { status: CheckStatus.Passed }
        : { status: CheckStatus.CompileError, reason: NOT_SAMPLED };
    return out;
  }

  /**
   * One group: a check is a set lookup.
   * @param {import('@stryker-mutator/api/core').Mutant[]} mutants
   */
  async group(mutants) {
    return [mutants.map((m) => m.id)];
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Checker, 'mutation-sample', SampleChecker)];

// The option it reads, declared so Stryker does not warn about an unknown option.
export const strykerValidationSchema = {
  $schema: 'http://json-schema.org/draft-07/schema',
  type: 'object',
  properties: {
    mutationSample: {
      type: 'object',
      properties: { root: { type: 'string' }, keys: { type: 'array', items: { type: 'string' } } },
      required: ['root', 'keys'],
    },
  },
};
