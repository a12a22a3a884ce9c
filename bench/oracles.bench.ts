import { cpus } from 'node:os';
import { type BenchResult } from './harness';
import { PLANTS, PLANT_NAMES, type PlantName, parsePlant, plantGuards } from '../src/core/plants';
import { type AdequacyResult, measureAdequacy } from '../sim/campaign/adequacy';

/**
 * Oracle adequacy: each planted bug against the scenario suite and a swarm campaign of up to 200
 * seeds of 10 simulated minutes, each stopping at its first catch, on the worker pool; and the
 * unmodified code over the same campaign, which must pass. Prints a table: the plant, the rule it
 * breaks, the oracle that fired first and where (the suite's first catch, else the swarm's),
 * whether that oracle is the one guarding the rule, and the swarm's own first catch and the seeds
 * it took.
 *
 * LOCKSTEP_ORACLE_PLANTS=a,b runs only those plants; LOCKSTEP_ORACLE_SEEDS=N changes the 200;
 * LOCKSTEP_BENCH_QUICK=1 runs 10 seeds of 2 minutes (a smoke of the bench itself).
 */
export async function oracleBenches(): Promise<BenchResult[]> {
  const quick = process.env.LOCKSTEP_BENCH_QUICK === '1';
  const seeds = Number(process.env.LOCKSTEP_ORACLE_SEEDS ?? (quick ? 10 : 200));
  const durationMs = quick ? 120_000 : 600_000;
  const plants: PlantName[] = process.env.LOCKSTEP_ORACLE_PLANTS
    ? process.env.LOCKSTEP_ORACLE_PLANTS.split(',').map((p) => parsePlant(p.trim(), 'LOCKSTEP_ORACLE_PLANTS'))
    : PLANT_NAMES;
  const workers = Math.max(1, Math.min(8, cpus().length));
  const progress = (what: string) => process.stderr.write(`  ${what}\n`);
  const opts = { workers, seeds, durationMs, onRun: progress };

  const rows: Array<{ r: AdequacyResult; wallMs: number }> = [];
  for (const plant of [null, ...plants]) {
    const t0 = performance.now();
    const r = await measureAdequacy(plant, opts);
    rows.push({ r, wallMs: performance.now() - t0 });
    process.stderr.write(`${plant ?? 'no plant'}: suite ${describe(r.suite)}; swarm ${describe(r.swarm)}\n`);
  }

  const head = ['plant', 'rule', 'first oracle', 'how', 'guard', 'swarm: first oracle', 'swarm seeds'];
  const table = rows.map(({ r }) => {
    if (r.plant === null) {
      const failed = r.suite ?? r.swarm;
      return [
        '(none)',
        'the unmodified code',
        failed ? (failed.oracle ?? failed.verdict) : '-',
        failed ? `FAILED: ${howOf(failed)}` : `passes: ${r.scenariosRun} scenarios`,
        failed ? 'NO' : '-',
        r.swarm ? (r.swarm.oracle ?? r.swarm.verdict) : '-',
        r.swarm ? `FAILED at seed ${r.swarm.seed}` : `passes: ${r.seedsRun}`,
      ];
    }
    const guard = PLANTS[r.plant].oracle;
    const guards = plantGuards(r.plant);
    const guarding = (c: NonNullable<AdequacyResult['suite']>) => c.oracle !== null && guards.includes(c.oracle);
    const first = r.suite ?? r.swarm;
    const mark = (c: AdequacyResult['suite']) => (c === null ? '-' : guarding(c) ? 'yes' : `NO (${guard})`);
    return [
      r.plant,
      PLANTS[r.plant].rule,
      first ? (first.oracle ?? first.verdict) : 'not caught',
      first ? howOf(first) : `${r.scenariosRun} scenarios, ${r.seedsRun} seeds`,
      first ? mark(first) : `NO (${guard})`,
      r.swarm ? `${r.swarm.oracle ?? r.swarm.verdict}${guarding(r.swarm) ? '' : ' (not the guard)'}` : 'not caught',
      r.swarm ? String(r.swarm.seedsRun) : `> ${r.seedsRun}`,
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  process.stdout.write(
    `\nOracle adequacy: the scenario suite, then ${seeds} swarm seeds of ${durationMs / 60_000} simulated min (each to its first catch), ${workers} workers\n` +
      [line(head), line(widths.map((w) => '-'.repeat(w))), ...table.map(line)].join('\n') +
      '\n\n',
  );

  return rows.map(({ r, wallMs }) => ({
    name: `oracles: ${r.plant ?? 'no plant'}, swarm seeds to the first catch`,
    value: r.swarm ? r.swarm.seedsRun : r.seedsRun,
    unit: r.swarm ? 'seeds' : 'seeds, nothing caught',
    note: `suite: ${describe(r.suite)}; ${(wallMs / 1000).toFixed(0)} s wall`,
  }));
}

function howOf(c: NonNullable<AdequacyResult['suite']>): string {
  return c.via === 'scenario' ? `scenario ${c.scenario}` : `swarm seed ${c.seed}`;
}

function describe(c: AdequacyResult['suite']): string {
  if (!c) return 'nothing failed';
  return `${c.oracle ?? c.verdict} via ${howOf(c)}: ${c.message.slice(0, 140)}`;
}
