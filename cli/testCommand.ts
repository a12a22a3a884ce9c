/**
 * `lockstep test [GLOB...]`: run every scenario (default: scenarios/*.json and
 * scenarios/regressions/*.json) on its own seed over the worker pool, judge each one's
 * expectations (the expected verdict and first oracle included), print one line per scenario as
 * it finishes and a summary, write JUnit XML with `--junit FILE`, and exit non-zero on any
 * failure. This is what a CI job calls.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { XMLBuilder } from 'fast-xml-parser';
import { globSync, isDynamicPattern } from 'tinyglobby';
import { InputError } from '../src/core/errors';
import { SCENARIOS_DIR, isScenarioFileName } from '../sim/scenario/load';
import { runOnPool } from '../sim/campaign/pool';
import { type ScenarioJob, type ScenarioTestResult } from '../sim/campaign/scenarioTask';
import { describeCheck } from '../sim/report/outcome';
import { EXIT } from '../src/core/exitCodes';
import { exitCodeOf, worstExitCode } from './verdictCodes';
import { watchInterrupts } from './interrupts';
import { displayPath } from './provenance';
import { campaignRules, campaignRulesLines } from '../sim/rules/coverage';

export interface TestCliOptions {
  globs: string[];
  workers?: number;
  junit?: string;
  json: boolean;
}

/** scenarios/*.json and scenarios/regressions/*.json (as folders: their *.json files). */
export const DEFAULT_GLOBS = [SCENARIOS_DIR, join(SCENARIOS_DIR, 'regressions')];

