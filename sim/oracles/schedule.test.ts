/**
 * The producer-schedule oracle on hand-built chains of three equal producers A < B < C, sprint 4
 * (A in turn for blocks 1-3, B for 4-7, C for 8-11, …): silent on a correct chain and a correct
 * backup block; fires on a block by a non-producer, a wrong difficulty (succession), a block before
 * its delay, a wrong or misplaced producer announcement, and a span commit that is not the
 * service's or not due. The backup-step-in half fires on an unexcused gap.
 */
import { describe, expect, it } from 'vitest';
import { type Observation, type SidechainBlockFact } from '../../src/node/observations';
import { SidechainModel } from './model/sidechainModel';
import { BackupStepInOracle, ProducerScheduleOracle } from './schedule';
import {
  PARAMS,
  PRODUCERS,
  address,
  block,
  commit,
  genesisRef,
  imported,
  inTurnChain,
  rec,
  serviceGenesis,
  sidechainStarted,
} from './testing/observations';

const [A, B, C] = PRODUCERS.map((p) => p.signer) as [string, string, string];

function harness(span0 = PRODUCERS) {
  const model = new SidechainModel(PARAMS);
  const oracle = new ProducerScheduleOracle(model);
  let t = 0;
  const feed = (obs: Observation) => {
    const r = rec(++t, 'sc-1', obs);
    model.observe(r);
    oracle.observe(r);
  };
  feed(
    serviceGenesis([
      {
        what: 'span',
        id: 0n,
        startBlock: 0n,
        endBlock: 15n,
        producers: span0,
        sidechainChainId: '15001',
        validators: [],
        proposer: null,
        proposerPower: null,
        proposerPriority: null,
        members: [],
      },
    ]),
  );
  feed(sidechainStarted());
  return { model, oracle, feed };
}

