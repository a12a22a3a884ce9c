/** `lockstep run --stats`: the process-wide caches and the run's shared block execution, as a table. */
import { type CacheStats, hitRate } from '../src/core/memo';

export interface ExecutionShareStats {
  hits: number;
  misses: number;
}

const pct = (r: number | null) => (r === null ? '-' : `${(r * 100).toFixed(1)}%`);

export function cacheTable(caches: readonly CacheStats[], shared: ExecutionShareStats | null, note: string): string {
  const rows: string[][] = [['cache', 'bound', 'size', 'hits', 'misses', 'evicted', 'hit rate']];
  for (const c of caches) {
    if (c.hits + c.misses === 0) continue;
    rows.push([
      c.name,
      c.bound === null ? 'weak' : String(c.bound),
      c.size === null ? '-' : String(c.size),
      String(c.hits),
      String(c.misses),
      String(c.evictions),
      pct(hitRate(c)),
    ]);
  }
  rows.push([
    'shared block execution (per run)',
    '-',
    '-',
    shared ? String(shared.hits) : 'off',
    shared ? String(shared.misses) : 'off',
    '-',
    shared ? pct(shared.hits + shared.misses === 0 ? null : shared.hits / (shared.hits + shared.misses)) : '-',
  ]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${rows.map(line).join('\n')}\n${note}\n`;
}
