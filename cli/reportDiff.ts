/**
 * `lockstep report diff A B`: where two runs part. Each side is a report folder of `lockstep run`
 * (summary.json, and trace.jsonl and metrics.json when it has them) or a run made now with this
 * build, given as `SCENARIO@SEED` (a name under scenarios/ or a file; `@COMMIT` after the seed
 * checks it is this build's commit). Prints the first differing trace record (index, time, kind,
 * node, both sides, the fields that differ), then the differences in counts, metrics,
 * expectations and verdict, or "identical". The trace comparison leaves out what differs by
 * construction (sim/report/diff/traceFilter.ts: the sequence counter; between two seeds, all but
 * time, kind and node) unless `--all-fields`, and keeps only the records of `--kind`, `--node`,
 * `--from`/`--to` when given. Exit 0 when it compared (identical or not), 1 on bad input, 130 when
 * interrupted.
 */
import { createReadStream, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { InputError } from '../src/core/errors';
import { loadScenario } from '../sim/scenario/load';
import { summaryObject } from '../sim/report/summary';
import { computeMetrics } from '../sim/metrics/metrics';
import { compareTraces } from '../sim/report/diff/traceDiff';
import {
  ACROSS_SEEDS_FIELDS,
  BY_CONSTRUCTION_FIELDS,
  type TraceFilter,
  describeFilter,
} from '../sim/report/diff/traceFilter';
import { parseDurationMs } from '../src/core/duration';
import { type RunSide, diffRuns, formatRunDiff } from '../sim/report/diff/runDiff';
import { EXIT } from '../src/core/exitCodes';
import { watchInterrupts } from './interrupts';
import { Progress, progressIntervalMs } from './progress';
import { displayPath, gitCommit, lockstepVersion, sha256Hex } from './provenance';
import { driveRun } from './runLoop';

export interface ReportDiffOptions {
  sides: string[];
  json: boolean;
  progressInterval?: string;
  /** Compare only records of these kinds (`consensus.*` for a prefix), of these nodes, in this window. */
  kinds?: string[];
  nodes?: string[];
  from?: string;
  to?: string;
  /** More fields to leave out of the comparison. */
  ignoreFields?: string[];
  /** Compare every field, those that differ by construction too. */
  allFields?: boolean;
}

/** The trace filter of the options, once both sides' seeds are known. */
export function traceFilterOf(o: ReportDiffOptions, seeds: [unknown, unknown]): TraceFilter {
  const fromMs = o.from === undefined ? null : parseDurationMs(o.from, '--from');
  const toMs = o.to === undefined ? null : parseDurationMs(o.to, '--to');
  if (fromMs !== null && toMs !== null && fromMs > toMs)
    throw new InputError('--to', `${o.to} is before --from ${o.from}`);
  const acrossSeeds = seeds[0] !== seeds[1];
  return {
    kinds: o.kinds ?? [],
    nodes: o.nodes ?? [],
    fromMs,
    toMs,
    ignoreFields: [...(o.allFields ? [] : BY_CONSTRUCTION_FIELDS), ...(o.ignoreFields ?? [])],
    onlyFields: acrossSeeds && !o.allFields ? ACROSS_SEEDS_FIELDS : null,
  };
}

interface ResolvedSide extends RunSide {
  /** trace.jsonl of the side, or null when it has none. */
  traceFile: string | null;
}

function lines(file: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
}

function readJson(file: string, field: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw new InputError(field, `${file} is not valid JSON: ${(e as Error).message}`);
  }
}

function folderSide(dir: string, field: string): ResolvedSide {
  const summaryFile = join(dir, 'summary.json');
  if (!existsSync(summaryFile))
    throw new InputError(field, `${dir} has no summary.json: it is not a report folder of lockstep run`);
  const summary = readJson(summaryFile, field);
  if (!('traceHash' in summary && 'seed' in summary))
    throw new InputError(
      field,
      `${dir} is not the report of one run (a fuzz or sweep results folder?): its summary.json has no traceHash and seed`,
    );
  const metricsFile = join(dir, 'metrics.json');
  const metrics = existsSync(metricsFile)
    ? (readJson(metricsFile, field).metrics as Record<string, number | null>)
    : null;
  const traceFile = join(dir, 'trace.jsonl');
  return {
    label: `${displayPath(dir)} (${String(summary.scenario)} seed ${String(summary.seed)}${summary.commit ? `, commit ${String(summary.commit).slice(0, 12)}` : ''})`,
    summary,
    metrics,
    traceFile: existsSync(traceFile) ? traceFile : null,
  };
}

/** `SCENARIO@SEED[@COMMIT]` → its parts, or null when the text is not of that form. */
export function parseRunSpec(text: string): { scenario: string; seed: number; commit: string | null } | null {
  const m = /^(.+?)@(\d+)(?:@([0-9a-fA-F]{4,40}))?$/.exec(text);
  if (!m) return null;
  return { scenario: m[1]!, seed: Number(m[2]), commit: m[3]?.toLowerCase() ?? null };
}

class Interrupted extends Error {}