describe('producer-schedule oracle', () => {
  it('silent on in-turn blocks across sprint ends, and on a backup with difficulty N - 1 after its delay', () => {
    const { oracle, feed } = harness();
    const chain = inTurnChain(9);
    for (const b of chain) feed(imported(b));
    // Block 10 in C's sprint (8-11): A is one step after C (succession 1): difficulty 2, delay 2 + 2.
    feed(imported(block('x10', chain[8]!, { signer: A as `0x${string}`, difficulty: 2n, time: chain[8]!.time + 4n })));
    expect(oracle.violation).toBeNull();
  });

  it('fires on a block sealed by a signer outside the producer set', () => {
    const { oracle, feed } = harness();
    feed(imported(block('x1', genesisRef, { signer: address(9), difficulty: 3n })));
    expect(oracle.violation).toMatchObject({ oracle: 'producer-schedule', class: 'safety' });
    expect(oracle.violation!.message).toMatch(/not a producer of its parent's snapshot/);
  });

  it('fires on a difficulty that does not match the succession (backup claiming in-turn)', () => {
    const { oracle, feed } = harness();
    feed(imported(block('x1', genesisRef, { signer: B as `0x${string}`, difficulty: 3n, time: genesisRef.time + 4n })));
    expect(oracle.violation?.message).toMatch(/succession 1 after .* has difficulty 3, not N - succession = 2/);
  });

  it('fires on a block earlier than parent.time + delay(succession)', () => {
    const { oracle, feed } = harness();
    // B is the first backup in sprint 0: 2 + 1 × 2 = 4 s after its parent, not 2.
    feed(imported(block('x1', genesisRef, { signer: B as `0x${string}`, difficulty: 2n, time: genesisRef.time + 2n })));
    expect(oracle.violation?.message).toMatch(/earlier than parent.time .* \+ delay\(succession 1\)/);
    // A sprint start's in-turn block waits producerDelay (4 s), not the period.
    const s = harness();
    const chain = inTurnChain(3);
    for (const b of chain) s.feed(imported(b));
    s.feed(imported(block('x4', chain[2]!, { signer: B as `0x${string}`, difficulty: 3n, time: chain[2]!.time + 2n })));
    expect(s.oracle.violation?.message).toMatch(/block 4 .* earlier/);
  });

  it('fires on a sprint-end header announcing other producers, and on an announcement elsewhere', () => {
    const { oracle, feed } = harness();
    const chain = inTurnChain(3);
    feed(imported(chain[0]!));
    feed(imported(chain[1]!));
    feed(imported({ ...chain[2]!, announced: [{ address: A as `0x${string}`, power: 1n }] }));
    expect(oracle.violation?.message).toMatch(/sprint-end block 3 announces/);
    const s = harness();
    s.feed(imported({ ...chain[0]!, announced: PRODUCERS.map((p) => ({ address: p.signer, power: p.power })) }));
    expect(s.oracle.violation?.message).toMatch(/block 1 is not a sprint end but announces/);
  });

  const span1 = {
    what: 'span' as const,
    id: 1n,
    startBlock: 16n,
    endBlock: 31n,
    producers: [
      { id: 1n, signer: address(1), power: 2n },
      { id: 2n, signer: address(2), power: 1n },
    ],
    sidechainChainId: '15001',
    validators: [],
    proposer: null,
    proposerPower: null,
    proposerPriority: null,
    members: [],
  };
  const committed = (
    chain: SidechainBlockFact[],
    spanOver: Partial<NonNullable<SidechainBlockFact['spanCommit']>> = {},
  ) => {
    const c = chain.slice();
    c[3] = {
      ...c[3]!,
      spanCommit: { id: 1n, startBlock: 16n, endBlock: 31n, producers: span1.producers, ...spanOver },
    };
    return c;
  };

  it("a span committed on the sidechain is the service's, and its producers govern from its start", () => {
    const { model, oracle, feed } = harness();
    feed(commit(5n, { writes: [span1] }));
    const chain = committed(inTurnChain(15));
    // Block 15 (sprint end) announces span 1's producers for block 16.
    chain[14] = { ...chain[14]!, announced: span1.producers.map((p) => ({ address: p.signer, power: p.power })) };
    for (const b of chain) feed(imported(b));
    expect(oracle.violation).toBeNull();
    const snapshot = model.get(chain[14]!.hash)!.set;
    expect(snapshot.size).toBe(2);
    // C is no producer of span 1.
    feed(
      imported(block('c16', chain[14]!, { signer: C as `0x${string}`, difficulty: 2n, time: chain[14]!.time + 4n })),
    );
    expect(oracle.violation?.message).toMatch(/block 16 is sealed by .*03, not a producer/);
  });

  it('fires on a span commit that differs from the service, is not at a sprint start, or was never committed', () => {
    const differs = harness();
    differs.feed(commit(5n, { writes: [span1] }));
    for (const b of committed(inTurnChain(4), { producers: PRODUCERS })) differs.feed(imported(b));
    expect(differs.oracle.violation?.message).toMatch(/commits span 1: producers .* the service selected/);
    const unknown = harness();
    for (const b of committed(inTurnChain(4))) unknown.feed(imported(b));
    expect(unknown.oracle.violation?.message).toMatch(/the service never committed it/);
    const misplaced = harness();
    misplaced.feed(commit(5n, { writes: [span1] }));
    const chain = inTurnChain(3);
    chain[2] = { ...chain[2]!, spanCommit: { id: 1n, startBlock: 16n, endBlock: 31n, producers: span1.producers } };
    for (const b of chain) misplaced.feed(imported(b));
    expect(misplaced.oracle.violation?.message).toMatch(/not at a sprint start/);
  });

  it("fires when the sidechain's genesis producers are not the service's span 0", () => {
    const { oracle } = harness(PRODUCERS.slice(0, 2));
    expect(oracle.violation?.message).toMatch(/genesis producers .* are not span 0's/);
  });
});

describe('backup-step-in oracle', () => {
  const delays = { periodS: 2, producerDelayS: 4, sprint: 16, backupMultiplierS: 2 };
  it('a gap longer than the last backup delay fires, unless every producer was silenced', () => {
    const chain = [
      { number: 32n, time: 100n, producers: 4 },
      { number: 33n, time: 102n, producers: 4 },
      { number: 34n, time: 140n, producers: 4 },
    ];
    const o = new BackupStepInOracle(delays);
    o.checkChain('sc-1', 1000, chain, []);
    expect(o.violation?.message).toMatch(/no block between 102 and 140/);
    const excused = new BackupStepInOracle(delays);
    excused.checkChain('sc-1', 1000, chain, [[105n, 130n]]);
    expect(excused.violation).toBeNull();
  });
  it("a producer held back while it is the span's only producer: the gap is excused, not with a backup", () => {
    const chain = [
      { number: 32n, time: 100n, producers: 1 },
      { number: 33n, time: 102n, producers: 1 },
      { number: 34n, time: 111n, producers: 1 },
    ];
    const held: Array<[bigint, bigint]> = [[103n, 140n]];
    const sole = new BackupStepInOracle(delays);
    sole.checkChain('sc-1', 1000, chain, [], [], [], held);
    expect(sole.violation).toBeNull();
    const unheld = new BackupStepInOracle(delays);
    unheld.checkChain('sc-1', 1000, chain, [], []);
    expect(unheld.violation?.message).toMatch(
      /no block between 102 and 111 \(block 34\): no backup stepped in within 5 s/,
    );
    const withBackups = new BackupStepInOracle(delays);
    withBackups.checkChain(
      'sc-1',
      1000,
      chain.map((b) => ({ ...b, producers: 4, time: b.number === 34n ? 140n : b.time })),
      [],
      [],
      [],
      held,
    );
    expect(withBackups.violation?.message).toMatch(/no block between 102 and 140/);
  });
  it('a producer cut off from all the others: the gap before a block it made alone is excused, no other', () => {
    const chain = [
      { number: 32n, time: 100n, producers: 4, signer: '0xa' },
      { number: 33n, time: 102n, producers: 4, signer: '0xa' },
      { number: 34n, time: 140n, producers: 4, signer: '0xa' },
    ];
    const alone = [{ signer: '0xa', from: 101n, to: 150n }];
    const isolated = new BackupStepInOracle(delays);
    isolated.checkChain('sc-1', 1000, chain, [], alone);
    expect(isolated.violation).toBeNull();
    const other = new BackupStepInOracle(delays);
    other.checkChain(
      'sc-1',
      1000,
      chain.map((b, i) => (i === 2 ? { ...b, signer: '0xb' } : b)),
      [],
      alone,
    );
    expect(other.violation?.message).toMatch(/no block between 102 and 140/);
    const before = new BackupStepInOracle(delays);
    before.checkChain('sc-1', 1000, chain, [], [{ signer: '0xa', from: 141n, to: 150n }]);
    expect(before.violation?.message).toMatch(/no block between 102 and 140/);
  });

  it('a backup stamped later than its own delay (plus a second) fires, unless a fault could delay it', () => {
    // Block 2 (mid-sprint) by the first backup: delay 2 + 2 = 4 s; block 3 by the second: 2 + 4 = 6 s.
    const onTime = [
      { number: 1n, time: 100n, producers: 4, succession: 0 },
      { number: 2n, time: 104n, producers: 4, succession: 1 },
      { number: 3n, time: 111n, producers: 4, succession: 2 },
    ];
    const ok = new BackupStepInOracle(delays, 3n, 1n);
    ok.checkChain('sc-1', 1000, onTime, []);
    expect(ok.violation).toBeNull();
    expect(ok.exercised.has('sidechain.backup.stamp-delay')).toBe(true);
    // One wiggle late: the first backup at 2 + 2 × 2 = 6 s.
    const late = [onTime[0]!, { ...onTime[1]!, time: 106n }];
    const o = new BackupStepInOracle(delays, 3n, 1n);
    o.checkChain('sc-1', 1000, late, []);
    expect(o.violation?.message).toMatch(
      /block 2 by a backup \(succession 1\) is stamped 6 s after its parent: it stepped in later than its delay 4 s/,
    );
    const excused = new BackupStepInOracle(delays, 3n, 1n);
    excused.checkChain('sc-1', 1000, late, [], [], [[103n, 200n]]);
    expect(excused.violation).toBeNull();
  });
});
