/**
 * The scenario file's JSON Schema: the written file is the schema the decoder validates with,
 * every scenario file (and every file the swarm profiles write) validates against it with ajv,
 * and the schema refuses what the decoder refuses for its shape (the decoder names the field the
 * schema's first error is about), while the decoder's code checks what a schema cannot say.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { SCENARIOS_DIR, isScenarioFileName } from './load';
import { decodeScenario } from './decodeScenario';
import { encodeScenario } from './encodeScenario';
import { publishedScenarioSchema } from './schema';
import { checkScenarioSchema } from './schemaCheck';
import { swarmScenario } from '../campaign/swarm';

const published = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'scenario.schema.json'), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(published);

const files = [SCENARIOS_DIR, join(SCENARIOS_DIR, 'regressions')].flatMap((d) =>
  readdirSync(d)
    .filter(isScenarioFileName)
    .map((f) => join(d, f)),
);

const smoke = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'smoke.json'), 'utf8')) as Record<string, unknown>;
/** A scenario file being broken on purpose. */
type File = {
  [field: string]: unknown;
  params: Record<string, unknown>;
  workload: Record<string, unknown>;
  expect: Record<string, unknown>;
};
const patched = (patch: (o: File) => void): Record<string, unknown> => {
  const o = structuredClone(smoke) as File;
  o.params ??= {};
  o.workload ??= {};
  o.expect ??= {};
  patch(o);
  return o;
};

