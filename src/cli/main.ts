/**
 * The `lockstep` command line (yargs). Exit codes: 0 pass, 1 bad input, 2 safety, 3 liveness,
 * 4 crash (an invariant broke or the run hit a runaway bound).
 */
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { runCommand } from './runCommand';
import { EXIT, exitCodeForError } from './exitCodes';
import { fuzzCommand, formatCampaign } from './fuzzCommand';
import { replayCommand, shrinkCommand, REPLAY_COLUMNS, type RunTarget } from './shrinkReplayCommands';
import { mergeSummaries, type CampaignSummary } from '../../sim/campaign/fuzz';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InputError } from '../core/errors';
import { type Argv } from 'yargs';
import { registerDevnetCommands } from './devnet/commands';
import { registerClientCommands } from './client/commands';

function targetOptions<T>(y: Argv<T>) {
  return y
    .option('scenario', { type: 'string', describe: 'scenario name or JSON file' })
    .option('seed', { type: 'number', describe: 'run seed (with --scenario; default 1)' })
    .option('fuzz-seed', { type: 'number', describe: 'a seed of the swarm fuzz profile instead of a scenario' })
    .option('duration', { type: 'string', describe: 'with --fuzz-seed: simulated time per seed (default 2h)' })
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
  if (typeof a.report === 'string') t.report = a.report;
  if (typeof a.crypto === 'string') t.crypto = a.crypto;
  if (typeof a.plant === 'string') t.plant = a.plant;
  return t;
}

async function reportMerge(dirs: string[], out: string, json: boolean): Promise<number> {
  if (dirs.length === 0) throw new InputError('dirs', 'name at least one fuzz result folder');
  const parts = dirs.map((d) => {
    const f = join(resolve(d), 'summary.json');
    if (!existsSync(f)) throw new InputError('dirs', `no summary.json in ${d}`);
    return JSON.parse(readFileSync(f, 'utf8')) as CampaignSummary;
  });
  const merged = mergeSummaries(parts);
  const dir = resolve(out);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(merged, null, 2) + '\n');
  process.stdout.write(json ? JSON.stringify({ ...merged, out: dir }) + '\n' : formatCampaign(merged, dir));
  return merged.failures.length ? EXIT.safety : EXIT.pass;
}

/** A yargs usage error (unknown flag, missing argument, bad choice). */
class UsageFailure extends Error {}

const EPILOGUE = `Exit codes: ${EXIT.pass} pass, ${EXIT.badInput} bad input, ${EXIT.safety} safety violation, ${EXIT.liveness} liveness violation, ${EXIT.crash} crash.`;

export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.pass;
  const parser = yargs(argv)
    .scriptName('lockstep')
    .usage('$0 <command> [options]')
    .command(
      'run',
      'Run a scenario on virtual time and print its summary',
      (y) =>
        y
          .option('scenario', {
            type: 'string',
            default: 'default',
            describe: 'scenario name (under scenarios/) or a JSON file',
          })
          .option('seed', { type: 'number', default: 1, describe: 'run seed (same scenario + seed = same trace hash)' })
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
          .option('out', { type: 'string', describe: 'report folder (default reports/runs/<scenario>-<seed>/)' })
          .option('trace', {
            type: 'boolean',
            default: true,
            describe: 'write trace.jsonl to the report folder (--no-trace to skip)',
          })
          .example('$0 run', 'run the default scenario')
          .example('$0 run --scenario smoke --seed 7 --json', 'one JSON line for scripts')
          .epilogue(EPILOGUE),
      async (args) => {
        exitCode = await runCommand({
          scenario: args.scenario,
          seed: args.seed,
          until: args.until,
          placement: args.placement,
          crypto: args.crypto,
          json: args.json,
          out: args.out,
          trace: args.trace,
        });
      },
    )
    .command(
      'fuzz',
      'Run a campaign of seeds over a worker pool and report failures by oracle',
      (y) =>
        y
          .option('seeds', { type: 'number', describe: 'run seeds 1..N (within the shard)' })
          .option('time', { type: 'string', describe: 'or keep going for this much wall time, e.g. 10m' })
          .option('workers', { type: 'number', default: 2, describe: 'worker threads' })
          .option('shard', {
            type: 'string',
            default: '1/1',
            describe: 'I/N: run only seeds with (seed - 1) % N == I - 1 (CI matrices)',
          })
          .option('profile', {
            type: 'string',
            default: 'swarm',
            describe: 'fault profile: swarm draws the fault mix and knobs per seed',
          })
          .option('crypto', {
            type: 'string',
            default: 'fast',
            choices: ['fast', 'real'],
            describe: 'crypto mode of every run',
          })
          .option('duration', { type: 'string', default: '2h', describe: 'simulated time per seed' })
          .option('out', { type: 'string', describe: 'results folder (default reports/fuzz/shard-I-of-N/)' })
          .option('efficacy-every', {
            type: 'number',
            default: 10,
            describe: 'measure fault efficacy on every k-th seed (re-runs without each fault); 0 = never',
          })
          .option('plant', { type: 'string', hidden: true, describe: 'turn on a planted bug (test builds)' })
          .option('json', {
            type: 'boolean',
            default: false,
            describe: 'print one JSON object (seeds, verdicts, failures, faults)',
          })
          .example('$0 fuzz --seeds 200 --workers 2 --duration 30m', '200 swarm seeds of 30 simulated minutes')
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
          profile: a.profile,
          crypto: a.crypto,
          duration: a.duration,
          ...(a.out !== undefined ? { out: a.out } : {}),
          json: a.json,
          efficacyEvery: a['efficacy-every'],
          ...(a.plant !== undefined ? { plant: a.plant } : {}),
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
      'Work with reports: `report merge DIR...` merges fuzz shard results into one summary',
      (y) =>
        y
          .positional('action', { type: 'string', choices: ['merge'] })
          .positional('dirs', { type: 'string', array: true, describe: 'fuzz result folders (each with summary.json)' })
          .option('out', {
            type: 'string',
            default: join('reports', 'fuzz', 'merged'),
            describe: 'folder for the merged summary',
          })
          .option('json', { type: 'boolean', default: false }),
      async (a) => {
        exitCode = await reportMerge((a.dirs ?? []) as string[], a.out, a.json);
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

const code = await main(hideBin(process.argv));
process.exitCode = code;
