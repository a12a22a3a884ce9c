/** Service safety: no two different blocks at one height, and equal app hashes after each height. */
import { Oracle, type RunRecord } from './oracle';

export class ServiceSafetyOracle extends Oracle {
  readonly name = 'service-safety';
  readonly class = 'safety' as const;
  readonly reads = ['service.commit'] as const;
  private readonly byHeight = new Map<bigint, { node: string; blockHash: string; appHash: string }>();

  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind !== 'service.commit') return;
    const h = o.height;
    const mine = { node: r.node, blockHash: o.blockHash, appHash: o.appHash };
    const seen = this.byHeight.get(h);
    if (!seen) {
      this.byHeight.set(h, mine);
      return;
    }
    this.saw('consensus.safety.one-block-per-height');
    this.saw('app.state.same-on-every-node');
    if (seen.blockHash !== mine.blockHash)
      this.fail(r.t, r.node, `two different blocks committed at height ${h}`, {
        height: h,
        [seen.node]: seen.blockHash,
        [r.node]: mine.blockHash,
      });
    else if (seen.appHash !== mine.appHash)
      this.fail(r.t, r.node, `app hashes differ after height ${h}`, {
        height: h,
        [seen.node]: seen.appHash,
        [r.node]: mine.appHash,
      });
  }
}
