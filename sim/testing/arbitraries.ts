/**
 * fast-check arbitraries for whole networks: fault schedules, network and workload knobs,
 * parameters and whole scenarios, for property tests that run the simulator (`lockstep/sim`
 * exports them as `arbitraries`). Each builds the scenario file's own form and the scenario
 * decoder checks it, so every value is a scenario a file could hold. Shrinking goes toward the
 * simple: fewer faults, earlier and shorter ones, a calm network, no workload, the first choice of
 * every parameter list — so a failing property ends on a small scenario, which
 * `counterexampleFile` (networkProperty.ts) writes out as a scenario file.
 *
 *   const s = arbitraries.scenario({ base: 'smoke', durationMs: 180_000,
 *     faults: { kinds: ['crash', 'isolateProducer'], maxFaults: 2 } });
 *   fc.assert(fc.property(s, (scenario) => runScenario(scenario, { seed: scenario.seed ?? 1 }).verdict === 'pass'));
 */
import fc from 'fast-check';
import { durationText } from '../../src/core/duration';
import { type ByzantineTx, BYZANTINE_TXS } from '../faults/byzantineTxs';
import { loadScenario } from '../scenario/load';
import { type FaultKind, type Scenario } from '../scenario/scenario';
import { decodeScenario } from '../scenario/decodeScenario';
import { encodeScenario } from '../scenario/encodeScenario';

type Json = Record<string, unknown>;

/** The fault kinds the arbitraries draw (the Byzantine coalitions are left to the swarm profiles). */
export const ARBITRARY_FAULT_KINDS = [
  'crash',
  'pause',
  'partition',
  'link',
  'clockSkew',
  'offlineProducer',
  'slowProducer',
  'isolateProducer',
  'equivocatingProducer',
  'earlySeal',
  'offlineCheckpointProposer',
  'byzantineTxs',
  'outsiderBlocks',
  'doubleSign',
] as const satisfies readonly FaultKind[];
export type ArbitraryFaultKind = (typeof ARBITRARY_FAULT_KINDS)[number];

/** Faults of honest nodes that fail or are cut off (the default): no Byzantine behaviour. */
export const BENIGN_FAULT_KINDS: readonly ArbitraryFaultKind[] = [
  'crash',
  'pause',
  'partition',
  'link',
  'offlineProducer',
  'slowProducer',
  'isolateProducer',
  'offlineCheckpointProposer',
];

export interface FaultScheduleOptions {
  /** Validators of the scenario (node ids and indexes are drawn within it). */
  validators: number;
  /** The run's length: a fault starts in its first 90%. */
  durationMs: number;
  /** The kinds to draw from, in shrinking order (default BENIGN_FAULT_KINDS). */
  kinds?: readonly ArbitraryFaultKind[];
  minFaults?: number;
  /** At most this many faults (default 3). */
  maxFaults?: number;
  /** The longest a fault lasts (default a third of the run); some last to the end. */
  maxForMs?: number;
  /** What a `byzantineTxs` sender may send (default all). */
  byzantineTxs?: readonly ByzantineTx[];
  /**
   * Kinds every schedule holds once, first (a property about a rule family keeps the fault that
   * exercises it); their timing and fields are drawn and shrunk like the rest.
   */
  always?: readonly ArbitraryFaultKind[];
}

const ms = (n: number) => durationText(n);
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** Start and length: start in steps of 1/40 of the run (shrinks to the start), length 5 s steps (shrinks short). */
function timing(o: FaultScheduleOptions): fc.Arbitrary<Json> {
  const maxFor = Math.max(5_000, o.maxForMs ?? Math.floor(o.durationMs / 3));
  return fc
    .record({
      at: fc.integer({ min: 0, max: 35 }),
      forSteps: fc.option(fc.integer({ min: 1, max: Math.max(1, Math.floor(maxFor / 5_000)) }), { freq: 6, nil: null }),
    })
    .map(({ at, forSteps }) => ({
      at: ms(Math.floor((at * o.durationMs) / 40 / 1000) * 1000),
      ...(forSteps === null ? {} : { for: ms(forSteps * 5_000) }),
    }));
}

