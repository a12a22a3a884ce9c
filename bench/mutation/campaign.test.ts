/**
 * The oracle campaign's runs: every scenario of the subset with fast crypto, but for those that
 * run in their own crypto (a real-crypto scenario whose point shows only there), then the swarm.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENARIOS, OWN_CRYPTO_SCENARIOS, campaignRuns } from './campaign';

const ROOT = join(import.meta.dirname, '..', '..');

describe('the oracle campaign', () => {
  it('runs the subset with fast crypto, the own-crypto scenarios in theirs, then the swarm seeds', () => {
    const runs = campaignRuns({ scenarios: [...DEFAULT_SCENARIOS], swarmSeeds: 2, swarmDurationMs: 60_000 });
    expect(runs.filter((r) => r.kind === 'swarm').map((r) => r.kind === 'swarm' && r.seed)).toEqual([1, 2]);
    const scenarios = runs.flatMap((r) => (r.kind === 'scenario' ? [r] : []));
    expect(scenarios.map((r) => r.file)).toEqual(DEFAULT_SCENARIOS);
    expect(scenarios.filter((r) => !r.fastCrypto).map((r) => r.file)).toEqual(['scenarios/sidechain-fast-signed.json']);
  });

  it('every own-crypto scenario is in the subset and names real crypto', () => {
    for (const file of OWN_CRYPTO_SCENARIOS) {
      expect(DEFAULT_SCENARIOS).toContain(file);
      expect(JSON.parse(readFileSync(join(ROOT, file), 'utf8')).crypto, file).toBe('real');
    }
  });
});
