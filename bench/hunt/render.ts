/**
 * The hunt bench's report, per strategy side by side: the share of the population caught (plants,
 * unit-detected mutants, all), the median and 90th percentile of the CPU-seconds to the first catch
 * (a bug not caught counts the budget), how the kills were made (an oracle's safety or liveness
 * verdict, a crash, a hang, a failed expectation; the share by an oracle verdict), the plants
 * caught by the oracle that guards their rule; then every bug, how each strategy caught it or not,
 * and what each one missed.
 */
import { median, quantileSorted } from 'simple-statistics';
import { type AnyHunt, HUNT_MERGED_KIND, type HuntRow } from './results';
import { type StrategyName } from './strategies';

const pct = (n: number, of: number) => (of === 0 ? '-' : `${((100 * n) / of).toFixed(0)}%`);
const frac = (n: number, of: number) => `${n}/${of} = ${pct(n, of)}`;
const secs = (s: number) => (s >= 100 ? s.toFixed(0) : s.toFixed(1));
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

export interface StrategyStats {
  strategy: StrategyName;
  bugs: number;
  caught: number;
  plants: number;
  plantsCaught: number;
  mutants: number;
  mutantsCaught: number;
  medianS: number;
  p90S: number;
  /** Over the caught bugs only. */
  medianCaughtS: number | null;
  kinds: Record<'safety' | 'liveness' | 'crash' | 'expectations' | 'hang', number>;
  /** Kills by an oracle's verdict (safety or liveness). */
  byOracle: number;
  plantsByGuard: number;
  runsMedian: number;
  cpuPerRunS: number;
  /** Failing runs the unmodified code fails too, over all bugs. */
  alsoFailsUnmodified: number;
  oracles: Record<string, number>;
}

export function strategyStats(strategy: StrategyName, rows: readonly HuntRow[]): StrategyStats {
  const mine = rows.filter((r) => r.strategy === strategy);
  const caught = mine.filter((r) => r.caught);
  const cpu = mine.map((r) => r.cpuS).sort((a, b) => a - b);
  const kinds = { safety: 0, liveness: 0, crash: 0, expectations: 0, hang: 0 };
  const oracles: Record<string, number> = {};
  for (const r of caught) {
    kinds[r.kind!]++;
    if (r.oracle) oracles[r.oracle] = (oracles[r.oracle] ?? 0) + 1;
  }
  const runs = mine.reduce((n, r) => n + r.runs, 0);
  const spent = mine.reduce((n, r) => n + r.spentS, 0);
  return {
    strategy,
    bugs: mine.length,
    caught: caught.length,
    plants: mine.filter((r) => r.bug.type === 'plant').length,
    plantsCaught: caught.filter((r) => r.bug.type === 'plant').length,
    mutants: mine.filter((r) => r.bug.type === 'mutant').length,
    mutantsCaught: caught.filter((r) => r.bug.type === 'mutant').length,
    medianS: cpu.length ? median(cpu) : 0,
    p90S: cpu.length ? quantileSorted(cpu, 0.9) : 0,
    medianCaughtS: caught.length ? median(caught.map((r) => r.cpuS)) : null,
    kinds,
    byOracle: kinds.safety + kinds.liveness,
    plantsByGuard: caught.filter((r) => r.byGuard === true).length,
    runsMedian: mine.length ? median(mine.map((r) => r.runs)) : 0,
    cpuPerRunS: runs ? spent / runs : 0,
    alsoFailsUnmodified: mine.reduce((n, r) => n + r.alsoFailsUnmodified.length, 0),
    oracles,
  };
}

