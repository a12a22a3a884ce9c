import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Engine, type SimEvent } from './engine';
import { TraceRecorder } from '../trace/traceRecorder';
import { runGossipNetwork } from '../env/testing/gossipNetwork';

describe('engine delivery order', () => {
  it('delivers events in (time, seq) order, including events scheduled by handlers', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            at: fc.integer({ min: 0, max: 1000 }),
            spawn: fc.array(fc.integer({ min: 0, max: 200 }), { maxLength: 3 }),
          }),
          {
            minLength: 1,
            maxLength: 60,
          },
        ),
        (initial) => {
          const engine = new Engine(null);
          const seen: Array<[number, number]> = [];
          let budget = 500;
          engine.on<number[]>('e', (ev, e) => {
            seen.push([ev.timeMs, ev.seq]);
            expect(e.nowMs()).toBe(ev.timeMs);
            for (const d of ev.payload) if (budget-- > 0) e.after(d, 'e', '', ev.payload.slice(1));
          });
          for (const x of initial) engine.at(x.at, 'e', '', x.spawn);
          const verdict = engine.run();
          expect(verdict.reason).toBe('drained');
          for (let i = 1; i < seen.length; i++) {
            const [t0, s0] = seen[i - 1]!;
            const [t1, s1] = seen[i]!;
            expect(t1 > t0 || (t1 === t0 && s1 > s0)).toBe(true);
          }
        },
      ),
    );
  });

  it('message deliveries (reused event objects) keep their place, payload and source among ordinary events', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.boolean(), fc.nat(3)), { minLength: 1, maxLength: 80 }),
        (plan) => {
          const engine = new Engine(new TraceRecorder());
          const got: string[] = [];
          const expected: Array<{ t: number; i: number; label: string }> = [];
          let next = 0;
          // Each delivered event schedules the next item of the plan (so reused objects are in play).
          const schedule = () => {
            const item = plan[next];
            if (item === undefined) return;
            const [delay, pooled, spawn] = item;
            const label = `${next}:${pooled ? 'm' : 'e'}`;
            const at = engine.nowMs() + delay;
            expected.push({ t: at, i: next, label });
            next++;
            if (pooled) engine.deliverAfter(delay, 'm', 'n', { label, spawn }, `from-${label}`);
            else engine.at(at, 'e', 'n', { label, spawn });
          };
          const onEvent = (ev: SimEvent<{ label: string; spawn: number }>) => {
            got.push(ev.payload.label);
            if (ev.kind === 'm') expect(ev.source).toBe(`from-${ev.payload.label}`);
            for (let k = 0; k < ev.payload.spawn; k++) schedule();
          };
          engine.on('m', onEvent);
          engine.on('e', onEvent);
          schedule();
          engine.run();
          while (next < plan.length) {
            schedule();
            engine.run();
          }
          expected.sort((a, b) => a.t - b.t || a.i - b.i);
          expect(got).toEqual(expected.map((x) => x.label));
        },
      ),
    );
  });

  it('cancelled events are neither delivered nor traced', () => {
    const trace = new TraceRecorder();
    const engine = new Engine(trace);
    const got: string[] = [];
    engine.on('e', (ev: SimEvent) => void got.push(ev.target));
    engine.at(5, 'e', 'a', null);
    const b = engine.at(6, 'e', 'b', null);
    engine.at(7, 'e', 'c', null);
    engine.cancel(b);
    engine.run();
    expect(got).toEqual(['a', 'c']);
    expect(trace.events).toBe(2);
  });

  it('refuses to schedule in the past', () => {
    const engine = new Engine(null);
    engine.on('e', () => {});
    engine.at(10, 'e', '', null);
    engine.run();
    expect(() => engine.at(9, 'e', '', null)).toThrow(/never in the past/);
    expect(() => engine.after(0.5, 'e', '', null)).toThrow(/integer/);
  });

  it('step delivers one event at a time', () => {
    const engine = new Engine(null);
    const got: number[] = [];
    engine.on('e', (ev) => void got.push(ev.timeMs));
    engine.at(3, 'e', '', null);
    engine.at(1, 'e', '', null);
    expect(engine.step()).toBe(true);
    expect(got).toEqual([1]);
    expect(engine.step()).toBe(true);
    expect(engine.step()).toBe(false);
  });
});

