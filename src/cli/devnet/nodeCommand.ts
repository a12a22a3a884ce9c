/**
 * `lockstep node …` (the spec's <daemon>): init a home folder, start the devnet and its servers,
 * show the validator's account, reset the chain data. And `lockstep console`.
 *
 * `start` serves, on 127.0.0.1 by default: the service REST API (1317), node status RPC (26657),
 * the sidechain JSON-RPC over HTTP (8545) and over WebSocket (8546) and the operator console
 * socket; it writes the bound addresses to
 * data/ports.json (useful with port 0), logs to logs/*.log, and stops cleanly on SIGINT/SIGTERM
 * (journal synced, sockets closed). A kill loses nothing acknowledged: the journal was synced
 * before each answer.
 */
import {
  createWriteStream,
  existsSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  type WriteStream,
} from 'node:fs';
import { type AddressInfo } from 'node:net';
import { type FastifyInstance } from 'fastify';
import { InputError } from '../../core/errors';
import { loadScenario } from '../../../sim/scenario/load';
import { createRestServer } from '../../rpc/rest/restServer';
import { createStatusServer } from '../../rpc/status/statusServer';
import { createJsonRpcServer } from '../../rpc/jsonrpc/jsonRpcServer';
import { createWebSocketServer } from '../../rpc/jsonrpc/webSocketServer';
import { createConsoleServer } from '../../rpc/console/consoleServer';
import { initHome, loadHome, loadKey, paths, resetData, type DevnetConfig } from './home';
import { LiveNetwork } from './liveNetwork';

export interface InitCliOptions {
  home: string;
  scenario: string;
  seed: number;
  host: string;
  restPort: number;
  rpcPort: number;
  jsonRpcPort: number;
  wsPort: number;
  overwrite: boolean;
}

export function nodeInit(o: InitCliOptions): string {
  if (!Number.isSafeInteger(o.seed) || o.seed < 0)
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
  const { scenario } = loadScenario(o.scenario);
  const files = initHome({
    home: o.home,
    scenario,
    seed: o.seed,
    host: o.host,
    ports: { rest: o.restPort, status: o.rpcPort, jsonRpc: o.jsonRpcPort, ws: o.wsPort },
    overwrite: o.overwrite,
  });
  const cfg = loadHome(o.home);
  return (
    `initialised a devnet in ${o.home}\n` +
    `  scenario ${scenario.name} (${scenario.validators.length} validators, ${scenario.params.producerCount} producers, ${scenario.crypto} crypto), seed ${o.seed}, chain id ${cfg.chainId}\n` +
    files.map((f) => `  wrote ${f}\n`).join('') +
    `start it with: lockstep node start --home ${o.home}\n`
  );
}

export function showAccount(home: string): string {
  const k = loadKey(home, `validator-${loadHome(home).nodeIndex}`);
  return JSON.stringify({ address: k.address, pub_key: k.pub_key }, null, 2) + '\n';
}

export function unsafeResetAll(home: string): string {
  assertNotRunning(home);
  const removed = resetData(home);
  return removed.length
    ? removed.map((f) => `removed ${f}\n`).join('') + 'chain data reset; config and keys kept\n'
    : 'nothing to reset (no chain data); config and keys kept\n';
}

export interface StartOptions {
  home: string;
  speed: number;
  host?: string;
  /** For tests: write progress here instead of stderr. */
  out?: (line: string) => void;
}

export interface RunningDevnet {
  net: LiveNetwork;
  ports: { rest: number; status: number; jsonRpc: number; ws: number; console: string };
  stop(): Promise<void>;
}