function table(head: string[], rows: string[][], markdown: boolean): string {
  if (markdown)
    return [head, head.map(() => '---'), ...rows]
      .map((r) => `| ${r.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`)
      .join('\n');
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function bugName(r: HuntRow): string {
  const b = r.bug;
  if (b.type === 'plant') return `plant ${b.plant}`;
  return `${b.file}:${b.start.line}:${b.start.column} ${b.mutator} ${oneLine(b.original).slice(0, 40)} -> ${oneLine(b.replacement).slice(0, 30)}${b.static ? ' (static)' : ''}`;
}

function cell(r: HuntRow | undefined): string {
  if (!r) return '';
  if (!r.caught)
    return `not caught (${r.runs} runs${r.reached === null ? '' : r.reached ? ', reached' : ', never reached'})`;
  const how = r.kind === 'safety' || r.kind === 'liveness' ? `${r.kind}: ${r.oracle}` : r.kind!;
  const guard = r.byGuard === false ? ' (not its guard)' : '';
  return `${secs(r.cpuS)} s, ${how}${guard}, ${r.runs} runs`;
}

export function renderHunt(r: AnyHunt, markdown = false): string {
  const p = r.params;
  const out: string[] = [];
  const h = (s: string) => out.push(markdown ? `### ${s}` : s, '');
  const stats = p.strategies.map((s) => strategyStats(s, r.rows));
  const bugs = new Set(r.rows.map((x) => x.index)).size;
  const shardText =
    r.kind === HUNT_MERGED_KIND
      ? `${r.shards.length} of ${r.shardCount} shards${r.missingShards.length ? ` (missing: ${r.missingShards.join(', ')})` : ''}`
      : r.shard.count > 1
        ? `shard ${r.shard.index}/${r.shard.count}`
        : 'one run';
  out.push(
    markdown
      ? `## Hunt: ${bugs} bugs, ${p.strategies.join(' vs ')}`
      : `Hunt: ${bugs} bugs, ${p.strategies.join(' vs ')}`,
    '',
    `population: ${p.plants.length} planted bugs and ${p.sample} unit-detected Stryker mutants (sample seed ${p.seed}, from ${p.populationSize}); ${shardText}${r.kind !== HUNT_MERGED_KIND && r.interrupted ? ', INTERRUPTED (partial)' : ''}; lockstep ${r.version}${r.commit ? ` at ${r.commit.slice(0, 12)}` : ''}`,
    `budget: ${p.budgetS} CPU-s per bug and strategy (the worker thread's CPU time of each run); swarm seeds of ${p.swarmDurationMs / 60_000} simulated min from seed 1; guided campaign seed ${p.campaignSeed}`,
  );
  if (r.kind !== HUNT_MERGED_KIND) {
    const cpu = r.cpu
      ? `; CPU ${(r.cpu.processMs / 60_000).toFixed(1)} min in the bench's process, ${(r.cpu.childrenMs / 60_000).toFixed(1)} min in Stryker's, ${(r.cpu.runsMs / 60_000).toFixed(1)} min counted in runs`
      : '';
    out.push(
      `wall time: ${(r.wall.totalMs / 60_000).toFixed(1)} min (unit stage ${(r.unit.wallMs / 60_000).toFixed(1)} min: ${r.unit.ran} mutants run by Stryker, ${r.unit.cached} verdicts reused, ${r.unit.examined} examined; hunt ${(r.wall.huntMs / 60_000).toFixed(1)} min)${cpu}; ${r.machine.cpus} cpus, load ${r.machine.loadStart[0]!.toFixed(1)} at the start, ${r.machine.loadEnd[0]!.toFixed(1)} at the end`,
    );
  }
  out.push('');
  h('Per strategy');
  const row = (label: string, f: (s: StrategyStats) => string) => [label, ...stats.map(f)];
  const rows = [
    row('caught', (s) => frac(s.caught, s.bugs)),
    row('  planted bugs', (s) => frac(s.plantsCaught, s.plants)),
    row('  unit-detected mutants', (s) => frac(s.mutantsCaught, s.mutants)),
    row('median CPU-s to the first catch (not caught = budget)', (s) => secs(s.medianS)),
    row('p90 CPU-s to the first catch', (s) => secs(s.p90S)),
    row('median CPU-s, caught bugs only', (s) => (s.medianCaughtS === null ? '-' : secs(s.medianCaughtS))),
    row('kills by an oracle verdict (safety or liveness)', (s) => frac(s.byOracle, s.caught)),
    row('  safety / liveness', (s) => `${s.kinds.safety} / ${s.kinds.liveness}`),
    row('  crash / hang / failed expectation', (s) => `${s.kinds.crash} / ${s.kinds.hang} / ${s.kinds.expectations}`),
    row('plants caught by their guarding oracle', (s) => frac(s.plantsByGuard, s.plants)),
    row('runs per bug (median)', (s) => String(s.runsMedian)),
    row('CPU-s per run (mean)', (s) => s.cpuPerRunS.toFixed(2)),
    row('failing runs the unmodified code fails too', (s) => String(s.alsoFailsUnmodified)),
  ];
  out.push(table(['', ...p.strategies], rows, markdown), '');
  if (stats.length === 2 && stats[1]!.medianS > 0)
    out.push(
      `median CPU-s to the first catch, ${stats[0]!.strategy} / ${stats[1]!.strategy}: ${(stats[0]!.medianS / stats[1]!.medianS).toFixed(2)}x`,
      '',
    );
  for (const s of stats)
    out.push(
      `${s.strategy}: first oracle to fire: ${
        Object.entries(s.oracles)
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
          .map(([k, v]) => `${k} ${v}`)
          .join(', ') || 'none'
      }`,
    );
  out.push('');
  h('Bug by bug');
  const byBug = new Map<number, HuntRow[]>();
  for (const x of r.rows) byBug.set(x.index, [...(byBug.get(x.index) ?? []), x]);
  const bugRows = [...byBug.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, xs]) => [
      bugName(xs[0]!),
      xs[0]!.bug.type === 'mutant' ? xs[0]!.bug.unit.status : 'plant',
      ...p.strategies.map((s) => cell(xs.find((x) => x.strategy === s))),
    ]);
  out.push(table(['bug', 'unit tests', ...p.strategies], bugRows, markdown), '');
  for (const s of p.strategies) {
    const missed = r.rows.filter((x) => x.strategy === s && !x.caught);
    h(`Missed by ${s} (${missed.length})`);
    for (const m of missed) {
      const other = r.rows.filter((x) => x.index === m.index && x.strategy !== s && x.caught);
      out.push(
        `- ${bugName(m)}${other.length ? `: caught by ${other.map((o) => `${o.strategy} (${cell(o)}; ${oneLine(o.message).slice(0, 120)})`).join(', ')}` : ''}`,
      );
    }
    out.push('');
  }
  const alsoFail = r.rows.flatMap((x) => x.alsoFailsUnmodified.map((a) => ({ ...a, strategy: x.strategy })));
  if (alsoFail.length) {
    h(`Failing runs the unmodified code fails too (${alsoFail.length}; not counted as catches)`);
    const seen = new Set<string>();
    for (const a of alsoFail) {
      const k = `${a.strategy} ${a.label}`;
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(
        `- ${a.strategy} ${a.label}: ${a.outcome}${a.oracle ? ` (${a.oracle})` : ''}: ${oneLine(a.message).slice(0, 200)}`,
      );
    }
    out.push('');
  }
  return `${out.join('\n')}\n`;
}
