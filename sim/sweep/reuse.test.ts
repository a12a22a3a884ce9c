/**
 * A resumed sweep keeps a finished run only when it is the same run from the same source tree, and
 * says why it runs the others again.
 */
import { describe, expect, it } from 'vitest';
import { type SweepJob, type SweepRunRecord } from '../campaign/sweepTask';
import { decideReuse } from './reuse';

const job = (seed: number, source = { commit: 'c1', dirty: null as string | null }): SweepJob =>
  ({ cell: 'a', seed, scenarioSha256: `s${seed}`, metrics: [], drawn: {}, source }) as unknown as SweepJob;
const run = (seed: number, source: SweepRunRecord['source'] | undefined, sha = `s${seed}`): SweepRunRecord =>
  ({ cell: 'a', seed, scenarioSha256: sha, source }) as unknown as SweepRunRecord;
const never = () => false;

describe('decideReuse', () => {
  const now = { commit: 'c1', dirty: null };
  const jobs = [1, 2, 3, 4].map((s) => job(s));

  it('keeps runs of the same commit and the same (no) uncommitted changes', () => {
    const d = decideReuse([run(1, now), run(2, now)], jobs, now, never);
    expect([...d.kept.keys()]).toHaveLength(2);
    expect(d.rerun).toEqual([]);
  });

  it('runs again what uncommitted changes made, and says so', () => {
    const d = decideReuse([run(1, { commit: 'c1', dirty: 'aaaa1111ffff' }), run(2, now)], jobs, now, never);
    expect(d.kept.size).toBe(1);
    expect(d.rerun).toEqual([
      { reason: 'they were made with uncommitted changes aaaa1111 and this tree has none', runs: 1 },
    ]);
    const dirtyNow = { commit: 'c1', dirty: 'bbbb2222' };
    const e = decideReuse([run(1, now)], jobs, dirtyNow, never);
    expect(e.rerun[0]!.reason).toBe('they were made from a clean tree and this tree has uncommitted changes bbbb2222');
    // The same uncommitted changes are the same tree.
    expect(decideReuse([run(1, dirtyNow)], jobs, dirtyNow, never).kept.size).toBe(1);
  });

  it('keeps runs of another commit only when git shows the simulation unchanged between the two', () => {
    const old = { commit: 'c0', dirty: null };
    expect(decideReuse([run(1, old)], jobs, now, () => true).kept.size).toBe(1);
    const d = decideReuse([run(1, old)], jobs, now, never);
    expect(d.rerun[0]!.reason).toBe(
      "they were made at commit c0 and the simulation's code changed since (this tree: commit c1)",
    );
    expect(decideReuse([run(1, { commit: null, dirty: null })], jobs, now, () => true).kept.size).toBe(0);
  });

  it("runs again a run whose cell's scenario changed, or that predates source records; drops runs not in the sweep", () => {
    const d = decideReuse([run(1, now, 'other'), run(2, undefined), run(9, now)], jobs, now, never);
    expect(d.kept.size).toBe(0);
    expect(d.dropped).toBe(1);
    expect(d.rerun.map((r) => r.reason)).toEqual([
      "their cell's scenario changed (the sweep file or its base scenario)",
      'they were made before runs recorded their source tree',
    ]);
  });
});
