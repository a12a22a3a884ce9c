/**
 * The source tree's state: a clean checkout has no uncommitted changes; a change to what a run
 * executes (src/, sim/, scenarios/, sweeps/, an untracked file there) gives a hash that follows the
 * content; a change to a test, to Markdown or outside those folders does not.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sourceState } from './sourceState';

const root = mkdtempSync(join(tmpdir(), 'lockstep-source-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: root, stdio: 'pipe' });

describe('sourceState', () => {
  it('follows uncommitted changes to what a run executes, and nothing else', () => {
    mkdirSync(join(root, 'sim'), { recursive: true });
    mkdirSync(join(root, 'docs'), { recursive: true });
    writeFileSync(join(root, 'sim', 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'sim', 'a.test.ts'), 'test\n');
    writeFileSync(join(root, 'docs', 'x.md'), 'doc\n');
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'c');
    const clean = sourceState(root);
    expect(clean.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(clean.dirty).toBeNull();

    writeFileSync(join(root, 'sim', 'a.test.ts'), 'test changed\n');
    writeFileSync(join(root, 'docs', 'x.md'), 'doc changed\n');
    writeFileSync(join(root, 'notes.txt'), 'outside\n');
    expect(sourceState(root).dirty).toBeNull();

    writeFileSync(join(root, 'sim', 'a.ts'), 'export const a = 2;\n');
    const one = sourceState(root);
    expect(one.dirty).toMatch(/^[0-9a-f]{64}$/);
    expect(one.files).toEqual(['sim/a.ts']);
    writeFileSync(join(root, 'sim', 'a.ts'), 'export const a = 3;\n');
    const two = sourceState(root);
    expect(two.dirty).not.toBe(one.dirty);

    writeFileSync(join(root, 'sim', 'b.ts'), 'new\n');
    expect(sourceState(root).files).toEqual(['sim/a.ts', 'sim/b.ts']);
    unlinkSync(join(root, 'sim', 'b.ts'));
    expect(sourceState(root).dirty).toBe(two.dirty);
  });

  it('outside a checkout there is no commit', () => {
    const bare = mkdtempSync(join(tmpdir(), 'lockstep-nogit-'));
    try {
      expect(sourceState(bare)).toEqual({ commit: null, dirty: null, files: [] });
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
