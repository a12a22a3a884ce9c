/**
 * A producer's node seals with whichever of its keys the span lists: the key its validator rotated
 * to on the parent chain takes over once a span names it, and a node with no listed key plans nothing.
 */
import { describe, expect, it } from 'vitest';
import { SidechainChain } from '../../sidechain/chain';
import { FIXTURE_CONFIG, fixtureKeys, fixtureProducers } from '../../sidechain/testing/fixture';
import { BlockProduction } from './production';

const keys = fixtureKeys('production-test');
const later = fixtureKeys('production-test-rotated');
const never = () => 0;
const bends = { delayS: () => 0, sealEarly: () => false, notBeforeS: () => null };

describe('block production with a key ring', () => {
  it('plans and seals with the key the span lists (its first key listed or not)', () => {
    // The span's producers: the first three fixture keys and a rotated key in the fourth's place.
    const producers = fixtureProducers([...keys.slice(0, 3), later[0]!]);
    const chain = new SidechainChain(FIXTURE_CONFIG, { timeS: 1000n, producers });
    const node = new BlockProduction(
      chain,
      [keys[3]!, later[0]!].map((k) => ({ address: k.address, privateKey: k.sk })),
      false,
    );
    const timer = node.plan(1_000_000, never, bends);
    expect(timer).not.toBeNull();
    const plan = node.due(timer!.parentHash)!;
    expect(plan.key.address).toBe(later[0]!.address);
    const block = node.build(plan, { span: () => null, stateSyncs: () => [], txs: [], balances: [] });
    expect(chain.import(block, 10n ** 12n, 0)).toMatchObject({ status: 'imported' });
    expect(chain.head().block.signer).toBe(later[0]!.address);
  });

  it('plans nothing when none of its keys is a producer', () => {
    const chain = new SidechainChain(FIXTURE_CONFIG, { timeS: 1000n, producers: fixtureProducers(keys.slice(0, 3)) });
    const node = new BlockProduction(chain, [{ address: keys[3]!.address, privateKey: keys[3]!.sk }], false);
    expect(node.plan(1_000_000, never, bends)).toBeNull();
  });
});
