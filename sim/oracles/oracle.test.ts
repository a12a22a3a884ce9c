/**
 * The oracle base: an oracle that declares the rules it may name (a judges list) cannot name
 * another, and the rules it names are what a run reports as exercised.
 */
import { describe, expect, it } from 'vitest';
import { Oracle, type RunRecord } from './oracle';
import { type RuleId } from './ruleId';

class Declared extends Oracle {
  readonly name = 'declared';
  readonly class = 'safety' as const;
  readonly reads = [] as const;
  static readonly judges: readonly RuleId[] = ['auth.ante.memo-limit'];
  nameRule(id: RuleId): void {
    this.saw(id);
  }
  override observe(_r: RunRecord): void {}
}

describe('the oracle base', () => {
  it('records the rules an oracle names, and refuses one outside its judges list', () => {
    const o = new Declared();
    o.nameRule('auth.ante.memo-limit');
    expect([...o.exercised]).toEqual(['auth.ante.memo-limit']);
    expect(() => o.nameRule('auth.ante.fee-balance')).toThrow(/judges list does not declare/);
  });
});
