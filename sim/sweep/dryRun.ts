/**
 * What `lockstep sweep FILE --dry-run` shows before anything runs: the cells and what each sets,
 * the settings of every cell, the values drawn for every seed (the same in every cell), the
 * comparisons and their family, and which finished runs a real run would keep or run again.
 */
import { type ReuseDecision } from './reuse';
import { type Sweep, drawnValues } from './sweepFile';

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

export interface DryRun {
  sweep: string;
  base: string;
  runs: number;
  cells: Array<{ label: string; set: Record<string, unknown> }>;
  set: Record<string, unknown>;
  drawn: Array<{ seed: number; values: Record<string, unknown> }>;
  compare: Array<[string, string]>;
  tests: number;
  resume: { kept: number; toRun: number; rerun: ReuseDecision['rerun'] } | null;
}

export function dryRun(sweep: Sweep, seeds: readonly number[], decision: ReuseDecision | null, jobs: number): DryRun {
  return {
    sweep: sweep.name,
    base: sweep.baseFile,
    runs: jobs,
    cells: sweep.cells.map((c) => ({
      label: c.label,
      set: Object.fromEntries(c.settings.map((s) => [s.path, s.value])),
    })),
    set: Object.fromEntries(sweep.set.map((s) => [s.path, s.value])),
    drawn: seeds.map((seed) => ({
      seed,
      values: Object.fromEntries(drawnValues(sweep, seed).map((d) => [d.path, d.value])),
    })),
    compare: sweep.compare,
    tests: sweep.compare.length * sweep.metrics.length,
    resume: decision ? { kept: decision.kept.size, toRun: jobs - decision.kept.size, rerun: decision.rerun } : null,
  };
}

export function formatDryRun(d: DryRun, seedsShown: number): string {
  const out = [
    `sweep ${d.sweep} (dry run: nothing runs, nothing is written)`,
    `base        ${d.base}`,
    `runs        ${d.runs} (${d.cells.length} cells × ${d.drawn.length} seeds)`,
  ];
  if (Object.keys(d.set).length)
    out.push(
      `every cell  ${Object.entries(d.set)
        .map(([k, v]) => `${k} = ${show(v)}`)
        .join(', ')}`,
    );
  out.push('cells');
  const w = Math.max(...d.cells.map((c) => c.label.length));
  for (const c of d.cells)
    out.push(
      `  ${c.label.padEnd(w)}  ${
        Object.entries(c.set)
          .map(([k, v]) => `${k} = ${show(v)}`)
          .join(', ') || '(the base as it is)'
      }`,
    );
  const paths = d.drawn.length ? Object.keys(d.drawn[0]!.values) : [];
  if (paths.length) {
    out.push('drawn per seed (the same in every cell)');
    const cols = ['seed', ...paths];
    const rows = d.drawn.slice(0, seedsShown).map((r) => [String(r.seed), ...paths.map((p) => show(r.values[p]))]);
    const widths = cols.map((c, i) => Math.max(c.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => `  ${cells.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`.trimEnd();
    out.push(line(cols));
    for (const r of rows) out.push(line(r));
    if (d.drawn.length > seedsShown) out.push(`  … ${d.drawn.length - seedsShown} more seeds (--json lists all)`);
  }
  out.push(`comparisons (B − A), ${d.tests} tests corrected together (Holm)`);
  for (const [a, b] of d.compare) out.push(`  ${b}  −  ${a}`);
  if (d.resume) {
    out.push(`resume      ${d.resume.kept} finished runs would be kept, ${d.resume.toRun} would run`);
    for (const r of d.resume.rerun) out.push(`  ${r.runs} run again: ${r.reason}`);
  }
  return `${out.join('\n')}\n`;
}
