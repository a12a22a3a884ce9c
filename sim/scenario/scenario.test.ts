import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeScenario, encodeScenario } from './scenario';
import { loadScenario, SCENARIOS_DIR } from './load';
import { swarmScenario } from '../campaign/swarm';

const scenarioFiles = [
  ...readdirSync(SCENARIOS_DIR)
    .filter((x) => x.endsWith('.json'))
    .map((f) => join(SCENARIOS_DIR, f)),
  ...readdirSync(join(SCENARIOS_DIR, 'regressions'))
    .filter((x) => x.endsWith('.json'))
    .map((f) => join(SCENARIOS_DIR, 'regressions', f)),
];

/** Every duration-valued field of a scenario file, with its path. */
function durationFields(file: unknown): Array<[string, unknown]> {
  const keys = new Set(['duration', 'checkpointBufferTime', 'parentBlockTime', 'commitTimeout', 'relayDelayPerRank']);
  const keys2 = new Set(['at', 'for', 'skew', 'every', 'reorderMax']);
  const out: Array<[string, unknown]> = [];
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) for (const [i, x] of v.entries()) walk(x, `${path}[${i}]`);
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        const p = path ? `${path}.${k}` : k;
        if (keys.has(k) || keys2.has(k)) out.push([p, x]);
        else if (k === 'latency' && Array.isArray(x)) for (const [i, y] of x.entries()) out.push([`${p}[${i}]`, y]);
        else walk(x, p);
      }
  };
  walk(file, '');
  return out;
}