/** The scenario files named by the arguments: files, folders (their *.json) and glob patterns. */
export function scenarioFiles(args: string[]): string[] {
  const files = new Set<string>();
  for (const arg of args.length ? args : DEFAULT_GLOBS) {
    const abs = resolve(arg);
    let found: string[];
    if (!isDynamicPattern(arg) && existsSync(abs))
      found = statSync(abs).isDirectory() ? globSync('*.json', { cwd: abs, absolute: true }) : [abs];
    else found = globSync(arg, { absolute: true, onlyFiles: true });
    found = found.filter(isScenarioFileName);
    if (found.length === 0) throw new InputError('GLOB', `no scenario files match ${JSON.stringify(arg)}`);
    for (const f of found) files.add(resolve(f));
  }
  return [...files].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** How a scenario is named in lines and in JUnit: its path under scenarios/, else as given. */
export function scenarioLabel(file: string): string {
  const rel = relative(SCENARIOS_DIR, file);
  const inside = rel && !rel.startsWith('..') && !rel.startsWith(sep);
  return (inside ? rel : displayPath(file))
    .replace(/\.json$/, '')
    .split(sep)
    .join('/');
}

export type CaseStatus = 'passed' | 'failed' | 'error' | 'skipped';

export interface TestCase {
  label: string;
  file: string;
  status: CaseStatus;
  /** The exit code this case alone would give (0 when it passed). */
  code: number;
  /** One line: why it failed, or what it showed. */
  summary: string;
  result: ScenarioTestResult | null;
}

export function judgeCase(label: string, r: ScenarioTestResult): TestCase {
  const base = { label, file: r.file, result: r };
  if (r.error)
    return {
      ...base,
      status: 'error',
      code: r.error.kind === 'badInput' ? EXIT.badInput : EXIT.crash,
      summary: r.error.message.split('\n')[0]!,
    };
  const failed = r.checks.filter((c) => !c.ok);
  if (failed.length === 0)
    return {
      ...base,
      status: 'passed',
      code: EXIT.pass,
      summary: `${r.verdict}${r.violation ? ` (${r.violation.oracle})` : ''}`,
    };
  // An unexpected violation is reported as what it is; anything else as failed expectations.
  const unexpected = r.verdict !== r.expected && r.verdict !== 'pass' ? r.verdict : null;
  return {
    ...base,
    status: 'failed',
    code: unexpected ? exitCodeOf(unexpected) : EXIT.expectations,
    summary: `${failed.map(describeCheck).join('; ')}${r.violation ? ` (first violation ${r.violation.oracle}: ${r.violation.message})` : ''}`,
  };
}

export function junitXml(cases: TestCase[], wallMs: number): string {
  const count = (s: CaseStatus) => cases.filter((c) => c.status === s).length;
  const secs = (ms: number) => (ms / 1000).toFixed(3);
  const testcase = (c: TestCase) => {
    const r = c.result;
    const detail = r
      ? [
          `file: ${displayPath(c.file)}`,
          r.seed !== null ? `seed: ${r.seed}` : null,
          r.verdict !== null ? `verdict: ${r.verdict} (expected ${r.expected})` : null,
          r.message ? `message: ${r.message}` : null,
          ...r.checks.map((ch) => `${ch.ok ? 'ok  ' : 'FAIL'} ${describeCheck(ch)}`),
          r.traceHash ? `trace: ${r.traceHash}` : null,
          r.seed !== null ? `repro: npx lockstep run --scenario ${displayPath(c.file)} --seed ${r.seed}` : null,
          r.error ? r.error.message : null,
        ]
          .filter((x) => x !== null)
          .join('\n')
      : '';
    return {
      '@_name': c.label,
      '@_classname': 'lockstep.scenarios',
      '@_file': displayPath(c.file),
      '@_time': secs(r?.wallMs ?? 0),
      ...(c.status === 'failed'
        ? { failure: { '@_message': c.summary, '@_type': 'expectations', '#text': detail } }
        : {}),
      ...(c.status === 'error'
        ? { error: { '@_message': c.summary, '@_type': r?.error?.kind ?? 'crash', '#text': detail } }
        : {}),
      ...(c.status === 'skipped' ? { skipped: { '@_message': c.summary } } : {}),
      ...(c.status === 'passed' ? { 'system-out': detail } : {}),
    };
  };
  const suite = {
    '@_name': 'lockstep scenarios',
    '@_tests': cases.length,
    '@_failures': count('failed'),
    '@_errors': count('error'),
    '@_skipped': count('skipped'),
    '@_time': secs(wallMs),
    testcase: cases.map(testcase),
  };
  const builder = new XMLBuilder({ ignoreAttributes: false, format: true, suppressEmptyNode: true });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({
    testsuites: {
      '@_name': 'lockstep',
      '@_tests': cases.length,
      '@_failures': count('failed'),
      '@_errors': count('error'),
      '@_skipped': count('skipped'),
      '@_time': secs(wallMs),
      testsuite: suite,
    },
  })}`;
}

function caseLine(c: TestCase, width: number): string {
  const mark = { passed: 'ok   ', failed: 'FAIL ', error: 'ERROR', skipped: 'SKIP ' }[c.status];
  const secs = c.result ? `${(c.result.wallMs / 1000).toFixed(1).padStart(6)} s` : '        ';
  return `${mark} ${c.label.padEnd(width)} ${secs}  ${c.summary}`;
}

export async function testCommand(o: TestCliOptions): Promise<number> {
  if (o.workers !== undefined && (!Number.isSafeInteger(o.workers) || o.workers < 1 || o.workers > 64))
    throw new InputError('--workers', `expected 1 to 64, got ${o.workers}`);
  const files = scenarioFiles(o.globs);
  const labels = new Map(files.map((f) => [f, scenarioLabel(f)]));
  const width = Math.min(48, Math.max(...[...labels.values()].map((l) => l.length)));
  const workers = Math.min(files.length, o.workers ?? Math.min(8, availableParallelism()));
  const start = Date.now();
  const interrupts = watchInterrupts({
    onFirst: (signal) =>
      process.stderr.write(
        `\n${signal}: stopping: finishing the scenarios under way (send it again to abort at once)\n`,
      ),
    onAbort: () => process.exit(EXIT.interrupted),
  });
  const done = new Map<string, TestCase>();
  if (!o.json)
    process.stdout.write(
      `running ${files.length} scenario${files.length === 1 ? '' : 's'} on ${workers} worker${workers === 1 ? '' : 's'}\n`,
    );
  let next = 0;
  try {
    await runOnPool<ScenarioJob, ScenarioTestResult>({
      task: 'scenarioTask',
      workers,
      next: () => (interrupts.requested || next >= files.length ? null : { file: files[next++]! }),
      onResult: (job, r) => {
        const c = judgeCase(labels.get(job.file)!, r);
        done.set(job.file, c);
        if (!o.json) process.stdout.write(`${caseLine(c, width)}\n`);
      },
    });
  } finally {
    interrupts.dispose();
  }
  const wallMs = Date.now() - start;
  const cases: TestCase[] = files.map(
    (f) =>
      done.get(f) ?? {
        label: labels.get(f)!,
        file: f,
        status: 'skipped',
        code: EXIT.pass,
        summary: 'not run (interrupted)',
        result: null,
      },
  );
  const n = (s: CaseStatus) => cases.filter((c) => c.status === s).length;
  // The rules the scenarios exercised (the union over the ones that ran), and those none did.
  const rules = campaignRules(cases.flatMap((c) => (c.result ? [c.result.rules] : [])));
  if (o.junit) {
    const file = resolve(o.junit);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, junitXml(cases, wallMs));
  }
  const interrupted = n('skipped') > 0;
  const code = worstExitCode([...cases.map((c) => c.code), ...(interrupted ? [EXIT.interrupted] : [])]);
  if (o.json) {
    process.stdout.write(
      `${JSON.stringify({
        scenarios: cases.length,
        passed: n('passed'),
        failed: n('failed'),
        errors: n('error'),
        skipped: n('skipped'),
        wallMs,
        exitCode: code,
        cases: cases.map((c) => ({
          scenario: c.label,
          file: displayPath(c.file),
          status: c.status,
          summary: c.summary,
          seed: c.result?.seed ?? null,
          verdict: c.result?.verdict ?? null,
          traceHash: c.result?.traceHash ?? null,
        })),
        rules,
        ...(o.junit ? { junit: resolve(o.junit) } : {}),
      })}\n`,
    );
  } else {
    const bad = cases.filter((c) => c.status === 'failed' || c.status === 'error');
    if (bad.length) {
      process.stdout.write('\nfailed:\n');
      for (const c of bad) process.stdout.write(`  ${caseLine(c, width)}\n`);
    }
    process.stdout.write(`\n${campaignRulesLines(rules, 'scenario').join('\n')}\n`);
    process.stdout.write(
      `\n${cases.length} scenarios: ${n('passed')} passed, ${n('failed')} failed, ${n('error')} errors${n('skipped') ? `, ${n('skipped')} not run (interrupted)` : ''} in ${(wallMs / 1000).toFixed(1)} s\n`,
    );
    if (o.junit) process.stdout.write(`junit       ${resolve(o.junit)}\n`);
  }
  return code;
}
