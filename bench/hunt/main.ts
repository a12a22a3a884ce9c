/**
 * `npm run bench -- hunt [run|merge|show] …`: how fast the fuzz campaigns alone find bugs nobody
 * wrote a scenario for. The population: every planted bug, and a seeded sample of Stryker logic
 * mutants that the unit tests detect (population.ts). For each bug and each strategy (the plain
 * swarm, the guided explorer: strategies.ts), the campaign runs alone, with no scenario file, to
 * its first failing run or a CPU budget (hunt.ts). Reports the share caught, the median and 90th
 * percentile CPU-seconds to the first catch, how each was caught (render.ts); writes results.json
 * (a row per bug per strategy), summary.md and a repro file per catch. docs/HUNT.md.
 *
 * The sample seed is fresh unless given (printed at the start: `--seed S` repeats a run), so that
 * no one tunes the campaigns to one sample.
 *
 * Exit codes: 0 the bench ran (the figures are figures, not a verdict), 1 bad input, 130
 * interrupted (the bugs done are written, marked partial).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import yargs from 'yargs';
import { parseBenchCommand, readBenchResult } from '../benchCli';
import { InputError } from '../../src/core/errors';
import { parseDurationMs } from '../../src/core/duration';
import { type PlantName, PLANT_NAMES, parsePlant } from '../../src/core/plants';
import { EXIT } from '../../src/core/exitCodes';
import { PACKAGE_ROOT, gitCommit, lockstepVersion } from '../../cli/provenance';
import { Progress, progressIntervalMs } from '../../cli/progress';
import { watchInterrupts } from '../../cli/interrupts';
import { MUTATORS, TARGETS } from '../mutation/population';
import { parseShard, shardOf } from '../mutation/sample';
import { cpuTime } from '../mutation/cpuTime';
import { removeRunTmp } from '../mutation/instrumentedTree';
import { type Bug, plantBugs, unitDetectedSample } from './population';
import { huntBug } from './hunt';
import { STRATEGIES, type StrategyName, sourceOf } from './strategies';
import { TreeRunner } from './treeRunner';
import { type BugInfo, HUNT_KIND, type HuntRow, type HuntShard, asHunt, mergeHunts } from './results';
import { renderHunt } from './render';
import { measureReach, reachVariants, reachedBy } from './reach';

export const DEFAULT_HUNT_SAMPLE = 30;
export const DEFAULT_BUDGET_S = 120;
/** The swarm as `lockstep fuzz` runs it by default: two simulated hours per seed. */
export const DEFAULT_SWARM_DURATION = '2h';

interface RunArgs {
  seed?: number;
  sample: number;
  budget: number;
  strategies: string;
  shard: string;
  workers: number;
  out?: string;
  plants: string;
  swarmDuration: string;
  campaignSeed?: number;
  unitCache?: string;
  freshUnit: boolean;
  markdown: boolean;
  progressInterval?: string;
}

function say(text: string): void {
  process.stderr.write(`${text}\n`);
}

function parseStrategies(text: string): StrategyName[] {
  const list = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!list.length) throw new InputError('--strategies', 'name at least one strategy');
  for (const s of list)
    if (!(STRATEGIES as readonly string[]).includes(s))
      throw new InputError('--strategies', `unknown strategy ${JSON.stringify(s)}; one of ${STRATEGIES.join(', ')}`);
  return [...new Set(list)] as StrategyName[];
}

function parsePlants(text: string): PlantName[] {
  if (text === 'all') return [...PLANT_NAMES];
  if (text === 'none') return [];
  return text.split(',').map((p) => parsePlant(p.trim(), '--plants'));
}

function wholeNumber(v: number, field: string, min: number): number {
  if (!Number.isSafeInteger(v) || v < min) throw new InputError(field, `expected a whole number >= ${min}, got ${v}`);
  return v;
}

function bugInfo(b: Bug, isStatic: boolean): BugInfo {
  return b.type === 'plant'
    ? { type: 'plant', key: b.key, plant: b.plant, rule: b.rule, guards: [...b.guards] }
    : { type: 'mutant', ...b.mutant, unit: b.unit, static: isStatic };
}

