/**
 * The state-sync oracles: records only at sprint starts, in id order from the parent chain's last
 * id, older than the confirmation delay; a record emitted in calm weather lands within its bound.
 */
import { describe, expect, it } from 'vitest';
import { type Observation, type SidechainBlockFact } from '../../src/node/observations';
import { SidechainModel } from './model/sidechainModel';
import { StateSyncLatencyOracle, StateSyncOracle } from './stateSync';
import { GENESIS_TIME, PARAMS, hash, imported, inTurnChain, rec, sidechainStarted } from './testing/observations';

function harness() {
  const model = new SidechainModel(PARAMS);
  const oracle = new StateSyncOracle(model);
  const latency = new StateSyncLatencyOracle(model, 60_000);
  let t = 0;
  const feed = (obs: Observation) => {
    const r = rec(++t, 'sc-1', obs);
    model.observe(r);
    oracle.observe(r);
    latency.observe(r);
  };
  feed(sidechainStarted());
  return { model, oracle, latency, feed };
}

const syncs = (ids: number[], timeS = GENESIS_TIME - 100n) => ids.map((id) => ({ id: BigInt(id), timeS }));
const withSyncs = (chain: SidechainBlockFact[], at: Record<number, number[]>) =>
  chain.map((b) => (at[Number(b.number)] ? { ...b, stateSyncs: syncs(at[Number(b.number)]!) } : b));

describe('state-sync oracle', () => {
  it('silent on sequential records at sprint starts', () => {
    const { oracle, feed } = harness();
    for (const b of withSyncs(inTurnChain(8), { 4: [1, 2], 8: [3] })) feed(imported(b));
    expect(oracle.violation).toBeNull();
  });
  it('fires on records committed at a sprint end instead of a sprint start', () => {
    const { oracle, feed } = harness();
    for (const b of withSyncs(inTurnChain(3), { 3: [1] })) feed(imported(b));
    expect(oracle.violation).toMatchObject({ oracle: 'state-sync', class: 'safety' });
    expect(oracle.violation!.message).toMatch(/block 3 commits state syncs 1 but is not a sprint start/);
  });
  it('fires on a gap and on a repeat along a chain', () => {
    const gap = harness();
    for (const b of withSyncs(inTurnChain(8), { 4: [1, 2], 8: [4] })) gap.feed(imported(b));
    expect(gap.oracle.violation?.message).toMatch(/state sync 4 committed in block 8 where 3 was next/);
    const again = harness();
    for (const b of withSyncs(inTurnChain(8), { 4: [1], 8: [1] })) again.feed(imported(b));
    expect(again.oracle.violation?.message).toMatch(/state sync 1 committed in block 8 where 2 was next/);
  });
  it('fires on a record newer than the confirmation delay allows', () => {
    const { oracle, feed } = harness();
    const chain = inTurnChain(4);
    chain[3] = { ...chain[3]!, stateSyncs: [{ id: 1n, timeS: chain[3]!.time - 5n }] };
    for (const b of chain) feed(imported(b));
    expect(oracle.violation?.message).toMatch(/before the 10 s confirmation delay passed/);
  });
});

describe('state-sync latency oracle', () => {
  const emitted = (id: number, timeMs: number): Observation => ({
    kind: 'parent.block',
    number: 1n,
    hash: hash(`p${id}`),
    timeMs,
    txs: 1,
    events: [
      {
        event: 'StateSynced',
        txHash: hash(`s${id}`),
        logIndex: 0n,
        data: '0x',
        id: BigInt(id),
        contract: hash('c').slice(0, 42) as `0x${string}`,
      },
    ],
  });
  const startMs = Number(GENESIS_TIME) * 1000;

  it('a record emitted in calm weather must be on the final chain within the bound', () => {
    const { latency, feed } = harness();
    feed(emitted(1, startMs));
    const chain = withSyncs(inTurnChain(40), { 8: [1] });
    for (const b of chain) feed(imported(b));
    latency.finish(0, 'sc-1', chain[39]!.hash, startMs + 200_000, () => true);
    expect(latency.violation).toBeNull();
    const missing = harness();
    missing.feed(emitted(1, startMs));
    const bare = inTurnChain(40);
    for (const b of bare) missing.feed(imported(b));
    missing.latency.finish(0, 'sc-1', bare[39]!.hash, startMs + 200_000, () => true);
    expect(missing.latency.violation?.message).toMatch(/state sync 1, emitted at .* is not on the canonical chain/);
    // Not calm: no judgement.
    const stormy = harness();
    stormy.feed(emitted(1, startMs));
    for (const b of bare) stormy.feed(imported(b));
    stormy.latency.finish(0, 'sc-1', bare[39]!.hash, startMs + 200_000, () => false);
    expect(stormy.latency.violation).toBeNull();
  });
});
