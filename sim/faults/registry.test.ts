/**
 * The fault registry drives the scenario format and the swarm profiles: every kind decodes from
 * its file form and encodes back to it, a bad field is named in the error, an unknown kind lists
 * the registry's kinds, and the swarm draws only registered kinds, each of them, in a form the
 * decoder accepts. `SAMPLES` is keyed by every kind, so a kind added without a sample does not
 * compile.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeScenario } from '../scenario/decodeScenario';
import { encodeScenario } from '../scenario/encodeScenario';
import { SCENARIOS_DIR } from '../scenario/load';
import { swarmScenario } from '../campaign/swarm';
import { FAULT_KINDS, type FaultKind, faultDef, faultSides, swarmKinds } from './registry';
import { scenarioSchema } from '../scenario/schema';

interface Sample {
  /** The fault as a file writes it (encodeFault gives exactly this back). */
  file: Record<string, unknown>;
  /** The side it acts on. */
  sides: string[];
  /** Broken versions and the error each must give (the field named first). */
  bad: Array<[Record<string, unknown>, RegExp]>;
}

const SAMPLES: Record<FaultKind, Sample> = {
  crash: {
    file: { kind: 'crash', at: '10s', for: '20s', node: 'svc-2' },
    sides: ['service'],
    bad: [
      [{ kind: 'crash', at: '10s' }, /^faults\[0\]\.node: is required/],
      [{ kind: 'crash', node: 'svc-9' }, /^faults\[0\]\.node: unknown node "svc-9"/],
      [
        { kind: 'crash', node: 'sc-1', validator: 1 },
        /^faults\[0\]\.validator: unknown field \(allowed: kind, at, atHeight, atRound, for, node\)/,
      ],
    ],
  },
  pause: {
    file: { kind: 'pause', at: '1m', node: 'sc-3' },
    sides: ['sidechain'],
    bad: [[{ kind: 'pause', node: 7 }, /^faults\[0\]\.node: expected a string, got 7/]],
  },
  partition: {
    file: { kind: 'partition', at: '5s', for: '1m', groups: [['svc-1', 'sc-1'], ['svc-2']] },
    sides: ['service', 'sidechain'],
    bad: [
      [{ kind: 'partition', groups: [['svc-1']] }, /^faults\[0\]\.groups: expected at least two groups/],
      [{ kind: 'partition', groups: [['svc-1'], []] }, /^faults\[0\]\.groups\[1\]: expected a non-empty array/],
      [{ kind: 'partition', groups: [['svc-1'], ['x']] }, /^faults\[0\]\.groups\[1\]\[0\]: unknown node "x"/],
    ],
  },
  link: {
    file: {
      kind: 'link',
      at: '0s',
      for: '30s',
      from: ['svc-1'],
      to: ['svc-2', 'svc-3'],
      link: { latency: ['100ms', '200ms'], loss: 0.5, reorderMax: '50ms' },
    },
    sides: ['service'],
    bad: [
      [{ kind: 'link', from: ['svc-1'], to: ['nope'] }, /^faults\[0\]\.to\[0\]: unknown node "nope"/],
      [
        { kind: 'link', from: ['svc-1'], to: ['svc-2'], link: { loss: 3 } },
        /^faults\[0\]\.link\.loss: expected a probability/,
      ],
    ],
  },
  clockSkew: {
    file: { kind: 'clockSkew', at: '10s', for: '1m', node: 'sc-2', skew: '-2s' },
    sides: ['sidechain'],
    bad: [[{ kind: 'clockSkew', node: 'sc-2', skew: 2000 }, /^faults\[0\]\.skew: a bare number is ambiguous/]],
  },
  offlineProducer: {
    file: { kind: 'offlineProducer', at: '10s', for: '1m', validator: 'inTurn' },
    sides: ['sidechain'],
    bad: [[{ kind: 'offlineProducer', validator: 5 }, /^faults\[0\]\.validator: must be between 1 and 4, got 5/]],
  },
  slowProducer: {
    file: { kind: 'slowProducer', at: '10s', validator: 2, delayS: 6 },
    sides: ['sidechain'],
    bad: [[{ kind: 'slowProducer', validator: 2, delayS: 0 }, /^faults\[0\]\.delayS: must be between 1 and 3600/]],
  },
  isolateProducer: {
    file: { kind: 'isolateProducer', at: '10s', for: '30s', validator: 3 },
    sides: ['sidechain'],
    bad: [[{ kind: 'isolateProducer', validator: 'next' }, /^faults\[0\]\.validator: expected an integer, got "next"/]],
  },
  offlineCheckpointProposer: {
    file: { kind: 'offlineCheckpointProposer', at: '1m', for: '5m' },
    sides: ['service'],
    bad: [
      [
        { kind: 'offlineCheckpointProposer', node: 'svc-1' },
        /^faults\[0\]\.node: unknown field \(allowed: kind, at, atHeight, atRound, for\)/,
      ],
    ],
  },
  equivocatingProducer: {
    file: { kind: 'equivocatingProducer', at: '10s', validator: 1 },
    sides: ['sidechain'],
    bad: [[{ kind: 'equivocatingProducer' }, /^faults\[0\]\.validator: is required/]],
  },
  earlySeal: {
    file: { kind: 'earlySeal', at: '10s', validator: 'inTurn' },
    sides: ['sidechain'],
    bad: [[{ kind: 'earlySeal', validator: 0 }, /^faults\[0\]\.validator: must be between 1 and 4, got 0/]],
  },
  oneWayPartition: {
    file: { kind: 'oneWayPartition', at: '10s', for: '1m', from: ['sc-1', 'sc-2'], to: ['svc-1'] },
    sides: ['sidechain'],
    bad: [[{ kind: 'oneWayPartition', from: 'sc-1', to: [] }, /^faults\[0\]\.from: expected an array, got "sc-1"/]],
  },
  doubleSign: {
    file: { kind: 'doubleSign', at: '0s', validator: 4 },
    sides: ['service'],
    bad: [[{ kind: 'doubleSign', validator: 'inTurn' }, /^faults\[0\]\.validator: expected an integer, got "inTurn"/]],
  },
  byzantineValidators: {
    file: { kind: 'byzantineValidators', at: '0s', validators: [1, 2] },
    sides: ['service'],
    bad: [
      [{ kind: 'byzantineValidators', validators: [] }, /^faults\[0\]\.validators: name at least one validator/],
      [
        { kind: 'byzantineValidators', validators: [1, 9] },
        /^faults\[0\]\.validators\[1\]: expected a validator index 1\.\.4, got 9/,
      ],
    ],
  },
  roundShift: {
    file: { kind: 'roundShift', at: '10s', for: '1m', validators: [2] },
    sides: ['service'],
    bad: [[{ kind: 'roundShift', validators: [] }, /^faults\[0\]\.validators: name at least one validator/]],
  },
  replayMessages: {
    file: { kind: 'replayMessages', at: '10s', validators: [1, 4] },
    sides: ['service'],
    bad: [[{ kind: 'replayMessages', validators: 'all' }, /^faults\[0\]\.validators: expected an array, got "all"/]],
  },
  splitVote: {
    file: { kind: 'splitVote', at: '20s', for: '2m', validators: [3] },
    sides: ['service'],
    bad: [
      [{ kind: 'splitVote' }, /^faults\[0\]\.validators: is required/],
      [{ kind: 'splitVote', validators: [] }, /^faults\[0\]\.validators: name at least one validator/],
    ],
  },
  byzantineTxs: {
    file: {
      kind: 'byzantineTxs',
      at: '30s',
      validator: 3,
      txs: ['earlyNoAck', 'replayedTopup', 'wrongChainId'],
      everyBlocks: 2,
      perBlock: 5,
    },
    sides: ['service'],
    bad: [
      [
        { kind: 'byzantineTxs', validator: 3, txs: ['bogus'] },
        /^faults\[0\]\.txs\[0\]: unknown "bogus"; one of earlyNoAck, /,
      ],
      [{ kind: 'byzantineTxs', validator: 3, txs: [] }, /^faults\[0\]\.txs: name at least one transaction/],
      [{ kind: 'byzantineTxs', validator: 3, everyBlocks: 0 }, /^faults\[0\]\.everyBlocks: must be between 1 and 1000/],
      [{ kind: 'byzantineTxs', validator: 3, perBlock: 21 }, /^faults\[0\]\.perBlock: must be between 0 and 20/],
      [{ kind: 'byzantineTxs' }, /^faults\[0\]\.validator: is required/],
    ],
  },
  outsiderBlocks: {
    file: { kind: 'outsiderBlocks', at: '10s', for: '1m', everyBlocks: 3 },
    sides: ['sidechain'],
    bad: [
      [{ kind: 'outsiderBlocks', everyBlocks: 'often' }, /^faults\[0\]\.everyBlocks: expected an integer, got "often"/],
    ],
  },
  byzantineBlocks: {
    file: {
      kind: 'byzantineBlocks',
      at: '30s',
      for: '2m',
      validator: 2,
      blocks: ['wrongDifficulty', 'fromFuture'],
      everyBlocks: 2,
    },
    sides: ['sidechain'],
    bad: [
      [{ kind: 'byzantineBlocks', validator: 9 }, /^faults\[0\]\.validator: /],
      [{ kind: 'byzantineBlocks', validator: 1, blocks: [] }, /^faults\[0\]\.blocks: name at least one block/],
      [
        { kind: 'byzantineBlocks', validator: 1, blocks: ['wrongDifficulty', 'prettyBlock'] },
        /^faults\[0\]\.blocks\[1\]: unknown "prettyBlock"; one of wrongNumber, /,
      ],
      [{ kind: 'byzantineBlocks', validator: 1, everyBlocks: 0 }, /^faults\[0\]\.everyBlocks: /],
    ],
  },
  lateCheckpoint: {
    file: { kind: 'lateCheckpoint', at: '0s', validator: 1, length: 8 },
    sides: ['service'],
    bad: [
      [{ kind: 'lateCheckpoint', validator: 9 }, /^faults\[0\]\.validator: /],
      [{ kind: 'lateCheckpoint', validator: 1, length: 1 }, /^faults\[0\]\.length: /],
    ],
  },
  setHead: {
    file: { kind: 'setHead', at: '1m', node: 'sc-2', blocks: 5 },
    sides: ['sidechain'],
    bad: [
      [
        { kind: 'setHead', node: 'svc-2', blocks: 5 },
        /^faults\[0\]\.node: expected a sidechain node \(sc-N\), got "svc-2"/,
      ],
      [{ kind: 'setHead', node: 'sc-2' }, /^faults\[0\]\.blocks: give exactly one of number .* or blocks/],
      [{ kind: 'setHead', node: 'sc-2', number: 3, blocks: 5 }, /^faults\[0\]\.blocks: give exactly one of number/],
      [{ kind: 'setHead', node: 'sc-2', blocks: 0 }, /^faults\[0\]\.blocks: /],
    ],
  },
};

