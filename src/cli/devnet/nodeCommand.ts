/**
 * `lockstep node …` (the spec's <daemon>): init a home folder (a fresh network, a scenario at a
 * time, or a report's run before its violation), start the devnet and its servers, steer it
 * (pause, resume, step, snapshot, revert, fault), show its status, write its report, show the
 * validator's account, reset the chain data.
 *
 * `start` serves, on 127.0.0.1 by default: the service REST API (1317), node status RPC (26657),
 * the sidechain JSON-RPC over HTTP (8545, with the admin namespace `lockstep_*` and `evm_*`) and
 * over WebSocket (8546), and one operator console socket per sidechain node; every port answers
 * for validator N's nodes under `/node/N`. It writes the bound addresses to data/ports.json
 * (useful with port 0), the nodes' records to logs/{daemon,bridge,sidechain}.log, one pino (JSON)
 * log per server to logs/{rest-server,status,jsonrpc}.log, and stops cleanly on SIGINT/SIGTERM
 * (journal synced, sockets closed, the report written to report/). A kill loses nothing
 * acknowledged: the journal was synced before each answer.
 */
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  type WriteStream,
} from 'node:fs';
import { type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { formatUnits } from 'ethers';
import { InputError } from '../../core/errors';
import { rfc3339FromUnixMs } from '../../core/time';
import { loadScenario } from '../../../sim/scenario/load';
import { sidechainDevAccounts } from '../../../sim/domain/clusterSetup';
import { createRestServer } from '../../rpc/rest/restServer';
import { createStatusServer } from '../../rpc/status/statusServer';
import { createJsonRpcServer } from '../../rpc/jsonrpc/jsonRpcServer';
import { createWebSocketServer } from '../../rpc/jsonrpc/webSocketServer';
import { createConsoleServer } from '../../rpc/console/consoleServer';
import { adminMethods, parseStepRequest } from '../../rpc/jsonrpc/adminMethods';
import { type DevAccounts, devAccountMethods } from '../../rpc/jsonrpc/devAccountMethods';
import { type DevnetConfig, type LogName, initHome, listKeys, loadHome, loadKey, paths, resetData } from './home';
import { LiveNetwork } from './liveNetwork';
import { openRun } from './openRun';
import { readJournal, writeJournal } from './journal';
import { readServedMark } from './servedMark';
import { defaultReportDir, writeDevnetReport } from './devnetReport';
import { adminCall, boundPorts } from './adminClient';
import { decodeLiveFault, describeFault, faultFromArgs, type FaultArgs } from './faultInput';

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

export interface StartOptions {
  home: string;
  speed: number;
  host?: string;
  /** For tests: write progress here instead of stderr. */
  out?: (line: string) => void;
  /** Write the report of the run to <home>/report/ at stop (`node start` does). */
  reportOnStop?: boolean;
  /** Wall ms a read waits while a restart replays the journal (default 30 s). */
  catchUpWaitMs?: number;
}

export interface RunningDevnet {
  net: LiveNetwork;
  ports: { rest: number; status: number; jsonRpc: number; ws: number; console: string };
  /** Resolves once the journal has been replayed (and a run opened at a time has paused). */
  caughtUp: Promise<void>;
  stop(): Promise<void>;
}

/** The request log line's fields: the URL as the client sent it (with its `/node/N`). */
const SERIALIZERS = {
  req: (r: { method?: string; originalUrl?: string; url?: string; ip?: string }) => ({
    method: r.method,
    url: r.originalUrl ?? r.url,
    remoteAddress: r.ip,
  }),
  res: (r: { statusCode?: number }) => ({ statusCode: r.statusCode }),
};

/** Start the devnet and its servers; resolves once every server listens. */
export async function startDevnet(o: StartOptions): Promise<RunningDevnet> {
  if (!(o.speed > 0) || !Number.isFinite(o.speed))
    throw new InputError('--speed', `expected a positive number, got ${o.speed}`);
  const config: DevnetConfig = loadHome(o.home);
  const p = paths(o.home);
  takeLock(o.home);
  const out = o.out ?? ((line: string) => void process.stderr.write(`${line}\n`));
  mkdirSync(p.logs, { recursive: true });
  const logs = new Map<string, WriteStream>();
  const logTo = (service: LogName, line: string) => {
    let s = logs.get(service);
    if (!s) {
      s = createWriteStream(p.log(service), { flags: 'a' });
      logs.set(service, s);
    }
    s.write(`${line}\n`);
  };
  const pinoDests = new Map<LogName, ReturnType<typeof pino.destination>>();
  /** A pino logger per server; servers that share a log file share its destination. */
  const serverLogger = (name: LogName, server: string) => {
    let dest = pinoDests.get(name);
    if (!dest) {
      dest = pino.destination({ dest: p.log(name), append: true, sync: false, mkdir: true });
      pinoDests.set(name, dest);
    }
    return pino({ base: { server }, timestamp: pino.stdTimeFunctions.isoTime, serializers: SERIALIZERS }, dest);
  };
  const host = o.host ?? config.host;
  let caughtUp!: () => void;
  const caughtUpPromise = new Promise<void>((r) => {
    caughtUp = r;
  });
  let net: LiveNetwork;
  try {
    net = new LiveNetwork(config, {
      speed: o.speed,
      log: logTo,
      ...(o.catchUpWaitMs !== undefined ? { catchUpWaitMs: o.catchUpWaitMs } : {}),
      onReplayProgress: throttle(
        (done, total) =>
          out(`replaying: ${(done / 1000).toFixed(0)} of ${(total / 1000).toFixed(0)} s simulated (unpaced)`),
        2_000,
      ),
    });
  } catch (e) {
    releaseLock(o.home);
    throw e;
  }
  const count = net.nodeCount;
  const servers: FastifyInstance[] = [];
  const consoles = [
    createConsoleServer(net, p.consoleSocket),
    ...Array.from({ length: count }, (_, k) =>
      createConsoleServer(net.sidechainPort(k + 1)!, p.consoleSocketOf(k + 1)),
    ),
  ];
  const listen = async (app: FastifyInstance, port: number): Promise<number> => {
    servers.push(app);
    await app.listen({ host, port });
    return (app.server.address() as AddressInfo).port;
  };
  // The dev accounts the banner lists, unlocked as anvil's are; impersonation is the submit path's.
  const dev: DevAccounts = {
    keys: new Map(sidechainDevAccounts(net.run.main.setup, config.scenario).map((a) => [a.address, a.key])),
    impersonated: net.sidechainTxs.impersonated,
  };
  const extraMethods = (node: number | undefined) => {
    const admin = adminMethods(net.control, node);
    const wallet = devAccountMethods(dev, () => net.sidechainPort(node ?? config.nodeIndex)!.view());
    return (name: string) => admin(name) ?? wallet(name);
  };
  const scNodes = { node: (n: number) => net.sidechainPort(n), count };
  let ports: RunningDevnet['ports'];
  try {
    ports = {
      rest: await listen(
        createRestServer(net, {
          loggerInstance: serverLogger('rest-server', 'rest'),
          nodes: { node: (n) => net.servicePort(n), count },
        }),
        config.ports.rest,
      ),
      status: await listen(
        createStatusServer(net, {
          loggerInstance: serverLogger('status', 'status'),
          nodes: { node: (n) => net.statusPort(n), count },
        }),
        config.ports.status,
      ),
      jsonRpc: await listen(
        createJsonRpcServer(net, { loggerInstance: serverLogger('jsonrpc', 'json-rpc'), nodes: scNodes, extraMethods }),
        config.ports.jsonRpc,
      ),
      ws: await listen(
        createWebSocketServer(net, {
          loggerInstance: serverLogger('jsonrpc', 'websocket'),
          nodes: scNodes,
          extraMethods,
        }),
        config.ports.ws,
      ),
      console: p.consoleSocket,
    };
    for (const c of consoles) await c.listen();
  } catch (e) {
    await Promise.allSettled([...servers.map((s) => s.close()), ...consoles.map((c) => c.close())]);
    for (const d of pinoDests.values()) closeLog(d);
    releaseLock(o.home);
    throw new InputError(
      '--home',
      `cannot start the servers: ${(e as Error).message} (is another devnet running on these ports? change them in ${p.daemonConfig} and ${p.nodeConfig})`,
    );
  }
  writeFileSync(p.ports, `${JSON.stringify({ host, ...ports }, null, 2)}\n`);
  for (const line of banner(config, host, ports, net)) out(line);
  const running = net.start();
  void waitCaughtUp(net).then(() => {
    for (const line of caughtUpLines(config, net)) out(line);
    caughtUp();
  });
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      await net.stop();
      await running;
      await Promise.allSettled([...servers.map((s) => s.close()), ...consoles.map((c) => c.close())]);
      if (existsSync(p.ports)) unlinkSync(p.ports);
      if (o.reportOnStop) {
        try {
          const dir = writeDevnetReport({
            config,
            result: net.run.finish(),
            injected: net.injectedFaults(),
            journal: readJournal(p.journal).entries,
            outDir: defaultReportDir(o.home),
          });
          out(`report                ${dir}`);
        } catch (e) {
          out(`could not write the report: ${(e as Error).message}`);
        }
      }
      await Promise.all([...logs.values()].map((s) => new Promise<void>((r) => s.end(r))));
      for (const d of pinoDests.values()) closeLog(d);
      releaseLock(o.home);
    })());
  return { net, ports, caughtUp: caughtUpPromise, stop };
}

