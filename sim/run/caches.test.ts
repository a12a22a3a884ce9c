/**
 * The process-wide caches only save work: a run from cold caches and the same run from the caches
 * another run left warm give the same trace hash. Every cache of a run is registered by name, with
 * its bound and hit rate, and `clearCaches` empties them all.
 */
import { describe, expect, it } from 'vitest';
import { cacheStats, clearCaches } from '../../src/core/memo';
import { loadScenario } from '../scenario/load';
import { runScenario } from './run';

/** The caches a run uses (the sidechain JSON-RPC's are loaded only by a devnet). */
const EXPECTED = [
  'app.decodedTxs',
  'consensus.blockHashes',
  'consensus.voteDigests',
  'hashRules.checkpointRoots',
  'kvStore.bucketHashes',
  'kvStore.valueDigests',
  'observationJson.frozenFacts',
  'parentView.decodedLogs',
  'reporting.sideTxFacts',
  'reporting.txFacts',
  'reporting.voteFacts',
  'reporting.writeFacts',
  'domain.timerDescriptions',
  'secp256k1.publicKeys',
  'secp256k1.recoveredSigners',
  'secp256k1.signersByKey',
  'serviceNode.checkedCommits',
  'serviceNode.genesisSets',
  'serviceNode.verifiedProposals',
  'serviceNode.verifiedVotes',
  'sidechain.accountRoots',
  'sidechain.blockRuns',
  'sidechain.decodedTxs',
  'sidechain.headerHashes',
  'sidechain.sealHashes',
  'sidechain.stateRoots',
  'sidechain.systemStateRoots',
  'sidechain.txRoots',
  'sidechainFacts.blocks',
  'sidechainFacts.heads',
  'sidechainNode.headerSummaries',
  'signatureScheme.fastVerified',
  'signatureScheme.signingKeys',
  'staking.parsedValidatorSets',
  'validatorSet.addressIndexes',
  'validatorSet.advanced',
  'stdTx.signDigests',
];

describe('process-wide caches', () => {
  const { scenario } = loadScenario('smoke');
  const run = () => runScenario({ ...scenario, crypto: 'fast' }, { seed: 5, untilMs: 90_000 });

  it('a run registers its caches by name; they pay (hits) and clearCaches empties them', () => {
    clearCaches();
    run();
    const stats = cacheStats();
    const names = stats.map((s) => s.name);
    for (const n of EXPECTED) expect(names, n).toContain(n);
    const byName = new Map(stats.map((s) => [s.name, s]));
    // The nodes of a run ask the same questions: these answer most of them from the cache.
    for (const n of ['consensus.blockHashes', 'signatureScheme.fastVerified', 'staking.parsedValidatorSets'])
      expect(byName.get(n)!.hits, n).toBeGreaterThan(byName.get(n)!.misses);
    for (const s of stats) if (s.kind === 'bounded') expect(s.size!, s.name).toBeLessThanOrEqual(s.bound!);
    clearCaches();
    for (const s of cacheStats()) {
      expect(s.hits + s.misses, s.name).toBe(0);
      if (s.size !== null) expect(s.size, s.name).toBe(0);
    }
  });

  it('the same trace hash from cold caches and from caches another run left warm', () => {
    clearCaches();
    const cold = run();
    const warm = run();
    expect(warm.traceHash).toBe(cold.traceHash);
    expect(warm.events).toBe(cold.events);
  });
});
