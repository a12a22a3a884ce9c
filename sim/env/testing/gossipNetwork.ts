/**
 * A test fixture: a small self-contained network on the engine. N nodes pass tokens to random
 * peers over links with seeded random latency, and each node ticks on a timer. It exercises the
 * engine, the rng streams and the trace without the service or the sidechain (engine.prop.test.ts).
 * Same seed, same trace hash.
 */
import { Engine, type RunVerdict } from '../../engine/engine';
import { Rng } from '../rng';
import { TraceRecorder } from '../../trace/traceRecorder';

export interface GossipNetworkOptions {
  seed: number;
  nodes?: number;
  tokens?: number;
  untilMs?: number;
  tickMs?: number;
  maxEvents?: number;
}

export interface GossipNetworkResult {
  seed: number;
  verdict: RunVerdict;
  traceHash: string;
  delivered: number[];
  ticks: number;
}

interface TokenPayload {
  token: number;
  from: number;
  hops: number;
}

export function runGossipNetwork(
  opts: GossipNetworkOptions,
  trace: TraceRecorder = new TraceRecorder(),
): GossipNetworkResult {
  const nodes = opts.nodes ?? 5;
  const tokens = opts.tokens ?? 8;
  const untilMs = opts.untilMs ?? 60_000;
  const tickMs = opts.tickMs ?? 1_000;
  const rng = Rng.forSeed(opts.seed);
  const net = rng.fork('net');
  const peers = Array.from({ length: nodes }, (_, i) => rng.fork(`node:${i}`));
  const delivered = new Array<number>(nodes).fill(0);
  let ticks = 0;

  const engine = new Engine(trace);
  engine.on<TokenPayload>(
    'token',
    (ev, e) => {
      const self = Number(ev.target);
      delivered[self]!++;
      let to = peers[self]!.int(0, nodes - 2);
      if (to >= self) to++;
      e.after(net.int(5, 150), 'token', String(to), { token: ev.payload.token, from: self, hops: ev.payload.hops + 1 });
    },
    (p) => `[${p.token},${p.from},${p.hops}]`,
  );
  engine.on('tick', (ev, e) => {
    ticks++;
    e.after(tickMs, 'tick', ev.target, null);
  });

  for (let i = 0; i < nodes; i++) engine.at(peers[i]!.int(0, tickMs - 1), 'tick', String(i), null);
  for (let t = 0; t < tokens; t++) engine.at(0, 'token', String(t % nodes), { token: t, from: -1, hops: 0 });

  const verdict = engine.run({ untilMs, maxEvents: opts.maxEvents ?? 10_000_000 });
  return { seed: opts.seed, verdict, traceHash: trace.digest(), delivered, ticks };
}
