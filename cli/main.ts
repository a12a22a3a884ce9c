/**
 * The `lockstep` command line (yargs). Exit codes: the table in ./exitCodes.ts (0 pass, 1 bad
 * input, 2 safety, 3 liveness, 4 crash, 5 expectations, 130 interrupted).
 */
import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { runCommand } from './runCommand';
import { EXIT, exitCodeForError } from '../src/core/exitCodes';
import { EXIT_CODES_LINE } from './verdictCodes';
import { fuzzCommand } from './fuzzCommand';
import { replayCommand, shrinkCommand, REPLAY_COLUMNS, type RunTarget } from './shrinkReplayCommands';
import { reportMergeCommand } from './reportMerge';
import { reportDiffCommand } from './reportDiff';
import { testCommand } from './testCommand';
import { sweepCommand } from './sweepCommand';
import { registerDevnetCommands } from './devnet/commands';
import { registerClientCommands } from '../src/client/commands';
import { SWARM_PROFILES } from '../sim/campaign/swarm';
import { limitHeapGrowth } from './heapGrowth';

function targetOptions<T>(y: Argv<T>) {
  return y
    .option('scenario', { type: 'string', describe: 'scenario name or JSON file' })
    .option('seed', { type: 'number', describe: 'run seed (with --scenario; default 1)' })
    .option('fuzz-seed', { type: 'number', describe: 'a seed of the swarm fuzz profile instead of a scenario' })
    .option('duration', { type: 'string', describe: 'with --fuzz-seed: simulated time per seed (default 2h)' })
    .option('profile', {
      type: 'string',
      choices: [...SWARM_PROFILES],
      describe: 'with --fuzz-seed: the swarm profile of the seed (default swarm)',
    })
    .option('report', {
      type: 'string',
      describe: 'a report folder of `lockstep run` (its summary.json names scenario and seed)',
    })
    .option('crypto', { type: 'string', choices: ['fast', 'real'], describe: "override the run's crypto mode" })
    .option('plant', { type: 'string', hidden: true });
}

function targetArgs(a: Record<string, unknown>): RunTarget {
  const t: RunTarget = {};
  if (typeof a.scenario === 'string') t.scenario = a.scenario;
  if (typeof a.seed === 'number') t.seed = a.seed;
  if (typeof a['fuzz-seed'] === 'number') t.fuzzSeed = a['fuzz-seed'];
  if (typeof a.duration === 'string') t.duration = a.duration;
  if (typeof a.profile === 'string') t.profile = a.profile;
  if (typeof a.report === 'string') t.report = a.report;
  if (typeof a.crypto === 'string') t.crypto = a.crypto;
  if (typeof a.plant === 'string') t.plant = a.plant;
  return t;
}

/** A yargs usage error (unknown flag, missing argument, bad choice). */
class UsageFailure extends Error {}

const EPILOGUE = EXIT_CODES_LINE;

const PROGRESS_INTERVAL = {
  type: 'string',
  describe: 'when stderr is not a terminal: time between status lines (default 10s; env LOCKSTEP_PROGRESS_INTERVAL)',
} as const;

