/**
 * `npm run bench [-- NAME…] [--quick] [--baseline DIR]`: run the benchmarks (all, or those whose
 * group matches a NAME) and print one line per figure. Figures only; nothing here asserts a
 * timing. `--quick` (or LOCKSTEP_BENCH_QUICK=1) shortens the long groups (cluster, devnet, scale).
 * `--baseline DIR` (or LOCKSTEP_BENCH_BEFORE=DIR) has the scale and cluster groups measure the
 * checkout DIR too, figure by figure, and print this checkout's speed over it (bench/checkouts.ts).
 * `npm run bench -- mutation [options]` is the mutation score (bench/mutation/main.ts; `--help`
 * lists its options).
 * `npm run bench -- hunt [options]` races the fuzz strategies to the first catch (bench/hunt/main.ts).
 */
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { formatResult, type BenchResult } from './harness';
import { engineBenches } from './engine.bench';
import { cryptoBenches } from './crypto.bench';
import { appBenches } from './app.bench';
import { sidechainBenches } from './sidechain.bench';
import { clusterBenches } from './cluster.bench';
import { devnetBenches } from './devnet.bench';
import { machineBenches } from './machine.bench';
import { startupBenches } from './startup.bench';
import { scaleBenches } from './scale.bench';
import { oracleBenches } from './oracles.bench';
import { byzantineBenches } from './byzantine.bench';
import { checkoutsToMeasure } from './checkouts';

const groups: Record<string, () => BenchResult[] | Promise<BenchResult[]>> = {
  machine: machineBenches,
  engine: engineBenches,
  crypto: cryptoBenches,
  app: appBenches,
  sidechain: sidechainBenches,
  cluster: clusterBenches,
  devnet: devnetBenches,
  startup: startupBenches,
  scale: scaleBenches,
  oracles: oracleBenches,
  byzantine: byzantineBenches,
};

/** Long campaigns, run only when named. */
const ON_REQUEST = new Set(['oracles', 'byzantine']);

if (process.argv[2] === 'hunt') {
  // The hunt bench takes options of its own (docs/HUNT.md).
  const { huntMain } = await import('./hunt/main');
  process.exit(await huntMain(process.argv.slice(3)));
}

if (process.argv[2] === 'mutation') {
  // The mutation bench takes options of its own (docs/MUTATION.md); it loads Stryker only when named.
  const { mutationMain } = await import('./mutation/main');
  process.exit(await mutationMain(process.argv.slice(3)));
}

const USAGE = 'usage: npm run bench -- [GROUP...] [--quick] [--baseline DIR]';
let args: ReturnType<typeof parseBenchArgs>;
try {
  args = parseBenchArgs();
} catch (e) {
  process.stderr.write(`bench: ${(e as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
if (args.values.help) {
  process.stdout.write(
    `${USAGE}\n\n` +
      `Groups: ${Object.keys(groups).join(', ')} (oracles and byzantine only when named; mutation has options of its own).\n` +
      '  --quick          shorten the long groups (cluster, devnet, scale); also LOCKSTEP_BENCH_QUICK=1\n' +
      '  --baseline DIR   also measure the Lockstep checkout DIR (with its node_modules), figure by figure, in the\n' +
      '                   scale and cluster groups, and print this checkout over it; also LOCKSTEP_BENCH_BEFORE=DIR\n',
  );
  process.exit(0);
}
if (args.values.quick) process.env.LOCKSTEP_BENCH_QUICK = '1';
if (args.values.baseline !== undefined) process.env.LOCKSTEP_BENCH_BEFORE = args.values.baseline;
const wanted = args.positionals;
// A bad baseline is named before anything runs.
if (process.env.LOCKSTEP_BENCH_BEFORE) checkoutsToMeasure();
const unknown = wanted.filter((w) => !(w in groups));
if (unknown.length) {
  process.stderr.write(`bench: unknown group(s) ${unknown.join(', ')}; groups: ${Object.keys(groups).join(', ')}\n`);
  process.exit(1);
}
process.stdout.write(
  `Lockstep benchmarks on ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}\n`,
);
for (const [name, run] of Object.entries(groups)) {
  if (wanted.length ? !wanted.includes(name) : ON_REQUEST.has(name)) continue;
  process.stdout.write(`\n[${name}]\n`);
  for (const r of await run()) process.stdout.write(formatResult(r) + '\n');
}

function parseBenchArgs() {
  return parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      quick: { type: 'boolean' },
      baseline: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
