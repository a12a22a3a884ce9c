/**
 * quote writes any string as JSON.stringify does with Go's HTML escapes (<, >, &, U+2028, U+2029
 * as \u00XX): the shortcut for strings that need no escape must not change a single character.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quote } from './canonicalJson';

const slow = (s: string): string =>
  JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe('quote', () => {
  it('is JSON.stringify with the HTML escapes, for any string', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.string({
            unit: fc.constantFrom(
              'a',
              '0',
              'x',
              '"',
              '\\',
              '\n',
              '\u0000',
              '\u001f',
              '<',
              '>',
              '&',
              '\u2028',
              '\u2029',
              '\ud800',
              '\udc00',
              'é',
              '\u007f',
            ),
          }),
        ),
        (s) => {
          expect(quote(s)).toBe(slow(s));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
