/**
 * `npm run study -- NAME [--seeds N] [--workers N] [--docs-only]`: run the study `sweeps/NAME.json`
 * (resuming if it was interrupted; runs of another source tree run again) and write its figures
 * into docs/STUDIES.md and docs/studies/: the generated block between the markers
 * `<!-- generated:NAME:begin -->` and `<!-- generated:NAME:end -->` (method, small-n list, tables,
 * plots, comparisons and what they call clear), every figure of the prose written as a
 * `<!--fig NAME ...-->` marker (sim/sweep/studyPage.ts), and the summary the page was made from,
 * docs/studies/NAME.summary.json, against which a test checks the page's figures.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PACKAGE_ROOT } from '../cli/provenance';
import { sweepCommand } from '../cli/sweepCommand';
import { type SweepSummary } from '../sim/sweep/analysis';
import { readJournal } from '../sim/sweep/journal';
import { axisSvg, metricSvg } from '../sim/sweep/outputs';
import { remeasure } from '../sim/sweep/remeasure';
import { sourceText } from '../sim/core/sourceState';
import { renderStudy, studyPlots } from '../sim/sweep/studyPage';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seeds: { type: 'string' },
    workers: { type: 'string', default: '2' },
    'docs-only': { type: 'boolean', default: false },
  },
});
const name = positionals[0];
if (!name) {
  process.stderr.write(
    'usage: npm run study -- NAME [--seeds N] [--workers N] [--docs-only]   (NAME: a sweep of sweeps/)\n',
  );
  process.exit(1);
}
const sweepFile = join(PACKAGE_ROOT, 'sweeps', `${name}.json`);
const results = join(PACKAGE_ROOT, 'reports', 'sweeps', name);

if (!values['docs-only']) {
  const code = await sweepCommand({
    file: sweepFile,
    workers: Number(values.workers),
    shard: '1/1',
    ...(values.seeds !== undefined ? { seeds: Number(values.seeds) } : {}),
    out: results,
    fresh: false,
    json: false,
  });
  // Failed runs (oracle violations) are part of the results; an interrupted sweep is not done.
  if (code === 130 || code === 1) process.exit(code);
}

const summary = JSON.parse(readFileSync(join(results, 'summary.json'), 'utf8')) as SweepSummary;
if (!summary.complete) {
  process.stderr.write(`${results} holds ${summary.runs} of ${summary.runsExpected} runs: finish the sweep first\n`);
  process.exit(1);
}
if (summary.source.dirty)
  process.stderr.write(
    `note: the runs were made at ${sourceText(summary.source)}; commit the code and run again for a page others can reproduce\n`,
  );
const records = remeasure(
  readJournal(results)!.records,
  summary.metrics.map((m) => m.name),
);
const studiesDir = join(PACKAGE_ROOT, 'docs', 'studies');
mkdirSync(studiesDir, { recursive: true });
for (const p of studyPlots(name, summary))
  writeFileSync(
    join(studiesDir, p.file),
    p.axis ? axisSvg(summary, p.metric, p.axis) : metricSvg(summary, records, p.metric),
  );
// The summary beside the page, in the repository's JSON style (the page's figures are checked against it).
const kept = join(studiesDir, `${name}.summary.json`);
copyFileSync(join(results, 'summary.json'), kept);
execFileSync(join(PACKAGE_ROOT, 'node_modules', '.bin', 'biome'), ['format', '--write', kept], { stdio: 'ignore' });

const page = join(PACKAGE_ROOT, 'docs', 'STUDIES.md');
try {
  writeFileSync(page, renderStudy(readFileSync(page, 'utf8'), name, summary));
} catch (e) {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
}
process.stdout.write(
  `wrote docs/STUDIES.md (${name}: the tables and every figure of the prose), docs/studies/${name}-*.svg and docs/studies/${name}.summary.json\n`,
);
