/** What the spans always satisfy: ids 0..last with no gap, each span starting where the one before ended, each with producers. */
import { type Invariant } from '../framework/module';
import { allSpans, continuesSpan, getLastSpan } from './keeper';

export const SPAN_INVARIANTS: readonly Invariant[] = [
  {
    name: 'contiguous',
    check(store) {
      const spans = allSpans(store);
      for (let i = 0; i < spans.length; i++) {
        const s = spans[i]!;
        if (s.id !== BigInt(i)) return `span ${s.id} is stored where span ${i} belongs`;
        if (s.endBlock < s.startBlock) return `span ${s.id} ends (${s.endBlock}) before it starts (${s.startBlock})`;
        if (s.selectedProducers.length === 0) return `span ${s.id} has no producers`;
        const prev = spans[i - 1];
        if (prev && !continuesSpan(prev, s.startBlock))
          return `span ${s.id} starts at ${s.startBlock}, span ${prev.id} ended at ${prev.endBlock}`;
      }
      const last = getLastSpan(store);
      if (spans.length > 0 && last?.id !== BigInt(spans.length - 1))
        return `the last span id is ${last?.id}, the spans go to ${spans.length - 1}`;
      return null;
    },
  },
];
