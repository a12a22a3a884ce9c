/**
 * The `lockstep` command line (yargs). Exit codes: 0 pass, 1 bad input, 2 safety, 3 liveness,
 * 4 crash (an invariant broke or the run hit a runaway bound).
 */
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { runCommand } from './runCommand';
import { EXIT, exitCodeForError } from './exitCodes';

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
          .option('scenario', { type: 'string', default: 'default', describe: 'scenario name (under scenarios/) or a JSON file' })
          .option('seed', { type: 'number', default: 1, describe: 'run seed (same scenario + seed = same trace hash)' })
          .option('until', { type: 'string', describe: "simulated duration to run, e.g. 90s, 10m, 1h (default: the scenario's duration)" })
          .option('placement', { type: 'string', default: 'inline', choices: ['inline', 'worker'], describe: 'run the sidechain domain inline or in a worker thread' })
          .option('crypto', { type: 'string', choices: ['real', 'fast'], describe: "override the scenario's crypto mode" })
          .option('json', { type: 'boolean', default: false, describe: 'print one JSON object instead of the readable summary' })
          .option('out', { type: 'string', describe: 'report folder (default reports/runs/<scenario>-<seed>/)' })
          .option('trace', { type: 'boolean', default: true, describe: 'write trace.jsonl to the report folder (--no-trace to skip)' })
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
    .demandCommand(1, 'Name a command: lockstep run --help')
    .strict()
    .help()
    .alias('h', 'help')
    .epilogue(EPILOGUE)
    .fail((msg, error) => {
      if (error) throw error;
      process.stderr.write(`lockstep: ${msg}\nRun with --help for usage.\n`);
      exitCode = EXIT.badInput;
    });
  try {
    await parser.parseAsync();
  } catch (e) {
    const code = exitCodeForError(e);
    process.stderr.write(`lockstep: ${(e as Error).message}\n`);
    return code;
  }
  return exitCode;
}

const code = await main(hideBin(process.argv));
process.exitCode = code;