describe('bounds stop a runaway with a clear verdict', () => {
  it('max-events: a handler that reschedules itself at the same instant', () => {
    const engine = new Engine(null);
    engine.on('loop', (_ev, e) => void e.after(0, 'loop', '', null));
    engine.at(0, 'loop', '', null);
    const v = engine.run({ maxEvents: 10_000 });
    expect(v).toMatchObject({ reason: 'max-events', events: 10_000, nowMs: 0, runaway: true });
    expect(v.message).toMatch(/runaway: 10000 events delivered by 0 ms/);
  });
  it('max-time: a timer chain that never ends', () => {
    const engine = new Engine(null);
    engine.on('tick', (_ev, e) => void e.after(1000, 'tick', '', null));
    engine.at(0, 'tick', '', null);
    const v = engine.run({ maxTimeMs: 60_000 });
    expect(v).toMatchObject({ reason: 'max-time', runaway: true, nowMs: 60_000 });
    expect(v.message).toMatch(/past the max-time bound of 60000 ms/);
  });
  it('until is a normal end, not a runaway', () => {
    const engine = new Engine(null);
    engine.on('tick', (_ev, e) => void e.after(1000, 'tick', '', null));
    engine.at(0, 'tick', '', null);
    const v = engine.run({ untilMs: 5_500 });
    expect(v).toMatchObject({ reason: 'until', runaway: false, nowMs: 5_500, events: 6 });
  });
  it('stop() from a handler ends the run after that event', () => {
    const engine = new Engine(null);
    engine.on('tick', (ev, e) => {
      if (ev.timeMs === 3000) e.stop('oracle fired');
      e.after(1000, 'tick', '', null);
    });
    engine.at(0, 'tick', '', null);
    expect(engine.run()).toMatchObject({ reason: 'stopped', message: 'oracle fired', nowMs: 3000 });
  });
});

describe('trace hash determinism', () => {
  it('the same seed gives the same trace hash', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), (seed) => {
        const a = runGossipNetwork({ seed, untilMs: 5_000 });
        const b = runGossipNetwork({ seed, untilMs: 5_000 });
        expect(a.traceHash).toBe(b.traceHash);
        expect(a.verdict).toEqual(b.verdict);
      }),
      { numRuns: 20 },
    );
  });
  it('different seeds give different hashes', () => {
    const hashes = new Set<string>();
    for (let seed = 0; seed < 30; seed++) hashes.add(runGossipNetwork({ seed, untilMs: 5_000 }).traceHash);
    expect(hashes.size).toBe(30);
  });
  it('the trace sees every delivered event, and the JSONL sink gets the same lines', () => {
    const trace = new TraceRecorder();
    const lines: string[] = [];
    trace.addSink((l) => lines.push(l));
    const r = runGossipNetwork({ seed: 7, untilMs: 2_000 }, trace);
    expect(trace.events).toBe(r.verdict.events);
    expect(lines).toHaveLength(r.verdict.events);
    for (const l of lines.slice(0, 20)) expect(() => JSON.parse(l)).not.toThrow();
    // Folding is a pure function of the lines: replaying them into a fresh recorder gives the hash.
    const again = new TraceRecorder();
    for (const l of lines) {
      const o = JSON.parse(l);
      again.record({
        timeMs: o.t,
        seq: o.seq,
        kind: o.kind,
        target: o.target,
        data: o.data === undefined ? undefined : JSON.stringify(o.data),
      });
    }
    expect(again.digest()).toBe(r.traceHash);
  });
});