/** One fault kind's own fields, in the file's form. */
function fields(kind: ArbitraryFaultKind, o: FaultScheduleOptions): fc.Arbitrary<Json> {
  const n = o.validators;
  const validator = fc.integer({ min: 1, max: n });
  const producer = fc.oneof(fc.constant<'inTurn' | number>('inTurn'), validator);
  const node = fc.oneof(
    validator.map((v) => `svc-${v}`),
    validator.map((v) => `sc-${v}`),
    fc.constant('parent'),
  );
  const side = fc.constantFrom('svc', 'sc');
  /** A non-empty proper subset of one side's nodes, and the rest. */
  const split = side.chain((s) =>
    fc.subarray(range(n), { minLength: 1, maxLength: Math.max(1, n - 1) }).map((left) => [
      left.map((v) => `${s}-${v}`),
      range(n)
        .filter((v) => !left.includes(v))
        .map((v) => `${s}-${v}`),
    ]),
  );
  switch (kind) {
    case 'crash':
    case 'pause':
      return node.map((x) => ({ node: x }));
    case 'partition':
      return split.map((groups) => ({ groups }));
    case 'link':
      return fc
        .record({ g: split, loss: fc.constantFrom(0.1, 0.3, 0.6, 1), latencyMs: fc.constantFrom(100, 400, 1500) })
        .map(({ g, loss, latencyMs }) => ({
          from: g[0],
          to: g[1],
          link: { loss, latency: [ms(latencyMs), ms(latencyMs * 2)] },
        }));
    case 'clockSkew':
      return fc
        .record({ v: validator, skewS: fc.integer({ min: -4, max: 4 }).filter((x) => x !== 0) })
        .map(({ v, skewS }) => ({ node: `sc-${v}`, skew: `${skewS < 0 ? '-' : ''}${Math.abs(skewS)}s` }));
    case 'offlineProducer':
    case 'isolateProducer':
    case 'equivocatingProducer':
    case 'earlySeal':
      return producer.map((v) => ({ validator: v }));
    case 'slowProducer':
      return fc.record({ validator: producer, delayS: fc.integer({ min: 1, max: 12 }) });
    case 'offlineCheckpointProposer':
      return fc.constant({});
    case 'byzantineTxs':
      return fc.record({
        validator,
        txs: fc.subarray([...(o.byzantineTxs ?? BYZANTINE_TXS)], { minLength: 1 }),
        everyBlocks: fc.integer({ min: 1, max: 8 }),
      });
    case 'outsiderBlocks':
      return fc.record({ everyBlocks: fc.integer({ min: 1, max: 16 }) });
    case 'doubleSign':
      // One validator of several: a quarter of the power or less in the usual sets.
      return validator.map((v) => ({ validator: v }));
  }
}

/** A fault schedule in the scenario file's form (`faults`), each entry with `kind`, `at`, `for` and its fields. */
export function faultScheduleJson(o: FaultScheduleOptions): fc.Arbitrary<Json[]> {
  const kinds = o.kinds ?? BENIGN_FAULT_KINDS;
  const one = fc.oneof(
    ...kinds.map((kind) => fc.tuple(timing(o), fields(kind, o)).map(([t, f]) => ({ kind, ...t, ...f }))),
  );
  const always = (o.always ?? []).map((kind) =>
    fc.tuple(timing(o), fields(kind, o)).map(([t, f]) => ({ kind, ...t, ...f })),
  );
  return fc
    .tuple(fc.tuple(...always), fc.array(one, { minLength: o.minFaults ?? 0, maxLength: o.maxFaults ?? 3 }))
    .map(([fixed, rest]) => [...fixed, ...rest]);
}

export interface NetworkOptions {
  /** The highest loss probability drawn (default 0.05). */
  maxLoss?: number;
  /** The highest extra latency spread, ms (default 200). */
  maxSpreadMs?: number;
}

/** The default link model (`network`), file form: latency, loss, duplication, reordering; shrinks to 20–80 ms, no loss. */
export function networkJson(o: NetworkOptions = {}): fc.Arbitrary<Json> {
  const maxLoss = o.maxLoss ?? 0.05;
  return fc
    .record({
      minMs: fc.integer({ min: 20, max: 60 }),
      spreadMs: fc.integer({ min: 60, max: Math.max(60, o.maxSpreadMs ?? 200) }),
      loss: fc.integer({ min: 0, max: 100 }).map((k) => Math.round(((k * maxLoss) / 100) * 1e4) / 1e4),
      duplicate: fc.constantFrom(0, 0.01, 0.05),
      reorder: fc.constantFrom(0, 0.05, 0.2),
    })
    .map((k) => ({
      latency: [ms(k.minMs), ms(k.minMs + k.spreadMs)],
      loss: k.loss,
      duplicate: k.duplicate,
      reorder: k.reorder,
      reorderMax: k.reorder ? '300ms' : '0s',
    }));
}

