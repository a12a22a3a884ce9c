import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Address } from '../core/address';
import { toHex } from '../core/bytes';
import { ValidatorSet } from '../core/validatorSet';
import { isSprintStart } from './sprint';
import { snapshotDifficulty } from './snapshot';
import { buildSprintChain } from './testing/sprintChain';

const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => toHex(b) as Address);
const producers = (maxPower: number) =>
  fc
    .uniqueArray(address, { minLength: 1, maxLength: 6 })
    .chain((addrs) =>
      fc.tuple(...addrs.map((a) => fc.integer({ min: 1, max: maxPower }).map((power) => ({ address: a, power })))),
    );

describe('proposer rotation properties', () => {
  it('the proposer changes only at sprint starts, and per sprint follows one priority round', () => {
    fc.assert(
      fc.property(
        producers(5),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 2, max: 12 }),
        (ps, sprint, sprints) => {
          const blocks = sprint * sprints;
          const { snapshots, proposers } = buildSprintChain(ps, sprint, blocks);
          // Model: the same producers re-announced = one increment per applied sprint-end header.
          const model = new ValidatorSet(ps);
          for (let n = 1; n <= blocks; n++) {
            expect(proposers[n], `block ${n}`).toBe(model.proposer.address);
            if (n >= 2 && proposers[n] !== proposers[n - 1])
              expect(isSprintStart(BigInt(n), sprint), `change at ${n}`).toBe(true);
            // The in-turn producer signs with difficulty N.
            expect(snapshotDifficulty(snapshots[n - 1]!, proposers[n]!)).toBe(BigInt(ps.length));
            if (n > 0 && (n + 1) % sprint === 0) model.incrementProposerPriority(1);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('with equal powers every sprint start hands over to the next producer in address order', () => {
    fc.assert(
      fc.property(
        producers(1).filter((ps) => ps.length >= 2),
        fc.integer({ min: 2, max: 8 }),
        (ps, sprint) => {
          const sorted = ps.map((p) => p.address).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          const blocks = sprint * (2 * ps.length + 1);
          const { proposers } = buildSprintChain(ps, sprint, blocks);
          for (let n = sprint; n <= blocks; n += sprint) {
            const prev = sorted.indexOf(proposers[n - 1]!);
            expect(proposers[n], `sprint start ${n}`).toBe(sorted[(prev + 1) % sorted.length]);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
