/**
 * A run's outcome: its verdict (the oracles' verdict, then the scenario's expectations, and
 * whether the run was stopped) and each expectation judged, failed or not judged.
 *
 * A run passes only when its oracles pass and every expectation of its scenario holds. A run that
 * stopped before the scenario's end (shortened with `--until`, or interrupted) is judged only on
 * what the rest of the run could not change:
 * - `verdict` and `oracle`: judged once a violation was found (the first violation stays the
 *   first); not judged while none was;
 * - `max.*`: judged when exceeded (every bounded count only grows); not judged while within;
 * - `min.*`: not judged (the run may not have got there yet).
 */
import { computeMetrics } from '../metrics/metrics';
import { type RunResult } from '../run/run';
import { type Expectations, type Scenario, type Verdict } from '../scenario/scenario';

/** The verdicts of a run; each has its exit code (cli/verdictCodes.ts). */
export type RunVerdict = Verdict | 'expectations' | 'interrupted';

export const RUN_VERDICTS: readonly RunVerdict[] = [
  'pass',
  'safety',
  'liveness',
  'crash',
  'expectations',
  'interrupted',
];

export type CheckStatus = 'ok' | 'failed' | 'not judged';

export interface ExpectationCheck {
  what: string;
  /** `is` for the verdict and the oracle; `>=` / `<=` for the min / max bounds of counts. */
  op: 'is' | '>=' | '<=';
  expected: string | number;
  actual: string | number;
  status: CheckStatus;
  /** The expectation holds (status ok). */
  ok: boolean;
}

export interface RunOutcome {
  verdict: RunVerdict;
  /** What the oracles (and the engine) said: pass, safety, liveness or crash. */
  oracleVerdict: Verdict;
  message: string;
  /** The run stopped before the scenario's end on purpose (`--until`). */
  shortened: boolean;
  interrupted: boolean;
  checks: ExpectationCheck[];
  failed: ExpectationCheck[];
  notJudged: ExpectationCheck[];
}

export interface JudgeOptions {
  /** The run covered only part of the scenario: judge only what the rest could not change. */
  partial?: boolean;
}

function check(
  what: string,
  op: ExpectationCheck['op'],
  expected: string | number,
  actual: string | number,
  holds: boolean,
  judged: boolean,
): ExpectationCheck {
  const status: CheckStatus = !judged ? 'not judged' : holds ? 'ok' : 'failed';
  return { what, op, expected, actual, status, ok: status === 'ok' };
}

export function checkExpectations(s: Scenario, r: RunResult, opts: JudgeOptions = {}): ExpectationCheck[] {
  const partial = opts.partial === true;
  const violated = r.verdict !== 'pass';
  const out: ExpectationCheck[] = [
    check('verdict', 'is', s.expect.verdict, r.verdict, s.expect.verdict === r.verdict, !partial || violated),
  ];
  if (s.expect.oracle)
    out.push(
      check(
        'oracle',
        'is',
        s.expect.oracle,
        r.violation?.oracle ?? 'none',
        r.violation?.oracle === s.expect.oracle,
        !partial || r.violation !== null,
      ),
    );
  const actual: Record<string, number> = { ...r.counts, backupBlocks: r.backupBlocks, reorgDepth: r.maxReorgDepth };
  const msg = (k: string, name: string): number => {
    if (k === 'byzantine') return r.reach.byzantine[name]?.asExpected ?? 0;
    const c = r.reach.messages[name];
    if (!c) return 0;
    if (k === 'delivered') return c.delivered;
    if (k === 'accepted') return c.accepted;
    return c.delivered - c.accepted - c.pending;
  };
  /** Each bound, by name: `serviceBlocks`, or `accepted.MsgSend` for a count of a message type. */
  const each = (b: Expectations['min'] | Expectations['max']): Array<[string, number, number]> =>
    Object.entries(b).flatMap(
      ([k, v]): Array<[string, number, number]> =>
        typeof v === 'number'
          ? [[k, v, actual[k] ?? 0]]
          : Object.entries(v as Record<string, number>).map(([name, n]): [string, number, number] => [
              `${k}.${name}`,
              n,
              msg(k, name),
            ]),
    );
  for (const [k, v, a] of each(s.expect.min)) out.push(check(k, '>=', v, a, a >= v, !partial));
  for (const [k, v, a] of each(s.expect.max)) {
    const holds = a <= v;
    out.push(check(k, '<=', v, a, holds, !partial || !holds));
  }
  // Metrics are judged on the whole run only (a gap or a median can move either way later). A
  // metric with no value meets no minimum and exceeds no maximum.
  const mb = s.expect.metrics;
  if (mb && (Object.keys(mb.min).length || Object.keys(mb.max).length)) {
    const m = computeMetrics(r, [...new Set([...Object.keys(mb.min), ...Object.keys(mb.max)])]);
    const shown = (x: number | null) => (x === null ? 'none' : x);
    for (const [k, v] of Object.entries(mb.min))
      out.push(check(`metrics.${k}`, '>=', v, shown(m[k]!), m[k] !== null && m[k]! >= v, !partial));
    for (const [k, v] of Object.entries(mb.max))
      out.push(check(`metrics.${k}`, '<=', v, shown(m[k]!), m[k] === null || m[k]! <= v, !partial));
  }
  return out;
}

/** The expectation itself: `pass`, `>= 50`. */
export function expectedText(c: ExpectationCheck): string {
  return c.op === 'is' ? String(c.expected) : `${c.op} ${c.expected}`;
}

/** How an expectation reads in a terminal line or a report: `serviceBlocks expected >= 100000 got 28`. */
export function describeCheck(c: ExpectationCheck): string {
  return `${c.what} expected ${expectedText(c)} got ${c.actual}`;
}

/**
 * The outcome of a run of `s` that was asked to run to `untilMs` (default: the scenario's
 * duration). Interrupted beats everything (the run is not over); then the oracles' verdict; then
 * the expectations.
 */
export function runOutcome(s: Scenario, r: RunResult, opts: { untilMs?: number } = {}): RunOutcome {
  const untilMs = opts.untilMs ?? s.durationMs;
  const shortened = untilMs < s.durationMs;
  const checks = checkExpectations(s, r, { partial: shortened || r.interrupted });
  const failed = checks.filter((c) => c.status === 'failed');
  const notJudged = checks.filter((c) => c.status === 'not judged');
  let verdict: RunVerdict;
  let message: string;
  if (r.interrupted) {
    verdict = 'interrupted';
    message = r.message;
  } else if (r.verdict !== 'pass') {
    verdict = r.verdict;
    message = r.message;
  } else if (failed.length) {
    verdict = 'expectations';
    message = failed.map(describeCheck).join('; ');
  } else {
    verdict = 'pass';
    message = r.message;
  }
  return {
    verdict,
    oracleVerdict: r.verdict,
    message,
    shortened,
    interrupted: r.interrupted,
    checks,
    failed,
    notJudged,
  };
}
