import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleById } from '../../sim/rules';
import { JUDGEMENTS_FILE, addPlaceholders, judge, parseJudgements, readJudgements } from './judgements';

const KEY = 'src/modules/bank/msgs.ts:10:4-10:12 EqualityOperator a <= b';

describe('the judgements file', () => {
  it('the checked-in file is valid, and every gap names a rule of the inventory', () => {
    expect(() => readJudgements(JUDGEMENTS_FILE)).not.toThrow();
    const raw = JSON.parse(readFileSync(JUDGEMENTS_FILE, 'utf8')) as {
      judgements: Record<string, { verdict: string; rule?: string }>;
    };
    const unknown = Object.entries(raw.judgements)
      .filter(([, j]) => j.verdict === 'gap' && ruleById(j.rule ?? '') === undefined)
      .map(([k, j]) => `${k}: ${j.rule}`);
    expect(unknown).toEqual([]);
  });

  it('names the entry and field that is wrong', () => {
    const bad = (j: unknown) => () => parseJudgements(JSON.stringify({ judgements: { [KEY]: j } }));
    expect(bad({ verdict: 'equivalent', original: 'a < b' })).toThrow(`judgements["${KEY}"]: "reason"`);
    expect(bad({ verdict: 'gap', original: 'a < b' })).toThrow('"rule": a gap names the rule');
    expect(bad({ verdict: 'maybe', original: 'a < b' })).toThrow('"verdict": expected');
    expect(bad({ verdict: 'gap', rule: 'x' })).toThrow('"original"');
    expect(() => parseJudgements('{')).toThrow(`${JUDGEMENTS_FILE}: not valid JSON`);
  });

  it('judges by identity, and a judgement of code that has changed is stale', () => {
    const file = parseJudgements(
      JSON.stringify({ judgements: { [KEY]: { verdict: 'gap', original: 'a < b', rule: 'bank.send.amount' } } }),
    );
    expect(judge(file, { key: KEY, original: 'a < b' })).toEqual({
      verdict: 'gap',
      rule: 'bank.send.amount',
      note: '',
    });
    expect(judge(file, { key: KEY, original: 'a > b' })).toEqual({ verdict: 'unjudged', why: 'stale' });
    expect(judge(file, { key: `${KEY}x`, original: 'a < b' })).toEqual({ verdict: 'unjudged', why: 'no entry' });
  });

  it('adds placeholders for new survivors and never changes an entry', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'judgements-')), 'j.json');
    writeFileSync(
      path,
      JSON.stringify({ judgements: { [KEY]: { verdict: 'equivalent', original: 'a < b', reason: 'r' } } }),
    );
    expect(
      addPlaceholders(path, [
        { key: KEY, original: 'a < b' },
        { key: 'src/x.ts:1:0-1:1 BooleanLiteral false', original: 'true' },
      ]),
    ).toBe(1);
    const after = JSON.parse(readFileSync(path, 'utf8'));
    expect(after.judgements[KEY].verdict).toBe('equivalent');
    expect(after.judgements['src/x.ts:1:0-1:1 BooleanLiteral false']).toEqual({
      verdict: 'unjudged',
      original: 'true',
    });
    expect(judge(readJudgements(path), { key: 'src/x.ts:1:0-1:1 BooleanLiteral false', original: 'true' })).toEqual({
      verdict: 'unjudged',
      why: 'placeholder',
    });
  });
});
