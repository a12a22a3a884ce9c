/**
 * The source tree's state for a sweep's runs (sim/core/sourceState.ts): the commit, and a sha256 of the
 * uncommitted changes to what a run executes — every file `git status` lists as changed, added or
 * untracked under src/, sim/, scenarios/, sweeps/, cli/ and the package files, tests and Markdown
 * left out, hashed by path and content (a deleted file by its path). Asked of git once, here at
 * the command line; outside a checkout the commit is null and nothing is called clean.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type SourceState } from '../sim/core/sourceState';
import { PACKAGE_ROOT, gitCommit } from './provenance';

/** What a run executes: the folders and files whose uncommitted changes make a run another run. */
export const RUN_SOURCES = ['src', 'sim', 'scenarios', 'sweeps', 'cli', 'package.json', 'package-lock.json'];

const executed = (path: string) => !path.endsWith('.test.ts') && !path.endsWith('.md');

export interface SourceStateDetail extends SourceState {
  /** The changed files the hash covers (relative to the package root). */
  files: string[];
}

export function sourceState(root = PACKAGE_ROOT): SourceStateDetail {
  const commit = gitCommit(root);
  if (commit === null) return { commit: null, dirty: null, files: [] };
  const r = spawnSync('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', ...RUN_SOURCES], {
    cwd: root,
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (r.status !== 0)
    // Git could not tell: call the tree changed, so no finished run is taken for this one's.
    return { commit, dirty: 'unknown (git status failed)', files: [] };
  const entries = r.stdout.split('\0');
  const files: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.length < 4) continue;
    const status = e.slice(0, 2);
    files.push(e.slice(3));
    // A rename or copy is followed by its old path: changed too (it is gone).
    if (status.includes('R') || status.includes('C')) files.push(entries[++i]!);
  }
  const changed = [...new Set(files.filter(executed))].sort();
  if (changed.length === 0) return { commit, dirty: null, files: [] };
  const h = createHash('sha256');
  for (const f of changed) {
    const path = join(root, f);
    const content = existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'deleted';
    h.update(`${f}\0${content}\n`);
  }
  return { commit, dirty: h.digest('hex'), files: changed };
}
