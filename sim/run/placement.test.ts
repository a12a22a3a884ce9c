/**
 * Placement (issue 5, item 6): the sidechain domain runs inline or in a worker thread, and the run
 * is the same either way. 20 seeds of the default scenario (fast crypto, 90 s simulated): the same
 * trace hash twice inline and once in a worker, the same summary.json bytes in both placements,
 * and a different hash for every seed. Plus the pieces the windows rest on.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../scenario/load';
import { type Scenario } from '../scenario/scenario';
import { runScenario, runScenarioAsync, prepareRun } from './run';
import { summaryJson } from '../report/summary';
import { compareCrossMessages, WindowScheduler } from '../domain/windowScheduler';
import { type CrossMessage, type DomainStatus, type WindowResult } from '../domain/windowProtocol';
import { type RunRecord } from '../core/record';

const UNTIL_MS = 90_000;
const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);
const fast = (s: Scenario): Scenario => ({ ...s, crypto: 'fast' });
const repro = (seed: number) =>
  `repro: ./bin/lockstep.js run --crypto fast --until 90s --seed ${seed} --json --no-trace (and --placement worker)`;

describe('placement: inline and worker runs are the same run', () => {
  const scenario = fast(loadScenario('default').scenario);

  it('20 seeds of the default scenario: same hash twice inline and in a worker, same summary.json; seeds differ', async () => {
    const hashes = new Map<string, number>();
    for (const seed of SEEDS) {
      const a = runScenario(scenario, { seed, untilMs: UNTIL_MS });
      const b = runScenario(scenario, { seed, untilMs: UNTIL_MS });
      const w = await runScenarioAsync(scenario, { seed, untilMs: UNTIL_MS, placement: 'worker' });
      expect(a.verdict, `seed ${seed}: ${a.message}; ${repro(seed)}`).toBe('pass');
      expect(b.traceHash, `seed ${seed}, inline twice; ${repro(seed)}`).toBe(a.traceHash);
      expect(w.traceHash, `seed ${seed}, worker vs inline; ${repro(seed)}`).toBe(a.traceHash);
      expect(w.placement).toBe('worker');
      expect(summaryJson(scenario, w), `seed ${seed}, summary.json; ${repro(seed)}`).toBe(summaryJson(scenario, a));
      expect(
        hashes.get(a.traceHash),
        `seeds ${hashes.get(a.traceHash)} and ${seed} share a trace hash`,
      ).toBeUndefined();
      hashes.set(a.traceHash, seed);
    }
    expect(hashes.size).toBe(SEEDS.length);
  }, 120_000);

  it('the hash covers both domains, and sampling does not move a barrier', () => {
    const a = runScenario(scenario, { seed: 3, untilMs: 30_000 });
    const b = runScenario(scenario, { seed: 3, untilMs: 30_000, sampleEveryMs: 7_000, progressEveryMs: 11_000 });
    expect(b.traceHash).toBe(a.traceHash);
    expect(a.traceDigests.main).not.toBe(a.traceDigests.sidechain);
    expect(a.windows.barriers).toBeGreaterThan(0);
    expect(a.windows.crossMessages).toBeGreaterThan(0);
    // Sidechain data reaches the main thread as plain data, per node.
    expect(Object.keys(a.samples.sidechainHeight)).toEqual(['sc-1', 'sc-2', 'sc-3', 'sc-4', 'sc-5', 'sc-6', 'sc-7']);
    expect(a.samples.sidechainHeight['sc-1']!.length).toBe(a.samples.timeMs.length);
    expect(a.counts.sidechainBlocks).toBeGreaterThan(5);
    expect(a.main.nodes.map((n) => n.id)).toEqual(['svc-1', 'svc-2', 'svc-3', 'svc-4', 'svc-5', 'svc-6', 'svc-7']);
  });

  it('the trace JSONL has both domains, the same lines in both placements', async () => {
    const lines = { inline: [] as string[], worker: [] as string[] };
    await runScenarioAsync(scenario, { seed: 5, untilMs: 20_000, traceSink: (l) => void lines.inline.push(l) });
    await runScenarioAsync(scenario, {
      seed: 5,
      untilMs: 20_000,
      placement: 'worker',
      traceSink: (l) => void lines.worker.push(l),
    });
    expect(lines.worker.length).toBe(lines.inline.length);
    expect(lines.worker.join('\n')).toBe(lines.inline.join('\n'));
    expect(lines.inline.some((l) => l.includes('"target":"sc-1"'))).toBe(true);
    expect(lines.inline.some((l) => l.includes('"target":"svc-1"'))).toBe(true);
  }, 30_000);

  it('records of both domains come out in one time-ordered stream, the same in both placements', async () => {
    const seen = { inline: [] as string[], worker: [] as string[] };
    const opts = (into: string[]) => ({
      seed: 2,
      untilMs: 30_000,
      onRecord: (r: RunRecord) => void into.push(`${r.t} ${r.node} ${r.obs.kind}`),
    });
    const a = await runScenarioAsync(scenario, opts(seen.inline));
    await runScenarioAsync(scenario, { ...opts(seen.worker), placement: 'worker' });
    expect(seen.worker).toEqual(seen.inline);
    const times = seen.inline.map((l) => Number(l.split(' ')[0]));
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect(seen.inline.some((l) => l.includes(' sc-') && l.endsWith('sidechain.produced'))).toBe(true);
    expect(seen.inline.some((l) => l.includes(' svc-') && l.endsWith('service.commit'))).toBe(true);
    expect(a.sidechainRecords.length).toBe(seen.inline.filter((l) => l.split(' ')[1]!.startsWith('sc-')).length);
  }, 30_000);

  it('the sidechain report is plain data: per-node chains, and roots asked with the main state', async () => {
    const query = () => ({
      rootRanges: [
        { start: 1n, end: 8n },
        { start: 1n, end: 100_000n },
      ],
    });
    const a = runScenario(scenario, { seed: 4, untilMs: 40_000, sidechainQuery: query });
    const w = await runScenarioAsync(scenario, {
      seed: 4,
      untilMs: 40_000,
      placement: 'worker',
      sidechainQuery: query,
    });
    expect(w.sidechain).toEqual(a.sidechain);
    expect(a.sidechain.nodes.map((n) => n.node)).toEqual(['sc-1', 'sc-2', 'sc-3', 'sc-4', 'sc-5', 'sc-6', 'sc-7']);
    const best = a.sidechain.nodes.find((n) => n.node === a.sidechain.bestNode)!;
    expect(best.canonical.length).toBe(a.counts.sidechainBlocks);
    expect(best.canonical.filter((b) => b.backup).length).toBe(a.backupBlocks);
    expect(a.sidechain.roots[0]!.root).toMatch(/^0x[0-9a-f]{64}$/);
    expect(a.sidechain.roots[1]!.root).toBeNull();
    // The whole result is plain data: it survives a structured clone (a worker boundary) unchanged.
    expect(structuredClone(a)).toEqual(a);
  }, 30_000);

  it('a run that ends early (runaway bound) ends the same way in both placements', async () => {
    const tight = { ...scenario, maxEvents: 3_000 };
    const a = runScenario(tight, { seed: 6, untilMs: UNTIL_MS });
    const w = await runScenarioAsync(tight, { seed: 6, untilMs: UNTIL_MS, placement: 'worker' });
    expect(a.verdict).toBe('crash');
    expect(a.message).toMatch(/runaway: more than 3000 events/);
    expect(a.engine.runaway).toBe(true);
    expect([w.verdict, w.message, w.traceHash, w.simulatedMs]).toEqual([
      a.verdict,
      a.message,
      a.traceHash,
      a.simulatedMs,
    ]);
  }, 30_000);

  it('the sync entry points are inline only', () => {
    expect(() => prepareRun(scenario, { seed: 1, placement: 'worker' })).toThrow(/prepareRunAsync/);
  });
});

describe('the window scheduler', () => {
  const msg = (deliverAt: number, from: string, seq: number, copy = 0, kind = 'sc.headers'): CrossMessage => ({
    deliverAt,
    from,
    to: 'x',
    seq,
    copy,
    msg: { kind } as never,
  });
  const status = (ranToMs: number, nextRequestMs: number, nextSendMs = nextRequestMs): DomainStatus => ({
    ranToMs,
    nextRequestMs,
    nextSendMs,
    events: 0,
  });
  const result = (s: DomainStatus, outbound: CrossMessage[] = []): WindowResult => ({
    ...s,
    outbound,
    records: [],
    end: null,
    traceLines: null,
  });

  it('orders cross-domain messages by (deliverAt, source, seq, copy)', () => {
    const ms = [
      msg(30, 'svc-2', 1),
      msg(25, 'svc-3', 9),
      msg(30, 'svc-10', 4),
      msg(30, 'svc-2', 1, 1),
      msg(30, 'svc-2', 0),
    ];
    expect(ms.sort(compareCrossMessages).map((m) => `${m.deliverAt}/${m.from}/${m.seq}/${m.copy}`)).toEqual([
      '25/svc-3/9/0',
      '30/svc-10/4/0',
      '30/svc-2/0/0',
      '30/svc-2/1/0',
      '30/svc-2/1/1',
    ]);
  });

  it('windows are L wide around polls and long between them; horizons only grow', () => {
    const L = 20;
    // Both poll at 0: both run [0, 19].
    const w = new WindowScheduler(L, 10_000, 1e9, status(-1, 0), status(-1, 0));
    const p1 = w.next()!;
    expect([p1.main.untilMs, p1.sidechain.untilMs]).toEqual([19, 19]);
    // The sidechain's poll requests reach main at 25; main polls next at 2000, the sidechain at 4000.
    w.complete(result(status(19, 2000)), result(status(19, 4000), [msg(25, 'sc-1', 1, 0, 'svc.getSpan')]));
    const p2 = w.next()!;
    expect(p2.main.inbound).toHaveLength(1);
    // Main answers at 25 (arrives >= 45): the sidechain stops at 44; main may run to 2019 but keeps abreast.
    expect(p2.sidechain.untilMs).toBe(44);
    expect(p2.main.untilMs).toBe(64);
    expect(p2.main.sendFloorMs).toBe(25);
    w.complete(result(status(64, 2000)), result(status(44, 4000)));
    // Nothing in flight: one long window for both, up to the next poll + L.
    const p3 = w.next()!;
    expect(p3.main.untilMs).toBe(2039);
    expect(p3.sidechain.untilMs).toBe(2019);
  });
});
