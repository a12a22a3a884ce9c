/**
 * Supply conservation: on every node, balances plus withdrawn dividends change only by what
 * top-ups mint (fees move between accounts; withdrawals move coins into dividend accounts).
 */
import { Oracle, big, type Observation } from './oracle';

export class SupplyOracle extends Oracle {
  readonly name = 'supply-conservation';
  readonly class = 'safety' as const;
  private genesis: bigint | null = null;

  override observe(o: Observation): void {
    if (o.kind === 'service.genesis' && this.genesis === null) this.genesis = big(o.data.supply);
    if (o.kind !== 'service.commit' || o.data.supply === undefined || this.genesis === null) return;
    const supply = big(o.data.supply);
    const minted = big(o.data.minted);
    if (supply !== this.genesis + minted) {
      this.fail(
        o.t,
        o.node,
        `supply ${supply} != genesis ${this.genesis} + minted ${minted} at height ${o.data.height}`,
        {
          height: o.data.height,
          supply: supply.toString(),
          expected: (this.genesis + minted).toString(),
        },
      );
    }
  }
}

/** Top-up idempotency: a (tx_hash, log_index) is minted at most once on each node. */
export class TopupIdempotencyOracle extends Oracle {
  readonly name = 'topup-idempotency';
  readonly class = 'safety' as const;
  private readonly minted = new Map<string, Set<string>>();

  override observe(o: Observation): void {
    if (o.kind !== 'service.topupMinted') return;
    const key = `${o.data.txHash}/${o.data.logIndex}`;
    const seen = this.minted.get(o.node) ?? new Set();
    if (seen.has(key))
      this.fail(o.t, o.node, `top-up ${key} minted twice`, {
        txHash: o.data.txHash,
        logIndex: o.data.logIndex,
        height: o.data.height,
      });
    seen.add(key);
    this.minted.set(o.node, seen);
  }
}