/** Write out what a server log still buffers, then close it. */
function closeLog(d: ReturnType<typeof pino.destination>): void {
  try {
    d.flushSync();
  } catch {
    // Not open yet (nothing written): end() closes it once it is.
  }
  d.end();
}

async function waitCaughtUp(net: LiveNetwork): Promise<void> {
  while (net.replaying) await new Promise((r) => setTimeout(r, 20));
}

/**
 * The start-up banner: chain ids, URLs per node, the admin namespace, funded accounts and their
 * keys, and the sidechain's funded dev accounts with their private keys (as anvil prints them).
 */
function banner(config: DevnetConfig, host: string, ports: RunningDevnet['ports'], net: LiveNetwork): string[] {
  const s = config.scenario;
  const sidechainChainId = net.run.main.setup.sidechainChainId;
  const lines = [
    `lockstep devnet       ${config.home}`,
    `chain ids             service ${config.chainId}, sidechain ${sidechainChainId} (0x${BigInt(sidechainChainId).toString(16)})`,
    `network               scenario ${s.name}, seed ${config.seed}, ${s.crypto} crypto, ${s.validators.length} validators, genesis ${rfc3339FromUnixMs(s.epochMs)}`,
  ];
  if (s.plant) lines.push(`planted bug           ${s.plant} is on (a test build's bug, kept from the run)`);
  if (!['127.0.0.1', 'localhost', '::1'].includes(host))
    lines.push(
      `warning               the servers listen on ${host}: anyone who reaches it can pause, rewind and fault this devnet (the admin namespace is on the JSON-RPC port)`,
    );
  if (config.start?.fromReport) lines.push(`opened from           ${config.start.fromReport}`);
  const rest = `http://${host}:${ports.rest}`;
  const status = `http://${host}:${ports.status}`;
  const rpc = `http://${host}:${ports.jsonRpc}`;
  const ws = `ws://${host}:${ports.ws}`;
  lines.push(
    `node ${config.nodeIndex} (default)      REST ${rest}  status ${status}  JSON-RPC ${rpc}  WebSocket ${ws}`,
    `every node N          the same URLs with /node/N: ${rest}/node/N/…, ${status}/node/N/status, ${rpc}/node/N, ${ws}/node/N (N = 1-${s.validators.length})`,
    `consoles              lockstep console --home ${config.home} [--node N]  (${paths(config.home)
      .consoleSocketOf(1)
      .replace(/-1\.ipc$/, '-N.ipc')})`,
    `admin                 lockstep_* and evm_* on ${rpc}: lockstep node status|pause|resume|step|snapshot|revert|fault|report --home ${config.home}`,
    `funded accounts       (keys in ${paths(config.home).keys}/NAME.json)`,
  );
  const genesis = JSON.parse(readFileSync(paths(config.home).genesis, 'utf8')) as {
    app_state?: {
      auth?: { accounts?: Array<{ address: string; coins: Array<{ denom: string; amount: { i: string } | string }> }> };
    };
  };
  const balances = new Map(
    (genesis.app_state?.auth?.accounts ?? []).map((a) => [
      a.address.toLowerCase(),
      a.coins.map((c) => `${typeof c.amount === 'string' ? c.amount : c.amount.i}${c.denom}`).join(','),
    ]),
  );
  for (const name of listKeys(config.home)) {
    const k = loadKey(config.home, name);
    lines.push(`  ${name.padEnd(14)} ${k.address}  ${balances.get(k.address.toLowerCase()) ?? '0matic'} at genesis`);
  }
  // As anvil prints its dev accounts: what a wallet needs to send on the sidechain (eth_accounts' order).
  const accounts = sidechainDevAccounts(net.run.main.setup, s);
  lines.push(
    `sidechain accounts    funded at sidechain genesis, for wallets on chain ${sidechainChainId}, unlocked (eth_accounts, eth_sendTransaction) or with the key (ethers, viem)`,
  );
  for (const [i, a] of accounts.entries())
    lines.push(
      `  (${i}) ${a.address}  ${formatUnits(a.balance, 18)} MATIC  private key ${a.key}  ${a.name}${a.workload ? ', the workload signs with it' : ''}`,
    );
  const shared = accounts.filter((a) => a.workload);
  if (shared.length)
    lines.push(
      `                      the scenario's workload sends sidechain transfers from ${shared.map((a) => a.name).join(', ')}: their nonces move on their own; ${
        accounts.length > shared.length
          ? `use ${accounts
              .filter((a) => !a.workload)
              .map((a) => a.name)
              .join(', ')}`
          : 'no funded account is free of it (a devnet opened at a time or from a report keeps its run exact): fund a new key with anvil_setBalance'
      }`,
    );
  lines.push(
    `logs                  ${paths(config.home).logs} (daemon, bridge, sidechain; rest-server, status, jsonrpc as JSON)`,
  );
  return lines;
}

