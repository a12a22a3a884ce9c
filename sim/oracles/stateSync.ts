/** State-sync ids on each sidechain node's chain are sequential: no gap, no repeat. */
import { Oracle, big, type Observation } from './oracle';

export class StateSyncOracle extends Oracle {
  readonly name = 'state-sync-sequential';
  readonly class = 'safety' as const;

  override observe(o: Observation): void {
    if (o.kind !== 'sidechain.stateSyncs') return;
    const ids = (o.data.ids as unknown[]).map(big);
    let expected = big(o.data.lastStateIdBefore) + 1n;
    for (const id of ids) {
      if (id !== expected) {
        this.fail(o.t, o.node, `state sync ${id} committed where ${expected} was next (block ${o.data.number})`, {
          number: o.data.number,
          ids: ids.map(String),
          expected: expected.toString(),
        });
        return;
      }
      expected++;
    }
  }
}