/** What the client does (`workload`), file form; shrinks to nothing. */
export function workloadJson(o: { validators: number; durationMs: number }): fc.Arbitrary<Json> {
  const at = fc.integer({ min: 1, max: 20 }).map((k) => ms(Math.floor((k * o.durationMs) / 40 / 1000) * 1000));
  return fc
    .record({
      transfers: fc.option(fc.constantFrom('5s', '10s', '20s'), { nil: null }),
      topups: fc.array(
        fc.record({
          at,
          validator: fc.integer({ min: 1, max: o.validators }),
          amount: fc.integer({ min: 1, max: 100 }),
        }),
        { maxLength: 2 },
      ),
      stateSyncs: fc.array(fc.record({ at, count: fc.integer({ min: 1, max: 5 }) }), { maxLength: 2 }),
      sidechainTxs: fc.option(fc.constantFrom('3s', '10s'), { nil: null }),
    })
    .map((w) => ({
      ...(w.transfers ? { transfers: { every: w.transfers } } : {}),
      ...(w.topups.length ? { topups: w.topups } : {}),
      ...(w.stateSyncs.length ? { stateSyncs: w.stateSyncs } : {}),
      ...(w.sidechainTxs ? { sidechainTxs: { every: w.sidechainTxs } } : {}),
    }));
}

/**
 * Parameters to vary, each a list of values in the scenario file's form (the first is where
 * shrinking goes), e.g. `{ checkpointBufferTime: ['60s', '3m'], producerDelayS: [4, 6] }`.
 */
export type ParamChoices = Record<string, readonly unknown[]>;

export function paramsJson(choices: ParamChoices): fc.Arbitrary<Json> {
  const entries = Object.entries(choices).filter(([, v]) => v.length > 0);
  return fc.record(Object.fromEntries(entries.map(([k, v]) => [k, fc.constantFrom(...v)]))) as fc.Arbitrary<Json>;
}

export interface ScenarioOptions {
  /** The scenario to vary: a name under scenarios/, a file, or a Scenario (default `smoke`). */
  base?: string | Scenario;
  /** Simulated time of each run (default the base's). */
  durationMs?: number;
  /** The fault schedule (default: none drawn, the base's kept); `validators` and `durationMs` come from the scenario. */
  faults?: Omit<FaultScheduleOptions, 'validators' | 'durationMs'>;
  /** Draw the network's link model (default: keep the base's). */
  network?: boolean | NetworkOptions;
  /** Draw a workload (default: keep the base's). */
  workload?: boolean;
  /** Parameters to vary (default: none). */
  params?: ParamChoices;
  /** The run seed, written as the scenario's `seed` (default 1 to 1000; shrinks to 1). */
  seeds?: fc.Arbitrary<number>;
}

function baseJson(base: ScenarioOptions['base']): Json {
  const s = base === undefined || typeof base === 'string' ? loadScenario(base ?? 'smoke').scenario : base;
  return encodeScenario(s);
}

/**
 * Whole scenarios: the base with the drawn fault schedule, network, workload and parameters,
 * decoded as a scenario file (so always valid) and carrying its run seed in `seed`. The base's
 * expectations are dropped (a property says what must hold); its name stays.
 */
export function scenario(o: ScenarioOptions = {}): fc.Arbitrary<Scenario> {
  const base = baseJson(o.base);
  const validators = (base.validators as unknown[]).length;
  const durationMs = o.durationMs ?? decodeScenario(base).durationMs;
  const faults = o.faults ? faultScheduleJson({ ...o.faults, validators, durationMs }) : fc.constant(null);
  const network = o.network ? networkJson(o.network === true ? {} : o.network) : fc.constant(null);
  const workload = o.workload ? workloadJson({ validators, durationMs }) : fc.constant(null);
  const params = o.params ? paramsJson(o.params) : fc.constant({});
  const seeds = o.seeds ?? fc.integer({ min: 1, max: 1000 });
  return fc.record({ faults, network, workload, params, seed: seeds }).map((d) =>
    decodeScenario({
      ...base,
      duration: ms(durationMs),
      params: { ...(base.params as Json), ...d.params },
      ...(d.faults ? { faults: d.faults } : {}),
      ...(d.network ? { network: d.network } : {}),
      ...(d.workload ? { workload: d.workload } : {}),
      expect: { verdict: 'pass' },
      seed: d.seed,
    }),
  );
}

/** The same arbitraries decoded: a fault schedule as a scenario's `faults` (for a set of `validators`). */
export function faultSchedule(o: FaultScheduleOptions): fc.Arbitrary<Scenario['faults']> {
  const validators = range(o.validators).map(() => ({ stake: 100 }));
  return faultScheduleJson(o).map(
    (faults) => decodeScenario({ name: 'f', validators, duration: ms(o.durationMs), faults }).faults,
  );
}

export function network(o: NetworkOptions = {}): fc.Arbitrary<Scenario['network']> {
  return networkJson(o).map((network) => decodeScenario({ name: 'n', validators: [{ stake: 1 }], network }).network);
}

export function workload(o: { validators: number; durationMs: number }): fc.Arbitrary<Scenario['workload']> {
  const validators = range(o.validators).map(() => ({ stake: 1 }));
  return workloadJson(o).map(
    (w) => decodeScenario({ name: 'w', validators, duration: ms(o.durationMs), workload: w }).workload,
  );
}
