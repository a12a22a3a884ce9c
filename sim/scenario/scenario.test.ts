import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeScenario, encodeScenario } from './scenario';
import { loadScenario, SCENARIOS_DIR } from './load';
import { swarmScenario } from '../campaign/swarm';

describe('scenario files', () => {
  it('every scenario file decodes, and encode/decode round-trips', () => {
    for (const f of readdirSync(SCENARIOS_DIR).filter((x) => x.endsWith('.json'))) {
      const s = decodeScenario(JSON.parse(readFileSync(join(SCENARIOS_DIR, f), 'utf8')));
      expect(decodeScenario(JSON.parse(JSON.stringify(encodeScenario(s)))), f).toEqual(s);
    }
  });
  it('swarm scenarios round-trip too', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const s = swarmScenario(seed, 600_000);
      expect(decodeScenario(JSON.parse(JSON.stringify(encodeScenario(s))))).toEqual(s);
    }
  });
  it('a bad file names the file and the field', () => {
    const base = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'smoke.json'), 'utf8'));
    const bad = (patch: (o: any) => void) => {
      const o = structuredClone(base);
      patch(o);
      return () => decodeScenario(o);
    };
    expect(bad((o) => (o.faults = [{ kind: 'crash', node: 'svc-9', at: '1s' }]))).toThrow(/^faults\[0\]\.node: unknown node "svc-9"/);
    expect(bad((o) => (o.faults = [{ kind: 'meteor', at: '1s' }]))).toThrow(/^faults\[0\]\.kind: unknown fault kind "meteor"/);
    expect(bad((o) => (o.params.sprint = 7))).toThrow(/params\.spanDuration: must be a multiple of params\.sprint/);
    expect(bad((o) => (o.duration = '10 minutes'))).toThrow(/^duration: expected a duration/);
    expect(bad((o) => (o.validators = []))).toThrow(/^validators: expected 1 to 64 validators/);
    expect(bad((o) => (o.network = { loss: 2 }))).toThrow(/^network\.loss: expected a probability/);
    expect(bad((o) => (o.bogus = 1))).toThrow(/^bogus: unknown field/);
    expect(() => loadScenario('no-such-scenario')).toThrow(/--scenario: no scenario "no-such-scenario"/);
  });
});
