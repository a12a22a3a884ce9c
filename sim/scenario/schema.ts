/**
 * The scenario file's JSON Schema, in one place: the decoder validates every file with it (ajv)
 * before converting it (durations, amounts) and checking what a schema cannot say (node ids that
 * exist, validator indexes within the set, multiples of the sprint, a fault that starts before
 * the end); `scenarios/scenario.schema.json` is this schema written out for editors (`npm run
 * schema` writes it; a test fails when it is stale). Each fault kind brings its own fields' schema
 * from its file in sim/faults/.
 *
 * The annotations `x-message` and `x-code` (schemaParts.ts) word errors as a person reads them;
 * they are left out of the written file.
 */
import { PLANT_NAMES } from '../../src/core/plants';
import { FAULT_KINDS, MAX_TRIGGER_ROUND, faultDef } from '../faults/registry';
import { balanceOverrideSchema } from './balanceOverrides';
import { BUGGIFY_SCHEMA } from './buggify';
import {
  DURATION,
  LINK,
  MAX_DEV_ACCOUNTS,
  MAX_VALIDATORS,
  type Schema,
  UINT,
  VALIDATOR_INDEX,
  int,
  object,
} from '../core/schemaParts';

/**
 * A compact set's stakes: one stake for all, or a seeded distribution (stakeDistribution.ts; which
 * fields go with which distribution, and their bounds, the decoder checks).
 */
const STAKES: Schema = {
  anyOf: [
    UINT,
    object({
      distribution: { enum: ['pareto', 'uniform', 'weights'], description: 'default pareto' },
      alpha: { type: 'number', description: 'pareto: the shape (default 1.16)' },
      min: UINT,
      max: UINT,
      seed: int(0),
      weights: { type: 'array', items: UINT, description: 'weights: one per validator' },
      total: UINT,
    }),
  ],
  'x-code': true,
};

/** The validator set: a list, or a count and a stake distribution (the decoder words its errors). */
const VALIDATORS: Schema = {
  description: 'a list of validators, or {"count": N, "stake": ...} for a large set',
  anyOf: [
    {
      type: 'array',
      minItems: 1,
      maxItems: MAX_VALIDATORS,
      items: object({ stake: UINT, balance: UINT }, ['stake']),
    },
    object({ count: int(1, MAX_VALIDATORS), stake: STAKES, balance: UINT }, ['count']),
  ],
  'x-code': true,
};

const HEIGHT_TRIGGER: Schema = {
  ...object({
    service: int(1, undefined, 'the first commit of this service height fires the fault'),
    sidechain: int(1, undefined, 'the first import of this sidechain block number fires the fault'),
  }),
  minProperties: 1,
  maxProperties: 1,
  'x-message': 'expected exactly one of service, sidechain with a height, e.g. {"service": 120}, got {n} fields',
};

/** Every fault: its kind, when it fires and how long it lasts, and exactly its kind's own fields. */
function faultSchema(): Schema {
  return {
    type: 'object',
    description: 'a fault: kind, at (and atRound) or atHeight, for, and the fields of its kind',
    discriminator: { propertyName: 'kind' },
    oneOf: FAULT_KINDS.map((kind) => {
      const def = faultDef(kind);
      return {
        ...object(
          {
            kind: { const: kind, description: def.summary },
            at: DURATION,
            atHeight: HEIGHT_TRIGGER,
            atRound: int(
              1,
              MAX_TRIGGER_ROUND,
              'with at: fires at the first moment from at on that a service node enters a consensus round of at least this number',
            ),
            for: DURATION,
            ...(def.schema.properties as Record<string, Schema>),
          },
          ['kind', ...(def.schema.required ?? [])],
        ),
      };
    }),
  };
}

/** The parameters, in the decoder's order (an unknown one's error lists them so). */
const PARAMS: Record<string, Schema> = {
  producerCount: int(1, MAX_VALIDATORS),
  sprint: int(1, 4096),
  spanDuration: int(1),
  firstSpanDuration: int(1),
  checkpointLength: int(2, 1024),
  sidechainConfirmations: int(0, 1000),
  parentConfirmations: int(0, 1000),
  periodS: int(1, 3600),
  producerDelayS: int(0, 3600),
  backupMultiplierS: int(0, 3600),
  stateSyncDelayS: int(0, 86400),
  validatorSlots: int(1, 1000),
  jitter: { type: 'boolean' },
  sendEnabled: { type: 'boolean', description: "the bank module's sendenabled at genesis (default true)" },
  sidechainDevAccounts: int(
    0,
    MAX_DEV_ACCOUNTS,
    'sidechain accounts funded at genesis that no workload signs with (default none)',
  ),
  checkpointBufferTime: DURATION,
  parentBlockTime: DURATION,
  commitTimeout: DURATION,
  relayDelayPerRank: DURATION,
};

