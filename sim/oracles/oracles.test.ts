/**
 * Every oracle fires on the bug it exists for (the rule broken on purpose) and stays silent on a
 * correct stream. An oracle that never fires proves nothing.
 */
import { describe, expect, it } from 'vitest';
import { type Observation } from './oracle';
import { ServiceSafetyOracle } from './serviceSafety';
import { SupplyOracle, TopupIdempotencyOracle } from './supply';
import { StateSyncOracle } from './stateSync';
import { SpanOracle } from './spans';
import { BackupStepInOracle, WiggleOracle } from './wiggle';
import { CheckpointOracle } from './checkpoints';
import { ConvergenceOracle, ForkChoiceOracle } from './forkChoice';
import { LivenessOracle } from './liveness';

const obs = (t: number, node: string, kind: string, data: Record<string, unknown>): Observation => ({
  t,
  node,
  kind,
  data,
});
const delays = { period: 2, producerDelay: 4, sprint: 16, wiggle: 2 };

describe('service safety oracle', () => {
  it('silent when nodes agree; fires on two blocks at one height and on diverging app hashes', () => {
    const ok = new ServiceSafetyOracle();
    ok.observe(obs(1, 'svc-1', 'service.commit', { height: '5', blockHash: '0xaa', appHash: '0x01' }));
    ok.observe(obs(2, 'svc-2', 'service.commit', { height: '5', blockHash: '0xaa', appHash: '0x01' }));
    expect(ok.violation).toBeNull();
    const fork = new ServiceSafetyOracle();
    fork.observe(obs(1, 'svc-1', 'service.commit', { height: '5', blockHash: '0xaa', appHash: '0x01' }));
    fork.observe(obs(2, 'svc-3', 'service.commit', { height: '5', blockHash: '0xbb', appHash: '0x01' }));
    expect(fork.violation).toMatchObject({
      oracle: 'service-safety',
      class: 'safety',
      atMs: 2,
      node: 'svc-3',
      message: 'two different blocks committed at height 5',
    });
    const app = new ServiceSafetyOracle();
    app.observe(obs(1, 'svc-1', 'service.commit', { height: '5', blockHash: '0xaa', appHash: '0x01' }));
    app.observe(obs(2, 'svc-2', 'service.commit', { height: '5', blockHash: '0xaa', appHash: '0x02' }));
    expect(app.violation?.message).toBe('app hashes differ after height 5');
  });
});

describe('supply and top-up oracles', () => {
  it('supply: only mints change it', () => {
    const o = new SupplyOracle();
    o.observe(obs(0, 'svc-1', 'service.genesis', { supply: '1000' }));
    o.observe(obs(1, 'svc-1', 'service.commit', { height: '1', supply: '1000', minted: '0' }));
    o.observe(obs(2, 'svc-1', 'service.commit', { height: '2', supply: '1050', minted: '50' }));
    expect(o.violation).toBeNull();
    o.observe(obs(3, 'svc-1', 'service.commit', { height: '3', supply: '1051', minted: '50' }));
    expect(o.violation).toMatchObject({ oracle: 'supply-conservation', node: 'svc-1', atMs: 3 });
  });
  it('top-up minted twice on one node', () => {
    const o = new TopupIdempotencyOracle();
    o.observe(obs(1, 'svc-1', 'service.topupMinted', { txHash: '0xt', logIndex: '0', height: '4' }));
    o.observe(obs(2, 'svc-2', 'service.topupMinted', { txHash: '0xt', logIndex: '0', height: '4' }));
    expect(o.violation).toBeNull();
    o.observe(obs(3, 'svc-1', 'service.topupMinted', { txHash: '0xt', logIndex: '0', height: '9' }));
    expect(o.violation?.message).toBe('top-up 0xt/0 minted twice');
  });
});

describe('state-sync oracle', () => {
  it('fires on a gap and on a repeat', () => {
    const o = new StateSyncOracle();
    o.observe(obs(1, 'sc-1', 'sidechain.stateSyncs', { number: '16', lastStateIdBefore: '0', ids: ['1', '2'] }));
    o.observe(obs(2, 'sc-1', 'sidechain.stateSyncs', { number: '32', lastStateIdBefore: '2', ids: ['3'] }));
    expect(o.violation).toBeNull();
    o.observe(obs(3, 'sc-2', 'sidechain.stateSyncs', { number: '48', lastStateIdBefore: '3', ids: ['5'] }));
    expect(o.violation?.message).toMatch(/state sync 5 committed where 4 was next/);
    const rep = new StateSyncOracle();
    rep.observe(obs(1, 'sc-1', 'sidechain.stateSyncs', { number: '16', lastStateIdBefore: '3', ids: ['3'] }));
    expect(rep.violation).not.toBeNull();
  });
});

