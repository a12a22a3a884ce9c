/**
 * The explorer reaches what the suite reaches: every layout, parameter value, network value, fault
 * kind (with its trigger, and lasting to the end where a file has it so), workload kind and crypto
 * that a scenario file uses is one the explorer's space draws (reach.ts); and drawing shows it: a
 * few thousand fresh draws hold every fault kind, workload kind, layout and suite parameter value.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENARIOS_DIR, isScenarioFileName, loadScenario } from '../../scenario/load';
import { FAULT_KINDS } from '../../faults/registry';
import { Rng } from '../../env/rng';
import { freshScenario } from './explorer';
import { reachOf } from './reach';
import { LAYOUTS } from './space';
import { WORKLOAD_KINDS } from './workloadDraws';

const files = [SCENARIOS_DIR, join(SCENARIOS_DIR, 'regressions')].flatMap((d) =>
  readdirSync(d)
    .filter(isScenarioFileName)
    .map((f) => join(d, f)),
);

describe('the explorer reaches what the scenario suite uses', () => {
  it('every item of every scenario file is in the space', () => {
    const missing: string[] = [];
    for (const file of files) {
      const s = loadScenario(file).scenario;
      for (const r of reachOf(s)) if (!r.reachable) missing.push(`${file.slice(SCENARIOS_DIR.length + 1)}: ${r.item}`);
    }
    expect(missing).toEqual([]);
  });

  it('fresh draws hold every fault kind, workload kind, layout and the suite values', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 3000; i++) {
      const s = freshScenario(Rng.forSeed(`reach-test/${i}`));
      for (const r of reachOf(s)) seen.add(r.item.replace(/^layout:(\d+):.*/, 'layout:$1'));
      seen.add(`described:${s.description}`);
    }
    for (const k of FAULT_KINDS) expect(seen, k).toContain(`fault:${k}`);
    for (const k of WORKLOAD_KINDS) expect(seen, k).toContain(`workload:${k}`);
    for (const l of LAYOUTS) expect(seen, l.name).toContain(`described:An explorer run (layout ${l.name}).`);
    for (const item of [
      'crypto:real',
      'buggify',
      'fault:crash@service',
      'fault:offlineProducer@sidechain',
      'param:sprint=64',
      'param:sendEnabled=false',
    ])
      expect(seen, item).toContain(item);
    // Every value a suite file uses, drawn at least once.
    const suite = new Set(files.flatMap((f) => reachOf(loadScenario(f).scenario).map((r) => r.item)));
    const values = [...suite].filter((x) => /^(param|network):/.test(x));
    expect(values.filter((x) => !seen.has(x))).toEqual([]);
  }, 60_000);
});
