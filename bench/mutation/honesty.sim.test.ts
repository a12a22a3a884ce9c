/**
 * The oracle stage proves it is honest: the unmodified code passes the campaign it uses (a
 * baseline that fails stops it), a mutant known to be wrong is killed by an oracle, a mutant that
 * is harmless on the campaign survives, and a harness that switches on the wrong mutant stops
 * itself. Small campaigns (one or two short scenarios, one worker) keep it quick; the bench runs
 * the same code on the full campaign.
 */
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../cli/provenance';
import { CONTROL_MUTANT } from './campaign';
import { type MutantInfo, instrument } from './population';
import { BaselineFailure, HarnessError, runOracleStage } from './oracleStage';

const root = PACKAGE_ROOT;

async function mutantsOf(file: string): Promise<MutantInfo[]> {
  return (await instrument(root, [file])).mutants.map(({ strykerId: _, ...m }) => m);
}

const bufferTime = await mutantsOf(CONTROL_MUTANT.file);
const control = bufferTime.find(
  (m) => m.original === CONTROL_MUTANT.original && m.replacement === CONTROL_MUTANT.replacement,
)!;
// Buffer expiry never changes a run of smoke (no checkpoint waits in the buffer that long): a
// mutant the campaign cannot see.
const unseen = bufferTime.find(
  (m) =>
    m.mutator === 'ConditionalExpression' &&
    m.replacement === 'false' &&
    m.original.startsWith('buf.timestamp === 0n ||'),
)!;
const smoke = { scenarios: ['scenarios/smoke.json'], swarmSeeds: 0, swarmDurationMs: 60_000 };

describe('the oracle stage', () => {
  it('passes the baseline, kills the known-bad control by an oracle, and lets a harmless mutant survive', async () => {
    const r = await runOracleStage([unseen], { root, workers: 1, campaign: smoke, control });
    expect(r.baseline.map((b) => b.outcome)).toEqual(['pass']);
    // The buffered checkpoint's timestamp is a state write: the reference model of the service
    // (service-state) sees it wrong at the write, before checkpoint-timeouts sees a wrong expiry.
    expect(r.control).toMatchObject({ status: 'killed', kind: 'safety', oracle: 'service-state', run: 'smoke' });
    expect(r.results.get(unseen.key)).toMatchObject({ status: 'survived', reached: true, runs: 1 });
  }, 300_000);

  it('stops when the unmodified code fails the campaign', async () => {
    // byzantine-over-third expects a safety violation: its verdict is not a pass.
    const campaign = { ...smoke, scenarios: ['scenarios/byzantine-over-third.json'] };
    await expect(runOracleStage([unseen], { root, workers: 1, campaign })).rejects.toThrow(BaselineFailure);
  }, 300_000);

  it('stops when a mutant its baseline run executes is never switched on', async () => {
    await expect(
      runOracleStage([control], { root, workers: 1, campaign: smoke, switchedOn: () => 'no-such-mutant' }),
    ).rejects.toThrow(HarnessError);
  }, 300_000);

  it('stops when the control survives', async () => {
    await expect(runOracleStage([], { root, workers: 1, campaign: smoke, control: unseen })).rejects.toThrow(
      /control mutant .* survived/,
    );
  }, 300_000);
});