describe('scenario files', () => {
  it('every scenario file (regressions included) decodes, and encode/decode round-trips', () => {
    for (const f of scenarioFiles) {
      const s = decodeScenario(JSON.parse(readFileSync(f, 'utf8')));
      expect(decodeScenario(JSON.parse(JSON.stringify(encodeScenario(s)))), f).toEqual(s);
    }
  });
  it('every duration in a scenario file, and in what encodeScenario writes, has a unit', () => {
    for (const f of scenarioFiles) {
      const json = JSON.parse(readFileSync(f, 'utf8'));
      for (const [path, v] of [...durationFields(json), ...durationFields(encodeScenario(decodeScenario(json)))])
        expect(typeof v === 'string' && /[a-z]$/.test(v), `${f}: ${path} = ${JSON.stringify(v)}`).toBe(true);
    }
    const encoded = encodeScenario(swarmScenario(3, 600_000));
    expect(encoded.duration).toBe('10m');
    expect(durationFields(encoded).length).toBeGreaterThan(5);
    for (const [path, v] of durationFields(encoded)) expect(typeof v, path).toBe('string');
  });
  it('swarm scenarios round-trip too', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const s = swarmScenario(seed, 600_000);
      expect(decodeScenario(JSON.parse(JSON.stringify(encodeScenario(s))))).toEqual(s);
    }
  });
  it('a bad file names the file and the field', () => {
    const base = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'smoke.json'), 'utf8'));
    const bad = (patch: (o: { [field: string]: unknown; params: Record<string, unknown> }) => void) => {
      const o = structuredClone(base);
      patch(o);
      return () => decodeScenario(o);
    };
    expect(bad((o) => (o.faults = [{ kind: 'crash', node: 'svc-9', at: '1s' }]))).toThrow(
      /^faults\[0\]\.node: unknown node "svc-9"/,
    );
    expect(bad((o) => (o.faults = [{ kind: 'meteor', at: '1s' }]))).toThrow(
      /^faults\[0\]\.kind: unknown fault kind "meteor"/,
    );
    expect(bad((o) => (o.params.sprint = 7))).toThrow(/params\.spanDuration: must be a multiple of params\.sprint/);
    expect(bad((o) => (o.duration = '10 minutes'))).toThrow(/^duration: expected a duration/);
    expect(bad((o) => (o.validators = []))).toThrow(/^validators: expected 1 to 64 validators/);
    expect(bad((o) => (o.network = { loss: 2 }))).toThrow(/^network\.loss: expected a probability/);
    expect(bad((o) => (o.bogus = 1))).toThrow(/^bogus: unknown field/);
    // A duration needs a unit; the error says how a bare number would have been read.
    expect(bad((o) => (o.duration = 240))).toThrow(
      'duration: a bare number is ambiguous; 240 would be read as 240 ms; write "240s" or "240ms"',
    );
    expect(bad((o) => (o.params.parentBlockTime = '4000'))).toThrow(
      /^params\.parentBlockTime: a bare number is ambiguous; 4000 would be read as 4000 ms/,
    );
    expect(bad((o) => (o.faults = [{ kind: 'pause', node: 'svc-1', at: '1s', for: 5000 }]))).toThrow(
      /^faults\[0\]\.for: a bare number is ambiguous/,
    );
    // A fault that starts at or after the end never fires: an error naming the fault.
    expect(
      bad((o) => {
        o.duration = '10m';
        o.faults = [
          { kind: 'pause', node: 'svc-1', at: '1m' },
          { kind: 'pause', node: 'svc-1', at: '30m' },
        ];
      }),
    ).toThrow('faults[1].at: 30m is at or after the end of the scenario (duration 10m); it never fires');
    expect(
      bad((o) => {
        o.duration = '10m';
        o.faults = [{ kind: 'pause', node: 'svc-1', at: '10m' }];
      }),
    ).toThrow(/^faults\[0\]\.at: 10m is at or after the end/);
    expect(() => loadScenario('no-such-scenario')).toThrow(/--scenario: no scenario "no-such-scenario"/);
  });
  it('height triggers: atHeight {service | sidechain: n}, exactly one of at / atHeight, on its own side', () => {
    const base = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'smoke.json'), 'utf8'));
    const withFaults = (faults: unknown[]) => decodeScenario({ ...structuredClone(base), faults });
    const s = withFaults([
      { kind: 'crash', node: 'svc-2', atHeight: { service: 120 }, for: '30s' },
      { kind: 'offlineProducer', validator: 'inTurn', atHeight: { sidechain: 64 } },
      { kind: 'partition', groups: [['sc-1'], ['sc-2', 'sc-3']], atHeight: { sidechain: 10 }, for: '5s' },
      { kind: 'byzantineValidators', validators: [1], atHeight: { service: 1 } },
      { kind: 'link', from: ['sc-1'], to: ['svc-1'], link: { loss: 1 }, atHeight: { sidechain: 3 } },
      { kind: 'pause', node: 'svc-1', at: '10s', for: '5s' },
    ]);
    expect(s.faults[0]).toEqual({
      kind: 'crash',
      node: 'svc-2',
      atHeight: { chain: 'service', height: 120 },
      forMs: 30_000,
    });
    expect(s.faults[0]).not.toHaveProperty('atMs');
    expect(s.faults[1]).toEqual({
      kind: 'offlineProducer',
      validator: 'inTurn',
      atHeight: { chain: 'sidechain', height: 64 },
    });
    expect(s.faults[5]).toEqual({ kind: 'pause', node: 'svc-1', atMs: 10_000, forMs: 5_000 });
    // encode writes the same shape back, and decode reads it to the same scenario.
    const file = JSON.parse(JSON.stringify(encodeScenario(s)));
    expect(file.faults[0]).toEqual({ kind: 'crash', atHeight: { service: 120 }, for: '30s', node: 'svc-2' });
    expect(file.faults[1]).not.toHaveProperty('at');
    expect(decodeScenario(file)).toEqual(s);

    const bad = (fault: Record<string, unknown>) => () =>
      withFaults([{ kind: 'pause', node: 'svc-1', at: '1s' }, { kind: 'pause', node: 'svc-1', at: '2s' }, fault]);
    expect(bad({ kind: 'crash', node: 'svc-2', at: '10s', atHeight: { service: 5 } })).toThrow(
      /^faults\[2\]\.atHeight: give either at \(a time\) or atHeight \(a height\), not both/,
    );
    expect(bad({ kind: 'crash', node: 'svc-2', atHeight: 120 })).toThrow(
      /^faults\[2\]\.atHeight: expected an object, got 120/,
    );
    expect(bad({ kind: 'crash', node: 'svc-2', atHeight: {} })).toThrow(
      /^faults\[2\]\.atHeight: expected exactly one of service, sidechain/,
    );
    expect(bad({ kind: 'crash', node: 'svc-2', atHeight: { service: 5, sidechain: 5 } })).toThrow(
      /^faults\[2\]\.atHeight: expected exactly one of service, sidechain/,
    );
    expect(bad({ kind: 'crash', node: 'svc-2', atHeight: { parent: 5 } })).toThrow(
      /^faults\[2\]\.atHeight\.parent: unknown field \(allowed: service, sidechain\)/,
    );
    expect(bad({ kind: 'crash', node: 'svc-2', atHeight: { service: 0 } })).toThrow(
      /^faults\[2\]\.atHeight\.service: must be between 1 and/,
    );
    expect(bad({ kind: 'crash', node: 'svc-2', atHeight: { service: '120' } })).toThrow(
      /^faults\[2\]\.atHeight\.service: expected an integer, got "120"/,
    );
    expect(bad({ kind: 'crash', node: 'svc-2', atHeight: { service: 1.5 } })).toThrow(
      /^faults\[2\]\.atHeight\.service: expected an integer/,
    );
    // The trigger is watched where the fault acts: cross-domain combinations are refused.
    expect(bad({ kind: 'crash', node: 'sc-2', atHeight: { service: 120 } })).toThrow(
      /^faults\[2\]\.atHeight\.service: a service height can only trigger a fault on service nodes .*this crash acts on sidechain nodes: use atHeight\.sidechain or give it a time \(at\)/,
    );
    expect(bad({ kind: 'offlineProducer', validator: 1, atHeight: { service: 120 } })).toThrow(
      /^faults\[2\]\.atHeight\.service: .*this offlineProducer acts on sidechain nodes/,
    );
    expect(bad({ kind: 'offlineCheckpointProposer', atHeight: { sidechain: 64 } })).toThrow(
      /^faults\[2\]\.atHeight\.sidechain: a sidechain height can only trigger a fault on sidechain nodes \(sc-\*\) and the producer faults; this offlineCheckpointProposer acts on the service side: use atHeight\.service or/,
    );
    expect(bad({ kind: 'partition', groups: [['svc-1', 'sc-1'], ['svc-2']], atHeight: { service: 5 } })).toThrow(
      /^faults\[2\]\.atHeight\.service: .*this partition acts on both service and sidechain nodes: give it a time \(at\)/,
    );
    expect(bad({ kind: 'link', from: ['svc-1'], to: ['sc-1'], link: { loss: 1 }, atHeight: { sidechain: 5 } })).toThrow(
      /^faults\[2\]\.atHeight\.sidechain: .*this link acts on the service side/,
    );
  });
});
