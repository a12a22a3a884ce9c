/** Service safety: no two different blocks at one height, and equal app hashes after each height. */
import { Oracle, str } from './oracle';
import { type Observation } from './oracle';

export class ServiceSafetyOracle extends Oracle {
  readonly name = 'service-safety';
  readonly class = 'safety' as const;
  private readonly byHeight = new Map<string, { node: string; blockHash: string; appHash: string }>();

  override observe(o: Observation): void {
    if (o.kind !== 'service.commit') return;
    const h = str(o.data.height);
    const mine = { node: o.node, blockHash: str(o.data.blockHash), appHash: str(o.data.appHash) };
    const seen = this.byHeight.get(h);
    if (!seen) {
      this.byHeight.set(h, mine);
      return;
    }
    if (seen.blockHash !== mine.blockHash)
      this.fail(o.t, o.node, `two different blocks committed at height ${h}`, {
        height: h,
        [seen.node]: seen.blockHash,
        [o.node]: mine.blockHash,
      });
    else if (seen.appHash !== mine.appHash)
      this.fail(o.t, o.node, `app hashes differ after height ${h}`, {
        height: h,
        [seen.node]: seen.appHash,
        [o.node]: mine.appHash,
      });
  }
}
