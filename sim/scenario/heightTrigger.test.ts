/**
 * Height-triggered faults (issue 5, item 4): a fault with `atHeight` fires when the network first
 * reaches that height (the first `service.commit` / `sidechain.imported` record at or past it),
 * at that record's virtual time, inside the domain that watches the height; it is recorded with
 * the height and lasts `for` from there. Both placements run it the same way.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from './load';
import { type Scenario } from './scenario';
import { decodeScenario } from './decodeScenario';
import { encodeScenario } from './encodeScenario';
import { type RunRecord } from '../core/record';
import { runScenarioAsync, type RunResult } from '../run/run';
import { OracleSuite } from '../oracles/suite';
import { faultSilencesProducers } from '../faults/registry';
import { shrinkScenario } from '../campaign/shrink';

/** The smoke network (4 equal validators, fast crypto, short spans) with these faults, no workload. */
function scenarioWith(faults: unknown[], duration: string): Scenario {
  const base = encodeScenario(loadScenario('smoke').scenario);
  return decodeScenario({
    ...base,
    name: 'height-trigger',
    duration,
    faults,
    workload: {},
    expect: { verdict: 'pass' },
  });
}

/** Run inline (keeping every record, in the canonical order) and in a worker; they must agree. */
async function bothPlacements(s: Scenario, seed: number): Promise<{ r: RunResult; records: RunRecord[] }> {
  const records: RunRecord[] = [];
  const r = await runScenarioAsync(s, { seed, onRecord: (x) => void records.push(x) });
  const w = await runScenarioAsync(s, { seed, placement: 'worker' });
  const repro = `seed ${seed}, scenario ${JSON.stringify(encodeScenario(s).faults)}`;
  expect(w.traceHash, `worker vs inline: ${repro}`).toBe(r.traceHash);
  expect(w.faultsFired, `worker vs inline: ${repro}`).toEqual(r.faultsFired);
  expect(r.verdict, `${r.message}; ${repro}`).toBe('pass');
  return { r, records };
}

const heightOf = (x: RunRecord): number =>
  Number(
    x.obs.kind === 'service.commit' ? x.obs.height : x.obs.kind === 'sidechain.imported' ? x.obs.block.number : -1n,
  );
const faultIndex = (x: RunRecord): number | null =>
  x.obs.kind === 'fault.start' || x.obs.kind === 'fault.end' ? x.obs.index : null;

