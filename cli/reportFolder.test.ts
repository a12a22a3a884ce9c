import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchDir } from './cliHarness';
import { ReportFolder } from './reportFolder';

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a report folder is replaced only by a complete one', () => {
  it('writes under a temporary sibling and renames it into place; an interrupted one goes beside it', () => {
    const final = join(dir, 'runs', 'smoke-1');
    mkdirSync(final, { recursive: true });
    writeFileSync(join(final, 'summary.json'), 'old');
    writeFileSync(join(final, 'stale.txt'), 'old');

    const partial = new ReportFolder(final);
    expect(partial.dir).not.toBe(final);
    partial.write('summary.json', 'partial');
    expect(readFileSync(join(final, 'summary.json'), 'utf8')).toBe('old');
    expect(partial.keepInterrupted()).toBe(`${final}.interrupted`);
    expect(readFileSync(join(final, 'summary.json'), 'utf8')).toBe('old');
    expect(readFileSync(join(`${final}.interrupted`, 'summary.json'), 'utf8')).toBe('partial');

    const complete = new ReportFolder(final);
    complete.write('summary.json', 'new');
    expect(complete.commit()).toBe(final);
    expect(readdirSync(final)).toEqual(['summary.json']);
    expect(readFileSync(join(final, 'summary.json'), 'utf8')).toBe('new');

    const failed = new ReportFolder(final);
    failed.write('summary.json', 'broken');
    failed.discard();
    expect(existsSync(failed.dir)).toBe(false);
    expect(readFileSync(join(final, 'summary.json'), 'utf8')).toBe('new');
    expect(readdirSync(join(dir, 'runs')).sort()).toEqual(['smoke-1', 'smoke-1.interrupted']);
  });
});
