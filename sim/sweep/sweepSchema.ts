/**
 * The sweep file's JSON Schema, in one place: the decoder (sweepFile.ts) validates every file with
 * it (ajv) and words the first error with the field's path, as scenario files do; `npm run schema`
 * writes it out as `sweeps/sweep.schema.json` for editors (a test fails while that file is stale).
 *
 * A sweep names a base scenario and what to vary in it by the scenario file's own field paths
 * (`params.sprint`, `faults[0].for`), with values in the scenario file's form (durations with
 * units); the scenario decoder then checks every cell as it checks a scenario file.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { InputError } from '../../src/core/errors';
import { METRIC_NAMES } from '../core/metricNames';
import { type Schema, int, object } from '../core/schemaParts';
import { wordError } from '../scenario/schemaCheck';

/** A field path of a scenario file: `params.sprint`, `faults[0].at`, `network.latency[1]`. */
export const PATH_PATTERN = '^[A-Za-z][A-Za-z0-9]*(\\[[0-9]+\\]|\\.[A-Za-z][A-Za-z0-9]*)*$';

const LABEL: Schema = {
  type: 'string',
  pattern: '^\\S(.*\\S)?$',
  'x-message':
    'a cell label: non-empty text without leading or trailing spaces (it names the cell in every table), got {got}',
};

/** Scenario field paths to values (in the scenario file's form). */
const SETTINGS: Schema = {
  type: 'object',
  description: 'scenario field paths (params.sprint, faults[0].for) to values in the scenario file form',
  propertyNames: { pattern: PATH_PATTERN },
  'x-message': 'keys are scenario field paths such as params.sprint or faults[0].at, got {got}',
};

const DRAW: Schema = {
  description: 'a value drawn per seed: uniform between two durations or numbers, or one of a list',
  anyOf: [
    object(
      {
        uniform: {
          type: 'array',
          minItems: 2,
          maxItems: 2,
          items: { anyOf: [{ type: 'string' }, { type: 'number' }] },
          'x-message': 'expected [low, high]: two durations or two numbers, got {got}',
        },
      },
      ['uniform'],
    ),
    object({ choice: { type: 'array', minItems: 1 } }, ['choice']),
  ],
  'x-message': 'expected {"uniform": [low, high]} or {"choice": [values...]}, got {got}',
};

const SEEDS: Schema = {
  description: 'the run seeds of every cell: a count (seeds 1..N), {"first": F, "count": N}, or a list',
  anyOf: [
    int(1, 100_000),
    object({ first: int(0), count: int(1, 100_000) }, ['count']),
    { type: 'array', minItems: 1, maxItems: 100_000, items: int(0), uniqueItems: true },
  ],
  'x-message': 'expected a count, {"first": F, "count": N} or a list of distinct seeds, got {got}',
};

export function sweepSchema(): Schema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Lockstep sweep',
    description:
      'A Lockstep sweep: a base scenario, the fields to vary (a grid and/or listed cells), values drawn per seed, the seeds, the metrics and the comparisons (docs/SWEEPS.md).',
    ...object(
      {
        $schema: { type: 'string' },
        name: {
          type: 'string',
          pattern: '^[a-z0-9][a-z0-9._-]*$',
          'x-message': "use lower-case letters, digits, '.', '_' or '-', got {got}",
        },
        description: { type: 'string' },
        base: {
          type: 'string',
          minLength: 1,
          description: 'the base scenario: a name under scenarios/ or a JSON file, relative to the sweep file',
        },
        set: SETTINGS,
        grid: {
          ...SETTINGS,
          description: 'field paths to lists of values: one cell per combination, in key order',
          additionalProperties: { type: 'array', minItems: 1, 'x-message': 'expected a non-empty list of values' },
        },
        cells: {
          type: 'array',
          items: object({ label: LABEL, set: SETTINGS }, ['label']),
          description: 'cells named by hand, each with its own settings (after the grid cells)',
        },
        draw: { ...SETTINGS, additionalProperties: DRAW },
        seeds: SEEDS,
        metrics: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: { enum: [...METRIC_NAMES], 'x-message': `unknown metric {got}; metrics: ${METRIC_NAMES.join(', ')}` },
          description: 'the metrics to summarise (default: all)',
        },
        compare: {
          type: 'array',
          items: {
            anyOf: [
              { type: 'array', minItems: 2, maxItems: 2, items: { type: 'string' } },
              object(
                {
                  axis: { type: 'string', description: 'a grid path (or its short name)' },
                  against: { description: "the axis value every other value is compared with, in the grid's form" },
                },
                ['axis', 'against'],
              ),
            ],
            'x-message': 'expected [cell A, cell B] or {"axis": PATH, "against": VALUE}, got {got}',
          },
          description:
            'pairs of cell labels [A, B] (B − A), or {"axis": PATH, "against": V}: along a grid axis, every cell against the one with V on it and the same values on the other axes (default: every cell against the first)',
        },
        bootstrap: object({
          resamples: int(1000, 100_000, 'resamples per interval (default 10000)'),
          seed: {
            anyOf: [{ type: 'string' }, { type: 'integer' }],
            description: "the intervals' random stream (default: the sweep's name)",
          },
        }),
      },
      ['name', 'base', 'seeds'],
    ),
  };
}

/** The schema as `sweeps/sweep.schema.json` holds it: without the decoder's annotations. */
export function publishedSweepSchema(): Schema {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v === null || typeof v !== 'object') return v;
    const out: Schema = {};
    for (const [k, x] of Object.entries(v)) if (!k.startsWith('x-')) out[k] = strip(x);
    return out;
  };
  return strip(sweepSchema()) as Schema;
}

const ajv = new Ajv2020({ allErrors: false, verbose: true, strict: true });
ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
ajv.addKeyword({ keyword: 'x-code', schemaType: 'boolean' });
let compiled: ReturnType<typeof ajv.compile> | null = null;

/** Throws the first schema error, worded with the field's path (`grid.params.sprint: …`). */
export function checkSweepSchema(value: unknown): void {
  compiled ??= ajv.compile(sweepSchema());
  if (compiled(value)) return;
  const e = compiled.errors![0]!;
  // A bad key of a path map: ajv reports it under the map's path with the key as `propertyName`.
  if (e.keyword === 'pattern' && e.propertyName !== undefined)
    throw new InputError(
      sweepField(e.instancePath),
      `${JSON.stringify(e.propertyName)} is not a scenario field path (write it as params.sprint or faults[0].at)`,
    );
  const worded = wordError(e, 'sweep');
  const field = e.keyword === 'required' || e.keyword === 'additionalProperties' ? null : sweepField(e.instancePath);
  throw field === null || field === '' ? worded : new InputError(field, worded.message.slice(worded.field.length + 2));
}

/** `/grid/params.sprint/1` → `grid["params.sprint"][1]`: a scenario path used as a key is quoted. */
export function sweepField(instancePath: string): string {
  let out = '';
  for (const raw of instancePath.split('/').slice(1)) {
    const p = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(p)) out += `[${p}]`;
    else if (/[.[]/.test(p)) out += `[${JSON.stringify(p)}]`;
    else out += out ? `.${p}` : p;
  }
  return out;
}
