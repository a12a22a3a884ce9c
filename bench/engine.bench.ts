import { Engine } from '../sim/engine/engine';
import { TraceRecorder } from '../sim/trace/traceRecorder';
import { type BenchResult } from './harness';

/** Events per second with trivial handlers: each event schedules the next one on one of 64 chains. */
function engineRate(trace: TraceRecorder | null, events: number): number {
  const engine = new Engine(trace);
  let n = 0;
  engine.on('e', (ev, e) => {
    if (++n < events) e.after(1 + (n & 7), 'e', ev.target, null);
  });
  for (let i = 0; i < 64; i++) engine.at(i, 'e', 'n', null);
  const start = performance.now();
  engine.run();
  return (engine.eventsDelivered * 1000) / (performance.now() - start);
}

export function engineBenches(): BenchResult[] {
  engineRate(null, 2_000_000); // warm-up
  const best = (f: () => number) => Math.max(f(), f(), f());
  return [
    {
      name: 'engine: events/s, trivial handlers, no trace',
      value: best(() => engineRate(null, 5_000_000)),
      unit: 'events/s',
    },
    {
      name: 'engine: events/s, trivial handlers, rolling keccak trace',
      value: best(() => engineRate(new TraceRecorder(), 2_000_000)),
      unit: 'events/s',
    },
  ];
}
