/**
 * The tokens of an operator console expression (service-spec "Operator console"): identifiers,
 * integers, quoted strings (rewritten with single quotes, so `'latest'` and `"latest"` are the
 * same token) and the punctuation the supported expressions use. Whitespace between tokens is
 * free and trailing `;` are dropped. Strings holding quotes or backslashes are refused rather
 * than half-understood.
 */
export type LexResult = { ok: true; tokens: string[] } | { ok: false; error: string };

export function lexConsole(expr: string): LexResult {
  const tokens: string[] = [];
  let i = 0;
  while (i < expr.length) {
    const c = expr[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (/[A-Za-z_$]/.test(c)) {
      let j = i + 1;
      while (j < expr.length && /[\w$]/.test(expr[j]!)) j++;
      tokens.push(expr.slice(i, j));
      i = j;
    } else if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < expr.length && /[0-9]/.test(expr[j]!)) j++;
      tokens.push(expr.slice(i, j));
      i = j;
    } else if (c === "'" || c === '"') {
      const j = expr.indexOf(c, i + 1);
      if (j < 0) return { ok: false, error: 'SyntaxError: unterminated string' };
      const content = expr.slice(i + 1, j);
      if (/['"\\]/.test(content)) return { ok: false, error: 'unsupported string literal' };
      tokens.push(`'${content}'`);
      i = j + 1;
    } else if ('.()*/-+;,'.includes(c)) {
      tokens.push(c);
      i++;
    } else {
      return { ok: false, error: `SyntaxError: unexpected character ${JSON.stringify(c)}` };
    }
  }
  while (tokens[tokens.length - 1] === ';') tokens.pop();
  return { ok: true, tokens };
}