const COUNTS = [
  'serviceBlocks',
  'sidechainBlocks',
  'spans',
  'checkpointsAcked',
  'noAcks',
  'reorgs',
  'sidechainTransfers',
];
/** Counts by name (message types, Byzantine kinds): the decoder checks the names and words the error. */
const NAMED_COUNTS = (what: string): Schema => ({
  type: 'object',
  additionalProperties: int(0),
  description: `counts by ${what}`,
  'x-code': true,
});
const MESSAGE_COUNTS = {
  delivered: NAMED_COUNTS('message type: transactions committed blocks delivered'),
  accepted: NAMED_COUNTS('message type: accepted (a side message once its side-tx result is in)'),
  refused: NAMED_COUNTS('message type: refused with any code'),
};
const counts = (extra: string[], more: Record<string, Schema> = {}) =>
  object({ ...Object.fromEntries([...COUNTS, ...extra].map((k) => [k, int(0)])), ...MESSAGE_COUNTS, ...more });

const list = (item: Schema): Schema => ({ type: 'array', items: item });

/** Bounds on metrics by name (sim/metrics/metrics.ts): the decoder checks the names and words the error. */
const METRIC_BOUNDS: Schema = {
  type: 'object',
  additionalProperties: { type: 'number' },
  description: 'metric names (docs/SWEEPS.md) to bounds, e.g. {"reorgDepthHealthy": 10}',
  'x-code': true,
};

/** Every workload list item may repeat: `repeat` times, `every` apart (default: all at once). */
const REPEATS: Record<string, Schema> = {
  repeat: int(1, 100, 'how many times in all (default 1)'),
  every: { ...DURATION, description: 'the time between repeats (default 0: all at once)' },
};

/** The whole scenario file. */
export function scenarioSchema(): Schema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Lockstep scenario',
    description:
      'A Lockstep scenario: validators and stakes, parameters, the network model, a fault schedule, a workload, run bounds and expectations (scenarios/README.md).',
    ...object(
      {
        $schema: { type: 'string' },
        name: {
          type: 'string',
          pattern: '^[a-z0-9][a-z0-9._-]*$',
          'x-message': "use lower-case letters, digits, '.', '_' or '-', got {got}",
        },
        description: { type: 'string' },
        crypto: { enum: ['fast', 'real'], 'x-message': 'expected "real" or "fast", got {got}' },
        duration: DURATION,
        maxEvents: int(1),
        epoch: int(0, undefined, 'Unix-epoch ms the virtual clock starts at'),
        validators: VALIDATORS,
        params: object(PARAMS),
        network: LINK,
        faults: list(faultSchema()),
        workload: object({
          transfers: object({ every: DURATION, amountWei: UINT }, ['every']),
          multiSends: object({ every: DURATION, outputs: int(1, 50), amountWei: UINT }, ['every']),
          topups: list(
            object({ at: DURATION, validator: VALIDATOR_INDEX, amount: UINT, ...REPEATS }, ['at', 'validator']),
          ),
          withdrawals: list(
            object({ at: DURATION, validator: VALIDATOR_INDEX, amount: UINT, ...REPEATS }, ['at', 'validator']),
          ),
          stateSyncs: list(object({ at: DURATION, count: int(1, 1000), ...REPEATS }, ['at'])),
          stakeUpdates: list(
            object({ at: DURATION, validator: VALIDATOR_INDEX, amount: UINT, ...REPEATS }, [
              'at',
              'validator',
              'amount',
            ]),
          ),
          joins: list(object({ at: DURATION, stake: UINT, ...REPEATS }, ['at', 'stake'])),
          exits: list(object({ at: DURATION, validator: VALIDATOR_INDEX, ...REPEATS }, ['at', 'validator'])),
          balanceOverrides: list(balanceOverrideSchema(REPEATS)),
          signerChanges: list(object({ at: DURATION, validator: VALIDATOR_INDEX, ...REPEATS }, ['at', 'validator'])),
          sidechainTxs: object({ every: DURATION, fastSignedEvery: DURATION, probeEvery: DURATION }, ['every']),
        }),
        expect: object({
          verdict: {
            enum: ['pass', 'safety', 'liveness', 'crash'],
            'x-message': 'expected pass, safety, liveness or crash, got {got}',
          },
          oracle: { type: 'string', description: 'the oracle that must fire first (failing scenarios)' },
          min: counts(['backupBlocks'], {
            byzantine: NAMED_COUNTS(
              'Byzantine kind: its txs its own blocks delivered, refused with the reference code',
            ),
          }),
          max: counts(['reorgDepth']),
          metrics: object({ min: METRIC_BOUNDS, max: METRIC_BOUNDS }),
        }),
        plant: {
          enum: [...PLANT_NAMES],
          description: 'a planted bug to switch on (test builds only: src/core/plants.ts)',
          'x-message': `unknown planted bug {got}; known: ${PLANT_NAMES.join(', ')}`,
        },
        seed: int(0, undefined, 'the seed a regression fails with'),
        streams: {
          type: 'string',
          minLength: 1,
          description: "the name the random streams are drawn under, with the seed (default: the scenario's name)",
        },
        buggify: BUGGIFY_SCHEMA,
      },
      ['name'],
    ),
  };
}

/** The schema as `scenarios/scenario.schema.json` holds it: without the decoder's annotations. */
export function publishedScenarioSchema(): Schema {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v === null || typeof v !== 'object') return v;
    const out: Schema = {};
    for (const [k, x] of Object.entries(v)) if (!k.startsWith('x-') && k !== 'discriminator') out[k] = strip(x);
    return out;
  };
  return strip(scenarioSchema()) as Schema;
}
