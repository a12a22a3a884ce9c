/**
 * The judgements of surviving mutants (bench/mutation/judgements.json, checked in): for each
 * mutant identity (population.ts), either `equivalent` with the reason no run can tell it from the
 * code, or `gap` with the id of the rule (docs/RULES.md) that no guard checks. A survivor without
 * an entry, or with the placeholder `unjudged`, shows as unjudged. An entry records the source
 * text it was judged on: when the code at that position has changed, the judgement is stale and
 * shows as unjudged too.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { InputError } from '../../src/core/errors';
import { type MutantInfo } from './population';

export const JUDGEMENTS_FILE = 'bench/mutation/judgements.json';

export type Judgement =
  | { verdict: 'equivalent'; original: string; reason: string }
  | { verdict: 'gap'; original: string; rule: string; note?: string }
  | { verdict: 'unjudged'; original: string };

export interface JudgementsFile {
  $comment?: string;
  judgements: Record<string, Judgement>;
}

/** What the table shows for a survivor. */
export type Judged =
  | { verdict: 'equivalent'; reason: string }
  | { verdict: 'gap'; rule: string; note: string }
  | { verdict: 'unjudged'; why: 'no entry' | 'placeholder' | 'stale' };

function fail(key: string, what: string): never {
  throw new InputError(`${JUDGEMENTS_FILE}: judgements[${JSON.stringify(key)}]`, what);
}

export function parseJudgements(text: string): JudgementsFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new InputError(JUDGEMENTS_FILE, `not valid JSON: ${(e as Error).message}`);
  }
  const o = json as Record<string, unknown> | null;
  if (o === null || typeof o !== 'object' || typeof o.judgements !== 'object' || o.judgements === null)
    throw new InputError(`${JUDGEMENTS_FILE}: judgements`, 'expected an object keyed by mutant identity');
  for (const [key, j] of Object.entries(o.judgements as Record<string, Record<string, unknown>>)) {
    if (typeof j !== 'object' || j === null) fail(key, 'expected an object');
    if (typeof j.original !== 'string') fail(key, '"original": expected the source text the mutant replaces');
    if (j.verdict === 'equivalent') {
      if (typeof j.reason !== 'string' || j.reason.trim() === '')
        fail(key, '"reason": an equivalent mutant needs the reason no run can tell it apart');
    } else if (j.verdict === 'gap') {
      if (typeof j.rule !== 'string' || j.rule.trim() === '')
        fail(key, '"rule": a gap names the rule it leaves unguarded');
      if (j.note !== undefined && typeof j.note !== 'string') fail(key, '"note": expected a string');
    } else if (j.verdict !== 'unjudged') {
      fail(key, `"verdict": expected "equivalent", "gap" or "unjudged", got ${JSON.stringify(j.verdict)}`);
    }
  }
  return o as unknown as JudgementsFile;
}

export function readJudgements(file: string): JudgementsFile {
  return parseJudgements(readFileSync(file, 'utf8'));
}

export function judge(file: JudgementsFile, m: Pick<MutantInfo, 'key' | 'original'>): Judged {
  const j = file.judgements[m.key];
  if (j === undefined) return { verdict: 'unjudged', why: 'no entry' };
  if (j.original !== m.original) return { verdict: 'unjudged', why: 'stale' };
  if (j.verdict === 'equivalent') return { verdict: 'equivalent', reason: j.reason };
  if (j.verdict === 'gap') return { verdict: 'gap', rule: j.rule, note: j.note ?? '' };
  return { verdict: 'unjudged', why: 'placeholder' };
}

/**
 * Add an `unjudged` placeholder for each survivor without an entry (never changing an entry);
 * returns how many were added.
 */
export function addPlaceholders(path: string, survivors: ReadonlyArray<Pick<MutantInfo, 'key' | 'original'>>): number {
  const file = readJudgements(path);
  let added = 0;
  for (const m of survivors)
    if (file.judgements[m.key] === undefined) {
      file.judgements[m.key] = { verdict: 'unjudged', original: m.original };
      added++;
    }
  const sorted = Object.fromEntries(Object.entries(file.judgements).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  writeFileSync(path, `${JSON.stringify({ ...file, judgements: sorted }, null, 2)}\n`);
  return added;
}
