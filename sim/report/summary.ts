/**
 * The run summary: a deterministic JSON object (no wall time, so it is byte-identical for the same
 * run and build), its Markdown form. Numbers are JSON numbers (no count of a run comes near 2^53);
 * the report folder's identity (scenario file and its hash, placement, version, commit) comes in
 * `RunMeta` from the caller.
 */
import { type RunResult } from '../run/run';
import { type Scenario } from '../scenario/scenario';
import { type ExpectationCheck, expectedText, runOutcome, type RunOutcome } from './outcome';
import { ruleCoverage } from '../rules/coverage';

export { checkExpectations, type ExpectationCheck } from './outcome';

/** What identifies a run beyond its result: where it came from and what ran it. */
export interface RunMeta {
  /** The scenario file as the user named it (relative to the working folder when inside it). */
  scenarioFile: string | null;
  /** sha256 of the scenario file's bytes (the report folder's scenario.json has the same bytes). */
  scenarioSha256: string | null;
  placement: string;
  /** The Lockstep version (package.json) and the git commit of the code, when known. */
  version: string;
  commit: string | null;
  /** How far the run was asked to go (the scenario's duration unless `--until`). */
  untilMs: number;
}

export function summaryObject(s: Scenario, r: RunResult, meta?: RunMeta) {
  const o: RunOutcome = runOutcome(s, r, meta ? { untilMs: meta.untilMs } : {});
  const check = (c: ExpectationCheck) => ({
    what: c.what,
    op: c.op,
    expected: c.expected,
    actual: c.actual,
    status: c.status,
  });
  return {
    scenario: r.scenario,
    ...(meta ? { scenarioFile: meta.scenarioFile, scenarioSha256: meta.scenarioSha256 } : {}),
    seed: r.seed,
    crypto: r.crypto,
    ...(meta ? { placement: meta.placement, version: meta.version, commit: meta.commit } : {}),
    durationMs: s.durationMs,
    ...(meta ? { untilMs: meta.untilMs } : {}),
    simulatedMs: r.simulatedMs,
    shortened: o.shortened,
    interrupted: o.interrupted,
    verdict: o.verdict,
    oracleVerdict: o.oracleVerdict,
    message: o.message,
    // The first oracle violation (it decided the oracle verdict): where a live replay stops before it.
    violation: r.violation
      ? {
          oracle: r.violation.oracle,
          class: r.violation.class,
          atMs: r.violation.atMs,
          node: r.violation.node,
          message: r.violation.message,
        }
      : null,
    failedExpectations: o.failed.map(check),
    expectations: o.checks.map(check),
    traceHash: r.traceHash,
    counts: r.counts,
    maxReorgDepth: r.maxReorgDepth,
    backupBlocks: r.backupBlocks,
    events: r.events,
    checkpointLatencyMs: r.checkpointLatencyMs,
    faults: r.faultsFired,
    network: r.network,
    // The rules of docs/RULES.md the oracles judged in this run, and the oracle-guarded ones they did not.
    rules: ruleCoverage(r.rulesExercised),
  };
}

/** Byte-identical for the same run: a fixed key order, two-space indent, numbers as numbers. */
export function summaryJson(s: Scenario, r: RunResult, meta?: RunMeta): string {
  return `${JSON.stringify(summaryObject(s, r, meta), null, 2)}\n`;
}

export function summaryMarkdown(s: Scenario, r: RunResult, meta?: RunMeta): string {
  const o = runOutcome(s, r, meta ? { untilMs: meta.untilMs } : {});
  const partial = o.shortened
    ? ` — shortened: ran ${(r.simulatedMs / 1000).toFixed(0)} s of ${(s.durationMs / 1000).toFixed(0)} s`
    : o.interrupted
      ? ` — interrupted at ${(r.simulatedMs / 1000).toFixed(0)} s of ${(s.durationMs / 1000).toFixed(0)} s`
      : '';
  const lines = [
    `# ${r.scenario} (seed ${r.seed})`,
    '',
    s.description,
    '',
    `- verdict: **${o.verdict}** (${o.message})${partial}`,
    `- simulated: ${(r.simulatedMs / 1000).toFixed(0)} s, ${r.events} events, crypto ${r.crypto}`,
    `- trace hash: \`${r.traceHash}\``,
    ...(meta
      ? [
          `- scenario file: ${meta.scenarioFile === null ? 'none (built in)' : `\`${meta.scenarioFile}\``}${meta.scenarioSha256 ? ` (sha256 \`${meta.scenarioSha256}\`)` : ''}`,
          `- placement ${meta.placement}, Lockstep ${meta.version}${meta.commit ? ` at commit \`${meta.commit}\`` : ''}`,
        ]
      : []),
    '',
    '| count | value |',
    '| --- | --- |',
    ...Object.entries(r.counts).map(([k, v]) => `| ${k} | ${v} |`),
    `| backupBlocks | ${r.backupBlocks} |`,
    `| maxReorgDepth | ${r.maxReorgDepth} |`,
    '',
    rulesLine(r.rulesExercised),
    '',
    '| expectation | expected | actual | result |',
    '| --- | --- | --- | --- |',
    ...o.checks.map(
      (c) =>
        `| ${c.what} | ${expectedText(c)} | ${c.actual} | ${c.status === 'failed' ? '**failed**' : c.status === 'ok' ? 'ok' : 'not judged'} |`,
    ),
    '',
    '## Faults',
    '',
    ...(r.faultsFired.length
      ? r.faultsFired.map((f) => `- ${(f.atMs / 1000).toFixed(1)} s: ${f.kind} (${f.detail})`)
      : ['- none']),
    '',
  ];
  return lines.join('\n');
}

/** One line on the rules of docs/RULES.md the run exercised. */
function rulesLine(exercised: readonly string[]): string {
  const c = ruleCoverage(exercised);
  const guarded = c.exercised.length + c.notExercised.length;
  return `Rules exercised: ${c.exercised.length} of the ${guarded} rules an oracle guards (${c.unitGuarded} more are guarded by unit tests only; see docs/RULES.md).`;
}
