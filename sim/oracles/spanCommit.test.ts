/**
 * The span-commit oracle on hand-built chains (three equal producers, sprint 4, span 0 up to block
 * 15): span 1 is due at the first sprint start (block 4). Silent when block 4 commits it, or when the
 * producer's service node had it too recently to have fetched it, or while a fault was in force;
 * fires when a sprint start at or after the due block leaves out a span the producer had long had.
 */
import { describe, expect, it } from 'vitest';
import { type RunObservation } from '../core/record';
import { type Observation, type SidechainBlockFact } from '../../src/node/observations';
import { SidechainModel } from './model/sidechainModel';
import { SpanCommitOracle } from './spanCommit';
import {
  PARAMS,
  PRODUCERS,
  commit,
  imported,
  inTurnChain,
  rec,
  serviceGenesis,
  sidechainStarted,
} from './testing/observations';

const FETCH_MS = 5_000;
const SPAN1 = { id: 1n, startBlock: 16n, endBlock: 31n, producers: PRODUCERS };

function harness() {
  const model = new SidechainModel(PARAMS);
  const oracle = new SpanCommitOracle(model, { fetchMs: FETCH_MS });
  const feed = (t: number, node: string, obs: RunObservation) => {
    const r = rec(t, node, obs);
    model.observe(r);
    oracle.observe(r);
  };
  feed(
    0,
    'svc-1',
    serviceGenesis([
      {
        what: 'span',
        id: 0n,
        startBlock: 0n,
        endBlock: 15n,
        producers: PRODUCERS,
        sidechainChainId: '15001',
        validators: [],
        proposer: null,
        proposerPower: null,
        proposerPriority: null,
        members: [],
      },
    ]),
  );
  feed(0, 'sc-1', { ...sidechainStarted(), serviceNode: 'svc-1' } as Observation);
  return { oracle, feed };
}

/** The service node stores span 1 at `atMs`. */
const storeSpan1 = (feed: ReturnType<typeof harness>['feed'], atMs: number) =>
  feed(
    atMs,
    'svc-1',
    commit(1n, {
      writes: [
        {
          what: 'span',
          ...SPAN1,
          sidechainChainId: '15001',
          validators: [],
          proposer: null,
          proposerPower: null,
          proposerPriority: null,
          members: [],
        },
      ],
    }),
  );

/** Produce and import `blocks` at sc-1, one second apart from `fromMs`. */
function produce(feed: ReturnType<typeof harness>['feed'], blocks: SidechainBlockFact[], fromMs: number): void {
  blocks.forEach((b, i) => {
    const t = fromMs + i * 1000;
    feed(t, 'sc-1', {
      kind: 'sidechain.produced',
      number: b.number,
      hash: b.hash,
      signer: b.signer,
      difficulty: b.difficulty,
    });
    feed(t, 'sc-1', imported(b));
  });
}

const withCommit = (chain: SidechainBlockFact[]): SidechainBlockFact[] =>
  chain.map((b) => (b.number === 4n ? { ...b, spanCommit: { ...SPAN1 } } : b));

describe('span-commit oracle', () => {
  it('is silent when the first sprint start commits span 1', () => {
    const { oracle, feed } = harness();
    storeSpan1(feed, 1000);
    produce(feed, withCommit(inTurnChain(6)), 10_000);
    expect(oracle.violation).toBeNull();
    expect(oracle.exercised.has('sidechain.span.commit-block')).toBe(true);
  });

  it('is silent when the producer could not have fetched the span yet', () => {
    const { oracle, feed } = harness();
    // Block 4 is produced at 13 s; the span was stored at 10 s, less than a fetch before.
    storeSpan1(feed, 10_000);
    produce(feed, inTurnChain(6), 10_000);
    expect(oracle.violation).toBeNull();
  });

  it('is silent while a fault was in force between the store and the block', () => {
    const { oracle, feed } = harness();
    storeSpan1(feed, 1000);
    const f = { index: 0, fault: 'crash', detail: 'sc-1', permanent: false, atHeight: null };
    feed(2000, '', { kind: 'fault.start', ...f });
    feed(3000, '', { kind: 'fault.end', ...f });
    produce(feed, inTurnChain(6), 10_000);
    expect(oracle.violation).toBeNull();
  });

  it('fires when a due sprint start leaves out a span its producer had long had (a late commit)', () => {
    const { oracle, feed } = harness();
    storeSpan1(feed, 1000);
    produce(feed, inTurnChain(6), 10_000);
    expect(oracle.violation).toMatchObject({ oracle: 'span-commit', class: 'safety', node: 'sc-1' });
    expect(oracle.violation!.message).toMatch(
      /block 4 \(a sprint start, span 1 due from block 4\) does not commit span 1/,
    );
  });
});
