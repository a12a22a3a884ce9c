/**
 * What a report records about the code that made it: the Lockstep version (package.json) and the
 * git commit of the checkout, read from `.git` without spawning git when it can be (a worktree's
 * `.git` file, loose refs, packed refs), else from `git rev-parse HEAD`; null outside a checkout.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root: the nearest folder above this module that holds package.json. Searched, not
 * counted, because the source (cli/) and the bundle (dist/js/) sit at different depths.
 */
export const PACKAGE_ROOT = packageRootAbove(dirname(fileURLToPath(import.meta.url)));

function packageRootAbove(dir: string): string {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'package.json'))) return d;
    if (dirname(d) === d) throw new Error(`lockstep: no package.json above ${dir}`);
  }
}

let version: string | undefined;
export function lockstepVersion(): string {
  version ??= (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}

const HEX40 = /^[0-9a-f]{40}$/;

/** The commit HEAD points at in the git folder `gitDir` (with `commonDir` for a worktree), or null. */
function readHead(gitDir: string, commonDir: string): string | null {
  const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
  if (HEX40.test(head)) return head;
  const m = /^ref: (.+)$/.exec(head);
  if (!m) return null;
  const ref = m[1]!;
  for (const dir of [gitDir, commonDir]) {
    const file = join(dir, ref);
    if (existsSync(file)) {
      const v = readFileSync(file, 'utf8').trim();
      if (HEX40.test(v)) return v;
    }
  }
  const packed = join(commonDir, 'packed-refs');
  if (existsSync(packed))
    for (const line of readFileSync(packed, 'utf8').split('\n')) {
      const [hash, name] = line.split(' ');
      if (name === ref && hash && HEX40.test(hash)) return hash;
    }
  return null;
}

function commitWithoutGit(root: string): string | null {
  const dotGit = join(root, '.git');
  if (!existsSync(dotGit)) return null;
  let gitDir = dotGit;
  if (statSync(dotGit).isFile()) {
    const m = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'));
    if (!m) return null;
    gitDir = resolve(root, m[1]!.trim());
  }
  const commonFile = join(gitDir, 'commondir');
  const commonDir = existsSync(commonFile) ? resolve(gitDir, readFileSync(commonFile, 'utf8').trim()) : gitDir;
  return readHead(gitDir, commonDir);
}

let commit: string | null | undefined;
/** The checkout's commit, or null (not a checkout, or git cannot tell). */
export function gitCommit(root = PACKAGE_ROOT): string | null {
  if (root === PACKAGE_ROOT && commit !== undefined) return commit;
  let found: string | null = null;
  try {
    found = commitWithoutGit(root);
  } catch {
    found = null;
  }
  if (found === null && existsSync(join(root, '.git'))) {
    const r = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', timeout: 5_000 });
    const out = r.status === 0 ? r.stdout.trim() : '';
    found = HEX40.test(out) ? out : null;
  }
  if (root === PACKAGE_ROOT) commit = found;
  return found;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A path as a person would pass it again: relative to the working folder when inside it. */
export function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel) ? rel : file;
}
