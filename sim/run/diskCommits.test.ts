/**
 * What a service node's disk keeps of each block's commit, in a whole run: for every height a later
 * block committed, the canonical commit that later block carries (the same object on every node,
 * as a CometBFT block store answers LoadBlockCommit from block h+1's LastCommit); for its last
 * height only, the node's own seen commit. Sync answers and restarts read the disk.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../scenario/load';
import { prepareRun } from './run';

describe('the commits on a service node disk', () => {
  it('are the next block’s canonical commit below the tip, the node’s own seen commit at the tip', () => {
    const { scenario } = loadScenario('smoke');
    const run = prepareRun({ ...scenario, crypto: 'fast' }, { seed: 5, untilMs: 60_000 });
    while (run.step() === 'more');
    const nodes = run.main.serviceNodes;
    const byHeight = new Map<bigint, unknown>();
    let checked = 0;
    for (const node of nodes) {
      const disk = node.disk;
      expect(disk.length).toBeGreaterThan(5);
      for (let i = 0; i < disk.length; i++) {
        const cb = disk[i]!;
        const h = cb.block.height;
        // Every commit held has precommits for its own block (the oracles judge their power).
        const forBlock = cb.commit.filter(
          (v) => v.type === 'precommit' && v.height === h && v.blockHash === cb.blockHash,
        );
        expect(forBlock.length, `${node.id} height ${h}`).toBeGreaterThan(0);
        if (i + 1 < disk.length) {
          expect(cb.commit, `${node.id} height ${h}: the next block's last commit`).toBe(disk[i + 1]!.block.lastCommit);
          const seen = byHeight.get(h);
          if (seen === undefined) byHeight.set(h, cb.commit);
          else expect(cb.commit, `height ${h}: one commit object on every node`).toBe(seen);
          checked++;
        } else {
          // The tip's commit is the node's own: what its next proposal would carry.
          expect(cb.commit).toBe(
            (node as unknown as { driver: { commitForNextBlock: unknown } }).driver.commitForNextBlock,
          );
        }
      }
    }
    expect(checked).toBeGreaterThan(5 * nodes.length);
    run.finish();
  });
});
