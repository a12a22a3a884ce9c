/**
 * The verdicts and exit codes of every `lockstep` command, in one table: the commands map a
 * verdict to its code here, `--help` prints the one-line form, and the README's table is this
 * table (a test keeps the two equal). The codes themselves are src/core/exitCodes.ts.
 */
import { InvariantError } from '../src/core/errors';
import { EXIT } from '../src/core/exitCodes';
import { type RunVerdict } from '../sim/report/outcome';

export interface ExitCodeRow {
  code: number;
  /** The verdict with this code (bad input has none: nothing ran). */
  verdict: RunVerdict | null;
  meaning: string;
}

export const EXIT_CODES: readonly ExitCodeRow[] = [
  {
    code: EXIT.pass,
    verdict: 'pass',
    meaning: 'the oracles found no violation and every expectation of the scenario holds',
  },
  {
    code: EXIT.badInput,
    verdict: null,
    meaning: 'bad input: a flag, scenario file or report folder is wrong (the message names it)',
  },
  { code: EXIT.safety, verdict: 'safety', meaning: 'an oracle found a safety violation' },
  { code: EXIT.liveness, verdict: 'liveness', meaning: 'an oracle found a liveness violation' },
  {
    code: EXIT.crash,
    verdict: 'crash',
    meaning:
      'an invariant of Lockstep broke, the run hit its event bound, or two runs of one seed differed (`--check-determinism`)',
  },
  {
    code: EXIT.expectations,
    verdict: 'expectations',
    meaning: 'the oracles passed but an expectation of the scenario failed (e.g. `min.serviceBlocks`)',
  },
  {
    code: EXIT.interrupted,
    verdict: 'interrupted',
    meaning: 'stopped by Ctrl-C (SIGINT) or SIGTERM before the end; no report calls the run a pass',
  },
];

export function exitCodeOf(verdict: RunVerdict): number {
  const row = EXIT_CODES.find((r) => r.verdict === verdict);
  if (!row) throw new InvariantError('a verdict without an exit code', { verdict });
  return row.code;
}

/**
 * The code of several results together (a suite, a campaign): the most severe one. An interrupt
 * first (the results are incomplete), then a crash, safety, liveness, failed expectations, bad input.
 */
export function worstExitCode(codes: Iterable<number>): number {
  const order: number[] = [EXIT.interrupted, EXIT.crash, EXIT.safety, EXIT.liveness, EXIT.expectations, EXIT.badInput];
  const seen = new Set(codes);
  return order.find((c) => seen.has(c)) ?? EXIT.pass;
}

/** One line for `--help`. */
export const EXIT_CODES_LINE = `Exit codes: ${EXIT_CODES.map((r) => `${r.code} ${r.verdict ?? 'bad input'}`).join(', ')}.`;

/** The README's table. */
export function exitCodesMarkdown(): string {
  return [
    '| exit code | verdict | meaning |',
    '| --- | --- | --- |',
    ...EXIT_CODES.map((r) => `| ${r.code} | ${r.verdict === null ? '—' : `\`${r.verdict}\``} | ${r.meaning} |`),
  ].join('\n');
}