/** Start the devnet and its servers; resolves once every server listens. */
export async function startDevnet(o: StartOptions): Promise<RunningDevnet> {
  if (!(o.speed > 0) || !Number.isFinite(o.speed))
    throw new InputError('--speed', `expected a positive number, got ${o.speed}`);
  const config: DevnetConfig = loadHome(o.home);
  const p = paths(o.home);
  takeLock(o.home);
  const out = o.out ?? ((line: string) => void process.stderr.write(line + '\n'));
  const logs = new Map<string, WriteStream>();
  const logTo = (service: 'daemon' | 'rest-server' | 'bridge' | 'sidechain', line: string) => {
    let s = logs.get(service);
    if (!s) {
      s = createWriteStream(p.log(service), { flags: 'a' });
      logs.set(service, s);
    }
    s.write(line + '\n');
  };
  const host = o.host ?? config.host;
  let net: LiveNetwork;
  try {
    net = new LiveNetwork(config, {
      speed: o.speed,
      log: logTo,
      onReplayProgress: throttle(
        (done, total) =>
          out(`replaying the journal: ${(done / 1000).toFixed(0)} of ${(total / 1000).toFixed(0)} s simulated`),
        2_000,
      ),
    });
  } catch (e) {
    releaseLock(o.home);
    throw e;
  }
  const servers: FastifyInstance[] = [];
  const consoleServer = createConsoleServer(net, p.consoleSocket);
  const listen = async (app: FastifyInstance, port: number, name: string): Promise<number> => {
    app.addHook('onResponse', async (req, reply) =>
      logTo('rest-server', `${req.method} ${req.url} ${reply.statusCode} (${name})`),
    );
    servers.push(app);
    await app.listen({ host, port });
    return (app.server.address() as AddressInfo).port;
  };
  let ports: RunningDevnet['ports'];
  try {
    ports = {
      rest: await listen(createRestServer(net), config.ports.rest, 'rest'),
      status: await listen(createStatusServer(net), config.ports.status, 'status'),
      jsonRpc: await listen(createJsonRpcServer(net), config.ports.jsonRpc, 'json-rpc'),
      ws: await listen(createWebSocketServer(net), config.ports.ws, 'websocket'),
      console: p.consoleSocket,
    };
    await consoleServer.listen();
  } catch (e) {
    await Promise.allSettled(servers.map((s) => s.close()));
    releaseLock(o.home);
    throw new InputError(
      '--home',
      `cannot start the servers: ${(e as Error).message} (is another devnet running on these ports? change them in ${p.daemonConfig} and ${p.nodeConfig})`,
    );
  }
  writeFileSync(p.ports, JSON.stringify({ host, ...ports }, null, 2) + '\n');
  out(`service REST API      http://${host}:${ports.rest}`);
  out(`node status RPC       http://${host}:${ports.status}`);
  out(`sidechain JSON-RPC    http://${host}:${ports.jsonRpc}`);
  out(`sidechain WebSocket   ws://${host}:${ports.ws}  (eth_subscribe newHeads, logs)`);
  out(`operator console      ${ports.console}  (lockstep console --home ${o.home})`);
  out(`logs                  ${p.logs}`);
  const running = net.start();
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      await net.stop();
      await running;
      await Promise.allSettled([...servers.map((s) => s.close()), consoleServer.close()]);
      await Promise.all([...logs.values()].map((s) => new Promise<void>((r) => s.end(r))));
      if (existsSync(p.ports)) unlinkSync(p.ports);
      releaseLock(o.home);
    })());
  return { net, ports, stop };
}

/** `lockstep node start`: run until SIGINT/SIGTERM, printing a status line now and then. */
export async function nodeStart(o: StartOptions): Promise<number> {
  const d = await startDevnet(o);
  const every = setInterval(
    () => process.stderr.write(`${d.net.replaying ? '(replaying) ' : ''}${d.net.statusLine()}\n`),
    10_000,
  );
  await new Promise<void>((resolve) => {
    const onSignal = (sig: string) => {
      process.stderr.write(`\n${sig}: stopping (journal synced, servers closing)\n`);
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

// --- the home folder's lock: one running devnet per home --------------------------------------

function takeLock(home: string): void {
  assertNotRunning(home);
  writeFileSync(paths(home).lock, `${process.pid}\n`);
}

function releaseLock(home: string): void {
  const f = paths(home).lock;
  if (existsSync(f) && readFileSync(f, 'utf8').trim() === String(process.pid)) rmSync(f);
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