function caughtUpLines(config: DevnetConfig, net: LiveNetwork): string[] {
  const t = net.run.ranToMs();
  const lines: string[] = [];
  const opened = net.opened;
  if (opened && config.start) {
    const gap = opened.pauseBeforeMs - opened.timeMs;
    const v = config.start.violation;
    lines.push(
      `paused at             ${(opened.timeMs / 1000).toFixed(3)} s (window barrier ${opened.barrier}), ${v ? `${gap} ms before ${config.start.note}` : `${config.start.note}; the last barrier before it`}`,
    );
    if (v) lines.push(`                      ${v.message}`);
    lines.push('continue with          lockstep node step|resume --home …, or evm_mine / evm_increaseTime');
  } else if (net.isPaused)
    lines.push(`paused at             ${(t / 1000).toFixed(3)} s (lockstep node resume to continue)`);
  else lines.push(`running               from ${(t / 1000).toFixed(1)} s simulated`);
  return lines;
}

/** `lockstep node start`: run until SIGINT/SIGTERM, printing a status line now and then. */
export async function nodeStart(o: StartOptions): Promise<number> {
  const d = await startDevnet({ reportOnStop: true, ...o });
  const every = setInterval(() => process.stderr.write(`${d.net.statusLine()}\n`), 10_000);
  await new Promise<void>((resolve) => {
    const onSignal = (sig: string) => {
      process.stderr.write(`\n${sig}: stopping (journal synced, servers closing, report written)\n`);
      resolve();
    };
    process.once('SIGINT', () => onSignal('SIGINT'));
    process.once('SIGTERM', () => onSignal('SIGTERM'));
  });
  clearInterval(every);
  await d.stop();
  process.stderr.write(`stopped at ${d.net.statusLine()}\n`);
  return 0;
}

