/**
 * A devnet's report folder: the run so far, written like `lockstep run`'s (summary.json,
 * summary.md, report.html, scenario.json) plus the devnet's journal. `lockstep node report`
 * replays the journal in its own process up to where the running devnet is (or was) and writes
 * it; `lockstep node start` writes one to `<home>/report/` at every stop.
 *
 * The scenario in it is the home's (without the injected faults: they are inputs, like client
 * txs); the faults that fired, injected ones included, are in `summary.json` `faults` and in the
 * report's timeline, and `devnet.injectedFaults` lists what was injected. The exact repro is the
 * journal: `lockstep node init --from-report DIR` takes its inputs along.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunResult } from '../../sim/run/run';
import { runOutcome } from '../../sim/report/outcome';
import { type RunMeta, summaryMarkdown, summaryObject } from '../../sim/report/summary';
import { reportHtml } from '../../sim/report/html';
import { ReportFolder } from '../reportFolder';
import { gitCommit, lockstepVersion, sha256Hex } from '../provenance';
import { type DevnetConfig, paths } from './home';
import { type JournalEntry } from './journal';
import { type InjectedFault } from './liveTypes';

export interface DevnetReportInput {
  config: DevnetConfig;
  result: RunResult;
  injected: readonly InjectedFault[];
  /** The journal up to the point reported. */
  journal: readonly JournalEntry[];
  outDir: string;
}

export function writeDevnetReport(i: DevnetReportInput): string {
  const { config, result } = i;
  const scenarioBytes = readFileSync(paths(config.home).scenario);
  const scenario = config.scenario;
  const meta: RunMeta = {
    scenarioFile: paths(config.home).scenario,
    scenarioSha256: sha256Hex(scenarioBytes),
    placement: 'inline',
    version: lockstepVersion(),
    commit: gitCommit(),
    untilMs: result.simulatedMs,
  };
  const outcome = runOutcome(scenario, result, { untilMs: result.simulatedMs });
  const devnet = {
    home: config.home,
    journal: 'journal.jsonl',
    journalEntries: i.journal.length,
    injectedFaults: i.injected.map((f) => ({
      index: f.index,
      kind: f.kind,
      fault: f.fault,
      atMs: f.atMs,
      endsAtMs: f.endsAtMs,
      barrier: f.barrier,
    })),
    violations: result.violations.map((v) => ({
      oracle: v.oracle,
      class: v.class,
      atMs: v.atMs,
      node: v.node,
      message: v.message,
    })),
    ...(config.start ? { opened: config.start } : {}),
  };
  const summary = { ...summaryObject(scenario, result, meta), devnet };
  const md = [
    summaryMarkdown(scenario, result, meta),
    '## Devnet',
    '',
    `A devnet run (home \`${config.home}\`), ${(result.simulatedMs / 1000).toFixed(1)} s of virtual time.`,
    config.start?.fromReport ? `Opened from the report \`${config.start.fromReport}\` (${config.start.note}).` : '',
    '',
    '### Faults injected into the running network',
    '',
    ...(i.injected.length
      ? i.injected.map(
          (f) =>
            `- fault #${f.index} at ${(f.atMs / 1000).toFixed(3)} s (window barrier ${f.barrier}): ${f.description}${f.endsAtMs !== null ? `, ends at ${(f.endsAtMs / 1000).toFixed(3)} s` : ''}`,
        )
      : ['- none']),
    '',
    '### Oracle violations',
    '',
    ...(result.violations.length
      ? result.violations.map(
          (v) =>
            `- ${v.oracle} (${v.class}) at ${(v.atMs / 1000).toFixed(3)} s on ${v.node || 'the network'}: ${v.message}`,
        )
      : ['- none']),
    '',
    `The exact repro is \`journal.jsonl\` (every input at its window barrier): \`lockstep node init --from-report DIR --home NEW\` takes it along and \`lockstep node start --home NEW\` replays it.`,
    '',
  ].join('\n');
  const folder = new ReportFolder(i.outDir);
  try {
    folder.write('scenario.json', scenarioBytes);
    folder.write('summary.json', `${JSON.stringify(summary, null, 2)}\n`);
    folder.write('summary.md', md);
    folder.write('report.html', reportHtml(scenario, result, outcome));
    folder.write('journal.jsonl', i.journal.map((e) => `${JSON.stringify(e)}\n`).join(''));
  } catch (e) {
    folder.discard();
    throw e;
  }
  return folder.commit();
}

/** The default report folder of a home. */
export function defaultReportDir(home: string): string {
  return join(home, 'report');
}
