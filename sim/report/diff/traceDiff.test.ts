/**
 * The first differing trace record, read generically: records of any shape (today's, compact ones
 * with other field names, lines that are not JSON), the same values in another key order are the
 * same record, and a trace that ends early differs where it ended.
 */
import { describe, expect, it } from 'vitest';
import { compareTraces } from './traceDiff';
import { NO_FILTER, comparedForm, keepRecord } from './traceFilter';
import { differingFields, sameRecord, viewRecord } from './traceRecord';

async function* stream(lines: string[]): AsyncGenerator<string> {
  yield* lines;
}

describe('trace records', () => {
  it('take time, kind and node from the common fields of any shape', () => {
    expect(viewRecord(3, '{"t":120,"seq":4,"kind":"net.deliver","target":"svc-2","data":{}}')).toMatchObject({
      index: 3,
      timeMs: 120,
      kind: 'net.deliver',
      node: 'svc-2',
    });
    expect(viewRecord(0, '{"timeMs":7,"k":"c","node":"sc-1","h":[1,2]}')).toMatchObject({
      timeMs: 7,
      kind: 'c',
      node: 'sc-1',
    });
    expect(viewRecord(0, 'not json')).toMatchObject({ timeMs: null, kind: null, node: null, line: 'not json' });
  });

  it('the same values in another key order are the same record; the differing fields are named', () => {
    expect(sameRecord('{"a":1,"b":{"c":2,"d":3}}', '{"b":{"d":3,"c":2},"a":1}')).toBe(true);
    expect(sameRecord('{"a":1}', '{"a":2}')).toBe(false);
    expect(differingFields('{"t":1,"data":{"h":5,"x":[1,2]}}', '{"t":1,"data":{"h":6,"x":[1,3]},"new":true}')).toEqual([
      { path: 'data.h', a: '5', b: '6' },
      { path: 'data.x[1]', a: '2', b: '3' },
      { path: 'new', a: '(absent)', b: 'true' },
    ]);
  });
});

describe('compareTraces', () => {
  it('names the first differing record and counts both traces to the end', async () => {
    const a = [
      '{"t":0,"kind":"x","target":"n1"}',
      '{"t":5,"kind":"y","target":"n2","data":{"v":1}}',
      '{"t":9,"kind":"z","target":"n3"}',
    ];
    const b = [a[0]!, '{"t":5,"kind":"y","target":"n2","data":{"v":2}}', a[2]!, '{"t":11,"kind":"w","target":"n4"}'];
    const c = await compareTraces(stream(a), stream(b));
    expect(c).toMatchObject({ recordsA: 3, recordsB: 4 });
    expect(c.first!.a).toMatchObject({ index: 1, timeMs: 5, kind: 'y', node: 'n2' });
    expect(c.first!.fields).toEqual([{ path: 'data.v', a: '1', b: '2' }]);
  });

  it('a trace that ends early differs where it ended; equal traces have no difference', async () => {
    const a = ['{"t":0}', '{"t":1}'];
    const early = await compareTraces(stream(a), stream([a[0]!]));
    expect(early.first).toMatchObject({ a: { index: 1, timeMs: 1 }, b: null });
    expect((await compareTraces(stream(a), stream(a))).first).toBeNull();
  });
});

describe('trace filters', () => {
  const a = [
    '{"t":0,"seq":-1,"kind":"genesis","target":"svc-1","data":{"key":"0xaa"}}',
    '{"t":5,"seq":3,"kind":"consensus.vote","target":"svc-1","data":{"v":1}}',
    '{"t":9,"seq":4,"kind":"consensus.vote","target":"svc-2","data":{"v":1}}',
    '{"t":12,"seq":5,"kind":"net.deliver","target":"svc-2","data":{}}',
  ];
  const b = [
    '{"t":0,"seq":-1,"kind":"genesis","target":"svc-1","data":{"key":"0xbb"}}',
    '{"t":5,"seq":4,"kind":"consensus.vote","target":"svc-1","data":{"v":1}}',
    '{"t":9,"seq":5,"kind":"consensus.vote","target":"svc-2","data":{"v":2}}',
    '{"t":13,"seq":6,"kind":"net.deliver","target":"svc-2","data":{}}',
  ];

  it('keeps records by kind (a prefix with *), node and time window', () => {
    const f = { ...NO_FILTER, kinds: ['consensus.*'], nodes: ['svc-2'], fromMs: 6, toMs: 10 };
    expect(a.map((l, i) => keepRecord(f, viewRecord(i, l)))).toEqual([false, false, true, false]);
  });

  it('leaves out the fields named, or compares only those given', () => {
    expect(comparedForm(a[1]!, { ignoreFields: ['seq', 'data.v'], onlyFields: null })).toBe(
      '{"t":5,"kind":"consensus.vote","target":"svc-1","data":{}}',
    );
    expect(comparedForm(a[1]!, { ignoreFields: [], onlyFields: ['t', 'kind'] })).toBe(
      '{"t":5,"kind":"consensus.vote"}',
    );
    expect(comparedForm('not json', { ignoreFields: ['seq'], onlyFields: null })).toBe('not json');
  });

  it('the first difference is the first that matters under the filter; indexes count the records kept', async () => {
    expect((await compareTraces(stream(a), stream(b))).first!.a!.index).toBe(0);
    const bySeq = await compareTraces(stream(a), stream(b), { ...NO_FILTER, ignoreFields: ['seq', 'data.key'] });
    expect(bySeq.first!.fields).toEqual([{ path: 'data.v', a: '1', b: '2' }]);
    const shape = await compareTraces(stream(a), stream(b), { ...NO_FILTER, onlyFields: ['t', 'kind', 'target'] });
    expect(shape.first!.a).toMatchObject({ index: 3, timeMs: 12 });
    expect(shape).toMatchObject({ recordsA: 4, comparedA: 4 });
    const votes = await compareTraces(stream(a), stream(b), {
      ...NO_FILTER,
      kinds: ['consensus.vote'],
      ignoreFields: ['seq'],
    });
    expect(votes).toMatchObject({ recordsA: 4, comparedA: 2, comparedB: 2 });
    expect(votes.first!.a).toMatchObject({ index: 1, timeMs: 9, node: 'svc-2' });
  });
});
