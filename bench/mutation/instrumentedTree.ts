/**
 * The oracle stage's copy of the code: the sources the simulation runs (src/, sim/, scenarios/ and
 * the bench's worker task), with each target file replaced by Stryker's instrumented version, and
 * node_modules linked. Workers load it once with tsx and switch the active mutant between runs.
 * It lives under `.mutation-tmp/` (git-ignored) and is removed when the bench ends.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type InstrumentedFile } from './population';

/** Where the bench keeps its temporary trees and Stryker's sandboxes (git-ignored). */
export const TMP_DIR_NAME = '.mutation-tmp';

/**
 * This run's own folder inside it (relative to the package root): two runs in one checkout never
 * touch each other's trees or sandboxes, and a run removes exactly its own.
 */
export function runTmpDir(): string {
  return `${TMP_DIR_NAME}/run-${process.pid}`;
}

const COPIED = ['src', 'sim', 'scenarios', 'bench/mutation', 'package.json', 'tsconfig.json'];

export function writeInstrumentedTree(root: string, dir: string, files: readonly InstrumentedFile[]): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'bench'), { recursive: true });
  for (const p of COPIED)
    cpSync(join(root, p), join(dir, p), {
      recursive: true,
      // Tests stay behind: the tree only runs scenarios.
      filter: (src) => !src.endsWith('.test.ts'),
    });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const f of files) writeFileSync(join(dir, f.file), f.content);
}

export function removeTree(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Remove this run's temporary folder, and the bench's, when nothing is left in them. */
export function removeEmptyTmp(root: string): void {
  for (const dir of [join(root, runTmpDir()), join(root, TMP_DIR_NAME)])
    if (existsSync(dir) && readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true });
}

/** Remove this run's temporary folder whole (its trees, Stryker's sandbox), then the bench's if empty. */
export function removeRunTmp(root: string): void {
  rmSync(join(root, runTmpDir()), { recursive: true, force: true });
  const dir = join(root, TMP_DIR_NAME);
  // The bench's folder goes only when no other run's folder is in it.
  if (existsSync(dir) && readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true });
}
