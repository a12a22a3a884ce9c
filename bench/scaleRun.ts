/**
 * One measurement of the scale bench (bench/scale.bench.ts), in a process of its own so that its
 * peak memory and CPU time are its own:
 * `node --import tsx bench/scaleRun.ts ROOT N PLACEMENT CRYPTO MS`, where ROOT is the checkout to
 * measure (this one, or the other of a before/after session: bench/checkouts.ts).
 *
 * The network is scenarios/mainnet-105.json's (parameters, link model, workload) with N validators
 * drawn from the same stake distribution and no faults. A warm-up run of one simulated minute in
 * the same process compiles the code first; then a run of MS simulated milliseconds is timed,
 * start-up (N nodes built from genesis) included. Prints one JSON line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [root, n, placement, crypto, ms] = process.argv.slice(2);
const count = Number(n);
const simulatedMs = Number(ms);
if (
  !root ||
  !Number.isSafeInteger(count) ||
  !(placement === 'inline' || placement === 'worker') ||
  !(crypto === 'fast' || crypto === 'real') ||
  !Number.isSafeInteger(simulatedMs)
) {
  process.stderr.write(
    'usage: node --import tsx bench/scaleRun.ts ROOT VALIDATORS inline|worker fast|real SIMULATED_MS\n',
  );
  process.exit(2);
}

const from = (path: string) => import(pathToFileURL(join(root, path)).href);
/** The first of `paths` the checkout has (files moved between versions: a baseline checkout may be older). */
const fromFirst = (...paths: string[]) => from(paths.find((p) => existsSync(join(root, p))) ?? paths[0]!);
// The process as the `lockstep` command sets it up (cli/heapGrowth.ts; src/cli/ in checkouts from
// before the command line moved up), where the checkout has it.
const heapGrowth = ['cli/heapGrowth.ts', 'src/cli/heapGrowth.ts'].find((f) => existsSync(join(root ?? '.', f)));
if (heapGrowth) (await from(heapGrowth)).limitHeapGrowth();
const { decodeScenario } = await fromFirst('sim/scenario/decodeScenario.ts', 'sim/scenario/scenario.ts');
const { resolveScenarioPath } = await from('sim/scenario/load.ts');
const { runScenarioAsync } = await fromFirst('sim/run/run.ts', 'sim/run.ts');

const file = JSON.parse(readFileSync(resolveScenarioPath('mainnet-105'), 'utf8'));
const scenario = decodeScenario({
  ...file,
  name: `scale-${count}`,
  crypto,
  validators: { ...file.validators, count },
  params: { ...file.params, producerCount: Math.min(file.params?.producerCount ?? 4, count) },
  faults: [],
  workload: {
    ...file.workload,
    topups: (file.workload?.topups ?? []).filter((t: { validator: number }) => t.validator <= count),
  },
  expect: { verdict: 'pass' },
});

await runScenarioAsync(scenario, { seed: 1, untilMs: 60_000, placement });
const before = process.resourceUsage();
const t0 = performance.now();
const r = await runScenarioAsync(scenario, { seed: 1, untilMs: simulatedMs, placement });
const wallMs = performance.now() - t0;
const after = process.resourceUsage();
process.stdout.write(
  `${JSON.stringify({
    validators: count,
    placement,
    crypto,
    simulatedMs: r.simulatedMs,
    wallMs,
    cpuMs: (after.userCPUTime + after.systemCPUTime - before.userCPUTime - before.systemCPUTime) / 1000,
    events: r.events,
    peakRssMB: after.maxRSS / 1024,
    verdict: r.verdict,
    message: r.message,
    serviceBlocks: r.counts.serviceBlocks,
    traceHash: r.traceHash,
  })}\n`,
);
