/**
 * `npm run calibrate`: measure how often the sweeps' 95% BCa interval of a mean covers the true
 * mean, on the synthetic populations of sim/stats/coverage.ts, at 6 to 100 runs; write the result
 * to sim/stats/coverageTable.json (which the small-n warning reads) and its table into
 * docs/SWEEPS.md between the `coverage` markers. Deterministic (a fixed seed): the same command
 * writes the same bytes. It is slow: the committed table took about half an hour on one core of
 * a loaded 2-core machine; `--trials N` for a quicker, rougher look.
 *
 * The tables of a sweep use 10,000 resamples per interval; the calibration uses 2,000 to keep it
 * to half an hour. Coverage depends little on the resamples: the coverage test's slice, made with
 * 1,000, agrees with this table within the two measurements' error.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PACKAGE_ROOT } from '../cli/provenance';
import { POPULATIONS, measureCoverage } from '../sim/stats/coverage';

const { values } = parseArgs({
  options: { trials: { type: 'string', default: '4000' }, resamples: { type: 'string', default: '2000' } },
});
const trials = Number(values.trials);
const resamples = Number(values.resamples);
const NS = [6, 10, 15, 20, 30, 50, 100];
const seed = 'calibration';
const rows = [];
for (const pop of POPULATIONS)
  for (const n of NS) {
    const r = measureCoverage(pop, n, { trials, resamples, seed });
    rows.push({ ...r, description: pop.description });
    process.stderr.write(`${pop.name} n=${n}: ${(100 * r.coverage).toFixed(1)}%\n`);
  }
const table = { level: 0.95, statistic: 'mean', method: 'BCa', trials, resamples, seed, rows };
const file = join(PACKAGE_ROOT, 'sim', 'stats', 'coverageTable.json');
writeFileSync(file, `${JSON.stringify(table, null, 2)}\n`);
execFileSync(join(PACKAGE_ROOT, 'node_modules', '.bin', 'biome'), ['format', '--write', file], { stdio: 'ignore' });
// The docs table is rendered from the file just written (a fresh import sees it).
const { coverageMarkdown } = await import('../sim/stats/shape');
const page = join(PACKAGE_ROOT, 'docs', 'SWEEPS.md');
const text = readFileSync(page, 'utf8');
const begin = '<!-- generated:coverage:begin -->';
const end = '<!-- generated:coverage:end -->';
const i = text.indexOf(begin);
const j = text.indexOf(end);
if (i < 0 || j < i) {
  process.stderr.write(`docs/SWEEPS.md has no ${begin} … ${end} block\n`);
  process.exit(1);
}
writeFileSync(page, `${text.slice(0, i + begin.length)}\n${coverageMarkdown()}\n${text.slice(j)}`);
process.stdout.write(`wrote ${file} and the table in docs/SWEEPS.md\n`);