const slug = (s: string) =>
  s
    .replace(/[^a-zA-Z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);

async function runCommand(a: RunArgs): Promise<number> {
  const root = PACKAGE_ROOT;
  process.chdir(root);
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const children0 = cpuTime();
  const loadStart = loadavg();
  // The code measured is the code at the start (a commit made while the bench runs is not it).
  const build = { version: lockstepVersion(), commit: gitCommit() };
  // A fresh sample seed unless given (never 1 or 2: the samples the mutation bench was tuned on).
  const seed = a.seed ?? randomInt(3, 2 ** 31 - 1);
  wholeNumber(seed, '--seed', 0);
  const sample = wholeNumber(a.sample, '--sample', 0);
  const budgetS = a.budget;
  if (!(budgetS > 0)) throw new InputError('--budget', `expected a positive number of CPU-seconds, got ${a.budget}`);
  const workers = wholeNumber(a.workers, '--workers', 1);
  const strategies = parseStrategies(a.strategies);
  const plants = parsePlants(a.plants);
  const shard = parseShard(a.shard);
  const swarmDurationMs = parseDurationMs(a.swarmDuration, '--swarm-duration');
  const campaignSeed = a.campaignSeed ?? seed;
  const out = resolve(
    a.out ?? join(root, 'reports', 'hunt', shard.count > 1 ? `shard-${shard.index}-of-${shard.count}` : 'latest'),
  );
  const cacheFile = resolve(a.unitCache ?? join(root, 'reports', 'hunt', 'unit-cache.json'));
  say(`hunt: sample seed ${seed} (repeat this run with --seed ${seed})`);

  const interrupts = watchInterrupts({
    onFirst: () => say('hunt: stopping after the campaigns under way (Ctrl-C again to abort at once)'),
    onAbort: () => {
      removeRunTmp(root);
      process.exit(EXIT.interrupted);
    },
  });
  const intervalMs = progressIntervalMs(a.progressInterval);
  let runner: TreeRunner | null = null;
  try {
    const tu = performance.now();
    const { mutants, info } =
      sample > 0
        ? await unitDetectedSample({
            root,
            seed,
            sample,
            workers,
            cacheFile,
            tty: process.stderr.isTTY === true,
            say,
            fresh: a.freshUnit,
          })
        : { mutants: [], info: null };
    const unitMs = performance.now() - tu;
    if (mutants.length < sample) say(`hunt: only ${mutants.length} unit-detected mutants in the whole population`);
    const bugs = [...plantBugs(plants), ...mutants];
    const mine = shardOf(
      bugs.map((b, index) => ({ b, index })),
      shard,
    );
    say(
      `hunt: ${bugs.length} bugs (${plants.length} plants, ${mutants.length} unit-detected mutants${info ? ` of ${info.examined} examined` : ''})${shard.count > 1 ? `, shard ${shard.index}/${shard.count}: ${mine.length}` : ''}; ${strategies.join(' and ')}; ${budgetS} CPU-s each; ${workers} workers`,
    );
    runner = await TreeRunner.open(
      root,
      mine.flatMap(({ b }) => (b.type === 'mutant' ? [b.mutant] : [])),
      workers,
    );
    const tree = runner;
    const tasks = mine.flatMap(({ b, index }) => strategies.map((strategy) => ({ b, index, strategy })));
    const rows: HuntRow[] = [];
    const th = performance.now();
    const progress = new Progress('campaigns', { enabled: true, intervalMs });
    const tally: Record<string, number> = Object.fromEntries(strategies.map((s) => [s, 0]));
    let next = 0;
    mkdirSync(out, { recursive: true });
    rmSync(join(out, 'repro'), { recursive: true, force: true });
    const loop = async (): Promise<void> => {
      for (let i = next++; i < tasks.length && !interrupts.requested; i = next++) {
        const { b, index, strategy } = tasks[i]!;
        const bugRunner = await tree.forBug(b);
        let result: Awaited<ReturnType<typeof huntBug>>;
        try {
          result = await huntBug(sourceOf(strategy, { swarmDurationMs, campaignSeed }), bugRunner, budgetS * 1000);
        } finally {
          await bugRunner.close();
        }
        const { job, ...rest } = result;
        let catchRun: HuntRow['catchRun'] = null;
        if (job) {
          const file = join(
            'repro',
            strategy,
            `${String(index).padStart(3, '0')}-${slug(b.type === 'plant' ? b.plant : b.key)}.json`,
          );
          mkdirSync(join(out, 'repro', strategy), { recursive: true });
          const scenario = {
            ...job.scenario,
            name: `hunt-${strategy}-${index}`,
            description: `${b.key}: caught by ${strategy} ${job.label} (hunt bench, sample seed ${seed}${b.type === 'mutant' ? '; the mutant must be switched on to fail: docs/HUNT.md' : ''})`,
            streams: job.scenario.streams ?? job.scenario.name,
            ...(b.type === 'plant' ? { plant: b.plant } : {}),
            seed: job.seed,
            expect: {
              verdict: result.kind === 'safety' || result.kind === 'liveness' ? result.kind : 'crash',
              min: {},
              max: {},
            },
          };
          writeFileSync(join(out, file), `${JSON.stringify(scenario, null, 2)}\n`);
          catchRun = { label: job.label, index: job.index, file };
        }
        rows.push({
          ...rest,
          index,
          bug: bugInfo(b, tree.isStatic(b)),
          strategy,
          catchRun,
          byGuard:
            b.type === 'plant' && result.caught ? result.oracle !== null && b.guards.includes(result.oracle) : null,
        });
        if (result.caught) tally[strategy]!++;
        progress.line(
          `  ${strategy.padEnd(6)} ${b.key.slice(0, 90)}: ${result.caught ? `${result.kind}${result.oracle ? ` ${result.oracle}` : ''} after ${result.cpuS.toFixed(1)} CPU-s, ${result.runs} runs` : `not caught (${result.runs} runs)`}`,
        );
        progress.update({
          done: rows.length,
          total: tasks.length,
          detail: strategies.map((s) => `${s} ${tally[s]} caught`).join(', '),
          etaMs: null,
        });
      }
    };
    await Promise.all(Array.from({ length: workers }, () => loop()));
    progress.stop();
    const cpu = process.cpuUsage(cpu0);
    const children1 = cpuTime();
    const result: HuntShard = {
      kind: HUNT_KIND,
      ...build,
      params: {
        seed,
        sample,
        budgetS,
        strategies,
        swarmDurationMs,
        campaignSeed,
        plants,
        targets: [...TARGETS],
        mutators: [...MUTATORS],
        populationSize: info?.populationSize ?? 0,
        populationHash: info?.populationHash ?? '',
        mutantKeys: mutants.map((m) => m.key),
      },
      shard,
      interrupted: interrupts.requested,
      rows: rows.sort((x, y) => x.index - y.index || (x.strategy < y.strategy ? -1 : 1)),
      unit: { examined: info?.examined ?? 0, ran: info?.unitRan ?? 0, cached: info?.unitCached ?? 0, wallMs: unitMs },
      wall: { totalMs: performance.now() - started, huntMs: performance.now() - th },
      cpu: {
        processMs: (cpu.user + cpu.system) / 1000,
        childrenMs: children0 && children1 ? children1.childrenMs - children0.childrenMs : 0,
        runsMs: rows.reduce((n, r) => n + r.spentS * 1000, 0),
      },
      machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'cpu', loadStart, loadEnd: loadavg() },
    };
    writeFileSync(join(out, 'results.json'), `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(join(out, 'summary.md'), renderHunt(result, true));
    process.stdout.write(renderHunt(result, a.markdown));
    say(`hunt: results in ${out}`);
    return interrupts.requested ? EXIT.interrupted : EXIT.pass;
  } finally {
    interrupts.dispose();
    await runner?.close();
    removeRunTmp(root);
  }
}

async function reachCommand(a: {
  budget: number;
  seeds: string;
  variants?: string;
  list: boolean;
  workers: number;
  out: string;
}): Promise<number> {
  const all = reachVariants();
  if (a.list) {
    process.stdout.write(`${all.map((v) => v.name).join('\n')}\n`);
    return EXIT.pass;
  }
  const names = a.variants?.split(',').map((x) => x.trim());
  const variants = names ? all.filter((v) => names.includes(v.name)) : all;
  if (names && variants.length !== names.length)
    throw new InputError('--variants', `unknown variant(s); --list shows them`);
  const seeds = a.seeds.split(',').map((x) => wholeNumber(Number(x), '--seeds', 0));
  if (!(a.budget > 0)) throw new InputError('--budget', 'expected a positive number of CPU-seconds');
  const root = PACKAGE_ROOT;
  process.chdir(root);
  const started = performance.now();
  say(
    `hunt reach: ${variants.length} variants x ${seeds.length} campaign seeds, ${a.budget} CPU-s each, ${a.workers} workers`,
  );
  let done = 0;
  const { curves, mutants } = await measureReach({
    root,
    budgetS: a.budget,
    seeds,
    workers: wholeNumber(a.workers, '--workers', 1),
    variants,
    onCurve: (c, total) =>
      say(
        `  ${c.variant} (seed ${c.campaignSeed}): ${c.points.at(-1)?.reached ?? 0} switches in ${c.points.length} runs (${++done}/${total})`,
      ),
  });
  const marks = [30, 60, 120, a.budget].filter((x, i, xs) => x <= a.budget && xs.indexOf(x) === i);
  const mean = (xs: number[]) => xs.reduce((p, x) => p + x, 0) / Math.max(1, xs.length);
  const lines = [
    `## Code reached per CPU-second (${mutants} logic-mutant switches in the code, none on; campaign seeds ${seeds.join(', ')}; mean over seeds)`,
    '',
    `| variant | ${marks.map((m) => `by ${m} CPU-s`).join(' | ')} | runs | failing runs |`,
    `| --- | ${marks.map(() => '---').join(' | ')} | --- | --- |`,
    ...variants.map((v) => {
      const cs = curves.filter((c) => c.variant === v.name);
      return `| ${v.name} | ${marks.map((m) => mean(cs.map((c) => reachedBy(c, m))).toFixed(0)).join(' | ')} | ${mean(cs.map((c) => c.points.length)).toFixed(0)} | ${cs.reduce((n, c) => n + c.failures, 0)} |`;
    }),
    '',
    `wall time ${((performance.now() - started) / 60_000).toFixed(1)} min`,
  ];
  const out = resolve(a.out);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'reach.json'), `${JSON.stringify({ mutants, seeds, budgetS: a.budget, curves }, null, 1)}\n`);
  writeFileSync(join(out, 'reach.md'), `${lines.join('\n')}\n`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.pass;
}

