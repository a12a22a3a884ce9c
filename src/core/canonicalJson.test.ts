import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonicalJson';
import { InvariantError } from './errors';

describe('canonical JSON', () => {
  it('sorts keys at every level, writes integers as strings, drops undefined members, escapes as Go does', () => {
    expect(
      canonicalJson({ b: 1, a: [2n, { d: 'x', c: null, e: undefined }, undefined], c: true, 'A<': '<&>\u2028' }),
    ).toBe('{"A\\u003c":"\\u003c\\u0026\\u003e\\u2028","a":["2",{"c":null,"d":"x"},null],"b":"1","c":true}');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
  });

  it('refuses what has no canonical form, naming where it is', () => {
    const fail = (v: unknown) => {
      try {
        canonicalJson(v);
      } catch (e) {
        expect(e).toBeInstanceOf(InvariantError);
        return e as InvariantError;
      }
      throw new Error('no error');
    };
    expect(fail({ a: [1, { b: 1.5 }] }).message).toMatch(/only integers/);
    expect(JSON.stringify(fail({ a: [1, { b: 1.5 }] }))).toMatch(/\$\.a\[1\]\.b/);
    expect(JSON.stringify(fail({ z: 1, y: [new Uint8Array(1)] }))).toMatch(/\$\.y\[0\]/);
    expect(fail({ f: () => 1 }).message).toMatch(/no canonical JSON form/);
    expect(fail(undefined).message).toMatch(/no canonical JSON form/);
    expect(JSON.stringify(fail(2.5))).toMatch(/"path":"\$"/);
  });
});
