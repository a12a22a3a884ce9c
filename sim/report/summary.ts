/**
 * The run summary: a deterministic JSON object (no wall time, so it is byte-identical for the same
 * run), its Markdown form, and the expectation checks of the scenario.
 */
import { canonicalJson } from '../../src/core/canonicalJson';
import { type RunResult } from '../run';
import { type Scenario } from '../scenario/scenario';

export interface ExpectationCheck {
  what: string;
  expected: string;
  actual: string;
  ok: boolean;
}

export function checkExpectations(s: Scenario, r: RunResult): ExpectationCheck[] {
  const out: ExpectationCheck[] = [
    { what: 'verdict', expected: s.expect.verdict, actual: r.verdict, ok: s.expect.verdict === r.verdict },
  ];
  if (s.expect.oracle)
    out.push({
      what: 'oracle',
      expected: s.expect.oracle,
      actual: r.violation?.oracle ?? 'none',
      ok: r.violation?.oracle === s.expect.oracle,
    });
  const actual: Record<string, number> = { ...r.counts, backupBlocks: r.backupBlocks, reorgDepth: r.maxReorgDepth };
  for (const [k, v] of Object.entries(s.expect.min))
    out.push({ what: k, expected: `>= ${v}`, actual: String(actual[k]), ok: (actual[k] ?? 0) >= (v as number) });
  for (const [k, v] of Object.entries(s.expect.max))
    out.push({ what: k, expected: `<= ${v}`, actual: String(actual[k]), ok: (actual[k] ?? 0) <= (v as number) });
  return out;
}

export function summaryObject(s: Scenario, r: RunResult) {
  return {
    scenario: r.scenario,
    seed: r.seed,
    crypto: r.crypto,
    simulatedMs: r.simulatedMs,
    traceHash: r.traceHash,
    verdict: r.verdict,
    message: r.message,
    counts: r.counts,
    maxReorgDepth: r.maxReorgDepth,
    backupBlocks: r.backupBlocks,
    events: r.events,
    checkpointLatencyMs: r.checkpointLatencyMs,
    faults: r.faultsFired,
    network: r.network,
    expectations: checkExpectations(s, r),
  };
}

/** Byte-identical for the same run: canonical JSON (sorted keys, integers as strings), one line. */
export function summaryJson(s: Scenario, r: RunResult): string {
  return `${JSON.stringify(JSON.parse(canonicalJson(summaryObject(s, r))), null, 2)}\n`;
}

export function summaryMarkdown(s: Scenario, r: RunResult): string {
  const checks = checkExpectations(s, r);
  const lines = [
    `# ${r.scenario} (seed ${r.seed})`,
    '',
    s.description,
    '',
    `- verdict: **${r.verdict}** (${r.message})`,
    `- simulated: ${(r.simulatedMs / 1000).toFixed(0)} s, ${r.events} events, crypto ${r.crypto}`,
    `- trace hash: \`${r.traceHash}\``,
    '',
    '| count | value |',
    '| --- | --- |',
    ...Object.entries(r.counts).map(([k, v]) => `| ${k} | ${v} |`),
    `| backupBlocks | ${r.backupBlocks} |`,
    `| maxReorgDepth | ${r.maxReorgDepth} |`,
    '',
    '| expectation | expected | actual | ok |',
    '| --- | --- | --- | --- |',
    ...checks.map((c) => `| ${c.what} | ${c.expected} | ${c.actual} | ${c.ok ? 'yes' : '**no**'} |`),
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
