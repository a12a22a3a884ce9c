import { describe, expect, it } from 'vitest';
import { heightBand, OUTLIER_LAG } from './heightBand';

describe('height band', () => {
  const timeMs = [0, 5_000, 10_000, 15_000];
  const heights = {
    'sc-1': [0, 2, 5, 7],
    'sc-2': [0, 3, 5, 7],
    'sc-3': [0, 3, 5, 6],
    'sc-4': [0, 3, 2, 2], // stalls: an outlier
    'sc-5': [0, 3, 5, 7],
  };

  it('min, lower median and max per sample; each node its lag behind the highest', () => {
    const b = heightBand(timeMs, heights, ['sc-1', 'sc-2', 'sc-3', 'sc-4', 'sc-5']);
    expect(b.min).toEqual([0, 2, 2, 2]);
    expect(b.median).toEqual([0, 3, 5, 7]);
    expect(b.max).toEqual([0, 3, 5, 7]);
    expect(b.nodes.map((l) => l.lag)).toEqual([
      [0, 1, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 1],
      [0, 0, 3, 5],
      [0, 0, 0, 0],
    ]);
    const sc4 = b.nodes[3]!;
    expect([sc4.maxLag, sc4.maxLagAtMs, sc4.behindSamples, sc4.farSamples]).toEqual([5, 15_000, 2, 2]);
    expect(b.nodes[1]!.maxLagAtMs).toBeNull();
  });

  it(`outliers are the nodes ${OUTLIER_LAG} or more blocks behind at some sample, furthest first`, () => {
    const b = heightBand(timeMs, { ...heights, 'sc-6': [0, 3, 3, 7] }, [
      'sc-1',
      'sc-2',
      'sc-3',
      'sc-4',
      'sc-5',
      'sc-6',
    ]);
    expect(b.outliers.map((l) => [l.node, l.maxLag])).toEqual([
      ['sc-4', 5],
      ['sc-6', 2],
    ]);
    // One block behind (a block on its way at the sample) is not an outlier.
    expect(b.outliers.some((l) => l.node === 'sc-1' || l.node === 'sc-3')).toBe(false);
  });

  it('a node without samples counts as height 0; the node list gives the order', () => {
    const b = heightBand(timeMs, heights, ['sc-5', 'sc-9']);
    expect(b.nodes.map((l) => l.node)).toEqual(['sc-5', 'sc-9']);
    expect(b.nodes[1]!.lag).toEqual([0, 3, 5, 7]);
  });
});
