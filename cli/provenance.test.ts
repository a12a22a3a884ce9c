import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchDir } from './cliHarness';
import { displayPath, gitCommit, PACKAGE_ROOT } from './provenance';

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('the git commit of a checkout, read without git', () => {
  it('is what git says for this checkout', () => {
    const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
    if (git.status === 0) expect(gitCommit()).toBe(git.stdout.trim());
    else expect(gitCommit()).toBeNull();
  });

  it('follows a worktree .git file to loose refs, packed refs and a detached HEAD', () => {
    const common = join(dir, 'main.git');
    const wt = join(common, 'worktrees', 'w');
    mkdirSync(join(common, 'refs', 'heads'), { recursive: true });
    mkdirSync(wt, { recursive: true });
    writeFileSync(join(wt, 'commondir'), '../..\n');
    const root = join(dir, 'checkout');
    mkdirSync(root);
    writeFileSync(join(root, '.git'), `gitdir: ${wt}\n`);
    writeFileSync(join(wt, 'HEAD'), 'ref: refs/heads/topic\n');
    writeFileSync(join(common, 'refs', 'heads', 'topic'), `${A}\n`);
    expect(gitCommit(root)).toBe(A);
    rmSync(join(common, 'refs', 'heads', 'topic'));
    writeFileSync(join(common, 'packed-refs'), `# pack-refs with: peeled\n${B} refs/heads/topic\n`);
    expect(gitCommit(root)).toBe(B);
    writeFileSync(join(wt, 'HEAD'), `${A}\n`);
    expect(gitCommit(root)).toBe(A);
  });

  it('is null outside a checkout', () => {
    const plain = join(dir, 'plain');
    mkdirSync(plain);
    expect(gitCommit(plain)).toBeNull();
  });

  it('paths inside the working folder are shown relative to it', () => {
    expect(displayPath(join(process.cwd(), 'scenarios', 'smoke.json'))).toBe(join('scenarios', 'smoke.json'));
    expect(displayPath('/elsewhere/x.json')).toBe('/elsewhere/x.json');
  });
});
