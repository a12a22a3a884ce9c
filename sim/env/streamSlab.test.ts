import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Rng } from './rng';
import { StreamSlab } from './streamSlab';

describe('StreamSlab', () => {
  it('each stream yields exactly what the Rng of its path yields, draw by draw, whatever the interleaving', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.tuple(fc.nat(39), fc.oneof(fc.constant('float'), fc.constant('int'), fc.constant('bool'))), {
          maxLength: 300,
        }),
        fc.nat(),
        (streams, draws, seed) => {
          const root = Rng.forSeed(seed).fork('net');
          const slab = new StreamSlab();
          const refs: Rng[] = [];
          for (let i = 0; i < streams; i++) {
            expect(slab.add(root.forkState(`link:${i}`))).toBe(i);
            refs.push(root.fork(`link:${i}`));
          }
          for (const [which, kind] of draws) {
            const i = which % streams;
            if (kind === 'float') expect(slab.float(i)).toBe(refs[i]!.float());
            else if (kind === 'int') expect(slab.int(i, 20, 120)).toBe(refs[i]!.int(20, 120));
            else expect(slab.bool(i, 0.3)).toBe(refs[i]!.bool(0.3));
          }
        },
      ),
    );
  });
});
