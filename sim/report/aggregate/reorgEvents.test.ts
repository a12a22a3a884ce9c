import { describe, expect, it } from 'vitest';
import { faultGroups } from './faultGroups';
import { reorgEvents } from './reorgEvents';

describe('reorg events', () => {
  it('the same switch on many nodes is one event with its nodes and its first and last time', () => {
    const x = (node: string, atMs: number, depth = 35, ancestor = '70', newHead = '0xn1') => ({
      node,
      atMs,
      depth,
      ancestor,
      newHead,
    });
    const events = reorgEvents([
      x('sc-72', 337_020),
      x('sc-71', 337_010),
      x('sc-1', 303_000, 18, '94', '0xn2'),
      x('sc-73', 337_000),
      x('sc-71', 400_000), // the same switch again on sc-71: counted, the node listed once
      x('sc-74', 337_000, 35, '70', '0xother'),
    ]);
    // By first time; at the same time, the deeper first, then by ancestor and new head.
    expect(events.map((e) => [e.depth, e.ancestor, e.newHead, e.nodes, e.firstMs, e.lastMs, e.count])).toEqual([
      [18, '94', '0xn2', ['sc-1'], 303_000, 303_000, 1],
      [35, '70', '0xn1', ['sc-71', 'sc-72', 'sc-73'], 337_000, 400_000, 4],
      [35, '70', '0xother', ['sc-74'], 337_000, 337_000, 1],
    ]);
  });
});

describe('fault groups', () => {
  it('faults of one kind that fire and heal together are one group with ranges of targets', () => {
    const f = (index: number, detail: string, startMs = 150_000, endMs: number | null = 330_000, kind = 'crash') => ({
      index,
      kind,
      detail,
      startMs,
      endMs,
    });
    const groups = faultGroups([
      f(0, 'svc-71'),
      f(1, 'sc-71'),
      f(2, 'svc-72'),
      f(3, 'sc-72'),
      f(4, 'svc-73'),
      f(5, 'sc-73'),
      f(6, 'sc-1', 200_000),
      f(7, 'sc-2', 150_000, null),
      f(8, 'validator 3', 150_000, 330_000, 'offlineProducer'),
    ]);
    expect(groups.map((g) => [g.kind, g.startMs, g.endMs, g.indexes, g.text])).toEqual([
      ['crash', 150_000, 330_000, [0, 1, 2, 3, 4, 5], 'sc-71–sc-73, svc-71–svc-73'],
      ['crash', 200_000, 330_000, [6], 'sc-1'],
      ['crash', 150_000, null, [7], 'sc-2'],
      ['offlineProducer', 150_000, 330_000, [8], 'validator 3'],
    ]);
  });
});
