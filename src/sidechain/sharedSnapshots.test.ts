import { describe, expect, it } from 'vitest';
import { clearCaches } from '../core/memo';
import { buildExtra, makeHeader } from './header';
import { applyHeader, snapshotProposer, snapshotToJSON } from './snapshot';
import { sharedApplyHeader, sharedGenesisSnapshot } from './sharedSnapshots';
import { GENESIS_HASH } from './testing/sprintChain';

const producers = [
  { address: '0x1000000000000000000000000000000000000001', power: 3n, id: 1n },
  { address: '0x2000000000000000000000000000000000000002', power: 1n, id: 2n },
];

function headerOn(parent: { number: bigint; hash: `0x${string}` }) {
  return makeHeader({
    number: parent.number + 1n,
    parentHash: parent.hash,
    time: 1000n + parent.number,
    difficulty: 2n,
    extraData: buildExtra(),
  });
}

describe('snapshots shared between the nodes of a process', () => {
  it('one genesis snapshot per genesis hash and producers', () => {
    clearCaches();
    const a = sharedGenesisSnapshot(producers, GENESIS_HASH);
    expect(sharedGenesisSnapshot([...producers], GENESIS_HASH)).toBe(a);
    expect(sharedGenesisSnapshot([producers[0]!], GENESIS_HASH)).not.toBe(a);
    expect(sharedGenesisSnapshot(producers, `0x${'cd'.repeat(32)}`)).not.toBe(a);
  });

  it('the same parent and header give the same child object, equal to what applyHeader computes', () => {
    clearCaches();
    const g = sharedGenesisSnapshot(producers, GENESIS_HASH);
    const h = headerOn(g);
    const signer = snapshotProposer(g);
    const child = sharedApplyHeader(g, h, signer, 16n);
    expect(sharedApplyHeader(g, h, signer, 16n)).toBe(child);
    expect(snapshotToJSON(child)).toEqual(snapshotToJSON(applyHeader(g, h, signer, 16n)));
  });

  it('another parent object, signer or sprint is never served the cached child', () => {
    clearCaches();
    const g = sharedGenesisSnapshot(producers, GENESIS_HASH);
    const h = headerOn(g);
    const first = sharedApplyHeader(g, h, producers[0]!.address, 16n);
    const other = sharedApplyHeader(g, h, producers[1]!.address, 16n);
    expect(other).not.toBe(first);
    expect(other.recents.get(1n)).toBe(producers[1]!.address);
    expect(first.recents.get(1n)).toBe(producers[0]!.address);
    expect(sharedApplyHeader(g, h, producers[0]!.address, 8n)).not.toBe(first);
    // An equal parent in another object computes its own child.
    const g2 = { ...g };
    expect(sharedApplyHeader(g2, h, producers[0]!.address, 16n)).not.toBe(first);
  });

  it('a header the parent refuses throws every time (nothing cached)', () => {
    clearCaches();
    const g = sharedGenesisSnapshot(producers, GENESIS_HASH);
    const h = headerOn(g);
    const stranger = '0x3000000000000000000000000000000000000003';
    expect(() => sharedApplyHeader(g, h, stranger, 16n)).toThrow(/not a part of the producer set/);
    expect(() => sharedApplyHeader(g, h, stranger, 16n)).toThrow(/not a part of the producer set/);
  });
});
