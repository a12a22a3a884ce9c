/**
 * Start the sidechain domain in a worker thread. Setup goes through comlink; the window barriers
 * go through the synchronous barrier channel (barrierChannel.ts), which is several times cheaper
 * per round trip. From the sources the worker loads TypeScript through tsx (bootstrap.mjs), so it
 * works the same from tsx and vitest; compiled, it loads dist/js/sidechainDomain.worker.js
 * (workerEntry.ts). If the worker dies, pending and later calls reject.
 *
 * Starting a worker costs about half a second from source (tsx compiles the sidechain code
 * again), so a worker whose run ended cleanly is parked (unref'd: it never keeps the process alive)
 * and the next run of this thread reuses it. A worker that failed or was closed early is
 * terminated instead.
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import { transfer, wrap, type Remote } from 'comlink';
import { type Scenario } from '../scenario/scenario';
import { type SidechainReport, type SidechainReportQuery } from '../domain/sidechainDomain';
import { type DomainOptions } from '../domain/domain';
import { type DomainStatus, type WindowEnd, type WindowRequest, type WindowResult } from '../domain/windowProtocol';
import { nodeEndpoint } from './nodeEndpoint';
import { BarrierClient, newBarrierFlags } from './barrierChannel';
import { HeaderDecoder } from './headerCodec';
import { fromSource } from './workerEntry';
import { type SidechainDomainApi, type SidechainRequest } from './sidechainDomain.worker';

export interface RemoteSidechainDomain {
  init(scenario: Scenario, seed: number, opts: DomainOptions): Promise<{ status: DomainStatus; end: WindowEnd | null }>;
  /** Hand a window to the worker; it runs while the caller runs the main domain's window. */
  postWindow(req: WindowRequest): void;
  /** The result of the window posted last. */
  takeWindow(): Promise<WindowResult>;
  /** The end-of-run report; the worker stops serving after it. */
  report(query: SidechainReportQuery): Promise<SidechainReport>;
  /** Release the worker: parked for reuse after a clean report, terminated otherwise. */
  close(): Promise<void>;
}

export interface SidechainWorkerOptions {
  /** How long each side spins before sleeping on the barrier counters (ms). */
  mainSpinMs?: number;
  workerSpinMs?: number;
}

/**
 * Defaults measured on a 2-vCPU VM where two busy threads slow each other down by ~65%: there the
 * main thread gains from a short spin (the worker is usually done by the time it asks) and a
 * spinning worker only slows the main thread down, so the worker sleeps at once.
 */
export const DEFAULT_MAIN_SPIN_MS = 0.1;
export const DEFAULT_WORKER_SPIN_MS = 0;

interface LiveWorker {
  worker: Worker;
  remote: Remote<SidechainDomainApi>;
  /** Why it is unusable, once it is. */
  failure: Error | null;
  death: Promise<never>;
}

let parked: LiveWorker | null = null;

function spawn(): LiveWorker {
  const worker = fromSource(import.meta.url)
    ? new Worker(new URL('./bootstrap.mjs', import.meta.url), {
        workerData: { module: new URL('./sidechainDomain.worker.ts', import.meta.url).href },
      })
    : new Worker(new URL('./sidechainDomain.worker.js', import.meta.url));
  let rejectDeath: (e: Error) => void = () => {};
  const death = new Promise<never>((_, reject) => {
    rejectDeath = reject;
  });
  death.catch(() => {});
  const live: LiveWorker = { worker, remote: wrap<SidechainDomainApi>(nodeEndpoint(worker)), failure: null, death };
  const die = (e: Error) => {
    live.failure ??= e;
    if (parked === live) parked = null;
    rejectDeath(live.failure);
  };
  worker.on('error', (e) => die(e instanceof Error ? e : new Error(String(e))));
  worker.on('exit', (code) => die(new Error(`the sidechain worker exited (code ${code})`)));
  return live;
}

function acquire(): LiveWorker {
  const w = parked;
  parked = null;
  if (w && w.failure === null) {
    w.worker.ref();
    return w;
  }
  return spawn();
}

export function startSidechainWorker(opts: SidechainWorkerOptions = {}): RemoteSidechainDomain {
  const live = acquire();
  const call = <T>(p: Promise<T>): Promise<T> =>
    live.failure ? Promise.reject(live.failure) : Promise.race([p, live.death]);
  const channel = new MessageChannel();
  const flags = newBarrierFlags();
  const client = new BarrierClient(
    { flags, port: channel.port1 },
    () => live.failure,
    opts.mainSpinMs ?? DEFAULT_MAIN_SPIN_MS,
  );
  const headers = new HeaderDecoder();
  let serving: Promise<void> | null = null;
  let reported = false;
  let closed = false;
  const request = (r: SidechainRequest) => {
    if (live.failure) throw live.failure;
    client.post(r);
  };
  return {
    async init(scenario, seed, initOpts) {
      const out = await call(
        live.remote.init(
          scenario,
          seed,
          initOpts,
          transfer({ flags, port: channel.port2 }, [channel.port2] as unknown as Parameters<typeof transfer>[1]),
        ),
      );
      serving = call(live.remote.serve(opts.workerSpinMs ?? DEFAULT_WORKER_SPIN_MS));
      serving.catch(() => {});
      return out;
    },
    postWindow: (req) => request({ kind: 'window', req }),
    async takeWindow() {
      const result = await client.take<WindowResult>();
      headers.decode(result.outbound);
      return result;
    },
    async report(query) {
      request({ kind: 'report', query });
      const out = await client.take<SidechainReport>();
      await serving;
      reported = true;
      return out;
    },
    async close() {
      if (closed) return;
      closed = true;
      channel.port1.close();
      if (reported && live.failure === null && parked === null) {
        live.worker.unref();
        parked = live;
        return;
      }
      live.failure ??= new Error('the sidechain worker was closed');
      await live.worker.terminate();
    },
  };
}