describe('the scenario JSON Schema', () => {
  it('scenarios/scenario.schema.json is the schema the decoder validates with (npm run schema writes it)', () => {
    expect(published, 'stale: run npm run schema').toEqual(publishedScenarioSchema());
  });

  it('every scenario file validates against it (ajv)', () => {
    expect(files.length).toBeGreaterThan(25);
    for (const f of files) {
      const json = JSON.parse(readFileSync(f, 'utf8'));
      expect(json.$schema, f).toBe(f.includes('regressions') ? '../scenario.schema.json' : './scenario.schema.json');
      expect(validate(json), `${f}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('every file the swarm profiles write validates too', () => {
    for (const profile of ['swarm', 'byzantine-third'] as const)
      for (let seed = 1; seed <= 60; seed++) {
        const file = JSON.parse(JSON.stringify(encodeScenario(swarmScenario(seed, 600_000, profile))));
        expect(validate(file), `${profile} seed ${seed}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
  });

  it('refuses what the decoder refuses for its shape; the decoder names the field of its first error', () => {
    const cases: Array<[(o: File) => void, RegExp]> = [
      [(o) => (o.bogus = 1), /^bogus: unknown field \(allowed: \$schema, name, /],
      [(o) => (o.name = 'Smoke Test'), /^name: use lower-case letters/],
      [(o) => (o.crypto = 'quantum'), /^crypto: expected "real" or "fast", got "quantum"/],
      [(o) => (o.params.sprint = 0), /^params\.sprint: must be between 1 and 4096, got 0/],
      [(o) => (o.params.bogus = 1), /^params\.bogus: unknown field \(allowed: producerCount, sprint, /],
      [(o) => (o.params.jitter = 'yes'), /^params\.jitter: expected true or false, got "yes"/],
      [(o) => (o.network = { loss: 2 }), /^network\.loss: expected a probability in \[0, 1\], got 2/],
      [(o) => (o.network = { latency: ['1ms'] }), /^network\.latency: expected \[min, max\] durations/],
      [(o) => (o.faults = [{ kind: 'meteor' }]), /^faults\[0\]\.kind: unknown fault kind "meteor"; kinds: crash, /],
      [(o) => (o.faults = [{ at: '1s' }]), /^faults\[0\]\.kind: is required/],
      [(o) => (o.faults = [{ kind: 'crash', at: '1s' }]), /^faults\[0\]\.node: is required/],
      [
        (o) => (o.faults = [{ kind: 'crash', node: 'svc-1', validator: 1 }]),
        /^faults\[0\]\.validator: unknown field \(allowed: kind, at, atHeight, atRound, for, node\)/,
      ],
      [
        (o) => (o.faults = [{ kind: 'crash', node: 'svc-1', atHeight: {} }]),
        /^faults\[0\]\.atHeight: expected exactly one of service, sidechain with a height, e\.g\. \{"service": 120\}, got 0 fields/,
      ],
      [
        (o) => (o.faults = [{ kind: 'slowProducer', validator: 1, delayS: 0 }]),
        /^faults\[0\]\.delayS: must be between 1 and 3600/,
      ],
      [(o) => (o.workload.topups = [{ validator: 1 }]), /^workload\.topups\[0\]\.at: is required/],
      [(o) => (o.workload.bogus = []), /^workload\.bogus: unknown field/],
      [(o) => (o.expect.verdict = 'maybe'), /^expect\.verdict: expected pass, safety, liveness or crash, got "maybe"/],
      [(o) => (o.expect.min = { blocks: 1 }), /^expect\.min\.blocks: unknown field/],
      [(o) => (o.plant = 'nope'), /^plant: unknown planted bug "nope"; known: producer-delay, /],
      [(o) => (o.seed = -1), /^seed: must be between 0 and /],
      [(o) => (o.maxEvents = 'many'), /^maxEvents: expected an integer, got "many"/],
    ];
    for (const [patch, error] of cases) {
      const file = patched(patch);
      expect(validate(file), `${error}`).toBe(false);
      // The schema found it and worded it (not the decoder's code).
      expect(checkScenarioSchema(file)?.byCode, `${error}`).toBe(false);
      expect(() => decodeScenario(file)).toThrow(error);
    }
  });

  it('what a schema cannot say the decoder checks: this scenario’s nodes and validators, units, sprint multiples, timing', () => {
    const cases: Array<[(o: File) => void, RegExp, boolean]> = [
      // [patch, error, does the schema refuse it too]
      [
        (o) => (o.faults = [{ kind: 'crash', node: 'svc-9' }]),
        /^faults\[0\]\.node: unknown node "svc-9"; nodes are parent, svc-1\.\.svc-4/,
        false,
      ],
      [
        (o) => (o.faults = [{ kind: 'offlineProducer', validator: 5 }]),
        /^faults\[0\]\.validator: must be between 1 and 4, got 5/,
        false,
      ],
      [(o) => (o.params.sprint = 7), /^params\.spanDuration: must be a multiple of params\.sprint \(7\)/, false],
      [
        (o) => (o.faults = [{ kind: 'crash', node: 'svc-1', at: '1s', atHeight: { service: 3 } }]),
        /^faults\[0\]\.atHeight: give either at \(a time\) or atHeight \(a height\), not both/,
        false,
      ],
      [
        (o) => (o.faults = [{ kind: 'crash', node: 'svc-1', atHeight: { service: 3 }, atRound: 1 }]),
        /^faults\[0\]\.atRound: atRound waits from a time \(at\), not from a height \(atHeight\)/,
        false,
      ],
      [
        (o) => (o.faults = [{ kind: 'crash', node: 'sc-1', at: '1s', atRound: 1 }]),
        /^faults\[0\]\.atRound: a consensus round can only trigger a fault on service nodes/,
        false,
      ],
      [(o) => (o.faults = [{ kind: 'crash', node: 'svc-1', at: '1s', atRound: 0 }]), /^faults\[0\]\.atRound: /, true],
      [
        (o) => (o.faults = [{ kind: 'crash', node: 'svc-1', at: '7m' }]),
        /^faults\[0\]\.at: 7m is at or after the end/,
        false,
      ],
      [(o) => (o.duration = 240), /^duration: a bare number is ambiguous; 240 would be read as 240 ms/, true],
      [(o) => (o.validators = [{ stake: '12abc' }]), /^validators\[0\]\.stake: /, true],
      [(o) => (o.faults = [{ kind: 'crash', node: 'node-1' }]), /^faults\[0\]\.node: unknown node "node-1"/, true],
      [(o) => (o.validators = []), /^validators: expected 1 to 256 validators, got 0/, true],
      [(o) => (o.validators = [{ balance: 5 }]), /^validators\[0\]\.stake: is required/, true],
      [
        (o) => (o.validators = { count: 3, stake: { distribution: 'zipf' } }),
        /^validators\.stake\.distribution: expected one of pareto, uniform, weights/,
        true,
      ],
      [
        (o) => (o.validators = { count: 3, stake: { distribution: 'weights', weights: [1, 2] } }),
        /^validators\.stake\.weights: expected 3 weights/,
        false,
      ],
    ];
    for (const [patch, error, schemaRefuses] of cases) {
      const file = patched(patch);
      expect(validate(file), `${error}`).toBe(!schemaRefuses);
      expect(() => decodeScenario(file)).toThrow(error);
    }
  });
});
