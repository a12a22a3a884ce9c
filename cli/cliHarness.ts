/**
 * For the CLI's end-to-end tests: run `lockstep` as a user's shell would (a child process of the
 * compiled build, bin/lockstep.js, which `npm test` makes first), with its exit code, signal and
 * output; and scratch folders with scenario files to run.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCENARIOS_DIR } from '../sim/scenario/load';
import { PACKAGE_ROOT } from './provenance';

/** The `lockstep` command as a package installs it: the build, started without a TypeScript loader. */
export const BIN = join(PACKAGE_ROOT, 'bin', 'lockstep.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `lockstep ARGS` in a child process, stdout and stderr piped. */
export function spawnLockstep(args: string[], opts: SpawnOptions = {}): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    cwd: PACKAGE_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...opts,
    env: { ...process.env, ...opts.env },
  });
}

export function collect(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export function lockstep(args: string[], opts: SpawnOptions = {}): Promise<CliResult> {
  return collect(spawnLockstep(args, opts));
}

export function scratchDir(): string {
  return mkdtempSync(join(tmpdir(), 'lockstep-cli-'));
}

/** A copy of a scenario file of scenarios/ with some fields replaced, written to `dir/file`. */
export function scenarioFile(dir: string, file: string, from: string, patch: Record<string, unknown>): string {
  const json = JSON.parse(readFileSync(join(SCENARIOS_DIR, `${from}.json`), 'utf8')) as Record<string, unknown>;
  const path = join(dir, file);
  writeFileSync(path, `${JSON.stringify({ ...json, ...patch }, null, 2)}\n`);
  return path;
}
