/**
 * The suite hands a record only to the oracles that declare its kind (`Oracle.reads`, suite.ts).
 * Two checks keep those declarations true:
 *
 *  - an oracle reads nothing of a record of a kind it does not declare: replaying real runs into
 *    the suite's oracles, each is offered, again and again as its state grows, a record of every
 *    kind it does not declare whose every field but the kind throws when read (the record's time
 *    and node too). An oracle that forgot a kind it uses fails here, naming the kind and the field;
 *  - routing changes no judgment: the same records through the routed suite and through one that
 *    offers every record to every oracle give every oracle the same rules exercised and the same
 *    violation, before and after the end-of-run checks.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../scenario/load';
import { runScenario } from '../run/run';
import { runSetup } from '../domain/runSetup';
import { oracleTimings } from '../domain/oracleTimings';
import { faultSilencesProducers } from '../faults/registry';
import { fastKeyOf } from '../../src/core/signatureScheme';
import { type Scenario } from '../scenario/scenario';
import { type Hex } from '../../src/core/bytes';
import { type Oracle, type RecordKind, type RunRecord } from './oracle';
import { type FinalFacts, OracleSuite } from './suite';

/** Every kind of record (the type check holds the list complete: a kind missing or unknown fails it). */
const KINDS: { readonly [K in RecordKind]: null } = {
  'parent.block': null,
  'parent.callFailed': null,
  'service.genesis': null,
  'service.genesisDocument': null,
  'service.started': null,
  'service.commit': null,
  'service.synced': null,
  'service.query': null,
  'side.vote': null,
  'consensus.proposal': null,
  'consensus.vote': null,
  'consensus.evidence': null,
  'bridge.parentCall': null,
  'bridge.tx': null,
  'side.voteRead': null,
  'consensus.round': null,
  'consensus.setChange': null,
  'sidechain.started': null,
  'sidechain.produced': null,
  'sidechain.imported': null,
  'sidechain.rejected': null,
  'sidechain.query': null,
  'sidechain.tx': null,
  'sidechain.equivocated': null,
  'sidechain.reorg': null,
  'sidechain.finalized': null,
  'sidechain.checkpointFork': null,
  'sidechain.checkpointMismatch': null,
  'sidechain.setHead': null,
  'fault.start': null,
  'fault.end': null,
  'workload.topup': null,
  'workload.stateSync': null,
  'workload.stakeUpdate': null,
  'workload.join': null,
  'workload.exit': null,
  'workload.signerChange': null,
  'workload.withdrawal': null,
  'byzantine.tx': null,
  'byzantine.block': null,
};
const ALL_KINDS = Object.keys(KINDS) as RecordKind[];

/** Scenarios whose first minutes make most kinds of record, with the duration replayed (ms). */
const RUNS: Array<[string, number]> = [
  ['every-message', 300_000],
  ['checkpoint-minority-fork', 300_000],
  ['operator-console', 240_000],
  ['bft-double-sign', 180_000],
  ['equivocating-producer', 180_000],
  ['early-seal', 180_000],
];

/** A suite as the run builds it (sim/run/windowLoop.ts), for `scenario` and `seed`. */
function suiteFor(scenario: Scenario, seed: number, Suite: typeof OracleSuite = OracleSuite): OracleSuite {
  const setup = runSetup(scenario, seed);
  return new Suite(
    scenario,
    (i) => {
      const k = setup.keys[i - 1];
      return k ? [k.signer, ...setup.rotationKeys[i - 1]!.map((r) => r.signer)] : [];
    },
    faultSilencesProducers,
    fastKeyOf,
    oracleTimings(scenario),
  );
}

/** A suite that offers every record to every oracle (what the suite did before it routed). */
class UnroutedSuite extends OracleSuite {
  protected override offer(r: RunRecord): void {
    for (const oracle of this.oracles) oracle.observe(r);
  }
}

function recordsOf(name: string, untilMs: number): { scenario: Scenario; records: RunRecord[] } {
  const scenario = { ...loadScenario(name).scenario, crypto: 'fast' as const };
  const records: RunRecord[] = [];
  runScenario(scenario, { seed: 1, untilMs, onRecord: (r) => void records.push(r) });
  return { scenario, records };
}

