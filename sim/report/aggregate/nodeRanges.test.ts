import { describe, expect, it } from 'vitest';
import { compareNodeIds, nodeRangeItems, nodeRanges } from './nodeRanges';

describe('node lists as ranges', () => {
  it('runs of three or more consecutive ids become a range; pairs stay two ids', () => {
    expect(nodeRangeItems(['sc-1', 'sc-4', 'sc-5', 'sc-6', 'sc-7', 'sc-8', 'sc-9', 'sc-11', 'sc-12'])).toEqual([
      'sc-1',
      'sc-4–sc-9',
      'sc-11',
      'sc-12',
    ]);
    expect(nodeRanges(['sc-2', 'sc-3'])).toBe('sc-2, sc-3');
  });

  it('orders by prefix then number, whatever the input order, and counts each id once', () => {
    const ids = ['svc-10', 'sc-10', 'sc-9', 'sc-8', 'svc-9', 'svc-8', 'sc-8', 'parent'];
    expect(nodeRanges(ids)).toBe('parent, sc-8–sc-10, svc-8–svc-10 (7 nodes)');
    expect(nodeRanges([...ids].reverse())).toBe(nodeRanges(ids));
    expect(['sc-10', 'sc-2', 'sc-1'].sort(compareNodeIds)).toEqual(['sc-1', 'sc-2', 'sc-10']);
  });

  it('a long list is cut after maxItems with the count, a short one is whole', () => {
    const odd = Array.from({ length: 50 }, (_, i) => `sc-${2 * i + 1}`);
    expect(nodeRanges(odd, { maxItems: 3 })).toBe('sc-1, sc-3, sc-5, … (50 nodes)');
    expect(nodeRanges(odd)).toContain('sc-99 (50 nodes)');
    expect(nodeRanges(['sc-1', 'sc-2', 'sc-3'], { countFrom: 3 })).toBe('sc-1–sc-3 (3 nodes)');
    expect(nodeRanges(['sc-1', 'sc-2', 'sc-3'])).toBe('sc-1–sc-3');
    expect(nodeRanges([])).toBe('');
  });

  it('ids without a number, or under another prefix, never join a range', () => {
    expect(nodeRangeItems(['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(nodeRangeItems(['sc-1', 'svc-2', 'sc-3'])).toEqual(['sc-1', 'sc-3', 'svc-2']);
  });
});
