/**
 * What a run reports about the rules: the exercised ones and the oracle-guarded ones it did not
 * exercise, sorted whatever the order they were judged in, with unit-guarded rules counted apart;
 * summary.json carries exactly that.
 */
import { describe, expect, it } from 'vitest';
import { RULES, isOracleGuard } from './index';
import { ruleCoverage, rulesByModule } from './coverage';
import { summaryObject } from '../report/summary';
import { syntheticRun } from '../report/testing/syntheticRun';

describe('rule coverage', () => {
  it('splits the inventory into exercised, not exercised and unit-guarded, ids sorted', () => {
    const c = ruleCoverage(['sidechain.sprint.rotation', 'auth.ante.fixed-fee', 'auth.ante.fixed-fee', 'not.a.rule']);
    expect(c.exercised).toEqual(['auth.ante.fixed-fee', 'sidechain.sprint.rotation']);
    const oracleGuarded = RULES.filter((r) => isOracleGuard(r.guard)).length;
    expect(c.notExercised).toHaveLength(oracleGuarded - 2);
    expect(c.notExercised).not.toContain('auth.ante.fixed-fee');
    expect([...c.notExercised].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(c.notExercised);
    expect(c.unitGuarded).toBe(RULES.length - oracleGuarded);
  });

  it('groups rules by module in the inventory order', () => {
    const g = rulesByModule(['sidechain.sprint.rotation', 'auth.ante.fixed-fee', 'auth.ante.memo-limit']);
    expect(g.map((m) => m.module)).toEqual(['auth', 'sidechain']);
    expect(g[0]!.rules.map((r) => r.id)).toEqual(['auth.ante.fixed-fee', 'auth.ante.memo-limit']);
  });

  it('summary.json (and lockstep run --json) carries the coverage of the run', () => {
    const { scenario, result } = syntheticRun(8);
    const s = summaryObject(scenario, { ...result, rulesExercised: ['span.proposal.window', 'bank.supply.conserved'] });
    expect(s.rules.exercised).toEqual(['bank.supply.conserved', 'span.proposal.window']);
    expect(s.rules.notExercised).not.toContain('span.proposal.window');
  });
});
