/** The span oracle: the spec's proposal window, continuity and duration of the stored spans. */
import { describe, expect, it } from 'vitest';
import { type Observation, type StateWrite } from '../../src/node/observations';
import { SpanOracle } from './spans';
import { PRODUCERS, commit, hash, rec, serviceGenesis } from './testing/observations';

const vote = (head: bigint | null, v: 'yes' | 'no' | 'skip' = 'yes'): Observation => ({
  kind: 'side.vote',
  height: 3n,
  txHash: hash('span'),
  spanId: 1n,
  vote: v,
  head,
  currentStart: 0n,
  currentEnd: 255n,
});
const span = (id: bigint, start: bigint, end: bigint): StateWrite => ({
  what: 'span',
  id,
  startBlock: start,
  endBlock: end,
  producers: PRODUCERS,
  sidechainChainId: '15001',
  validators: [],
  proposer: null,
  proposerPower: null,
  proposerPriority: null,
  members: [],
});

function run(obs: Observation[]): SpanOracle {
  const o = new SpanOracle();
  obs.forEach((x, i) => {
    o.observe(rec(i + 1, 'svc-1', x));
  });
  return o;
}

describe('span oracle', () => {
  it('the window: n = StartBlock and EndBlock - 1 accepted, EndBlock and an unknown head refused', () => {
    expect(run([vote(0n)]).violation).toBeNull();
    expect(run([vote(254n)]).violation).toBeNull();
    expect(run([vote(255n, 'skip')]).violation).toBeNull();
    expect(run([vote(255n)]).violation).toMatchObject({
      oracle: 'span-window-and-continuity',
      message: 'voted yes on span 1 with head 255 outside [0, 255)',
    });
    expect(run([vote(null)]).violation?.message).toMatch(/head unknown outside/);
  });

  it('stored spans continue the previous one and last one span duration (16 in the test genesis)', () => {
    const g = serviceGenesis([span(0n, 0n, 15n)]);
    expect(run([g, commit(5n, { writes: [span(1n, 16n, 31n)] })]).violation).toBeNull();
    expect(run([g, commit(5n, { writes: [span(1n, 17n, 32n)] })]).violation?.message).toMatch(
      /span 1 \(17..32\) does not continue span 0 ending at 15/,
    );
    expect(run([g, commit(5n, { writes: [span(2n, 16n, 31n)] })]).violation?.message).toMatch(/does not continue/);
    expect(run([g, commit(5n, { writes: [span(1n, 16n, 40n)] })]).violation?.message).toMatch(
      /span 1 is 25 blocks, not 16/,
    );
  });
});
