import { describe, expect, it } from 'vitest';
import { type CampaignParams, campaignMarkdown, mergeShards, SHARD_KIND, type ShardFile } from './shardFile';
import { campaignRules } from '../rules/coverage';

const params: CampaignParams = {
  profile: 'swarm',
  durationMs: 1_800_000,
  crypto: 'fast',
  efficacyEvery: 10,
  plant: null,
  seeds: 8,
  timeBudgetMs: null,
};

function shard(index: number, over: Partial<ShardFile> = {}): ShardFile {
  const seeds = [index, index + 2, index + 4, index + 6];
  return {
    kind: SHARD_KIND,
    version: '0.1.0',
    commit: 'a'.repeat(40),
    params,
    shard: { index, count: 2 },
    seedRange: { first: seeds[0]!, last: seeds.at(-1)!, step: 2, count: 4 },
    wallMs: 1000 * index,
    seeds: 4,
    verdicts: index === 1 ? { pass: 3, safety: 1 } : { pass: 4 },
    failures:
      index === 1
        ? [
            {
              seed: 5,
              oracle: 'fork-choice',
              verdict: 'safety',
              violation: null,
              repro: 'npx lockstep replay --fuzz-seed 5',
            },
          ]
        : [],
    groups: index === 1 ? [{ oracle: 'fork-choice', message: 'heads differ', seeds: [5] }] : [],
    faults: { pause: { scheduled: 2, fired: 2, measured: 1, changed: 1 } },
    rules: campaignRules(
      index === 1
        ? [['auth.ante.fixed-fee', 'span.proposal.window'], ['auth.ante.fixed-fee'], ['auth.ante.fixed-fee'], []]
        : [['auth.ante.fixed-fee'], ['auth.ante.fixed-fee'], [], []],
    ),
    reach: {
      messages: { MsgSend: { delivered: 10, accepted: 9, refused: { 'sdk/4': 1 }, pending: 0 } },
      byzantine: {
        wrongChainId: {
          crafted: 2,
          delivered: 2,
          asExpected: 2,
          unjudged: 0,
          pending: 0,
          gossiped: 1,
          results: { 'sdk/4': 2 },
        },
      },
    },
    warnings: [],
    interrupted: false,
    ...over,
  };
}

const merge =
  (...xs: Array<[string, unknown]>) =>
  () =>
    mergeShards(xs.map(([dir, summary]) => ({ dir, summary })));

describe('merging fuzz shards', () => {
  it('adds up the shards of one campaign', () => {
    const m = mergeShards([
      { dir: 'b', summary: shard(2) },
      { dir: 'a', summary: shard(1) },
    ]);
    expect(m).toMatchObject({
      kind: 'lockstep-fuzz-merged',
      seeds: 8,
      verdicts: { pass: 7, safety: 1 },
      shardCount: 2,
      missingShards: [],
      wallMs: 2000,
      commit: 'a'.repeat(40),
    });
    expect(m.shards.map((s) => s.index)).toEqual([1, 2]);
    expect(m.faults.pause).toEqual({ scheduled: 4, fired: 4, measured: 2, changed: 2 });
    // The rules: the union over the shards, with the seeds that exercised each.
    expect(m.rules.exercised).toEqual({ 'auth.ante.fixed-fee': 5, 'span.proposal.window': 1 });
    expect(m.rules.neverExercised).not.toContain('span.proposal.window');
    expect(m.rules.neverExercised).toContain('bank.supply.conserved');
    const md = campaignMarkdown(m);
    expect(md).toContain(`| rules | 2 of ${2 + m.rules.neverExercised.length} oracle-guarded rules exercised`);
    expect(md).toMatch(/### Rules never exercised\n\n.*`bank\.supply\.conserved`/);
    expect(m.reach.messages.MsgSend).toEqual({ delivered: 20, accepted: 18, refused: { 'sdk/4': 2 }, pending: 0 });
    expect(m.reach.byzantine.wrongChainId).toMatchObject({ crafted: 4, delivered: 4, asExpected: 4, gossiped: 2 });
    expect(m.warnings).toContain('message type MsgMultiSend was never delivered');
    expect(md).toContain('| MsgSend | 20 | 18 | sdk/4×2 |');
    expect(md).toContain('| wrongChainId | 4 | 4 | 4 | 2 | sdk/4×4 |');
    expect(md).toMatch(/^## Fuzz campaign: 8 seeds, \*\*1 failing\*\*/);
    expect(md).toContain('| 1 | fork-choice | heads differ | 5 |');
    expect(md).toContain('Repro: `npx lockstep replay --fuzz-seed 5`');
  });

  it('refuses what would count wrong, each with a clear error', () => {
    expect(merge(['a', shard(1)], ['a', shard(1)])).toThrow(
      'dirs: shard 1/2 is given twice (a and a); its seeds would count twice',
    );
    expect(merge(['a', shard(1)], ['b', shard(2, { commit: 'b'.repeat(40) })])).toThrow(
      /^dirs: b comes from 0\.1\.0 at commit b{40} but a from 0\.1\.0 at commit a{40}: merge shards of one build only$/,
    );
    expect(merge(['a', shard(1)], ['b', shard(2, { params: { ...params, durationMs: 60_000 } })])).toThrow(
      'dirs: b ran with other parameters than a (durationMs: 60000 vs 1800000)',
    );
    expect(merge(['a', shard(1)], ['b', shard(2, { shard: { index: 2, count: 4 } })])).toThrow(
      /^dirs: b is shard 2\/4 but a is 1\/2/,
    );
    expect(merge(['a', shard(1)], ['b', { seed: 1, traceHash: '0x00', verdict: 'pass' }])).toThrow(
      'dirs: b is the report of one run (lockstep run), not a fuzz shard',
    );
    expect(merge(['a', shard(1)], ['m', { kind: 'lockstep-fuzz-merged' }])).toThrow(
      'dirs: m is already a merged summary; merge the shard folders themselves',
    );
    expect(merge(['old', { seeds: 4, verdicts: {}, failures: [] }])).toThrow(/^dirs: old is not a fuzz shard/);
    expect(merge(['a', shard(1)], ['b', shard(2, { seedRange: { first: 1, last: 7, step: 2, count: 4 } })])).toThrow(
      'dirs: seed 1 is in both a and b',
    );
    expect(merge()).toThrow('dirs: name at least one fuzz shard folder');
  });

  it('merges a shard written before the reach was counted as reaching nothing', () => {
    const { reach: _none, ...old } = shard(2);
    const m = mergeShards([
      { dir: 'a', summary: shard(1) },
      { dir: 'b', summary: old },
    ]);
    expect(m.reach.messages.MsgSend?.delivered).toBe(10);
  });

  it('says which shards are missing', () => {
    const m = mergeShards([{ dir: 'a', summary: shard(1) }]);
    expect(m.missingShards).toEqual([2]);
    expect(campaignMarkdown(m)).toContain('| shards | 1 of 2 (missing: 2/2) |');
  });
});