const smoke = JSON.parse(readFileSync(join(SCENARIOS_DIR, 'smoke.json'), 'utf8')) as Record<string, unknown>;
const withFaults = (faults: unknown[]) => decodeScenario({ ...structuredClone(smoke), faults });

describe('the fault registry', () => {
  it('lists each kind once, under its own name', () => {
    expect(new Set(FAULT_KINDS).size).toBe(FAULT_KINDS.length);
    for (const k of FAULT_KINDS) expect(faultDef(k).kind).toBe(k);
    expect(Object.keys(SAMPLES).sort()).toEqual([...FAULT_KINDS].sort());
  });

  for (const kind of FAULT_KINDS) {
    describe(kind, () => {
      const sample = SAMPLES[kind];
      it('decodes from its file form, encodes back to it, and acts on its side', () => {
        const s = withFaults([sample.file]);
        const f = s.faults[0]!;
        expect(f.kind).toBe(kind);
        expect(encodeScenario(s).faults).toEqual([sample.file]);
        expect([...faultSides(f)].sort()).toEqual(sample.sides);
        // Exactly its own fields (one per field of its file form), nothing another kind takes.
        const timing = new Set(['kind', 'atMs', 'atHeight', 'atRound', 'forMs']);
        expect(Object.keys(f).filter((k) => !timing.has(k)).length).toBe(faultDef(kind).fields.length);
      });
      it('names the bad field', () => {
        for (const [fault, error] of sample.bad)
          expect(() => withFaults([fault]), JSON.stringify(fault)).toThrow(error);
      });
    });
  }

  it('scenarios/README.md lists every kind with its fields', () => {
    const readme = readFileSync(join(SCENARIOS_DIR, 'README.md'), 'utf8');
    for (const k of FAULT_KINDS) {
      const row = readme.split('\n').find((l) => l.startsWith(`| \`${k}\` |`));
      expect(row, k).toBeDefined();
      for (const field of faultDef(k).fields) expect(row, `${k}.${field}`).toContain(`\`${field}\``);
    }
  });

  it("drives the scenario schema: one branch per kind, with exactly the kind's fields besides the timing", () => {
    const faults = (scenarioSchema().properties as Record<string, { items: { oneOf: Array<Record<string, unknown>> } }>)
      .faults!.items.oneOf;
    expect(faults.map((b) => (b.properties as { kind: { const: string } }).kind.const)).toEqual([...FAULT_KINDS]);
    for (const [i, k] of FAULT_KINDS.entries())
      expect(Object.keys(faults[i]!.properties as object), k).toEqual([
        'kind',
        'at',
        'atHeight',
        'atRound',
        'for',
        ...faultDef(k).fields,
      ]);
  });

  it('a round trigger decodes with its time, encodes back, and takes service-side faults only', () => {
    const file = {
      kind: 'partition',
      at: '1m',
      atRound: 2,
      for: '30s',
      groups: [['svc-1'], ['svc-2', 'svc-3', 'svc-4']],
    };
    const s = withFaults([file]);
    expect(s.faults[0]).toMatchObject({ kind: 'partition', atMs: 60_000, atRound: 2, forMs: 30_000 });
    expect(encodeScenario(s).faults).toEqual([file]);
    expect(() => withFaults([{ kind: 'offlineProducer', validator: 1, at: '1m', atRound: 1 }])).toThrow(
      /^faults\[0\]\.atRound: a consensus round can only trigger a fault on service nodes .*: give it a plain time/,
    );
    expect(() => withFaults([{ kind: 'crash', node: 'svc-1', atRound: 101 }])).toThrow(/^faults\[0\]\.atRound: /);
  });

  it('an unknown kind lists the registry', () => {
    expect(() => withFaults([{ kind: 'meteor' }])).toThrow(
      `faults[0].kind: unknown fault kind "meteor"; kinds: ${FAULT_KINDS.join(', ')}`,
    );
  });

  it('the swarm profile draws only registered kinds, every drawable one, each in a form the decoder accepts', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 300; seed++) {
      const s = swarmScenario(seed, 600_000);
      for (const f of s.faults) {
        expect(swarmKinds()).toContain(f.kind);
        seen.add(f.kind);
      }
      expect(decodeScenario(JSON.parse(JSON.stringify(encodeScenario(s))))).toEqual(s);
    }
    expect([...seen].sort()).toEqual([...swarmKinds()].sort());
    // A kind without a drawer is never drawn.
    for (const k of FAULT_KINDS) if (faultDef(k).swarm === undefined) expect(seen.has(k)).toBe(false);
  });
});
