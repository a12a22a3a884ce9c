/**
 * `lockstep node init`, `show-account` and `unsafe-reset-all`: a devnet's home folder (a fresh
 * network, a scenario at a time, or a report's run before its violation), the validator's
 * account, and a reset of the chain data that keeps the configuration and keys.
 */
import { existsSync, rmSync } from 'node:fs';
import { InputError } from '../../src/core/errors';
import { rfc3339FromUnixMs } from '../../src/core/time';
import { loadScenario } from '../../sim/scenario/load';
import { initHome, loadHome, loadKey, paths, resetData } from './home';
import { openRun } from './openRun';
import { writeJournal } from './journal';
import { assertNotRunning } from './homeLock';

/** The dev accounts of their own a fresh devnet gets when its workload signs with the users. */
const DEVNET_DEV_ACCOUNTS = 4;

export interface InitCliOptions {
  home: string;
  /** Default: devnet (or the report's, with fromReport). */
  scenario?: string;
  seed?: number;
  host: string;
  restPort: number;
  rpcPort: number;
  jsonRpcPort: number;
  wsPort: number;
  overwrite: boolean;
  fromReport?: string;
  at?: string;
  beforeViolation?: boolean;
  /** `now` or a date (RFC 3339): the genesis time, written into genesis (replays stay deterministic). */
  genesisTime?: string;
}

/** `--genesis-time`: `now` (to the second) or an RFC 3339 / ISO date. */
export function parseGenesisTime(value: string, nowMs: number): number {
  if (value === 'now') return Math.floor(nowMs / 1000) * 1000;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms) || ms < 0)
    throw new InputError(
      '--genesis-time',
      `expected "now" or a date such as 2024-05-01T12:00:00Z, got ${JSON.stringify(value)}`,
    );
  return ms;
}

export async function nodeInit(o: InitCliOptions): Promise<string> {
  if (o.seed !== undefined && (!Number.isSafeInteger(o.seed) || o.seed < 0))
    throw new InputError('--seed', `expected a non-negative integer, got ${o.seed}`);
  for (const [flag, v] of [
    ['--rest-port', o.restPort],
    ['--rpc-port', o.rpcPort],
    ['--jsonrpc-port', o.jsonRpcPort],
    ['--ws-port', o.wsPort],
  ] as const) {
    if (!Number.isInteger(v) || v < 0 || v > 65535)
      throw new InputError(flag, `expected a port number 0-65535, got ${v}`);
  }
  if (o.fromReport !== undefined) {
    if (o.scenario !== undefined)
      throw new InputError(
        '--scenario',
        "a home opened --from-report runs the report's scenario; leave out --scenario",
      );
    if (o.seed !== undefined) throw new InputError('--seed', "a home opened --from-report runs the report's seed");
    if (o.genesisTime !== undefined)
      throw new InputError(
        '--genesis-time',
        "a home opened --from-report keeps the report's genesis time (its run depends on it)",
      );
  }
  if (existsSync(paths(o.home).genesis) && !o.overwrite)
    throw new InputError(
      '--home',
      `${o.home} already holds a devnet (config/genesis.json exists); pass --overwrite to replace it`,
    );
  const base = o.fromReport === undefined ? loadScenario(o.scenario ?? 'devnet').scenario : null;
  const opened = await openRun({
    ...(o.fromReport !== undefined ? { fromReport: o.fromReport } : {}),
    ...(o.at !== undefined ? { at: o.at } : {}),
    ...(o.beforeViolation ? { beforeViolation: true } : {}),
    scenario: base ?? loadScenario('devnet').scenario,
    seed: o.seed ?? base?.seed ?? 1,
  });
  let scenario = opened.scenario;
  if (o.genesisTime !== undefined) scenario = { ...scenario, epochMs: parseGenesisTime(o.genesisTime, Date.now()) };
  // A fresh devnet whose workload sends sidechain transfers from the users gets accounts of its
  // own, which nothing else signs with (one opened at a time or from a report keeps its run exact).
  if (!opened.start && scenario.workload.sidechainTxs && scenario.params.sidechainDevAccounts === undefined)
    scenario = { ...scenario, params: { ...scenario.params, sidechainDevAccounts: DEVNET_DEV_ACCOUNTS } };
  const files = initHome({
    home: o.home,
    scenario,
    seed: opened.seed,
    host: o.host,
    ports: { rest: o.restPort, status: o.rpcPort, jsonRpc: o.jsonRpcPort, ws: o.wsPort },
    overwrite: o.overwrite,
    ...(opened.start ? { start: opened.start } : {}),
  });
  const p = paths(o.home);
  // A fresh home starts without chain data (an overwritten one too).
  for (const f of [p.journal, p.served]) rmSync(f, { force: true });
  if (opened.inputs.length) {
    writeJournal(p.journal, opened.inputs);
    files.push(p.journal);
  }
  const cfg = loadHome(o.home);
  return (
    `initialised a devnet in ${o.home}\n` +
    `  scenario ${scenario.name} (${scenario.validators.length} validators, ${scenario.params.producerCount} producers, ${scenario.crypto} crypto), seed ${opened.seed}, chain id ${cfg.chainId}\n` +
    `  genesis time ${rfc3339FromUnixMs(scenario.epochMs)}\n` +
    (opened.start
      ? `  the first start replays the run unpaced and pauses at the last window barrier before ${(opened.start.pauseBeforeMs / 1000).toFixed(3)} s (${opened.start.note})\n`
      : '') +
    opened.notes.map((n) => `  ${n}\n`).join('') +
    files.map((f) => `  wrote ${f}\n`).join('') +
    `start it with: lockstep node start --home ${o.home}\n`
  );
}

export function showAccount(home: string): string {
  const k = loadKey(home, `validator-${loadHome(home).nodeIndex}`);
  return `${JSON.stringify({ address: k.address, pub_key: k.pub_key }, null, 2)}\n`;
}

export function unsafeResetAll(home: string): string {
  assertNotRunning(home);
  const removed = resetData(home);
  return removed.length
    ? `${removed.map((f) => `removed ${f}\n`).join('')}chain data reset; config and keys kept\n`
    : 'nothing to reset (no chain data); config and keys kept\n';
}
