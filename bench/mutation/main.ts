/**
 * `npm run bench -- mutation [run|merge|show] …`: a mutation score of the oracles from a tool that
 * does not know the planted bugs. StrykerJS generates mutants of the service, consensus,
 * sidechain and bridge code with its logic mutators; a seeded sample runs against the unit tests
 * (Stryker's own run, unitStage.ts) and against the oracles (the scenario subset, then a short
 * swarm: oracleStage.ts). Prints a table per folder and every survivor with its judgement
 * (judgements.json); writes results.json and summary.md. How to run it, judge a survivor and
 * shard it: docs/MUTATION.md.
 *
 * Exit codes: 0 the bench ran (a score is a figure, not a verdict), 1 bad input, 4 the unmodified
 * code fails the campaign or the harness found itself broken, 130 interrupted (the mutants done so
 * far are written, marked partial).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import yargs from 'yargs';
import { parseBenchCommand, readBenchResult } from '../benchCli';
import { InputError } from '../../src/core/errors';
import { parseDurationMs } from '../../src/core/duration';
import { EXIT } from '../../src/core/exitCodes';
import { PACKAGE_ROOT, gitCommit, lockstepVersion } from '../../cli/provenance';
import { Progress, formatWall, progressIntervalMs } from '../../cli/progress';
import { watchInterrupts } from '../../cli/interrupts';
import { MUTATORS, TARGETS, instrument, targetFiles } from './population';
import { DEFAULT_SAMPLE_SEED, DEFAULT_SAMPLE_SIZE, drawSample, parseShard, shardOf } from './sample';
import {
  CONTROL_MUTANT,
  type Campaign,
  DEFAULT_SCENARIOS,
  DEFAULT_SWARM_DURATION_MS,
  DEFAULT_SWARM_SEEDS,
} from './campaign';
import { BaselineFailure, HarnessError, type OracleResult, runOracleStage } from './oracleStage';
import { type UnitResult, runUnitStage } from './unitStage';
import {
  type AnyResult,
  type Machine,
  type MutantRecord,
  RESULT_KIND,
  type ShardResult,
  asResult,
  mergeResults,
  populationHash,
} from './results';
import { JUDGEMENTS_FILE, addPlaceholders, readJudgements } from './judgements';
import { renderReport, survivors } from './render';
import { removeRunTmp } from './instrumentedTree';
import { cpuTime } from './cpuTime';

interface RunArgs {
  sample: number;
  seed: number;
  shard: string;
  workers: number;
  out?: string;
  scenarios?: string;
  swarmSeeds: number;
  swarmDuration: string;
  skipUnit: boolean;
  updateJudgements: boolean;
  markdown: boolean;
  progressInterval?: string;
}

function machine(start: number[]): Machine {
  return { cpus: cpus().length, model: cpus()[0]?.model ?? 'cpu', loadStart: start, loadEnd: loadavg() };
}

function say(text: string): void {
  process.stderr.write(`${text}\n`);
}

function parseScenarios(text: string | undefined): string[] {
  if (text === undefined) return [...DEFAULT_SCENARIOS];
  const list = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (s.endsWith('.json') ? s : `scenarios/${s}.json`));
  for (const s of list)
    if (!existsSync(join(PACKAGE_ROOT, s))) throw new InputError('--scenarios', `no scenario file ${s}`);
  return list;
}

function positiveInt(v: number, field: string): number {
  if (!Number.isSafeInteger(v) || v < 1) throw new InputError(field, `expected a positive whole number, got ${v}`);
  return v;
}

async function runCommand(a: RunArgs): Promise<number> {
  const root = PACKAGE_ROOT;
  process.chdir(root);
  const startedAt = performance.now();
  const cpuStart = cpuTime();
  const loadStart = loadavg();
  const sampleSize = positiveInt(a.sample, '--sample');
  const workers = positiveInt(a.workers, '--workers');
  if (a.seed < 0 || !Number.isSafeInteger(a.seed))
    throw new InputError('--seed', `expected a whole number, got ${a.seed}`);
  const shard = parseShard(a.shard);
  const swarmDurationMs = parseDurationMs(a.swarmDuration, '--swarm-duration');
  const campaign: Campaign = {
    scenarios: parseScenarios(a.scenarios),
    swarmSeeds: Math.max(0, Math.floor(a.swarmSeeds)),
    swarmDurationMs,
  };
  const out = resolve(
    a.out ?? join(root, 'reports', 'mutation', shard.count > 1 ? `shard-${shard.index}-of-${shard.count}` : 'latest'),
  );
  const judgementsPath = join(root, JUDGEMENTS_FILE);
  const judgements = readJudgements(judgementsPath);

  say(`mutation: instrumenting ${TARGETS.join(', ')} with Stryker's ${MUTATORS.length} logic mutators…`);
  const population = (await instrument(root, targetFiles(root))).mutants.map(({ strykerId: _, ...m }) => m);
  const sample = drawSample(population, sampleSize, a.seed);
  const control = population.filter(
    (m) =>
      m.file === CONTROL_MUTANT.file &&
      m.mutator === CONTROL_MUTANT.mutator &&
      m.original === CONTROL_MUTANT.original &&
      m.replacement === CONTROL_MUTANT.replacement,
  );
  if (control.length !== 1)
    throw new HarnessError(
      `the control mutant (${CONTROL_MUTANT.original} -> ${CONTROL_MUTANT.replacement} in ${CONTROL_MUTANT.file}) matches ${control.length} mutants; update CONTROL_MUTANT in bench/mutation/campaign.ts`,
    );
  const mine = shardOf(
    sample.map((m, index) => ({ ...m, index })),
    shard,
  );
  say(
    `mutation: ${population.length} mutants; sample ${sample.length} (seed ${a.seed})${shard.count > 1 ? `, shard ${shard.index}/${shard.count}: ${mine.length}` : ''}; ${workers} workers`,
  );

  const interrupts = watchInterrupts({
    onFirst: () => say('mutation: stopping after the runs under way (Ctrl-C again to abort at once)'),
    onAbort: () => {
      removeRunTmp(root);
      process.exit(EXIT.interrupted);
    },
  });
  const intervalMs = progressIntervalMs(a.progressInterval);
  try {
    // (b) first: its baseline is the cheap check that the campaign passes at all.
    const progress = new Progress('baseline runs', { enabled: true, intervalMs });
    let mutantProgress: Progress | null = null;
    const t0 = performance.now();
    const oracle = new Map<string, OracleResult>();
    let done = 0;
    const kinds = { killed: 0, hang: 0, survived: 0 };
    const stage = await runOracleStage(mine, {
      root,
      workers,
      campaign,
      control: control[0]!,
      stop: () => interrupts.requested,
      onBaseline: (b, n, total) => {
        progress.update({ done: n, total, detail: `${b.run} ${b.outcome}`, etaMs: null });
      },
      onMutant: (m, r) => {
        if (mutantProgress === null) {
          progress.stop();
          mutantProgress = new Progress('mutants', { enabled: true, intervalMs });
        }
        oracle.set(m.key, r);
        done++;
        kinds[r.status]++;
        const el = performance.now() - t0;
        mutantProgress.update({
          done,
          total: mine.length,
          detail: `oracle stage: ${kinds.killed} killed, ${kinds.hang} hang, ${kinds.survived} survived`,
          etaMs: (el / done) * (mine.length - done),
        });
        if (r.status === 'survived')
          mutantProgress.line(`  survived the oracles${r.reached ? '' : ' (no run executes its code)'}: ${m.key}`);
      },
    });
    progress.stop();
    (mutantProgress as Progress | null)?.stop();
    const oraclesMs = performance.now() - t0;
    const c = stage.control!;
    say(`mutation: control ${control[0]!.key}: ${c.status} (${c.kind}${c.oracle ? ` ${c.oracle}` : ''}, ${c.run})`);
    say(
      `mutation: oracle stage done in ${formatWall(oraclesMs)}: ${kinds.killed} killed, ${kinds.hang} hang, ${kinds.survived} survived`,
    );

    let unit: Map<string, UnitResult> | null = null;
    const t1 = performance.now();
    const ran = mine.filter((m) => oracle.has(m.key));
    const assemble = (unitRan: boolean): ShardResult => {
      const cpuEnd = cpuTime();
      return {
        kind: RESULT_KIND,
        version: lockstepVersion(),
        commit: gitCommit(),
        params: {
          sampleSize,
          seed: a.seed,
          targets: [...TARGETS],
          mutators: [...MUTATORS],
          populationSize: population.length,
          populationHash: populationHash(population),
          campaign,
          unitStage: unitRan,
        },
        shard,
        interrupted: interrupts.requested,
        baseline: stage.baseline,
        control: { key: control[0]!.key, oracles: stage.control! },
        mutants: ran.map((m): MutantRecord => ({ ...m, unit: unit?.get(m.key) ?? null, oracles: oracle.get(m.key)! })),
        wall: { unitMs: unitRan ? performance.now() - t1 : 0, oraclesMs, totalMs: performance.now() - startedAt },
        cpu:
          cpuStart && cpuEnd
            ? { selfMs: cpuEnd.selfMs - cpuStart.selfMs, childrenMs: cpuEnd.childrenMs - cpuStart.childrenMs }
            : null,
        machine: machine(loadStart),
      };
    };
    mkdirSync(out, { recursive: true });
    // The oracle stage's results on their own, before Stryker's long run (`show` reads them).
    writeFileSync(join(out, 'oracle-stage.json'), `${JSON.stringify(assemble(false), null, 2)}\n`);
    if (!a.skipUnit && !interrupts.requested && ran.length) {
      say(`mutation: unit stage: Stryker with its vitest runner on the unit project (${ran.length} mutants)…`);
      unit = await runUnitStage(ran, { root, workers, tty: process.stderr.isTTY === true });
    }
    const result = assemble(!a.skipUnit && unit !== null);
    writeFileSync(join(out, 'results.json'), `${JSON.stringify(result, null, 2)}\n`);
    const report = renderReport(result, judgements, a.markdown);
    writeFileSync(join(out, 'summary.md'), renderReport(result, judgements, true).text);
    process.stdout.write(report.text);
    if (a.updateJudgements) {
      const added = addPlaceholders(judgementsPath, survivors(result));
      say(`mutation: ${added} unjudged placeholder(s) added to ${JUDGEMENTS_FILE}`);
    }
    say(`mutation: results in ${out}`);
    return interrupts.requested ? EXIT.interrupted : EXIT.pass;
  } catch (e) {
    if (e instanceof BaselineFailure) {
      say(`mutation: STOPPED: ${e.message}`);
      say(
        'mutation: a campaign that fails without a mutant would count every mutant as killed; fix the baseline first',
      );
      return EXIT.crash;
    }
    if (e instanceof HarnessError) {
      say(`mutation: STOPPED: the harness is broken: ${e.message}`);
      return EXIT.crash;
    }
    throw e;
  } finally {
    interrupts.dispose();
    removeRunTmp(root);
  }
}

function mergeCommand(files: string[], outDir: string, markdown: boolean): number {
  const merged = mergeResults(files.map((f) => readBenchResult(f, 'mutation bench')));
  const out = resolve(outDir);
  if (files.some((f) => resolve(f) === out)) throw new InputError('--out', `${outDir} is one of the shards`);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'results.json'), `${JSON.stringify(merged, null, 2)}\n`);
  const judgements = readJudgements(join(PACKAGE_ROOT, JUDGEMENTS_FILE));
  writeFileSync(join(out, 'summary.md'), renderReport(merged, judgements, true).text);
  process.stdout.write(renderReport(merged, judgements, markdown).text);
  return EXIT.pass;
}

function showCommand(path: string, markdown: boolean): number {
  const { file, value } = readBenchResult(path, 'mutation bench');
  const r: AnyResult = asResult(file, value);
  process.stdout.write(renderReport(r, readJudgements(join(PACKAGE_ROOT, JUDGEMENTS_FILE)), markdown).text);
  return EXIT.pass;
}

export async function mutationMain(argv: string[]): Promise<number> {
  let code: number = EXIT.pass;
  const parser = yargs(argv)
    .scriptName('npm run bench -- mutation')
    .usage('$0 [run|merge|show] [options]')
    .command(
      ['run', '$0'],
      'mutants of the target folders against the unit tests and the oracles (the default)',
      (y) =>
        y
          .option('sample', {
            type: 'number',
            default: DEFAULT_SAMPLE_SIZE,
            describe: 'mutants drawn from the population',
          })
          .option('seed', { type: 'number', default: DEFAULT_SAMPLE_SEED, describe: 'the sample seed' })
          .option('shard', { type: 'string', default: '1/1', describe: 'run part I of N of the sample (I/N)' })
          .option('workers', {
            type: 'number',
            default: cpus().length,
            describe: 'worker threads and Stryker test runners',
          })
          .option('out', {
            type: 'string',
            describe: 'results folder (default reports/mutation/latest or shard-I-of-N)',
          })
          .option('scenarios', {
            type: 'string',
            describe: 'comma-separated scenario names or files instead of the default subset',
          })
          .option('swarm-seeds', {
            type: 'number',
            default: DEFAULT_SWARM_SEEDS,
            describe: 'swarm seeds for survivors of the scenarios',
          })
          .option('swarm-duration', {
            type: 'string',
            default: `${DEFAULT_SWARM_DURATION_MS / 60_000}m`,
            describe: 'simulated time per swarm seed',
          })
          .option('skip-unit', { type: 'boolean', default: false, describe: 'the oracle stage only (no Stryker run)' })
          .option('update-judgements', {
            type: 'boolean',
            default: false,
            describe: `add "unjudged" placeholders for new survivors to ${JUDGEMENTS_FILE}`,
          })
          .option('markdown', { type: 'boolean', default: false, describe: 'print the report as Markdown' })
          .option('progress-interval', {
            type: 'string',
            describe: 'when stderr is not a terminal: time between status lines (default 10s)',
          }),
      async (a) => {
        code = await runCommand({
          sample: a.sample,
          seed: a.seed,
          shard: a.shard,
          workers: a.workers,
          out: a.out,
          scenarios: a.scenarios,
          swarmSeeds: a['swarm-seeds'],
          swarmDuration: a['swarm-duration'],
          skipUnit: a['skip-unit'],
          updateJudgements: a['update-judgements'],
          markdown: a.markdown,
          progressInterval: a['progress-interval'],
        });
      },
    )
    .command(
      'merge <files..>',
      'merge shard results (folders or results.json files): refuses mixed commits or parameters and a shard given twice',
      (y) =>
        y
          .positional('files', { type: 'string', array: true, demandOption: true })
          .option('out', { type: 'string', default: 'reports/mutation/merged', describe: 'merged results folder' })
          .option('markdown', {
            type: 'boolean',
            default: false,
            describe: 'print the report as Markdown (CI job summary)',
          }),
      (a) => {
        code = mergeCommand(a.files as string[], a.out, a.markdown);
      },
    )
    .command(
      'show <file>',
      'print the report of a results folder or file again, with the current judgements',
      (y) =>
        y
          .positional('file', { type: 'string', demandOption: true })
          .option('markdown', { type: 'boolean', default: false }),
      (a) => {
        code = showCommand(a.file as string, a.markdown);
      },
    );
  return (await parseBenchCommand(parser, 'mutation', say)) ?? code;
}
