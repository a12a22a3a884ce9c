/**
 * Reading a source file's imports as text (the tidy check runs nothing): whole import and export
 * statements, which may span lines, side-effect imports and dynamic imports of a literal path.
 */
import { posix } from 'node:path';

/** Whole import/export-from statements (they may span lines): keyword, `type`, the clause, the module. */
export const STATEMENT_RE =
  /(?:^|[\n;])\s*(import|export)\s+(type\s+)?(\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?|[\w$]+(?:\s*,\s*(?:\{[^}]*\}|\*\s+as\s+[\w$]+))?)\s*from\s*['"]([^'"]+)['"]/g;
export const SIDE_EFFECT_IMPORT_RE = /(?:^|[\n;])\s*import\s*['"]([^'"]+)['"]/g;
export const DYNAMIC_IMPORT_RE = /\bimport\s*\(/g;

/** Every module a file imports or re-exports (static, side-effect and literal dynamic imports, types included), with its line. */
export function importsOf(code: string): Array<{ spec: string; line: number }> {
  const out: Array<{ spec: string; line: number }> = [];
  const lineAt = (index: number) => code.slice(0, index).split('\n').length;
  const at = (m: RegExpExecArray, spec: string) =>
    out.push({ spec, line: lineAt(m.index + m[0].search(/import|export/)) });
  STATEMENT_RE.lastIndex = 0;
  for (let m = STATEMENT_RE.exec(code); m !== null; m = STATEMENT_RE.exec(code)) at(m, m[4]!);
  SIDE_EFFECT_IMPORT_RE.lastIndex = 0;
  for (let m = SIDE_EFFECT_IMPORT_RE.exec(code); m !== null; m = SIDE_EFFECT_IMPORT_RE.exec(code)) at(m, m[1]!);
  LITERAL_DYNAMIC_IMPORT_RE.lastIndex = 0;
  for (let m = LITERAL_DYNAMIC_IMPORT_RE.exec(code); m !== null; m = LITERAL_DYNAMIC_IMPORT_RE.exec(code)) at(m, m[1]!);
  return out.sort((a, b) => a.line - b.line);
}

const LITERAL_DYNAMIC_IMPORT_RE = /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The repository path (without extension) a relative import of `rel` names. */
export function targetOf(rel: string, spec: string): string {
  return posix.normalize(posix.join(posix.dirname(rel), spec)).replace(/\.(ts|js|mts|mjs)$/, '');
}