describe('span oracle', () => {
  const vote = (head: number) =>
    obs(1, 'svc-1', 'side.vote', {
      type: 'sidechain/MsgProposeSpan',
      result: 'yes',
      head: String(head),
      currentStart: '0',
      currentEnd: '255',
      spanId: '1',
    });
  it('the spec window: n = StartBlock and EndBlock - 1 accepted, EndBlock refused', () => {
    for (const head of [0, 254]) {
      const o = new SpanOracle();
      o.observe(vote(head));
      expect(o.violation, `head ${head}`).toBeNull();
    }
    const o = new SpanOracle();
    o.observe(vote(255));
    expect(o.violation?.message).toBe('voted yes on span 1 with head 255 outside [0, 255)');
  });
  it('continuity and duration', () => {
    const good = new SpanOracle();
    good.observe(
      obs(1, 'svc-1', 'service.span', {
        id: '2',
        start: '1856',
        end: '3455',
        prevId: '1',
        prevEnd: '1855',
        spanDuration: '1600',
      }),
    );
    expect(good.violation).toBeNull();
    const gap = new SpanOracle();
    gap.observe(
      obs(1, 'svc-1', 'service.span', {
        id: '2',
        start: '1857',
        end: '3456',
        prevId: '1',
        prevEnd: '1855',
        spanDuration: '1600',
      }),
    );
    expect(gap.violation?.message).toMatch(/does not continue span 1/);
    const short = new SpanOracle();
    short.observe(
      obs(1, 'svc-1', 'service.span', {
        id: '2',
        start: '1856',
        end: '3000',
        prevId: '1',
        prevEnd: '1855',
        spanDuration: '1600',
      }),
    );
    expect(short.violation?.message).toMatch(/is 1145 blocks, not 1600/);
  });
});