describe('height-triggered faults', () => {
  it('a service height crashes a service validator right after the first commit of that height; a pause lasts `for` from its height', async () => {
    const s = scenarioWith(
      [
        { kind: 'crash', node: 'svc-2', atHeight: { service: 20 }, for: '20s' },
        { kind: 'pause', node: 'svc-3', atHeight: { service: 30 }, for: '10s' },
        { kind: 'crash', node: 'svc-4', atHeight: { service: 100_000 } },
      ],
      '100s',
    );
    const { r, records } = await bothPlacements(s, 3);
    // The unreachable height never fires (and a campaign's ledger would report it as never firing).
    expect(r.faultsFired.map((f) => f.index)).toEqual([0, 1]);
    for (const [i, height, node, forMs] of [
      [0, 20, 'svc-2', 20_000],
      [1, 30, 'svc-3', 10_000],
    ] as const) {
      const fired = r.faultsFired.find((f) => f.index === i)!;
      const firstCommit = records.find((x) => x.obs.kind === 'service.commit' && heightOf(x) >= height)!;
      expect(heightOf(firstCommit)).toBe(height);
      // It fires at the virtual time of that commit, after it (in the record stream), and names it.
      expect(fired.atMs).toBe(firstCommit.t);
      expect(fired.atHeight).toEqual({ chain: 'service', height, node: firstCommit.node });
      expect(fired.detail).toBe(`${node}; at service height ${height} (${firstCommit.node})`);
      const start = records.findIndex((x) => x.obs.kind === 'fault.start' && faultIndex(x) === i);
      expect(start).toBeGreaterThan(records.indexOf(firstCommit));
      expect(records[start]!.t).toBe(fired.atMs);
      expect(records.find((x) => x.obs.kind === 'fault.end' && faultIndex(x) === i)!.t).toBe(fired.atMs + forMs);
      // The node does nothing while the fault lasts, and commits again after it.
      const own = records.filter((x) => x.node === node && x.obs.kind === 'service.commit');
      expect(own.filter((x) => x.t > fired.atMs && x.t < fired.atMs + forMs)).toEqual([]);
      expect(own.some((x) => x.t > fired.atMs + forMs)).toBe(true);
    }
  }, 60_000);

  it('a sidechain height takes a producer offline right after the first import of that block number; backups step in', async () => {
    const s = scenarioWith(
      [
        { kind: 'offlineProducer', validator: 2, atHeight: { sidechain: 16 }, for: '40s' },
        { kind: 'offlineProducer', validator: 'inTurn', atHeight: { sidechain: 100_000 }, for: '10s' },
      ],
      '100s',
    );
    const { r, records } = await bothPlacements(s, 2);
    expect(r.faultsFired).toHaveLength(1);
    const fired = r.faultsFired[0]!;
    const firstImport = records.find((x) => x.obs.kind === 'sidechain.imported' && heightOf(x) >= 16)!;
    expect(heightOf(firstImport)).toBe(16);
    expect(fired).toMatchObject({
      index: 0,
      kind: 'offlineProducer',
      atMs: firstImport.t,
      atHeight: { chain: 'sidechain', height: 16, node: firstImport.node },
    });
    expect(records.findIndex((x) => x.obs.kind === 'fault.start')).toBeGreaterThan(records.indexOf(firstImport));
    // sc-2 seals nothing while offline (the block it imported at the trigger's instant may be its own), and seals again after.
    const produced = records.filter((x) => x.node === 'sc-2' && x.obs.kind === 'sidechain.produced');
    expect(produced.filter((x) => x.t > fired.atMs && x.t < fired.atMs + 40_000)).toEqual([]);
    expect(produced.some((x) => x.t > fired.atMs + 40_000)).toBe(true);
    expect(r.backupBlocks).toBeGreaterThan(0);
  }, 60_000);

  it('the silent-window excuse of the backup oracle starts when a height-triggered sidechain fault fired', () => {
    const s = scenarioWith([{ kind: 'crash', node: 'sc-1', atHeight: { sidechain: 10 }, for: '20s' }], '60s');
    const suite = new OracleSuite(s, undefined, faultSilencesProducers);
    expect(suite.silentWindows()).toEqual([]);
    suite.observe({
      t: 33_000,
      node: '',
      obs: { kind: 'fault.start', index: 0, fault: 'crash', detail: 'sc-1', permanent: false, atHeight: null },
    });
    const at = BigInt(Math.floor((s.epochMs + 33_000) / 1000));
    expect(suite.silentWindows()).toEqual([[at, at + 20n + 30n]]);
  });

  it('shrinking keeps or drops a height fault like any other', () => {
    const s = scenarioWith(
      [
        { kind: 'crash', node: 'svc-1', at: '10s', for: '5s' },
        { kind: 'crash', node: 'svc-2', atHeight: { service: 30 }, for: '5s' },
        { kind: 'offlineProducer', validator: 1, atHeight: { sidechain: 30 } },
      ],
      '200s',
    );
    const check = (x: Scenario) => (x.faults.some((f) => f.atHeight?.chain === 'service') ? 'planted' : null);
    const { scenario } = shrinkScenario(s, 'planted', check);
    expect(scenario.faults).toEqual([s.faults[1]]);
    expect(decodeScenario(JSON.parse(JSON.stringify(encodeScenario(scenario))))).toEqual(scenario);
  });
});