export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.pass;
  const parser = yargs(argv)
    .scriptName('lockstep')
    .usage('$0 <command> [options]')
    .command(
      'run [file]',
      'Run a scenario on virtual time and print its summary',
      (y) =>
        y
          .positional('file', {
            type: 'string',
            describe: 'the scenario, as --scenario (name or JSON file); give one or the other',
          })
          .option('scenario', {
            type: 'string',
            describe: 'scenario name (under scenarios/) or a JSON file (default: default)',
          })
          .check((a) => {
            if (a.file !== undefined && a.scenario !== undefined)
              throw new Error(`give the scenario once: as an argument (${a.file}) or as --scenario (${a.scenario})`);
            return true;
          })
          .option('seed', {
            type: 'number',
            describe: "run seed (default: the scenario's own seed, else 1); same scenario + seed = same trace hash",
          })
          .option('until', {
            type: 'string',
            describe: "simulated duration to run, e.g. 90s, 10m, 1h (default: the scenario's duration)",
          })
          .option('placement', {
            type: 'string',
            default: 'inline',
            choices: ['inline', 'worker'],
            describe: 'run the sidechain domain inline or in a worker thread',
          })
          .option('crypto', {
            type: 'string',
            choices: ['real', 'fast'],
            describe: "override the scenario's crypto mode",
          })
          .option('json', {
            type: 'boolean',
            default: false,
            describe: 'print one JSON object instead of the readable summary',
          })
          .option('out', {
            type: 'string',
            describe: 'report folder (default reports/runs/<scenario file name>-<seed>/)',
          })
          .option('trace', {
            type: 'boolean',
            default: true,
            describe: 'write trace.jsonl to the report folder (--no-trace to skip)',
          })
          .option('check-determinism', {
            type: 'boolean',
            default: false,
            describe:
              'run twice inline and once in a worker, compare trace hashes, name the first differing record (writes no report)',
          })
          .option('check-invariants', {
            type: 'boolean',
            default: false,
            describe:
              "check every module's invariants at the end of every block; a broken one ends the run as a crash (exit 4) naming it, the height and the seed",
          })
          .option('shared-execution', {
            type: 'boolean',
            default: true,
            describe:
              'let the service nodes adopt the record of a block another node already applied to the same state (--no-shared-execution runs every block on every node; the trace hash is the same)',
          })
          .option('stats', {
            type: 'boolean',
            default: false,
            describe:
              "after the summary, each cache's bound, size and hit rate and the shared block execution's (with --json: fields caches and sharedExecution)",
          })
          .option('progress-interval', PROGRESS_INTERVAL)
          .option('test-diverge-after', { type: 'number', hidden: true })
          .example('$0 run', 'run the default scenario')
          .example('$0 run scenarios/smoke.json', 'run a scenario file')
          .example('$0 run --scenario smoke --seed 7 --json', 'one JSON line for scripts')
          .example('$0 run --scenario reports/runs/smoke-7/scenario.json --seed 7', 'run a report folder again')
          .example('$0 run --scenario smoke --check-determinism', 'same trace hash in three runs?')
          .example('$0 run --scenario smoke --check-invariants', "check the modules' invariants after every block")
          .epilogue(
            `A run passes when its oracles pass and every expectation of its scenario holds. With --until shorter than the scenario the run is marked shortened and expectations it cannot judge are shown as not judged. Ctrl-C stops at the next step: verdict interrupted, exit 130, the partial report in <out>.interrupted/.\n${EPILOGUE}`,
          ),
      async (args) => {
        exitCode = await runCommand({
          scenario: args.file ?? args.scenario ?? 'default',
          ...(args.seed !== undefined ? { seed: args.seed } : {}),
          ...(args.until !== undefined ? { until: args.until } : {}),
          placement: args.placement,
          ...(args.crypto !== undefined ? { crypto: args.crypto } : {}),
          json: args.json,
          ...(args.out !== undefined ? { out: args.out } : {}),
          trace: args.trace,
          checkDeterminism: args['check-determinism'],
          checkInvariants: args['check-invariants'],
          sharedExecution: args['shared-execution'],
          stats: args.stats,
          ...(args['progress-interval'] !== undefined ? { progressInterval: args['progress-interval'] } : {}),
          ...(args['test-diverge-after'] !== undefined ? { divergeAfterEvent: args['test-diverge-after'] } : {}),
        });
      },
    )
    .command(
      'fuzz',
      'Run a campaign of seeds over a worker pool and report failures by oracle',
      (y) =>
        y
          .option('seeds', { type: 'number', describe: 'run seeds (swarm) or runs (guided) 1..N (within the shard)' })
          .option('time', { type: 'string', describe: 'or keep going for this much wall time, e.g. 10m' })
          .option('workers', { type: 'number', default: 2, describe: 'worker threads' })
          .option('shard', {
            type: 'string',
            default: '1/1',
            describe: 'I/N: run only seeds with (seed - 1) % N == I - 1 (CI matrices)',
          })
          .option('profile', {
            type: 'string',
            describe:
              'swarm: the fault profile (default swarm): swarm draws the fault mix and knobs per seed (Byzantine validators below 1/3 of the power); byzantine-third adds a coalition of 3/7 of the power attacking consensus (the safety oracles must fire)',
          })
          .option('crypto', {
            type: 'string',
            choices: ['fast', 'real'],
            describe: 'swarm: crypto mode of every run (default fast)',
          })
          .option('duration', { type: 'string', describe: 'swarm: simulated time per seed (default 2h)' })
          .option('out', { type: 'string', describe: 'results folder (default reports/fuzz/shard-I-of-N/)' })
          .option('efficacy-every', {
            type: 'number',
            describe:
              'swarm: measure fault efficacy on every k-th seed (re-runs without each fault; default 10); 0 = never',
          })
          .option('plant', { type: 'string', hidden: true, describe: 'turn on a planted bug (test builds)' })
          .option('strategy', {
            type: 'string',
            default: 'guided',
            choices: ['guided', 'swarm'],
            describe:
              "guided: the explorer draws runs and mutates those that reached new ground (docs/HUNT.md); swarm: seed N is swarm scenario N; --profile, --duration, --crypto and --efficacy-every are the swarm's",
          })
          .option('campaign-seed', { type: 'number', describe: 'guided: the campaign seed (default 1)' })
          .option('corpus-in', {
            type: 'string',
            describe: 'guided: start from this corpus (corpus.json or its folder); its runs go first',
          })
          .option('corpus-out', {
            type: 'string',
            describe: 'guided: also write the corpus to this folder (the results folder always holds one)',
          })
          .option('resume', {
            type: 'boolean',
            describe: 'guided: continue the interrupted campaign in <out>.interrupted/ (same parameters and commit)',
          })
          .option('progress-interval', PROGRESS_INTERVAL)
          .option('json', {
            type: 'boolean',
            default: false,
            describe: 'print one JSON object (seeds, verdicts, failures, faults)',
          })
          .example('$0 fuzz --seeds 400 --workers 2', '400 runs of the guided explorer')
          .example(
            '$0 fuzz --strategy swarm --seeds 200 --workers 2 --duration 30m',
            '200 swarm seeds of 30 simulated minutes',
          )
          .example(
            '$0 fuzz --strategy guided --time 1h --corpus-in corpus --corpus-out corpus',
            'an hour of the guided explorer, its corpus kept',
          )
          .example(
            '$0 fuzz --seeds 1000 --shard 3/8 --json',
            'one shard of a CI matrix; merge with `lockstep report merge`',
          )
          .epilogue(EPILOGUE),
      async (a) => {
        exitCode = await fuzzCommand({
          ...(a.seeds !== undefined ? { seeds: a.seeds } : {}),
          ...(a.time !== undefined ? { time: a.time } : {}),
          workers: a.workers,
          shard: a.shard,
          ...(a.profile !== undefined ? { profile: a.profile } : {}),
          ...(a.crypto !== undefined ? { crypto: a.crypto } : {}),
          ...(a.duration !== undefined ? { duration: a.duration } : {}),
          ...(a.out !== undefined ? { out: a.out } : {}),
          json: a.json,
          ...(a['efficacy-every'] !== undefined ? { efficacyEvery: a['efficacy-every'] } : {}),
          ...(a.plant !== undefined ? { plant: a.plant } : {}),
          ...(a['progress-interval'] !== undefined ? { progressInterval: a['progress-interval'] } : {}),
          strategy: a.strategy,
          ...(a['campaign-seed'] !== undefined ? { campaignSeed: a['campaign-seed'] } : {}),
          ...(a['corpus-in'] !== undefined ? { corpusIn: a['corpus-in'] } : {}),
          ...(a['corpus-out'] !== undefined ? { corpusOut: a['corpus-out'] } : {}),
          ...(a.resume !== undefined ? { resume: a.resume } : {}),
        });
      },
    )
    .command(
      'sweep <file>',
      'Run every cell of a sweep file on every seed over a worker pool; write tables, intervals and plots',
      (y) =>
        y
          .positional('file', { type: 'string', demandOption: true, describe: 'the sweep file (sweeps/*.json)' })
          .option('workers', { type: 'number', default: 2, describe: 'worker threads' })
          .option('seeds', {
            type: 'number',
            describe: "run seeds 1..N in every cell instead of the file's seeds (raise it for tighter intervals)",
          })
          .option('shard', {
            type: 'string',
            default: '1/1',
            describe: 'I/N: run only every N-th seed, from the I-th (CI matrices; merge with `lockstep report merge`)',
          })
          .option('out', {
            type: 'string',
            describe: 'results folder (default reports/sweeps/<sweep name>/, with -shard-I-of-N for a shard)',
          })
          .option('fresh', {
            type: 'boolean',
            default: false,
            describe: 'discard the finished runs of an earlier, interrupted sweep instead of resuming it',
          })
          .option('dry-run', {
            type: 'boolean',
            default: false,
            describe: 'list the cells, the values drawn for every seed and the runs a resume would keep; run nothing',
          })
          .option('metrics-only', {
            type: 'boolean',
            default: false,
            describe:
              "compute every metric of the file anew from the stored runs' digests and write the tables; run nothing",
          })
          .option('json', { type: 'boolean', default: false, describe: 'print the summary as one JSON object' })
          .option('progress-interval', PROGRESS_INTERVAL)
          .example('$0 sweep sweeps/pip5-sprint-length.json --workers 2', 'the PIP-5 study')
          .example('$0 sweep sweeps/pip5-sprint-length.json --dry-run', 'the cells and the drawn values, nothing run')
          .example(
            '$0 sweep sweeps/pip5-sprint-length.json --seeds 100',
            'more seeds per cell (finished runs are kept)',
          )
          .example('$0 sweep sweeps/x.json --shard 2/4 --out shard-2', 'one shard of a CI matrix')
          .epilogue(
            `Ctrl-C finishes the runs under way and keeps every finished run in <out>/runs.jsonl: the same command resumes, keeping a finished run only when it was made from the same source tree (commit and uncommitted changes to src/, sim/, scenarios/, sweeps/) and saying why the others run again. A failed run (an oracle violation or a crash) is listed with its repro and left out of the statistics; the exit code is the worst verdict among failed runs.\n${EPILOGUE}`,
          ),
      async (a) => {
        exitCode = await sweepCommand({
          file: a.file as string,
          workers: a.workers,
          shard: a.shard,
          ...(a.seeds !== undefined ? { seeds: a.seeds } : {}),
          ...(a.out !== undefined ? { out: a.out } : {}),
          fresh: a.fresh,
          json: a.json,
          dryRun: a['dry-run'],
          metricsOnly: a['metrics-only'],
          ...(a['progress-interval'] !== undefined ? { progressInterval: a['progress-interval'] } : {}),
        });
      },
    )
    .command(
      'test [globs..]',
      'Run every scenario on its own seed over a worker pool and check its expectations (for CI)',
      (y) =>
        y
          .positional('globs', {
            type: 'string',
            array: true,
            describe:
              'scenario files, folders or glob patterns (default: scenarios/*.json scenarios/regressions/*.json)',
          })
          .option('workers', { type: 'number', describe: 'worker threads (default: the CPU count, at most 8)' })
          .option('junit', { type: 'string', describe: 'write JUnit XML (one test case per scenario) to this file' })
          .option('json', { type: 'boolean', default: false, describe: 'print one JSON object instead of lines' })
          .example('$0 test', 'the whole suite')
          .example("$0 test 'scenarios/bft-*.json' --junit reports/junit.xml", 'some scenarios, JUnit for CI')
          .epilogue(
            `A scenario passes when its run meets every expectation: the expected verdict (a regression may expect a violation), the oracle that fires first, the min/max counts.\n${EPILOGUE}`,
          ),
      async (a) => {
        exitCode = await testCommand({
          globs: (a.globs ?? []) as string[],
          ...(a.workers !== undefined ? { workers: a.workers } : {}),
          ...(a.junit !== undefined ? { junit: a.junit } : {}),
          json: a.json,
        });
      },
    )
    .command(
      'shrink',
      'Reduce a failing run to a minimal scenario (faults, workload, duration) in scenarios/regressions/',
      (y) =>
        targetOptions(y)
          .option('out', { type: 'string', describe: 'folder for the regression (default scenarios/regressions/)' })
          .option('name', { type: 'string', describe: 'name of the regression scenario' })
          .option('json', { type: 'boolean', default: false })
          .example('$0 shrink --fuzz-seed 17 --duration 30m', 'shrink a failing fuzz seed')
          .epilogue(EPILOGUE),
      async (a) => {
        exitCode = await shrinkCommand({
          ...targetArgs(a),
          ...(a.out !== undefined ? { out: a.out } : {}),
          ...(a.name !== undefined ? { name: a.name } : {}),
          json: a.json,
        });
      },
    )
    .command(
      'replay',
      'Re-run a scenario + seed and print one line per event around the first violation (or between two times)',
      (y) =>
        targetOptions(y)
          .option('from', { type: 'string', describe: 'print events from this virtual time, e.g. 90s' })
          .option('to', { type: 'string', describe: 'print events up to this virtual time' })
          .option('window', {
            type: 'string',
            default: '5s',
            describe: 'without --from/--to: this much before and after the first violation (or the end)',
          })
          .option('kinds', {
            type: 'string',
            describe: 'only these event kinds, comma-separated (e.g. sidechain.reorg,service.commit)',
          })
          .epilogue(`${REPLAY_COLUMNS}
${EPILOGUE}`),
      async (a) => {
        exitCode = await replayCommand({
          ...targetArgs(a),
          ...(a.from !== undefined ? { from: a.from } : {}),
          ...(a.to !== undefined ? { to: a.to } : {}),
          window: a.window,
          ...(a.kinds !== undefined ? { kinds: a.kinds } : {}),
        });
      },
    )
    .command(
      'report <action> <dirs..>',
      'Work with reports: `report merge DIR...` merges fuzz or sweep shards; `report diff A B` shows where two runs part',
      (y) =>
        y
          .positional('action', { type: 'string', choices: ['merge', 'diff'] })
          .positional('dirs', {
            type: 'string',
            array: true,
            describe:
              'merge: fuzz shard folders (summary.json) or sweep shard folders (runs.jsonl); diff: two report folders of lockstep run, or runs made now as SCENARIO@SEED[@COMMIT]',
          })
          .option('out', {
            type: 'string',
            describe:
              'merge: folder for the merged results (default reports/fuzz/merged, or reports/sweeps/<sweep>-merged for sweep shards)',
          })
          .option('json', { type: 'boolean', default: false, describe: 'print the result as JSON' })
          .option('markdown', {
            type: 'boolean',
            default: false,
            describe: 'merge: print the merged summary as Markdown (e.g. >> $GITHUB_STEP_SUMMARY)',
          })
          .option('partial', {
            type: 'boolean',
            default: false,
            describe: 'merge: merge the sweep shards given even when some are missing (the tables say incomplete)',
          })
          .option('kind', {
            type: 'string',
            array: true,
            describe: 'diff: compare only trace records of this kind (repeat; `consensus.*` for a prefix)',
          })
          .option('node', { type: 'string', array: true, describe: 'diff: compare only records of this node (repeat)' })
          .option('from', { type: 'string', describe: 'diff: compare only records from this virtual time (e.g. 60s)' })
          .option('to', { type: 'string', describe: 'diff: compare only records up to this virtual time (e.g. 2m)' })
          .option('ignore-field', {
            type: 'string',
            array: true,
            describe: 'diff: leave this record field out of the comparison (repeat; `seq`, `data.timeMs`)',
          })
          .option('all-fields', {
            type: 'boolean',
            default: false,
            describe:
              'diff: compare every field, also those that differ by construction (the sequence counter; between seeds, keys and hashes)',
          })
          .option('progress-interval', PROGRESS_INTERVAL)
          .example('$0 report merge shards/fuzz-1 shards/fuzz-2 --out merged --markdown', 'merge two fuzz shards')
          .example('$0 report merge shards/sweep-* --out merged', 'merge the shards of a sweep')
          .example('$0 report diff reports/runs/smoke-1 reports/runs/smoke-2', 'two report folders')
          .example('$0 report diff smoke@1 smoke@2', 'two runs made now with this build')
          .example("$0 report diff A B --kind 'consensus.*' --node svc-2 --from 60s --to 2m", 'only some records')
          .epilogue(
            `merge refuses a folder that is not a shard, a shard given twice, shards of different source trees, parameters or shard counts, and (without --partial) a sweep with a shard missing. diff prints the first differing trace record (index, time, kind, node, both sides) and the differences in counts, metrics, expectations and verdict, or "identical"; it leaves out what differs by construction (the sequence counter; between two seeds everything but time, kind and node) unless --all-fields; it exits 0 when it compared, identical or not.\n${EPILOGUE}`,
          ),
      async (a) => {
        const dirs = (a.dirs ?? []) as string[];
        if (a.action === 'diff') {
          if (a.out !== undefined) throw new UsageFailure('--out is for report merge');
          if (a.markdown) throw new UsageFailure('--markdown is for report merge');
          if (a.partial) throw new UsageFailure('--partial is for report merge');
          exitCode = await reportDiffCommand({
            sides: dirs,
            json: a.json,
            ...(a.kind !== undefined ? { kinds: a.kind as string[] } : {}),
            ...(a.node !== undefined ? { nodes: a.node as string[] } : {}),
            ...(a.from !== undefined ? { from: a.from } : {}),
            ...(a.to !== undefined ? { to: a.to } : {}),
            ...(a['ignore-field'] !== undefined ? { ignoreFields: a['ignore-field'] as string[] } : {}),
            allFields: a['all-fields'],
            ...(a['progress-interval'] !== undefined ? { progressInterval: a['progress-interval'] } : {}),
          });
          return;
        }
        for (const flag of ['kind', 'node', 'from', 'to', 'ignore-field'] as const)
          if (a[flag] !== undefined) throw new UsageFailure(`--${flag} is for report diff`);
        if (a['all-fields']) throw new UsageFailure('--all-fields is for report diff');
        exitCode = await reportMergeCommand({
          dirs,
          ...(a.out !== undefined ? { out: a.out } : {}),
          json: a.json,
          markdown: a.markdown,
          partial: a.partial,
        });
      },
    );
  registerDevnetCommands(parser, (c) => {
    exitCode = c;
  });
  registerClientCommands(parser, (c) => {
    exitCode = c;
  });
  parser
    .demandCommand(1, 'Name a command: lockstep run --help')
    .strict()
    .help()
    .alias('h', 'help')
    .epilogue(EPILOGUE)
    .fail((msg, error) => {
      // Throwing stops yargs: a usage error must never go on to run the command's handler.
      throw error ?? new UsageFailure(msg);
    });
  try {
    await parser.parseAsync();
  } catch (e) {
    if (e instanceof UsageFailure) {
      process.stderr.write(`lockstep: ${e.message}\nRun with --help for usage.\n`);
      return EXIT.badInput;
    }
    const code = exitCodeForError(e);
    process.stderr.write(`lockstep: ${(e as Error).message}\n`);
    return code;
  }
  return exitCode;
}

// A reader that goes away (`lockstep replay ... | head`) ends the command quietly: exit 0.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(EXIT.pass);
  throw e;
});
// Progress and notes go to stderr: if its reader is gone (a wrapper that exited on Ctrl-C), the
// work goes on without them and still finishes its report.
process.stderr.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
});

limitHeapGrowth();
const code = await main(hideBin(process.argv));
process.exitCode = code;