// --- steering a running devnet ----------------------------------------------------------------

interface StatusJson {
  state: string;
  timeMs: number;
  time: string;
  barrier: number;
  events: number;
  speed: number;
  nodeIndex: number;
  plant?: string;
  ended?: string;
  nodes: Array<{
    node: number;
    service: { id: string; height: number; alive: boolean };
    sidechain: { id: string; head: number; hash: string; alive: boolean };
  }>;
  violations: Array<{ oracle: string; class: string; atMs: number; node: string; message: string }>;
  faultsInForce: Array<{ index: number; kind: string; detail: string }>;
  injectedFaults: Array<{ index: number; description: string; atMs: number; endsAtMs: number | null }>;
  snapshots: Array<{ id: string; name: string; barrier: number; timeMs: number }>;
  timeOffsetS: number;
}

const sec = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

export function formatStatus(s: StatusJson): string {
  const lines = [
    `state       ${s.state}${s.state === 'running' ? ` (${s.speed}x)` : ''} at ${sec(s.timeMs)} (${s.time}), window barrier ${s.barrier}, ${s.events} events`,
  ];
  if (s.ended) lines.push(`ended       ${s.ended}`);
  if (s.plant) lines.push(`plant       ${s.plant} (planted bug on)`);
  for (const n of s.nodes)
    lines.push(
      `node ${String(n.node).padEnd(7)}service ${n.service.height}${n.service.alive ? '' : ' (down)'}, sidechain ${n.sidechain.head} ${n.sidechain.hash.slice(0, 10)}…${n.sidechain.alive ? '' : ' (down)'}${n.node === s.nodeIndex ? '  (default)' : ''}`,
    );
  lines.push(
    s.violations.length
      ? `violations  ${s.violations.length}`
      : 'violations  none (the oracles check as the network runs; end-of-run checks run in the report)',
  );
  for (const v of s.violations)
    lines.push(`  ${v.oracle} (${v.class}) at ${sec(v.atMs)} on ${v.node || 'the network'}: ${v.message}`);
  if (s.faultsInForce.length)
    lines.push(`faults      in force: ${s.faultsInForce.map((f) => `#${f.index} ${f.kind} (${f.detail})`).join('; ')}`);
  for (const f of s.injectedFaults)
    lines.push(
      `  injected #${f.index}: ${f.description}, from ${sec(f.atMs)}${f.endsAtMs !== null ? ` to ${sec(f.endsAtMs)}` : ''}`,
    );
  if (s.snapshots.length)
    lines.push(`snapshots   ${s.snapshots.map((x) => `${x.name} (${x.id}, ${sec(x.timeMs)})`).join(', ')}`);
  if (s.timeOffsetS) lines.push(`time offset ${s.timeOffsetS} s (evm_increaseTime)`);
  return `${lines.join('\n')}\n`;
}

export async function nodeStatus(home: string, json: boolean): Promise<string> {
  const s = (await adminCall(home, 'lockstep_status')) as StatusJson;
  return json ? `${JSON.stringify(s)}\n` : formatStatus(s);
}

const position = (r: { timeMs: number; barrier: number }) => `${sec(r.timeMs)} (window barrier ${r.barrier})`;

export async function nodePause(home: string, json: boolean): Promise<string> {
  const r = (await adminCall(home, 'lockstep_pause')) as { timeMs: number; barrier: number };
  return json ? `${JSON.stringify(r)}\n` : `paused at ${position(r)}\n`;
}

export async function nodeResume(home: string, json: boolean): Promise<string> {
  const r = (await adminCall(home, 'lockstep_resume')) as { timeMs: number; barrier: number };
  return json ? `${JSON.stringify(r)}\n` : `running from ${position(r)}\n`;
}

export async function nodeStep(
  home: string,
  a: { events?: number; until?: string; blocks?: number; node?: number },
  json: boolean,
): Promise<string> {
  const req: Record<string, unknown> = {};
  if (a.events !== undefined) req.events = a.events;
  if (a.until !== undefined) req.until = a.until;
  if (a.blocks !== undefined) req.blocks = a.blocks;
  if (a.node !== undefined) req.node = a.node;
  // Checked here too, so a bad flag names the flag before anything is sent.
  try {
    parseStepRequest(Object.keys(req).length ? req : undefined);
  } catch (e) {
    if (e instanceof InputError)
      throw new InputError(`--${e.field.replace(/^step\.?/, '') || 'events'}`, e.message.slice(e.field.length + 2));
    throw e;
  }
  const r = (await adminCall(home, 'lockstep_step', Object.keys(req).length ? [req] : [])) as {
    timeMs: number;
    barrier: number;
    ranMs: number;
    events: number;
    stoppedBecause: string;
    head: { node: string; number: number };
  };
  return json
    ? `${JSON.stringify(r)}\n`
    : `paused at ${position(r)}: ran ${r.ranMs} ms, ${r.events} events; ${r.stoppedBecause}; ${r.head.node} head ${r.head.number}\n`;
}

export async function nodeSnapshot(home: string, name: string, json: boolean): Promise<string> {
  const r = (await adminCall(home, 'lockstep_snapshot', [name])) as {
    id: string;
    name: string;
    timeMs: number;
    barrier: number;
  };
  return json ? `${JSON.stringify(r)}\n` : `snapshot ${r.name} (${r.id}) at ${position(r)}\n`;
}

export async function nodeRevert(home: string, name: string, json: boolean): Promise<string> {
  const r = (await adminCall(home, 'lockstep_revert', [name])) as {
    reverted: string;
    timeMs: number;
    barrier: number;
    droppedEntries: number;
    backup: string;
  };
  return json
    ? `${JSON.stringify(r)}\n`
    : `reverted to ${r.reverted} at ${position(r)}; ${r.droppedEntries} journal entries dropped (kept in ${r.backup})\n`;
}

export async function nodeFault(home: string, a: FaultArgs & { json?: string }, asJson: boolean): Promise<string> {
  let spec: unknown;
  if (a.json !== undefined) {
    try {
      spec = JSON.parse(a.json);
    } catch (e) {
      throw new InputError('--json', `not JSON: ${(e as Error).message}`);
    }
  } else spec = faultFromArgs(a);
  // Checked here, against the home's network, before anything is sent: a bad fault names its field.
  decodeLiveFault(spec, loadHome(home).scenario);
  const r = (await adminCall(home, 'lockstep_fault', [spec])) as {
    index: number;
    fault: Record<string, unknown>;
    atMs: number;
    endsAtMs: number | null;
    barrier: number;
  };
  return asJson
    ? `${JSON.stringify(r)}\n`
    : `fault #${r.index} ${describeFault(r.fault)}: starts at ${sec(r.atMs)} (window barrier ${r.barrier})${r.endsAtMs !== null ? `, ends at ${sec(r.endsAtMs)}` : ''}\n`;
}

/**
 * `lockstep node report`: replay the journal here (not in the running devnet) up to where the
 * devnet is, or was when it stopped, and write the report folder.
 */
export async function nodeReport(
  home: string,
  outDir: string | undefined,
  progress: (line: string) => void,
): Promise<string> {
  const config = loadHome(home);
  const p = paths(home);
  let untilBarrier: number;
  if (boundPorts(home) && isRunning(home)) {
    const s = (await adminCall(home, 'lockstep_status')) as { barrier: number; state: string };
    if (s.state === 'replaying')
      throw new InputError('--home', 'the devnet is still replaying its journal: ask again once it has caught up');
    untilBarrier = s.barrier;
  } else {
    const { entries } = readJournal(p.journal);
    untilBarrier = Math.max(readServedMark(p.served).b, ...entries.map((e) => e.b), 0);
  }
  const net = new LiveNetwork(config, {
    readOnly: { untilBarrier },
    onReplayProgress: throttle(
      (done, total) => progress(`replaying: ${(done / 1000).toFixed(0)} of ${(total / 1000).toFixed(0)} s simulated`),
      2_000,
    ),
  });
  await net.start();
  const result = net.run.finish();
  const injected = net.injectedFaults();
  await net.stop();
  const dir = writeDevnetReport({
    config,
    result,
    injected,
    journal: readJournal(p.journal).entries.filter((e) => e.b <= untilBarrier),
    outDir: resolve(outDir ?? defaultReportDir(home)),
  });
  return `report of ${(result.simulatedMs / 1000).toFixed(1)} s (window barrier ${untilBarrier}): verdict ${result.verdict}${result.violation ? ` (${result.violation.oracle}: ${result.violation.message})` : ''}, ${injected.length} fault${injected.length === 1 ? '' : 's'} injected\n${dir}\n`;
}

// --- the home folder's lock: one running devnet per home --------------------------------------

function takeLock(home: string): void {
  assertNotRunning(home);
  writeFileSync(paths(home).lock, `${process.pid}\n`);
}

function releaseLock(home: string): void {
  const f = paths(home).lock;
  if (existsSync(f) && readFileSync(f, 'utf8').trim() === String(process.pid)) rmSync(f);
}

function isRunning(home: string): boolean {
  const f = paths(home).lock;
  if (!existsSync(f)) return false;
  const pid = Number(readFileSync(f, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 && isAlive(pid);
}

function assertNotRunning(home: string): void {
  const f = paths(home).lock;
  if (!existsSync(f)) return;
  const pid = Number(readFileSync(f, 'utf8').trim());
  if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid))
    throw new InputError('--home', `a devnet is already running on ${home} (pid ${pid}); stop it first`);
  // A stale lock: its process was killed.
  rmSync(f);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function throttle<A extends unknown[]>(f: (...a: A) => void, everyMs: number): (...a: A) => void {
  let last = 0;
  return (...a) => {
    const now = Date.now();
    if (now - last >= everyMs) {
      last = now;
      f(...a);
    }
  };
}
