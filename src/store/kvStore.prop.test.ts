import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MemoryStore, withBranch, type KVStore } from './kvStore';

type Op = { t: 'set'; k: string; v: number } | { t: 'del'; k: string };
const key = fc.constantFrom('a/1', 'a/2', 'a/10', 'b/1', 'b/2', 'ab', 'c');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('set' as const), k: key, v: fc.integer() }),
  fc.record({ t: fc.constant('del' as const), k: key }),
);

function apply(store: KVStore, model: Map<string, number>, ops: Op[]): void {
  for (const o of ops) {
    if (o.t === 'set') {
      store.set(o.k, o.v);
      model.set(o.k, o.v);
    } else {
      store.delete(o.k);
      model.delete(o.k);
    }
  }
}

function view(model: Map<string, number>, prefix: string): Array<[string, number]> {
  return [...model.entries()]
    .filter(([k]) => k.startsWith(prefix))
    .sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
}

describe('MemoryStore and branches behave like a map', () => {
  it('nested branches: commit applies, discard drops, iteration is ordered', () => {
    fc.assert(
      fc.property(
        fc.array(op),
        fc.array(op),
        fc.array(op),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom('', 'a/', 'b', 'a'),
        (base, mid, inner, commitInner, commitMid, prefix) => {
          const root = new MemoryStore();
          const model = new Map<string, number>();
          apply(root, model, base);
          const rootBefore = root.hash();

          const b1 = root.branch();
          const m1 = new Map(model);
          apply(b1, m1, mid);
          const b2 = b1.branch();
          const m2 = new Map(m1);
          apply(b2, m2, inner);
          expect(b2.iterate(prefix)).toEqual(view(m2, prefix));
          for (const k of ['a/1', 'a/2', 'a/10', 'b/1', 'b/2', 'ab', 'c']) expect(b2.get(k)).toBe(m2.get(k));

          if (commitInner) b2.commit();
          else b2.discard();
          const expectedMid = commitInner ? m2 : m1;
          expect(b1.iterate(prefix)).toEqual(view(expectedMid, prefix));
          // Nothing reaches the root before the outer commit.
          expect(root.hash()).toBe(rootBefore);
          expect(root.iterate(prefix)).toEqual(view(model, prefix));

          if (commitMid) b1.commit();
          else b1.discard();
          const expectedRoot = commitMid ? expectedMid : model;
          expect(root.iterate('')).toEqual(view(expectedRoot, ''));
        },
      ),
    );
  });

  it('iteration stays ordered while keys come and go between iterations (the key order is kept incrementally)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(op, fc.record({ t: fc.constant('iter' as const), p: fc.constantFrom('', 'a/', 'b', 'a') }))),
        (ops) => {
          const root = new MemoryStore();
          const model = new Map<string, number>();
          for (const o of ops) {
            if (o.t === 'iter') {
              expect(root.iterate(o.p)).toEqual(view(model, o.p));
              expect(root.entries()).toEqual(view(model, ''));
            } else apply(root, model, [o]);
          }
          expect(root.iterate('')).toEqual(view(model, ''));
        },
      ),
    );
  });

  it('the hash is a function of the contents, not of the write history', () => {
    fc.assert(
      fc.property(fc.array(op), (ops) => {
        const a = new MemoryStore();
        const model = new Map<string, number>();
        apply(a, model, ops);
        const b = new MemoryStore();
        for (const [k, v] of [...model.entries()].reverse()) b.set(k, v);
        expect(a.hash()).toBe(b.hash());
      }),
    );
  });

  it('adopting a commit (its writes and hash delta) gives the state and hashes of running it', () => {
    fc.assert(
      fc.property(fc.array(op), fc.array(op), fc.array(op), (base, block, after) => {
        const a = new MemoryStore();
        const b = new MemoryStore();
        apply(a, new Map(), base);
        apply(b, new Map(), base);
        expect(b.hash()).toBe(a.hash());
        const branch = a.branch();
        apply(branch, new Map(), block);
        const writes = branch.changes();
        branch.commit();
        const { hash, delta } = a.hashWithDelta();
        expect(b.adopt(writes, delta)).toBe(hash);
        expect(b.entries()).toEqual(a.entries());
        // Later commits hash alike too: the adopted digests and bucket hashes are the right ones.
        apply(a, new Map(), after);
        apply(b, new Map(), after);
        expect(b.hash()).toBe(a.hash());
        const fresh = new MemoryStore();
        for (const [k, v] of a.entries()) fresh.set(k, v);
        expect(b.hash()).toBe(fresh.hash());
      }),
    );
  });

  it('adopt refuses a store with unhashed writes, or writes that touch other buckets than the delta', () => {
    const a = new MemoryStore();
    const branch = a.branch();
    branch.set('a/1', 1);
    const writes = branch.changes();
    branch.commit();
    const { delta } = a.hashWithDelta();
    const dirty = new MemoryStore();
    dirty.set('x', 1);
    expect(() => dirty.adopt(writes, delta)).toThrow(/writes since its last hash/);
    const other = new MemoryStore();
    other.hash();
    expect(() => other.adopt([['some/other/key', 2]], delta)).toThrow(/other buckets/);
  });

  it('withBranch commits only on ok', () => {
    const root = new MemoryStore();
    withBranch(root, (s) => {
      s.set('x', 1);
      return { ok: false };
    });
    expect(root.has('x')).toBe(false);
    withBranch(root, (s) => {
      s.set('x', 2);
      return { ok: true };
    });
    expect(root.get('x')).toBe(2);
    expect(() =>
      withBranch(root, (s) => {
        s.set('y', 1);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(root.has('y')).toBe(false);
  });

  it('a used branch cannot be reused', () => {
    const root = new MemoryStore();
    const b = root.branch();
    b.commit();
    expect(() => b.set('x', 1)).toThrow(/after it was committed/);
  });
});
