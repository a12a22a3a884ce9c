import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_VERDICTS } from '../sim/report/outcome';
import { EXIT } from '../src/core/exitCodes';
import { EXIT_CODES, exitCodeOf, exitCodesMarkdown, worstExitCode } from './verdictCodes';
import { PACKAGE_ROOT } from './provenance';

describe('verdicts and exit codes', () => {
  it('every verdict has its own code, and the README shows this very table', () => {
    const codes = RUN_VERDICTS.map(exitCodeOf);
    expect(codes).toEqual([0, 2, 3, 4, 5, 130]);
    expect(new Set(EXIT_CODES.map((r) => r.code)).size).toBe(EXIT_CODES.length);
    const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(exitCodesMarkdown());
  });

  it('several results give the most severe code; an interrupt first', () => {
    expect(worstExitCode([])).toBe(EXIT.pass);
    expect(worstExitCode([0, 5, 1])).toBe(EXIT.expectations);
    expect(worstExitCode([5, 3, 2])).toBe(EXIT.safety);
    expect(worstExitCode([2, 4])).toBe(EXIT.crash);
    expect(worstExitCode([2, 130])).toBe(EXIT.interrupted);
  });
});
