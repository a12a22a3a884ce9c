/**
 * Which run a new devnet home opens, and where its first start pauses:
 *
 * - `--from-report DIR`: the run of a report folder (its scenario.json, seed and crypto; a
 *   planted bug stays planted). A devnet's own report also holds its journal: the inputs (client
 *   txs, setHeads, injected faults) are taken along, so the home replays that exact run.
 * - `--at TIME`: pause at the last window barrier at or before TIME (virtual time from genesis);
 * - `--before-violation`: pause at the last window barrier before the first violation of the
 *   report's run. The violation's time comes from the report when it records one; otherwise the
 *   run is replayed here once (deterministically, with progress) to find it;
 * - `--from-report` alone pauses at the end of the run the report covers.
 *
 * Windows are the only points where a run can stop (or take input), so the devnet stops at a
 * window barrier; `node start` says how far before the chosen time that is.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../../src/core/errors';
import { durationText, parseDurationMs } from '../../src/core/duration';
import { type Scenario } from '../../sim/scenario/scenario';
import { resolveTarget } from '../shrinkReplayCommands';
import { driveRun } from '../runLoop';
import { Progress, progressIntervalMs } from '../progress';
import { type StartSpec } from './home';
import { type JournalInput, isInput, readJournal } from './journal';

export interface OpenOptions {
  fromReport?: string;
  at?: string;
  beforeViolation?: boolean;
  /** Progress of a replay that looks for the violation (stderr by default). */
  progressStream?: NodeJS.WriteStream;
}

export interface OpenedRun {
  scenario: Scenario;
  seed: number;
  start?: StartSpec;
  /** A devnet report's inputs, to replay. */
  inputs: JournalInput[];
  /** Lines for the user about what was found. */
  notes: string[];
}

interface ReportSummary {
  simulatedMs?: unknown;
  untilMs?: unknown;
  violation?: { oracle?: unknown; atMs?: unknown; message?: unknown } | null;
  devnet?: { violations?: Array<{ oracle?: unknown; atMs?: unknown; message?: unknown }> };
}

/** The first violation a summary.json records (a devnet report's, or one with a `violation` field). */
type FirstViolation = NonNullable<StartSpec['violation']>;

function recordedViolation(s: ReportSummary): FirstViolation | null {
  const v = s.devnet?.violations?.[0] ?? s.violation;
  if (!v || typeof v.atMs !== 'number' || typeof v.oracle !== 'string') return null;
  return { oracle: v.oracle, atMs: v.atMs, message: typeof v.message === 'string' ? v.message : '' };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(3)} s`;
}

/** Resolve what `node init` opens. `scenario`/`seed` are used when there is no report. */
export async function openRun(o: OpenOptions & { scenario: Scenario; seed: number }): Promise<OpenedRun> {
  if (o.at !== undefined && o.beforeViolation)
    throw new InputError('--at', 'give --at TIME or --before-violation, not both');
  const atMs = o.at === undefined ? undefined : parseDurationMs(o.at, '--at');
  if (o.fromReport === undefined) {
    if (o.beforeViolation)
      throw new InputError('--before-violation', 'needs --from-report DIR (the run whose violation to stop before)');
    return {
      scenario: o.scenario,
      seed: o.seed,
      inputs: [],
      notes: [],
      ...(atMs !== undefined ? { start: { pauseBeforeMs: atMs + 1, note: `--at ${durationText(atMs)}` } } : {}),
    };
  }
  const dir = resolve(o.fromReport);
  let target: ReturnType<typeof resolveTarget>;
  try {
    target = resolveTarget({ report: o.fromReport });
  } catch (e) {
    // The replay commands call the flag --report; here it is --from-report.
    if (!(e instanceof InputError)) throw e;
    throw new InputError(e.field.replace('--report', '--from-report'), e.message.slice(e.field.length + 2));
  }
  let summary: ReportSummary = {};
  try {
    summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as ReportSummary;
  } catch {
    // resolveTarget already checked it; an unreadable one simply records nothing more.
  }
  const journalFile = join(dir, 'journal.jsonl');
  const inputs = existsSync(journalFile) ? readJournal(journalFile).entries.filter(isInput) : [];
  const notes: string[] = [];
  if (inputs.length) notes.push(`took the ${inputs.length} inputs of the report's journal (txs, setHeads, faults)`);
  if (target.scenario.plant !== undefined) notes.push(`planted bug ${target.scenario.plant} stays on (test build)`);
  const ranMs =
    typeof summary.simulatedMs === 'number' ? summary.simulatedMs : (target.untilMs ?? target.scenario.durationMs);
  let start: StartSpec;
  if (atMs !== undefined) start = { pauseBeforeMs: atMs + 1, note: `--at ${durationText(atMs)}`, fromReport: dir };
  else if (o.beforeViolation) {
    let v = recordedViolation(summary);
    if (v === null) {
      if (inputs.length)
        throw new InputError(
          '--before-violation',
          `${o.fromReport} records no violation (a devnet report lists its violations in summary.json): use --at TIME`,
        );
      v = await findViolation(target.scenario, target.seed, target.untilMs, o.progressStream);
      if (v === null)
        throw new InputError(
          '--before-violation',
          `the run in ${o.fromReport} has no oracle violation (it passes): nothing to stop before; use --at TIME`,
        );
      notes.push(`found the first violation by replaying the run: ${v.oracle} at ${seconds(v.atMs)}`);
    }
    start = {
      pauseBeforeMs: v.atMs,
      note: `the first violation: ${v.oracle} at ${seconds(v.atMs)}`,
      fromReport: dir,
      violation: v,
    };
  } else
    start = { pauseBeforeMs: ranMs + 1, note: `the end of the run in the report (${seconds(ranMs)})`, fromReport: dir };
  return { scenario: target.scenario, seed: target.seed, start, inputs, notes };
}

/** Run the report's run once to find its first violation (the same run `lockstep run` made). */
async function findViolation(
  scenario: Scenario,
  seed: number,
  untilMs: number | undefined,
  stream: NodeJS.WriteStream | undefined,
): Promise<FirstViolation | null> {
  const progress = new Progress('s simulated, finding the first violation', {
    enabled: true,
    intervalMs: progressIntervalMs(undefined),
    ...(stream ? { stream } : {}),
  });
  try {
    const r = await driveRun(
      scenario,
      { seed, placement: 'inline', ...(untilMs !== undefined ? { untilMs } : {}) },
      { progress, shouldStop: () => false },
    );
    const v = r.violation ?? r.violations[0] ?? null;
    return v ? { oracle: v.oracle, atMs: v.atMs, message: v.message } : null;
  } finally {
    progress.stop();
  }
}
