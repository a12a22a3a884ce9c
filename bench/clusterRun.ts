/**
 * One measurement of the cluster bench (bench/cluster.bench.ts), in a process of its own, against
 * the checkout ROOT (this one, or the other of a before/after session: bench/checkouts.ts):
 *
 *   node --import tsx bench/clusterRun.ts ROOT accel fast|real inline|worker MS
 *     the default network without its faults: a warm-up of one simulated minute, then MS timed;
 *   node --import tsx bench/clusterRun.ts ROOT fuzz WORKERS SEEDS DURATION_MS EFFICACY_EVERY
 *     a swarm campaign (as `lockstep fuzz`, fast crypto) of SEEDS seeds of DURATION_MS each.
 *
 * Prints one JSON line: wall and CPU time (all threads of the process), events or seeds, peak RSS.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [root, what, ...args] = process.argv.slice(2);
const from = (path: string) => import(pathToFileURL(join(root ?? '.', path)).href);
/** The first of `paths` the checkout has (files moved between versions: a baseline checkout may be older). */
const fromFirst = (...paths: string[]) => from(paths.find((p) => existsSync(join(root ?? '.', p))) ?? paths[0]!);
const usage = () => {
  process.stderr.write(
    'usage: node --import tsx bench/clusterRun.ts ROOT accel fast|real inline|worker MS\n' +
      '       node --import tsx bench/clusterRun.ts ROOT fuzz WORKERS SEEDS DURATION_MS EFFICACY_EVERY\n',
  );
  process.exit(2);
};
const cpuMs = (u: NodeJS.ResourceUsage) => (u.userCPUTime + u.systemCPUTime) / 1000;

if (!root) usage();
// The process as the `lockstep` command sets it up (cli/heapGrowth.ts; src/cli/ in checkouts from
// before the command line moved up), where the checkout has it.
const heapGrowth = ['cli/heapGrowth.ts', 'src/cli/heapGrowth.ts'].find((f) => existsSync(join(root ?? '.', f)));
if (heapGrowth) (await from(heapGrowth)).limitHeapGrowth();

if (what === 'accel') {
  const [crypto, placement, ms] = args;
  const simulatedMs = Number(ms);
  if (!(crypto === 'fast' || crypto === 'real') || !(placement === 'inline' || placement === 'worker')) usage();
  if (!Number.isSafeInteger(simulatedMs)) usage();
  const { loadScenario } = await from('sim/scenario/load.ts');
  const { runScenarioAsync } = await fromFirst('sim/run/run.ts', 'sim/run.ts');
  const scenario = { ...loadScenario('default').scenario, crypto, faults: [] };
  await runScenarioAsync(scenario, { seed: 1, untilMs: 60_000, placement });
  const before = process.resourceUsage();
  const t0 = performance.now();
  const r = await runScenarioAsync(scenario, { seed: 1, untilMs: simulatedMs, placement });
  const wallMs = performance.now() - t0;
  const after = process.resourceUsage();
  process.stdout.write(
    `${JSON.stringify({
      simulatedMs: r.simulatedMs,
      wallMs,
      cpuMs: cpuMs(after) - cpuMs(before),
      events: r.events,
      peakRssMB: after.maxRSS / 1024,
      verdict: r.verdict,
      traceHash: r.traceHash,
    })}\n`,
  );
} else if (what === 'fuzz') {
  const [workers, seeds, durationMs, efficacyEvery] = args.map(Number);
  if (![workers, seeds, durationMs, efficacyEvery].every((x) => Number.isSafeInteger(x))) usage();
  const { runCampaign } = await from('sim/campaign/fuzz.ts');
  const before = process.resourceUsage();
  const t0 = performance.now();
  const { summary: s } = await runCampaign({
    seeds,
    workers,
    shard: { index: 1, count: 1 },
    durationMs,
    crypto: 'fast',
    efficacyEvery,
    now: () => 0,
  });
  const wallMs = performance.now() - t0;
  const after = process.resourceUsage();
  process.stdout.write(
    `${JSON.stringify({
      seeds: s.seeds,
      wallMs,
      cpuMs: cpuMs(after) - cpuMs(before),
      verdicts: s.verdicts,
      peakRssMB: after.maxRSS / 1024,
    })}\n`,
  );
} else usage();
