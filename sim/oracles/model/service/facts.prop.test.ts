/**
 * firstDifference names the first place two facts differ exactly as the plain recursive walk does
 * (path and wording): whatever the values, their nesting, hex case, missing or extra keys and
 * array lengths, and the path given.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstDifference } from './facts';

/** The walk as first written: a set of both objects' keys at each level, the path built as it goes. */
function reference(model: unknown, node: unknown, path = ''): string | null {
  if (typeof model === 'string' && typeof node === 'string')
    return model.toLowerCase() === node.toLowerCase() ? null : `${path || 'value'}: model ${model}, node ${node}`;
  if (model === null || node === null || typeof model !== 'object' || typeof node !== 'object')
    return model === node ? null : `${path || 'value'}: model ${show(model)}, node ${show(node)}`;
  if (Array.isArray(model) || Array.isArray(node)) {
    if (!Array.isArray(model) || !Array.isArray(node)) return `${path}: model ${show(model)}, node ${show(node)}`;
    for (let i = 0; i < Math.max(model.length, node.length); i++) {
      if (i >= model.length) return `${path}[${i}]: the model has no entry, node ${show(node[i])}`;
      if (i >= node.length) return `${path}[${i}]: model ${show(model[i])}, the node has no entry`;
      const d = reference(model[i], node[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  const m = model as Record<string, unknown>;
  const n = node as Record<string, unknown>;
  for (const k of new Set([...Object.keys(m), ...Object.keys(n)])) {
    const d = reference(m[k], n[k], path ? `${path}.${k}` : k);
    if (d) return d;
  }
  return null;
}

function show(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}` : x)) ?? 'undefined';
}

const leaf = fc.oneof(
  fc.constantFrom('0xAbC', '0xabc', '0xabd', 'x', 'X', ''),
  fc.bigInt({ min: -3n, max: 3n }),
  fc.integer({ min: -2, max: 2 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);
const key = fc.constantFrom('a', 'b', 'c', 'id', 'coins');
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('node'), { maxLength: 3 }),
  object: fc.dictionary(key, tie('node'), { maxKeys: 3 }),
}));

describe('firstDifference', () => {
  it('says what the plain walk says', () => {
    fc.assert(
      fc.property(value.node, value.node, fc.constantFrom('', 'record', 'x.y'), (a, b, path) => {
        expect(firstDifference(a, b, path)).toBe(reference(a, b, path));
        expect(firstDifference(a, a, path)).toBe(reference(a, a, path));
        expect(firstDifference(a, structuredClone(a), path)).toBe(reference(a, structuredClone(a), path));
      }),
      { numRuns: 2000 },
    );
  });
});