/** A record of `kind` any of whose other fields throws when read, naming what was read. */
function untouchable(kind: RecordKind): RunRecord {
  const refuse = (what: string) => () => {
    throw new Error(`read ${what} of a ${kind} record`);
  };
  const obs = new Proxy(
    {},
    {
      get: (_t, p) => (p === 'kind' ? kind : refuse(`obs.${String(p)}`)()),
      has: (_t, p) => refuse(`'${String(p)}' in obs`)(),
      ownKeys: refuse('the keys of obs'),
      getOwnPropertyDescriptor: (_t, p) => refuse(`obs.${String(p)}`)(),
    },
  );
  return new Proxy({} as RunRecord, {
    get: (_t, p) => (p === 'obs' ? obs : refuse(String(p))()),
    has: (_t, p) => refuse(`'${String(p)}' in the record`)(),
    ownKeys: refuse('the keys of the record'),
    getOwnPropertyDescriptor: (_t, p) => refuse(String(p))(),
  });
}

/** Offer `o` a record of every kind it does not read; what it touched, or null. */
function touchesUndeclared(o: Oracle): string | null {
  const reads = new Set<string>(o.reads);
  for (const kind of ALL_KINDS) {
    if (reads.has(kind)) continue;
    try {
      o.observe(untouchable(kind));
    } catch (e) {
      return `oracle ${o.name} ${(e as Error).message}, a kind it does not declare in reads`;
    }
  }
  return null;
}

/** The final facts a run would give, from its records: each sidechain node's last reported head. */
function finalFacts(records: RunRecord[], suite: OracleSuite): FinalFacts {
  const heads = new Map<string, { headHash: Hex; headNumber: bigint }>();
  for (const r of records) {
    const o = r.obs;
    if (o.kind === 'sidechain.imported' || o.kind === 'sidechain.started')
      heads.set(r.node, { headHash: o.head.hash, headNumber: o.head.number });
  }
  return {
    endMs: records[records.length - 1]?.t ?? 0,
    sidechains: [...heads].map(([node, h]) => ({ node, ...h })),
    silentWindows: suite.silentWindows(),
  };
}

function judgments(suite: OracleSuite): unknown[] {
  return suite.oracles.map((o) => ({ oracle: o.name, exercised: [...o.exercised].sort(), violation: o.violation }));
}

describe('record routing', () => {
  it('lists every kind a run records', () => {
    const { records } = recordsOf('every-message', 120_000);
    for (const r of records) expect(ALL_KINDS).toContain(r.obs.kind);
  });

  it('every oracle declares every kind of record it reads', { timeout: 120_000 }, () => {
    for (const [name, untilMs] of RUNS) {
      const { scenario, records } = recordsOf(name, untilMs);
      const suite = suiteFor(scenario, 1);
      for (const o of suite.oracles) expect(touchesUndeclared(o), name).toBeNull();
      records.forEach((r, i) => {
        suite.observe(r);
        // Offered again and again as the oracles' state grows (an oracle may look at more once it started).
        if (i % 997 === 0 || i === records.length - 1)
          for (const o of suite.oracles) expect(touchesUndeclared(o), `${name}, after record ${i}`).toBeNull();
      });
    }
  });

  it('routing changes no oracle judgment', { timeout: 120_000 }, () => {
    for (const [name, untilMs] of RUNS) {
      const { scenario, records } = recordsOf(name, untilMs);
      const routed = suiteFor(scenario, 1);
      const everyRecord = suiteFor(scenario, 1, UnroutedSuite);
      for (const r of records) {
        routed.observe(r);
        everyRecord.observe(r);
      }
      expect(judgments(routed), name).toEqual(judgments(everyRecord));
      routed.finish(finalFacts(records, routed));
      everyRecord.finish(finalFacts(records, everyRecord));
      expect(judgments(routed), `${name}, after the end-of-run checks`).toEqual(judgments(everyRecord));
      expect(routed.exercised().length, name).toBeGreaterThan(0);
    }
  });
});