/** A run to make: checked (its commit, its scenario file) before anything runs. */
interface PlannedRun {
  spec: { scenario: string; seed: number };
  loaded: ReturnType<typeof loadScenario>;
  commit: string | null;
  field: string;
}

function planRun(spec: { scenario: string; seed: number; commit: string | null }, field: string): PlannedRun {
  const commit = gitCommit();
  if (spec.commit !== null && !(commit ?? '').startsWith(spec.commit))
    throw new InputError(
      field,
      `this build is commit ${commit ?? 'unknown'}, not ${spec.commit}: a run of another commit needs that build (run \`npx lockstep run --scenario ${spec.scenario} --seed ${spec.seed} --out DIR\` there) and its report folder here`,
    );
  return { spec, loaded: loadScenario(spec.scenario, field), commit, field };
}

async function runSide(
  p: PlannedRun,
  scratch: string,
  o: { json: boolean; intervalMs: number; shouldStop: () => boolean },
): Promise<ResolvedSide> {
  const { spec, loaded, commit } = p;
  const traceFile = join(scratch, `trace-${p.field}.jsonl`);
  const out = createWriteStream(traceFile);
  const progress = new Progress(`s simulated, ${spec.scenario}@${spec.seed}`, {
    enabled: !o.json,
    intervalMs: o.intervalMs,
  });
  let result: Awaited<ReturnType<typeof driveRun>>;
  try {
    result = await driveRun(
      loaded.scenario,
      { seed: spec.seed, placement: 'inline', traceSink: (line) => void out.write(`${line}\n`) },
      { progress, shouldStop: o.shouldStop },
    );
  } finally {
    progress.stop();
    await new Promise<void>((r) => out.end(r));
  }
  if (result.interrupted) throw new Interrupted();
  const summary = summaryObject(loaded.scenario, result, {
    scenarioFile: displayPath(loaded.file),
    scenarioSha256: sha256Hex(loaded.bytes),
    placement: 'inline',
    version: lockstepVersion(),
    commit,
    untilMs: loaded.scenario.durationMs,
  }) as unknown as Record<string, unknown>;
  return {
    label: `${spec.scenario}@${spec.seed} (run now${commit ? `, commit ${commit.slice(0, 12)}` : ''})`,
    summary,
    metrics: computeMetrics(result),
    traceFile,
  };
}

export async function reportDiffCommand(o: ReportDiffOptions): Promise<number> {
  if (o.sides.length !== 2)
    throw new InputError(
      'dirs',
      `report diff compares two runs: give two report folders or SCENARIO@SEED specs, got ${o.sides.length}`,
    );
  const intervalMs = progressIntervalMs(o.progressInterval);
  // Bad filter flags are bad input before anything runs.
  traceFilterOf(o, [0, 0]);
  const scratch = mkdtempSync(join(tmpdir(), 'lockstep-diff-'));
  const interrupts = watchInterrupts({
    onFirst: (signal) => process.stderr.write(`\n${signal}: stopping at the next step\n`),
  });
  try {
    // Both sides are checked before either runs: a bad second side is an error at once.
    const planned = o.sides.map((text, i): ResolvedSide | PlannedRun => {
      const field = i === 0 ? 'A' : 'B';
      const path = resolve(text);
      if (existsSync(path) && statSync(path).isDirectory()) return folderSide(path, field);
      const spec = parseRunSpec(text);
      if (spec === null)
        throw new InputError(
          field,
          `${JSON.stringify(text)} is neither a report folder nor a run given as SCENARIO@SEED[@COMMIT] (e.g. smoke@1)`,
        );
      return planRun(spec, field);
    });
    const sides: ResolvedSide[] = [];
    for (const p of planned)
      sides.push(
        'loaded' in p
          ? await runSide(p, scratch, { json: o.json, intervalMs, shouldStop: () => interrupts.requested })
          : p,
      );
    const [a, b] = sides as [ResolvedSide, ResolvedSide];
    const filter = traceFilterOf(o, [a.summary.seed, b.summary.seed]);
    const trace =
      a.traceFile && b.traceFile ? await compareTraces(lines(a.traceFile), lines(b.traceFile), filter) : null;
    const d = diffRuns(a, b, trace);
    const said = describeFilter(filter);
    if (o.json) process.stdout.write(`${JSON.stringify({ a: a.label, b: b.label, filter, ...d })}\n`);
    else
      process.stdout.write(
        formatRunDiff(d, a, b, {
          filter: `${said || 'every field of every record'}${filter.onlyFields ? ' (the seeds differ: keys, addresses and hashes are drawn from the seed; --all-fields compares them too)' : ''}`,
        }),
      );
    return EXIT.pass;
  } catch (e) {
    if (e instanceof Interrupted) {
      process.stdout.write(o.json ? `${JSON.stringify({ interrupted: true })}\n` : 'interrupted: no comparison\n');
      return EXIT.interrupted;
    }
    throw e;
  } finally {
    interrupts.dispose();
    rmSync(scratch, { recursive: true, force: true });
  }
}
