/**
 * The unit verdicts' cache: a verdict comes back while the mutant's file and the unit tests are as
 * they were, and not once either changes (or when asked to start fresh); a broken cache file is an
 * empty cache.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UnitCache } from './unitCache';
import { type MutantInfo } from '../mutation/population';

const root = mkdtempSync(join(tmpdir(), 'hunt-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(join(root, 'src', 'modules'), { recursive: true });
const write = (f: string, text: string) => writeFileSync(join(root, f), text);
write('src/modules/a.ts', 'export const a = 1 < 2;\n');
write('src/modules/a.test.ts', 'test one\n');
const file = join(root, 'cache.json');
const m = { key: 'src/modules/a.ts:1:17-1:22 EqualityOperator 1 <= 2', file: 'src/modules/a.ts' } as MutantInfo;
const verdict = { status: 'killed' as const, strykerStatus: 'Killed', detail: 'killed by a' };

describe('unit cache', () => {
  it('keeps a verdict while its file and the tests are unchanged', () => {
    const c = new UnitCache(root, file);
    expect(c.get(m)).toBeUndefined();
    c.set(m, verdict);
    c.save();
    expect(new UnitCache(root, file).get(m)).toEqual(verdict);
    expect(new UnitCache(root, file, true).get(m)).toBeUndefined();
  });

  it('forgets it when the mutated file or a unit test changes', () => {
    write('src/modules/a.ts', 'export const a = 1 < 3;\n');
    expect(new UnitCache(root, file).get(m)).toBeUndefined();
    write('src/modules/a.ts', 'export const a = 1 < 2;\n');
    expect(new UnitCache(root, file).get(m)).toEqual(verdict);
    write('src/modules/a.test.ts', 'test two\n');
    expect(new UnitCache(root, file).get(m)).toBeUndefined();
  });

  it('reads a broken file as an empty cache', () => {
    write('cache.json', '{ not json');
    expect(new UnitCache(root, file).get(m)).toBeUndefined();
  });
});
