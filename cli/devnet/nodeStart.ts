/**
 * `lockstep node start` (the spec's <daemon>): start the devnet and its servers.
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
import { createWriteStream, existsSync, mkdirSync, unlinkSync, writeFileSync, type WriteStream } from 'node:fs';
import { type AddressInfo } from 'node:net';
import { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { InputError } from '../../src/core/errors';
import { createRestServer } from '../../src/rpc/rest/restServer';
import { createStatusServer } from '../../src/rpc/status/statusServer';
import { createJsonRpcServer } from '../../src/rpc/jsonrpc/jsonRpcServer';
import { createWebSocketServer } from '../../src/rpc/jsonrpc/webSocketServer';
import { createConsoleServer } from '../../src/rpc/console/consoleServer';
import { adminMethods } from '../../src/rpc/jsonrpc/adminMethods';
import { type DevAccounts, devAccountMethods } from '../../src/rpc/jsonrpc/devAccountMethods';
import { sidechainDevAccounts } from '../../sim/domain/runSetup';
import { type DevnetConfig, type LogName, loadHome, paths } from './home';
import { readJournal } from './journal';
import { defaultReportDir, writeDevnetReport } from './devnetReport';
import { takeLock, releaseLock } from './homeLock';
import { throttle } from './throttle';
import { banner, caughtUpLines } from './banner';
import { LiveDevnet } from './liveDevnet';
import { type ServerPorts } from './liveTypes';

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
  /** The network, its admin namespace and every node's ports. */
  net: LiveDevnet;
  ports: ServerPorts;
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
  let net: LiveDevnet;
  try {
    net = new LiveDevnet(config, {
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
      createConsoleServer(net.node(k + 1)!.sidechain, p.consoleSocketOf(k + 1)),
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
    impersonated: net.network.sidechainTxs.impersonated,
  };
  const extraMethods = (node: number | undefined) => {
    const admin = adminMethods(net.control, node);
    const wallet = devAccountMethods(dev, () => net.node(node ?? config.nodeIndex)!.sidechain.view());
    return (name: string) => admin(name) ?? wallet(name);
  };
  const scNodes = { node: (n: number) => net.node(n)?.sidechain ?? null, count };
  let ports: ServerPorts;
  try {
    ports = {
      rest: await listen(
        createRestServer(net, {
          loggerInstance: serverLogger('rest-server', 'rest'),
          nodes: { node: (n) => net.node(n)?.service ?? null, count },
        }),
        config.ports.rest,
      ),
      status: await listen(
        createStatusServer(net, {
          loggerInstance: serverLogger('status', 'status'),
          nodes: { node: (n) => net.node(n)?.status ?? null, count },
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
  for (const line of banner(config, host, ports, net.network)) out(line);
  const running = net.start();
  void waitCaughtUp(net).then(() => {
    for (const line of caughtUpLines(config, net.network)) out(line);
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

async function waitCaughtUp(net: LiveDevnet): Promise<void> {
  while (net.replaying) await new Promise((r) => setTimeout(r, 20));
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