describe('wiggle oracles', () => {
  const block = (time: number, succession: number, difficulty: number) =>
    obs(1, 'sc-1', 'sidechain.imported', {
      number: '33',
      time: String(time),
      parentTime: '100',
      succession,
      producers: 4,
      difficulty: String(difficulty),
    });
  it('no block before parent.time + delay(succession); difficulty = N - succession', () => {
    const ok = new WiggleOracle(delays);
    ok.observe(block(104, 1, 3));
    expect(ok.violation).toBeNull();
    const early = new WiggleOracle(delays);
    early.observe(block(103, 1, 3));
    expect(early.violation?.message).toMatch(/earlier than parent.time 100 \+ delay\(1\) = 4/);
    const diff = new WiggleOracle(delays);
    diff.observe(block(104, 1, 4));
    expect(diff.violation?.message).toMatch(/difficulty 4, expected N - succession = 3/);
  });
  it('a backup steps in: a gap longer than the last backup delay fires, unless every producer was silenced', () => {
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
    // Made by another producer (it had backups on its side), or outside the isolation: still a missed step-in.
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
});

describe('checkpoint oracle', () => {
  it('no-ack only after the buffer time', () => {
    const ok = new CheckpointOracle();
    ok.observe(
      obs(1, 'svc-1', 'checkpoint.noack', { blockTimeMs: '2000000', lastCheckpointS: '1000', bufferMs: '1000000' }),
    );
    expect(ok.violation).toBeNull();
    const early = new CheckpointOracle();
    early.observe(
      obs(1, 'svc-1', 'checkpoint.noack', { blockTimeMs: '1999999', lastCheckpointS: '1000', bufferMs: '1000000' }),
    );
    expect(early.violation?.message).toMatch(/only 999999 ms after the last checkpoint/);
  });
  it('rotation by exactly one', () => {
    const o = new CheckpointOracle();
    o.observe(obs(1, 'svc-1', 'checkpoint.rotation', { event: 'ack', expected: '0xb', actual: '0xb' }));
    expect(o.violation).toBeNull();
    o.observe(obs(2, 'svc-1', 'checkpoint.rotation', { event: 'no-ack', expected: '0xc', actual: '0xd' }));
    expect(o.violation?.message).toMatch(/after no-ack the proposer is 0xd, not 0xc/);
  });
  it('contiguous acked checkpoints, and acked roots equal the sidechain', () => {
    const o = new CheckpointOracle();
    o.observe(obs(1, 'svc-1', 'checkpoint.acked', { number: '1', start: '0', end: '63', root: '0xr1' }));
    o.observe(obs(2, 'svc-1', 'checkpoint.acked', { number: '2', start: '64', end: '127', root: '0xr2' }));
    expect(o.violation).toBeNull();
    o.checkRoots(3, 'sc-1', (s) => (s === 0n ? '0xr1' : '0xr2'));
    expect(o.violation).toBeNull();
    o.checkRoots(3, 'sc-1', (s) => (s === 0n ? '0xr1' : '0xother'));
    expect(o.violation?.message).toMatch(/checkpoint 2 acked root 0xr2 but the sidechain's root of 64..127 is 0xother/);
    const gap = new CheckpointOracle();
    gap.observe(obs(1, 'svc-1', 'checkpoint.acked', { number: '1', start: '0', end: '63', root: '0xr1' }));
    gap.observe(obs(2, 'svc-1', 'checkpoint.acked', { number: '2', start: '65', end: '127', root: '0xr2' }));
    expect(gap.violation?.message).toMatch(/does not follow 1 ending at 63/);
  });
});

describe('fork-choice oracles', () => {
  it('head must be the heaviest known; reorg depth bounded', () => {
    const o = new ForkChoiceOracle(5);
    o.observe(obs(1, 'sc-1', 'sidechain.headCheck', { head: '0xa', heaviest: '0xa' }));
    o.observe(obs(2, 'sc-1', 'sidechain.reorg', { depth: 5 }));
    expect(o.violation).toBeNull();
    o.observe(obs(3, 'sc-2', 'sidechain.headCheck', { head: '0xa', heaviest: '0xb' }));
    expect(o.violation?.message).toBe('head 0xa is not the heaviest known chain 0xb');
    const deep = new ForkChoiceOracle(5);
    deep.observe(obs(2, 'sc-1', 'sidechain.reorg', { depth: 6 }));
    expect(deep.violation?.message).toMatch(/depth 6 exceeds the scenario's bound 5/);
  });
  it('convergence after heal', () => {
    const ok = new ConvergenceOracle();
    ok.check(1, [
      { node: 'sc-1', number: 100n, hashAt: '0xh' },
      { node: 'sc-2', number: 99n, hashAt: '0xh' },
    ]);
    expect(ok.violation).toBeNull();
    const split = new ConvergenceOracle();
    split.check(1, [
      { node: 'sc-1', number: 100n, hashAt: '0xh' },
      { node: 'sc-2', number: 100n, hashAt: '0xg' },
    ]);
    expect(split.violation?.message).toMatch(/disagree/);
    const behind = new ConvergenceOracle();
    behind.check(1, [
      { node: 'sc-1', number: 100n, hashAt: '0xh' },
      { node: 'sc-2', number: 90n, hashAt: '0xh' },
    ]);
    expect(behind.violation?.message).toMatch(/10 blocks behind/);
  });
});

describe('liveness oracle', () => {
  const bounds = { serviceMs: 30_000, sidechainMs: 20_000, checkpointMs: null };
  it('fires when nothing commits within the bound after the heal', () => {
    const o = new LivenessOracle(bounds);
    o.observe(obs(10_000, '', 'fault.start', {}));
    o.observe(obs(60_000, '', 'fault.end', {}));
    o.observe(obs(65_000, 'sc-1', 'sidechain.imported', {}));
    o.observe(obs(70_000, 'svc-1', 'service.commit', {}));
    o.finish(200_000);
    expect(o.violation).toBeNull();
    const stuck = new LivenessOracle(bounds);
    stuck.observe(obs(10_000, '', 'fault.start', {}));
    stuck.observe(obs(20_000, 'svc-1', 'service.commit', {}));
    stuck.observe(obs(60_000, '', 'fault.end', {}));
    stuck.observe(obs(65_000, 'sc-1', 'sidechain.imported', {}));
    stuck.finish(200_000);
    expect(stuck.violation).toMatchObject({
      class: 'liveness',
      message: 'no service block within 30 s after the faults healed at 60 s',
    });
  });
  it('says nothing while a fault is still open, or when the run ends too soon after the heal', () => {
    const open = new LivenessOracle(bounds);
    open.observe(obs(10_000, '', 'fault.start', {}));
    open.finish(200_000);
    expect(open.violation).toBeNull();
    const short = new LivenessOracle(bounds);
    short.observe(obs(10_000, '', 'fault.start', {}));
    short.observe(obs(190_000, '', 'fault.end', {}));
    short.finish(200_000);
    expect(short.violation).toBeNull();
  });
});
