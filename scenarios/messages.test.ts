/**
 * Every message of the spec's client table, and every Byzantine kind, in one run of
 * `every-message`: each message type is delivered, accepted and refused; each Byzantine kind is put
 * by its sender into a block it proposed, that block commits, and the other nodes' DeliverTx (or
 * the side-tx tally) refuses it with the code the reference gives (sim/faults/crafts/);
 * the signer that rotated twice signs with its newest key on both chains.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../sim/scenario/load';
import { type RunResult, prepareRun } from '../sim/run/run';
import { type RunRecord } from '../sim/core/record';
import { DEFAULT_BYZANTINE_TXS } from '../sim/faults/byzantineTxs';
import { MESSAGE_NAMES } from '../sim/core/messageNames';
import { getValidator } from '../src/modules/staking/keeper';

let r: RunResult;
let records: RunRecord[];
let rotated: { service: string; producedWith: Set<string> };

beforeAll(() => {
  const { scenario } = loadScenario('every-message');
  records = [];
  const run = prepareRun(scenario, { seed: scenario.seed ?? 1, onRecord: (x) => void records.push(x) });
  while (run.step() === 'more');
  r = run.finish();
  const node = run.main.serviceNodes[1]!;
  const producedWith = new Set<string>();
  for (const x of r.sidechainRecords)
    if (x.node === 'sc-2' && x.obs.kind === 'sidechain.produced') producedWith.add(x.obs.signer);
  rotated = { service: getValidator(node.app.store, 2n)!.signer, producedWith };
}, 120_000);

describe('every message of the client table', () => {
  it('the run passes its oracles and expectations', () => {
    expect(r.verdict, r.message).toBe('pass');
  });

  it.each([...MESSAGE_NAMES.values()])('%s: delivered, accepted and refused', (name) => {
    const c = r.reach.messages[name]!;
    expect(c.accepted).toBeGreaterThan(0);
    expect(c.delivered - c.accepted - c.pending).toBeGreaterThan(0);
  });

  it('validator 2 rotated its signer twice: its service node and its sidechain node follow', () => {
    const ring = r.main.validators[1]!;
    // Its service node votes with the newest key, which the service has as its signer.
    const votes = records.filter(
      (x) =>
        x.node === 'svc-2' &&
        x.obs.kind === 'consensus.vote' &&
        x.obs.origin === 'consensus' &&
        x.obs.vote.validator === rotated.service,
    );
    expect(votes.length).toBeGreaterThan(10);
    expect(rotated.service).not.toBe(ring.signer);
    // Its sidechain node sealed blocks with its first key and with a rotated one.
    expect(rotated.producedWith.has(ring.signer)).toBe(true);
    expect([...rotated.producedWith].some((s) => s !== ring.signer)).toBe(true);
  });
});

// every-message takes the fault's default list; a kind added after it was frozen has a scenario of
// its own that expects it delivered and refused (noAckTooFar: noack-proposers.json).
describe('every Byzantine kind', () => {
  it.each(DEFAULT_BYZANTINE_TXS)(
    '%s: delivered by its own committed block and refused with the reference code',
    (kind) => {
      const b = r.reach.byzantine[kind]!;
      expect(b.delivered, 'delivered by a block it proposed').toBeGreaterThan(0);
      expect(b.asExpected, JSON.stringify(b.results)).toBeGreaterThan(0);
      // Every judged one got the reference's answer (the rest were not judged, or wait for their tally).
      expect(b.asExpected + b.unjudged + b.pending, JSON.stringify(b.results)).toBe(b.delivered);
      // The answer it got is the one its records name.
      const expects = new Set(
        records.flatMap((x) =>
          x.obs.kind === 'byzantine.tx' && x.obs.craft === kind && x.obs.expect
            ? x.obs.expect.codes.map((c) =>
                x.obs.kind === 'byzantine.tx' && x.obs.expect!.stage === 'side'
                  ? `side ${c}`
                  : `${x.obs.kind === 'byzantine.tx' ? x.obs.expect!.codespace : ''}/${c}`,
              )
            : [],
        ),
      );
      expect(
        [...Object.keys(b.results)].some((res) => expects.has(res)),
        JSON.stringify(b.results),
      ).toBe(true);
    },
  );
});
