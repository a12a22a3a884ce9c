/**
 * The reference model against the real service app: random blocks of random transactions (every
 * message type, valid ones and broken ones: wrong chain id or sequence, a bad or missing signature,
 * a long memo, an unknown field, bad hex, unknown senders, wrong proposers, early no-acks, replays)
 * and random parent-chain events run through a TestChain; the app's results and writes are fed to
 * the model and its three oracles as a node would report them. The unmodified app must agree with
 * the model on every transaction, every side transaction and every record it writes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PlantName, withPlant } from '../../../../src/core/plants';
import { blockSpec, run } from '../../../testing/serviceModelHarness';

describe('the reference model of the service and the real app agree', () => {
  it('on every transaction, side transaction and written record of random blocks', () => {
    fc.assert(
      fc.property(
        fc.array(blockSpec, { minLength: 1, maxLength: 12 }),
        fc.array(fc.boolean(), { maxLength: 2 }),
        (blocks, rounds) => {
          expect(run(blocks, rounds).violations().join('\n')).toBe('');
        },
      ),
      { numRuns: Number(process.env.LOCKSTEP_MODEL_RUNS ?? 25) },
    );
  });
});

describe('the same runs with a planted service bug', () => {
  const caught = (plant: PlantName): string[] => {
    const found: string[] = [];
    withPlant(plant, () =>
      fc.assert(
        fc.property(fc.array(blockSpec, { minLength: 4, maxLength: 12 }), fc.boolean(), (blocks, adjust) => {
          found.push(...run(blocks, [adjust]).violations());
        }),
        { numRuns: 12 },
      ),
    );
    return found;
  };

  it.each<PlantName>(['send-debit', 'sequence-on-failure', 'rotation-on-ack', 'rotation-on-noack', 'topup-replay'])(
    '%s: the model disagrees with the app',
    (plant) => {
      expect(caught(plant).length).toBeGreaterThan(0);
    },
  );
});
