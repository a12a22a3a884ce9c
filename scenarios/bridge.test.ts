/**
 * The bridge end to end: parent-chain events relayed by every validator at once take effect once.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../sim/scenario/load';
import { prepareRun } from '../sim/run/run';
import { ONE_TOKEN } from '../src/core/amount';
import { allAccounts } from '../src/modules/auth/keeper';
import { allDividendAccounts } from '../src/modules/topup/keeper';
import { allValidators } from '../src/modules/staking/keeper';
import { allRecords } from '../src/modules/clerk/keeper';
import { type ServiceNode } from '../src/node/service/serviceNode';

function supply(n: ServiceNode): bigint {
  let s = 0n;
  for (const a of allAccounts(n.app.store)) s += a.coins.matic ?? 0n;
  for (const d of allDividendAccounts(n.app.store)) s += d.feeAmount;
  return s;
}

describe('bridge relays', () => {
  it('duplicate relays mint each top-up once; stake update, exit, join and state syncs land once', () => {
    const { scenario } = loadScenario('bridge-relays');
    // The nodes' state after the run: the explicit live handle, not the (plain) result.
    const run = prepareRun(scenario, { seed: 1 });
    while (run.step() === 'more');
    const r = run.finish();
    expect(r.verdict).toBe('pass');
    const node = run.main.serviceNodes[0]!;
    const genesisSupply = 5n * 1000n * ONE_TOKEN + 4n * 1000n * ONE_TOKEN;
    // Three distinct top-ups of 30 tokens, each relayed by all five validators: 90 tokens minted.
    expect(supply(node) - genesisSupply).toBe(90n * ONE_TOKEN);
    // Relays beyond the first were refused by replay protection (some at deliver, some at post).
    const relays = r.main.records.filter(
      (x) => x.obs.kind === 'bridge.tx' && x.obs.msgType === 'topup/MsgTopup',
    ).length;
    expect(relays).toBeGreaterThan(3);

    const vals = allValidators(node.app.store);
    // restake adds to the stake: 100 + 250 tokens (StakeUpdate carries the new total).
    expect(vals.find((v) => v.id === 3n)!.power).toBe(350n);
    expect(vals.find((v) => v.id === 5n)!.endEpoch).toBeGreaterThan(0n);
    expect(vals.find((v) => v.id === 6n)?.power).toBe(20n);
    expect(allRecords(node.app.store).map((x) => x.id)).toEqual([1n, 2n, 3n, 4n]);
    // Every node agrees.
    for (const n of r.main.nodes) expect(n.appHash === node.app.appHash || n.height !== node.height).toBe(true);
  });
});
