/**
 * The sidechain domain in a worker thread. For each run the main thread sends the scenario, the
 * seed and a fresh barrier channel (with comlink); the worker builds its own SidechainDomain from
 * them (keys, genesis and rng streams are derived by name, exactly as inline), then serves the
 * window barriers over the synchronous channel until the main thread asks for the report. A worker
 * may serve several runs one after the other; nothing of a run outlives its report.
 */
import { parentPort } from 'node:worker_threads';
import { expose } from 'comlink';
import { type Scenario } from '../scenario/scenario';
import { SidechainDomain, type SidechainReportQuery } from '../domain/sidechainDomain';
import { type DomainOptions } from '../domain/domain';
import { type DomainStatus, type WindowEnd, type WindowRequest } from '../domain/windowProtocol';
import { nodeEndpoint } from './nodeEndpoint';
import { type BarrierShared, serveBarrier } from './barrierChannel';
import { HeaderEncoder } from './headerCodec';

/** What goes over the barrier channel. */
export type SidechainRequest = { kind: 'window'; req: WindowRequest } | { kind: 'report'; query: SidechainReportQuery };

export interface SidechainDomainApi {
  init(
    scenario: Scenario,
    seed: number,
    opts: DomainOptions,
    barrier: BarrierShared,
  ): { status: DomainStatus; end: WindowEnd | null };
  /** Serve barrier requests until the report is asked for; returns then. */
  serve(spinMs: number): void;
}

let run: { domain: SidechainDomain; barrier: BarrierShared; headers: HeaderEncoder } | null = null;

const api: SidechainDomainApi = {
  init(scenario, seed, opts, barrier) {
    const domain = new SidechainDomain(scenario, seed, opts);
    run = { domain, barrier, headers: new HeaderEncoder() };
    return domain.begin();
  },
  serve(spinMs) {
    const { domain, barrier, headers } = run!;
    try {
      serveBarrier(
        barrier,
        (r) => {
          const request = r as SidechainRequest;
          if (request.kind !== 'window') return domain.report(request.query);
          const result = domain.runWindow(request.req);
          return { ...result, outbound: headers.encode(result.outbound) };
        },
        (r) => (r as SidechainRequest).kind === 'report',
        spinMs,
      );
    } finally {
      barrier.port.close();
      run = null;
    }
  },
};

expose(api, nodeEndpoint(parentPort!));
