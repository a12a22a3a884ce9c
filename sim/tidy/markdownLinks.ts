/**
 * The repository documents itself: every link in its markdown files resolves inside it. A clone
 * has no sibling folders, so a relative link that climbs out of the repository (`../shared/…`)
 * or names a file that does not exist is a dead link for every reader. External `http(s)` and
 * `mailto` links are allowed; a link to a heading of the same page (`#…`) needs no file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';

export interface LinkFinding {
  file: string;
  line: number;
  target: string;
  problem: string;
}

/** Folders that hold generated or installed files, never the repository's own documents. */
const SKIP: ReadonlySet<string> = new Set(['node_modules', '.git', 'dist', 'coverage', 'runs']);

/**
 * The repository's markdown files: git's tracked ones and new ones it does not ignore, or (outside
 * a git checkout) a walk of the tree.
 */
export function markdownFiles(root: string): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '*.md'], {
      cwd: root,
      encoding: 'utf8',
    });
    const files = out.split('\0').filter((f) => f !== '' && existsSync(join(root, f)));
    if (files.length > 0) return files.sort(byName);
  } catch {
    /* not a git checkout: walk the tree */
  }
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort(byName)) {
      if (SKIP.has(name)) continue;
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.md')) found.push(relative(root, full).split(sep).join('/'));
    }
  };
  walk(root);
  return found;
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Inline links and images `[text](target "title")`, and reference definitions `[id]: target`. */
const INLINE_RE = /!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g;
const DEFINITION_RE = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/;

/** Every link target of a markdown text with its line, outside fenced code blocks and code spans. */
export function markdownLinks(text: string): Array<{ line: number; target: string }> {
  const out: Array<{ line: number; target: string }> = [];
  let fence: string | null = null;
  text.split('\n').forEach((raw, i) => {
    const f = /^\s*(```+|~~~+)/.exec(raw);
    if (f) {
      if (fence === null) fence = f[1]!;
      else if (f[1]!.startsWith(fence)) fence = null;
      return;
    }
    if (fence !== null) return;
    const line = raw.replace(/`[^`]*`/g, (m) => ' '.repeat(m.length));
    const def = DEFINITION_RE.exec(line);
    if (def) out.push({ line: i + 1, target: def[1]! });
    INLINE_RE.lastIndex = 0;
    for (let m = INLINE_RE.exec(line); m !== null; m = INLINE_RE.exec(line)) out.push({ line: i + 1, target: m[1]! });
  });
  return out;
}

/** What is wrong with one link target of `file` (a path relative to `root`), or null. */
export function linkProblem(root: string, file: string, target: string): string | null {
  if (target === '') return 'an empty link';
  if (/^(https?:|mailto:)/i.test(target)) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return 'only http(s) and mailto links may leave the repository';
  const path = decodeURIComponent(target.split('#')[0]!.split('?')[0]!);
  if (path === '') return null;
  if (path.startsWith('/')) return 'an absolute path: link relative to this file';
  const resolved = posix.normalize(posix.join(posix.dirname(file), path));
  if (resolved === '..' || resolved.startsWith('../')) return 'points outside the repository';
  if (!existsSync(join(root, resolved))) return `no such file in the repository (${resolved})`;
  return null;
}

/** Every link of the repository's markdown files that does not resolve inside it. */
export function checkMarkdownLinks(root: string, files: readonly string[] = markdownFiles(root)): LinkFinding[] {
  const out: LinkFinding[] = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const { line, target } of markdownLinks(text)) {
      const problem = linkProblem(root, file, target);
      if (problem !== null) out.push({ file, line, target, problem });
    }
  }
  return out;
}
