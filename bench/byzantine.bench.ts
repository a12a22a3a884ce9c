import { cpus } from 'node:os';
import { type BenchResult } from './harness';
import { runCampaign } from '../sim/campaign/fuzz';
import { type SwarmProfile } from '../sim/campaign/swarm';

/**
 * Byzantine swarm figures: 1,000 seeds of the `swarm` profile (Byzantine coalitions below 1/3 of
 * the power: safety must hold, so every safety violation there is a bug) and 200 of the
 * `byzantine-third` profile (a coalition of 3/7 attacking consensus: the safety oracles must
 * catch it), 10 simulated minutes each, on the worker pool. Prints the verdicts, the failures by
 * oracle, and the share of seeds caught.
 *
 * LOCKSTEP_BYZANTINE_SEEDS=N,M changes the 1,000 and the 200; LOCKSTEP_BENCH_QUICK=1 runs 20 and 10.
 */
export async function byzantineBenches(): Promise<BenchResult[]> {
  const quick = process.env.LOCKSTEP_BENCH_QUICK === '1';
  const [below, third] = (process.env.LOCKSTEP_BYZANTINE_SEEDS ?? (quick ? '20,10' : '1000,200'))
    .split(',')
    .map(Number);
  const workers = Math.max(1, Math.min(8, cpus().length));
  const out: BenchResult[] = [];
  for (const [profile, seeds] of [
    ['swarm', below],
    ['byzantine-third', third],
  ] as Array<[SwarmProfile, number]>) {
    const t0 = performance.now();
    let done = 0;
    const { summary } = await runCampaign({
      seeds: seeds!,
      workers,
      shard: { index: 1, count: 1 },
      durationMs: 600_000,
      crypto: 'fast',
      profile,
      efficacyEvery: 0,
      now: () => performance.now(),
      onResult: (r) => {
        done++;
        if (r.verdict !== 'pass' || done % 50 === 0)
          process.stderr.write(
            `  ${profile}: ${done}/${seeds} seeds${r.verdict !== 'pass' ? `; seed ${r.seed} ${r.verdict} (${r.oracle})` : ''}\n`,
          );
      },
    });
    const wallS = (performance.now() - t0) / 1000;
    const safety = summary.verdicts.safety ?? 0;
    const byOracle = new Map<string, number>();
    for (const f of summary.failures)
      byOracle.set(f.oracle ?? f.verdict, (byOracle.get(f.oracle ?? f.verdict) ?? 0) + 1);
    process.stdout.write(
      `${profile}: ${summary.seeds} seeds of 10 simulated min: ${Object.entries(summary.verdicts)
        .map(([k, v]) => `${k} ${v}`)
        .join(
          ', ',
        )}${byOracle.size ? `; first oracle: ${[...byOracle].map(([k, v]) => `${k} ${v}`).join(', ')}` : ''} (${wallS.toFixed(0)} s wall)\n`,
    );
    out.push({
      name: `${profile} profile: seeds with a safety violation`,
      value: safety,
      unit: `of ${summary.seeds}`,
      note: profile === 'swarm' ? 'below 1/3 of the power: must be 0' : 'at least 1/3: each is a catch',
    });
    out.push({
      name: `${profile} profile: seeds passing`,
      value: summary.verdicts.pass ?? 0,
      unit: `of ${summary.seeds}`,
    });
  }
  return out;
}