export async function huntMain(argv: string[]): Promise<number> {
  let code: number = EXIT.pass;
  const parser = yargs(argv)
    .scriptName('npm run bench -- hunt')
    .usage('$0 [run|merge|show|reach] [options]')
    .command(
      ['run', '$0'],
      'every planted bug and a sample of unit-detected mutants against each fuzz strategy alone, to the first catch or the budget (the default)',
      (y) =>
        y
          .option('seed', { type: 'number', describe: 'the sample seed (default: a fresh one, printed at the start)' })
          .option('sample', {
            type: 'number',
            default: DEFAULT_HUNT_SAMPLE,
            describe: 'unit-detected mutants in the population (0: plants only)',
          })
          .option('budget', { type: 'number', default: DEFAULT_BUDGET_S, describe: 'CPU-seconds per bug and strategy' })
          .option('strategies', {
            type: 'string',
            default: STRATEGIES.join(','),
            describe: `comma-separated: ${STRATEGIES.join(', ')}`,
          })
          .option('shard', { type: 'string', default: '1/1', describe: 'run part I of N of the population (I/N)' })
          .option('workers', {
            type: 'number',
            default: cpus().length,
            describe: 'worker threads (and Stryker test runners)',
          })
          .option('out', { type: 'string', describe: 'results folder (default reports/hunt/latest or shard-I-of-N)' })
          .option('plants', { type: 'string', default: 'all', describe: 'all, none, or comma-separated plant names' })
          .option('swarm-duration', {
            type: 'string',
            default: DEFAULT_SWARM_DURATION,
            describe: "the swarm's simulated time per seed (lockstep fuzz's default)",
          })
          .option('campaign-seed', {
            type: 'number',
            describe: "the guided campaign's seed (default: the sample seed)",
          })
          .option('unit-cache', {
            type: 'string',
            describe: "Stryker's unit verdicts kept between runs (default reports/hunt/unit-cache.json)",
          })
          .option('fresh-unit', {
            type: 'boolean',
            default: false,
            describe: 'ignore the unit cache (run Stryker on every mutant examined)',
          })
          .option('markdown', { type: 'boolean', default: false, describe: 'print the report as Markdown' })
          .option('progress-interval', {
            type: 'string',
            describe: 'when stderr is not a terminal: time between status lines (default 10s)',
          })
          .example('$0 --budget 10 --sample 5 --workers 1', 'a quick look (development)')
          .example(
            '$0 --seed 4242 --shard 1/2 --out shard-1',
            'half of a run that another machine does the other half of',
          ),
      async (a) => {
        code = await runCommand({
          ...(a.seed !== undefined ? { seed: a.seed } : {}),
          sample: a.sample,
          budget: a.budget,
          strategies: a.strategies,
          shard: a.shard,
          workers: a.workers,
          ...(a.out !== undefined ? { out: a.out } : {}),
          plants: a.plants,
          swarmDuration: a['swarm-duration'],
          ...(a['campaign-seed'] !== undefined ? { campaignSeed: a['campaign-seed'] } : {}),
          ...(a['unit-cache'] !== undefined ? { unitCache: a['unit-cache'] } : {}),
          freshUnit: a['fresh-unit'],
          markdown: a.markdown,
          ...(a['progress-interval'] !== undefined ? { progressInterval: a['progress-interval'] } : {}),
        });
      },
    )
    .command(
      'merge <files..>',
      'merge shard results (folders or results.json files): refuses mixed commits or parameters and a shard given twice',
      (y) =>
        y
          .positional('files', { type: 'string', array: true, demandOption: true })
          .option('out', { type: 'string', default: 'reports/hunt/merged', describe: 'merged results folder' })
          .option('markdown', { type: 'boolean', default: false, describe: 'print the report as Markdown' }),
      (a) => {
        const merged = mergeHunts((a.files as string[]).map((f) => readBenchResult(f, 'hunt bench')));
        const dir = resolve(a.out);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'results.json'), `${JSON.stringify(merged, null, 2)}\n`);
        writeFileSync(join(dir, 'summary.md'), renderHunt(merged, true));
        process.stdout.write(renderHunt(merged, a.markdown));
      },
    )
    .command(
      'reach',
      'which feedback pays: code reached (mutant switches passed, all mutants in, none on) per CPU-second, per campaign variant, on the unmodified code',
      (y) =>
        y
          .option('budget', { type: 'number', default: 200, describe: 'CPU-seconds per variant and campaign seed' })
          .option('seeds', { type: 'string', default: '3', describe: 'comma-separated campaign seeds' })
          .option('variants', { type: 'string', describe: 'comma-separated variant names (default: all; see --list)' })
          .option('list', { type: 'boolean', default: false, describe: 'list the variants and stop' })
          .option('workers', { type: 'number', default: cpus().length, describe: 'worker threads' })
          .option('out', {
            type: 'string',
            default: 'reports/hunt/reach',
            describe: 'where reach.json and reach.md go',
          }),
      async (a) => {
        code = await reachCommand(a);
      },
    )
    .command(
      'show <file>',
      'print the report of a results folder or file again',
      (y) =>
        y
          .positional('file', { type: 'string', demandOption: true })
          .option('markdown', { type: 'boolean', default: false }),
      (a) => {
        const { file, value } = readBenchResult(a.file as string, 'hunt bench');
        process.stdout.write(renderHunt(asHunt(file, value), a.markdown));
      },
    );
  return (await parseBenchCommand(parser, 'hunt', say)) ?? code;
}
