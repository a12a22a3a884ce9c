/**
 * The order of a connection's notifications for one chain change: the logs a reorg removed
 * (removed: true) come before any notification of the new blocks, whichever subscription was made
 * first, as geth sends its removed-logs event before the new chain's events.
 */
import { describe, expect, it } from 'vitest';
import { chainReadPort } from '../../sidechain/readPort';
import { buildFixtureChain } from '../testing/sidechainPort';
import { SubscriptionSet } from './subscriptions';

describe('SubscriptionSet.notifications', () => {
  it('removed logs first, then the new headers and logs', () => {
    const chain = buildFixtureChain(14);
    const port = chainReadPort(chain);
    let n = 0;
    const subs = new SubscriptionSet(() => `0x${(++n).toString(16)}`);
    expect(subs.subscribe('eth_subscribe', ['newHeads'])).toEqual({ ok: true, id: '0x1' });
    expect(subs.subscribe('eth_subscribe', ['logs', {}])).toEqual({ ok: true, id: '0x2' });
    const old = chain.byNumber(10n)!;
    expect(port.activity(old).logs.length).toBeGreaterThan(0);
    const added = [chain.byNumber(12n)!, chain.byNumber(13n)!];
    const texts = subs.notifications({ removed: [old], added }, port);
    const kinds = texts.map((t) => {
      const r = (JSON.parse(t) as { params: { subscription: string; result: { removed?: boolean } } }).params;
      return r.subscription === '0x1' ? 'head' : r.result.removed ? 'removed' : 'log';
    });
    const firstNew = kinds.findIndex((k) => k !== 'removed');
    expect(firstNew).toBe(port.activity(old).logs.length);
    expect(kinds.slice(firstNew).includes('removed')).toBe(false);
    expect(kinds.filter((k) => k === 'head')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'log')).toHaveLength(added.reduce((k, b) => k + port.activity(b).logs.length, 0));
  });
});
