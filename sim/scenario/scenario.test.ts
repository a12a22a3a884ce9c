import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeScenario } from './decodeScenario';
import { encodeScenario } from './encodeScenario';
import { isScenarioFileName, loadScenario, SCENARIOS_DIR } from './load';
import { swarmScenario } from '../campaign/swarm';

const scenarioFiles = [
  ...readdirSync(SCENARIOS_DIR)
    .filter(isScenarioFileName)
    .map((f) => join(SCENARIOS_DIR, f)),
  ...readdirSync(join(SCENARIOS_DIR, 'regressions'))
    .filter(isScenarioFileName)
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
    expect(bad((o) => (o.validators = []))).toThrow(/^validators: expected 1 to 256 validators/);
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
  it('the workload: every list item repeats, multi-sends and withdrawals; bad fields are named', () => {
    const base = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'smoke.json'), 'utf8'));
    const decode = (workload: unknown) => decodeScenario({ ...base, workload });
    const w = decode({
      multiSends: { every: '12s', outputs: 3 },
      withdrawals: [{ at: '1m', validator: 2, repeat: 3, every: '30s' }],
      joins: [{ at: '2m', stake: 5, repeat: 2 }],
      signerChanges: [{ at: '90s', validator: 1 }],
    }).workload;
    expect(w.multiSends).toEqual({ everyMs: 12_000, outputs: 3, amountWei: 10n ** 15n });
    // Amount 0 (the default): the whole balance.
    expect(w.withdrawals).toEqual([{ atMs: 60_000, validator: 2, amountTokens: 0n, repeat: 3, everyMs: 30_000 }]);
    // No `every`: all at once.
    expect(w.joins).toEqual([{ atMs: 120_000, stakeTokens: 5n, repeat: 2, everyMs: 0 }]);
    expect(w.signerChanges).toEqual([{ atMs: 90_000, validator: 1, repeat: 1, everyMs: 0 }]);
    const bad = (workload: unknown) => () => decode(workload);
    expect(bad({ withdrawals: [{ at: '1m', validator: 9 }] })).toThrow(/^workload\.withdrawals\[0\]\.validator: /);
    expect(bad({ exits: [{ at: '1m', validator: 1, repeat: 0 }] })).toThrow(/^workload\.exits\[0\]\.repeat: /);
    expect(bad({ stakeUpdates: [{ at: '1m', validator: 1, amount: 1, every: 30 }] })).toThrow(
      /^workload\.stakeUpdates\[0\]\.every: a bare number is ambiguous/,
    );
    expect(bad({ multiSends: { every: '5s', outputs: 51 } })).toThrow(/^workload\.multiSends\.outputs: /);
    expect(bad({ multiSends: { every: 0 } })).toThrow(/^workload\.multiSends\.every: must be positive/);
    expect(bad({ joins: [{ at: '1m', stake: 0 }] })).toThrow(/^workload\.joins\[0\]\.stake: must be at least 1 token/);
    expect(bad({ topups: [{ at: '1m', validator: 1, often: true }] })).toThrow(/^workload\.topups\[0\]\.often: /);
  });

  it("sidechain transfers, some signed in the fast scheme's format; bad fields are named", () => {
    const base = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'smoke.json'), 'utf8'));
    const decode = (sidechainTxs: unknown) => decodeScenario({ ...base, workload: { sidechainTxs } }).workload;
    expect(decode({ every: '3s' }).sidechainTxs).toEqual({ everyMs: 3000 });
    expect(decode({ every: '3s', fastSignedEvery: '20s' }).sidechainTxs).toEqual({
      everyMs: 3000,
      fastSignedEveryMs: 20_000,
    });
    expect(decode({ every: '3s', probeEvery: '1s' }).sidechainTxs).toEqual({ everyMs: 3000, probeEveryMs: 1000 });
    const bad = (sidechainTxs: unknown) => () => decode(sidechainTxs);
    expect(bad({ every: '3s', probeEvery: '0s' })).toThrow(/^workload\.sidechainTxs\.probeEvery: must be positive/);
    expect(bad({ every: '3s', fastSignedEvery: 0 })).toThrow(
      /^workload\.sidechainTxs\.fastSignedEvery: must be positive/,
    );
    expect(bad({ every: '3s', fastSignedEvery: 20 })).toThrow(
      /^workload\.sidechainTxs\.fastSignedEvery: a bare number is ambiguous/,
    );
    // An interval of 0 would send forever at one instant.
    expect(bad({ every: 0 })).toThrow(/^workload\.sidechainTxs\.every: must be positive/);
    expect(bad({ fastSignedEvery: '20s' })).toThrow(/^workload\.sidechainTxs\.every: /);
    expect(bad({ every: '3s', forgedEvery: '20s' })).toThrow(/^workload\.sidechainTxs\.forgedEvery: /);
  });

  it('expectations by message type and Byzantine kind; an unknown name is named', () => {
    const base = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'smoke.json'), 'utf8'));
    const expect_ = (e: unknown) => decodeScenario({ ...base, expect: e }).expect;
    expect(
      expect_({ min: { accepted: { MsgSend: 2 }, byzantine: { wrongChainId: 1 } }, max: { refused: { MsgSend: 0 } } }),
    ).toEqual({
      verdict: 'pass',
      min: { accepted: { MsgSend: 2 }, byzantine: { wrongChainId: 1 } },
      max: { refused: { MsgSend: 0 } },
    });
    expect(() => expect_({ min: { delivered: { MsgBurn: 1 } } })).toThrow(
      /^expect\.min\.delivered\.MsgBurn: unknown message type "MsgBurn"; one of MsgSend, /,
    );
    expect(() => expect_({ min: { byzantine: { meteor: 1 } } })).toThrow(
      /^expect\.min\.byzantine\.meteor: unknown Byzantine kind "meteor"/,
    );
    expect(() => expect_({ max: { byzantine: { wrongChainId: 1 } } })).toThrow(/^expect\.max\.byzantine: /);
    expect(() => expect_({ min: { accepted: { MsgSend: -1 } } })).toThrow(/^expect\.min\.accepted\.MsgSend: /);
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
  it('large sets: up to 256 validators, as a list or as a count with a stake distribution', () => {
    const stakes = (validators: unknown, params: Record<string, unknown> = {}) =>
      decodeScenario({ name: 'big', validators, params }).validators.map((v) => v.stakeTokens);
    // A list of 256 is fine, 257 is not.
    expect(stakes(Array.from({ length: 256 }, () => ({ stake: 10 })))).toHaveLength(256);
    expect(() => stakes(Array.from({ length: 257 }, () => ({ stake: 10 })))).toThrow(
      /^validators: expected 1 to 256 validators, got 257 \(for a large set: \{"count": N/,
    );
    // The default distribution: seeded (the same file, the same stakes), skewed, largest first.
    const d = stakes({ count: 105 });
    expect(d).toHaveLength(105);
    expect(stakes({ count: 105 })).toEqual(d);
    expect([...d].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))).toEqual(d);
    expect(d.every((s) => s >= 1000n && s <= 50_000n)).toBe(true);
    const total = d.reduce((a, b) => a + b, 0n);
    expect(d[0]! * 3n).toBeLessThan(total); // nobody holds a third alone...
    expect((d[0]! + d[1]! + d[2]! + d[3]! + d[4]! + d[5]! + d[6]! + d[7]! + d[8]! + d[9]!) * 3n).toBeGreaterThan(total); // ...ten do
    expect(d[104]! * 20n).toBeLessThan(d[0]!);
    expect(stakes({ count: 105, stake: { seed: 2 } })).not.toEqual(d);
    // Equal stakes, a uniform draw, explicit weights (scaled to a total or as given), a balance.
    expect(stakes({ count: 3, stake: 5000 })).toEqual([5000n, 5000n, 5000n]);
    const u = stakes({ count: 50, stake: { distribution: 'uniform', min: 100, max: 200, seed: 9 } });
    expect(u.every((s) => s >= 100n && s <= 200n) && new Set(u).size > 10).toBe(true);
    expect(stakes({ count: 3, stake: { distribution: 'weights', weights: [3, 2, 1], total: 600 } })).toEqual([
      300n,
      200n,
      100n,
    ]);
    expect(stakes({ count: 3, stake: { distribution: 'weights', weights: [1, '7', 2] } })).toEqual([1n, 7n, 2n]);
    const p = stakes({ count: 200, stake: { distribution: 'pareto', alpha: 3, min: 10, max: 1000 } });
    expect(p.every((s) => s >= 10n && s <= 1000n)).toBe(true);
    expect(decodeScenario({ name: 'big', validators: { count: 2, stake: 7, balance: 5 } }).validators).toEqual([
      { stakeTokens: 7n, balanceTokens: 5n },
      { stakeTokens: 7n, balanceTokens: 5n },
    ]);
    // Slots default to enough for the set; the producer count may be up to the set's size.
    const s = decodeScenario({ name: 'big', validators: { count: 105 }, params: { producerCount: 105 } });
    expect(s.params.validatorSlots).toBe(105);
    expect(s.params.producerCount).toBe(105);
    expect(decodeScenario({ name: 'small', validators: [{ stake: 1 }] }).params.validatorSlots).toBe(32);
    // The runaway guard grows with the square of the set (the votes and the gossip do).
    expect(decodeScenario({ name: 'small', validators: [{ stake: 1 }] }).maxEvents).toBe(20_000_000);
    expect(decodeScenario({ name: 'seven', validators: { count: 7 } }).maxEvents).toBe(20_000_000);
    expect(s.maxEvents).toBe(20_000_000 * 225);
    expect(decodeScenario({ name: 'big', validators: { count: 105 }, maxEvents: 5 }).maxEvents).toBe(5);
    // A bad value names its field.
    const bad =
      (validators: unknown, params: Record<string, unknown> = {}) =>
      () =>
        stakes(validators, params);
    expect(bad({ count: 257 })).toThrow(/^validators\.count: must be between 1 and 256, got 257/);
    expect(bad({ count: 0 })).toThrow(/^validators\.count: must be between 1 and 256, got 0/);
    expect(bad({ stake: 5 })).toThrow(/^validators\.count: is required/);
    expect(bad({ count: 5, size: 3 })).toThrow(/^validators\.size: unknown field \(allowed: count, stake, balance\)/);
    expect(bad({ count: 5, stake: 0 })).toThrow(/^validators\.stake: must be at least 1 token/);
    expect(bad({ count: 5, stake: { distribution: 'zipf' } })).toThrow(
      /^validators\.stake\.distribution: expected one of pareto, uniform, weights, got "zipf"/,
    );
    expect(bad({ count: 5, stake: { alpha: 0 } })).toThrow(/^validators\.stake\.alpha: expected a number from 0\.1/);
    expect(bad({ count: 5, stake: { alpha: '2' } })).toThrow(/^validators\.stake\.alpha: expected a number/);
    expect(bad({ count: 5, stake: { min: 0 } })).toThrow(/^validators\.stake\.min: must be at least 1 token/);
    expect(bad({ count: 5, stake: { min: 10, max: 5 } })).toThrow(
      /^validators\.stake\.max: must be at least min \(10\), got 5/,
    );
    expect(bad({ count: 5, stake: { distribution: 'uniform' } })).toThrow(/^validators\.stake\.min: is required/);
    expect(bad({ count: 5, stake: { distribution: 'uniform', min: 1, alpha: 2 } })).toThrow(
      /^validators\.stake\.alpha: unknown field/,
    );
    expect(bad({ count: 3, stake: { distribution: 'weights', weights: [1, 2] } })).toThrow(
      /^validators\.stake\.weights: expected 3 weights \(one per validator\), got 2/,
    );
    expect(bad({ count: 2, stake: { distribution: 'weights', weights: [1, -2] } })).toThrow(
      /^validators\.stake\.weights\[1\]: must not be negative/,
    );
    expect(bad({ count: 2, stake: { distribution: 'weights', weights: [1, 0] } })).toThrow(
      /^validators\.stake\.weights\[1\]: must be at least 1/,
    );
    expect(bad({ count: 2, stake: { distribution: 'weights' } })).toThrow(/^validators\.stake\.weights: is required/);
    expect(bad({ count: 5 }, { producerCount: 6 })).toThrow(
      /^params\.producerCount: must not exceed the number of validators \(5\), got 6/,
    );
    expect(bad({ count: 5 }, { producerCount: 257 })).toThrow(/^params\.producerCount: must be between 1 and 256/);
    expect(bad({ count: 40 }, { validatorSlots: 32 })).toThrow(
      /^params\.validatorSlots: must be at least the number of validators \(40\)/,
    );
  });
});
