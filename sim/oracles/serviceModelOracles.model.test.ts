/**
 * The service-model oracles fire on every divergence: a scripted run through the real app (every
 * kind of record written, every message type delivered, side transactions tallied) is replayed into
 * a fresh model with one field of one report changed, for every field of every record a node wrote,
 * every transaction's result and every side transaction's tally and result. Each change must be
 * caught, and the message must name what differs. The unchanged replay passes.
 */
import { describe, expect, it } from 'vitest';
import { type RunRecord } from './oracle';
import { ServiceModel } from './model/service/serviceModel';
import { QueryAnswersOracle, ServiceStateOracle, SideTxResultsOracle, TxResultsOracle } from './serviceModelOracles';
import { checkpointRound, Harness, makeTx, type TxSpec } from '../testing/serviceModelHarness';

const spec = (kind: TxSpec['kind'], over: Partial<TxSpec> = {}): TxSpec => ({
  kind,
  sender: 0,
  target: 0,
  amount: 2,
  flag: true,
  brk: 'none',
  ...over,
});

/** A run that writes every kind of record and delivers every kind of message. */
function scriptedRun(): Harness {
  const h = new Harness();
  checkpointRound(h, false);
  checkpointRound(h, true);
  const block = (specs: TxSpec[], stepS = 5) => {
    const offsets = new Map<string, bigint>();
    h.block(
      specs.map((s) => makeTx(h, s, offsets)),
      stepS,
    );
  };
  block([spec('send', { flag: false, amount: 1 }), spec('withdraw', { sender: 1, flag: false, amount: 3 })]);
  block([spec('join', { sender: 4, amount: 2 }), spec('record', { sender: 1, target: 2, amount: 0, flag: false })]);
  block([spec('topup', { sender: 2 }), spec('stakeUpdate', { sender: 3, target: 1 })]);
  block([spec('span', { sender: 1, amount: 0, target: 1 })]);
  block([spec('signerUpdate', { sender: 5, target: 2 }), spec('exit', { sender: 4, target: 3, amount: 0 })]);
  block([spec('multisend', { sender: 5, target: 4, amount: 1 }), spec('send', { brk: 'badSig' })]);
  block([], 5);
  block([], 5);
  block([spec('noAck')], 400);
  block([], 5);
  for (let round = 0; round < 8; round++) h.probe(round);
  return h;
}

/** Feed the log (up to the changed record, where the oracles must fire) to a fresh model and its oracles. */
function replay(log: readonly RunRecord[], change?: { index: number; record: RunRecord }) {
  const model = new ServiceModel('real');
  const oracles = [
    new TxResultsOracle(model),
    new SideTxResultsOracle(model),
    new ServiceStateOracle(model),
    new QueryAnswersOracle(model),
  ];
  for (const [i, r0] of log.entries()) {
    if (change && i > change.index) break;
    const r = change && change.index === i ? change.record : r0;
    model.observe(r);
    for (const o of oracles) o.observe(r);
  }
  return oracles.map((o) => o.violation).filter((v) => v !== null);
}

type Commit = Extract<RunRecord['obs'], { kind: 'service.commit' }>;

/** Every leaf of a plain value, as a path and a changed copy of the whole value. */
function* leafChanges(value: unknown, path: string[] = []): Generator<{ path: string[]; changed: unknown }> {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries())
      for (const c of leafChanges(v, [...path, String(i)])) {
        const copy = [...value];
        copy[i] = c.changed;
        yield { path: c.path, changed: copy };
      }
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value))
      for (const c of leafChanges(v, [...path, k])) yield { path: c.path, changed: { ...value, [k]: c.changed } };
    return;
  }
  yield { path, changed: alter(value) };
}

function alter(v: unknown): unknown {
  if (typeof v === 'bigint') return v + 1n;
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'string')
    return v.startsWith('0x') && v.length > 2 ? `${v.slice(0, -1)}${v.endsWith('0') ? '1' : '0'}` : `${v}x`;
  if (v === null) return '0x01';
  throw new Error(`cannot alter ${typeof v}`);
}

describe('the service-model oracles', () => {
  const h = scriptedRun();
  const log = h.log;
  const commits = log.map((r, index) => ({ r, index })).filter((x) => x.r.obs.kind === 'service.commit');

  it('pass the unchanged run, which writes every kind of record', () => {
    expect(h.violations()).toEqual([]);
    expect(replay(log)).toEqual([]);
    const kinds = new Set(commits.flatMap((c) => (c.r.obs as Commit).writes.map((w) => w.what)));
    expect([...kinds].sort()).toEqual(
      [
        'account',
        'ackCount',
        'checkpoint',
        'checkpointBuffer',
        'dividend',
        'lastNoAck',
        'nextAccountNumber',
        'record',
        'replayKey',
        'span',
        'spanSeedBlock',
        'validator',
        'validatorSet',
      ].sort(),
    );
  });

  it('service-state: a change in any field of any kind of written record is named', () => {
    let checked = 0;
    const tried = new Set<string>();
    for (const { r, index } of commits) {
      const c = r.obs as Commit;
      for (const [wi, w] of c.writes.entries()) {
        for (const { path, changed } of leafChanges(w)) {
          // Each field of each kind of record once (list entries count as one field).
          const kindField = `${w.what}.${path.filter((p) => !/^\d+$/.test(p)).join('.')}`;
          if (path[0] === 'what' || tried.has(kindField)) continue;
          tried.add(kindField);
          const writes = [...c.writes];
          writes[wi] = changed as (typeof writes)[number];
          const vs = replay(log, { index, record: { ...r, obs: { ...c, writes } } });
          const v = vs.find((x) => x.oracle === 'service-state');
          expect(v, `${w.what} ${path.join('.')} at height ${c.height}`).toBeDefined();
          // A field that names the record (an address, an id) makes it another record.
          const field = path.filter((p) => !/^\d+$/.test(p)).at(-1)!;
          if (!v!.message.includes('a record the model does not hold')) expect(v!.message).toContain(field);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('service-state: a record the block should have written, left out, is named', () => {
    let checked = 0;
    const tried = new Map<string, number>();
    for (const { r, index } of commits) {
      const c = r.obs as Commit;
      for (const wi of c.writes.keys()) {
        const left = c.writes[wi]!;
        // A few of each kind of record.
        if ((tried.get(left.what) ?? 0) >= 3) continue;
        tried.set(left.what, (tried.get(left.what) ?? 0) + 1);
        // A fee collector's round trip leaves its account as it was: not a change.
        const writes = c.writes.filter((_, i) => i !== wi);
        const vs = replay(log, { index, record: { ...r, obs: { ...c, writes } } });
        const v = vs.find((x) => x.oracle === 'service-state');
        if (v === undefined) {
          expect(left.what, `leaving out ${left.what} at ${c.height} went unseen`).toBe('account');
          continue;
        }
        expect(v.message).toMatch(/did not write/);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(25);
  });

  it('tx-results: a different result for any transaction is named', () => {
    let checked = 0;
    for (const { r, index } of commits) {
      const c = r.obs as Commit;
      for (const [ti, t] of c.txs.entries()) {
        const txs = [...c.txs];
        txs[ti] = t.code === 0 ? { ...t, code: 4, codespace: 'sdk' } : { ...t, code: 0, codespace: '' };
        const v = replay(log, { index, record: { ...r, obs: { ...c, txs } } }).find((x) => x.oracle === 'tx-results');
        expect(v, `tx ${ti} at ${c.height}`).toBeDefined();
        expect(v!.message).toContain(`transaction ${ti} of block ${c.height}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(15);
  });

  it('side-tx-results: a different tally, result or transaction is named', () => {
    let checked = 0;
    for (const { r, index } of commits) {
      const c = r.obs as Commit;
      for (const [si, s] of c.sideTxs.entries()) {
        const changes = [
          { ...s, tally: s.tally === 'yes' ? ('skip' as const) : ('yes' as const) },
          { ...s, code: s.code === 0 ? 5502 : 0 },
          { ...s, txHash: `0x${'ab'.repeat(32)}` as `0x${string}` },
        ];
        for (const changed of changes) {
          const sideTxs = [...c.sideTxs];
          sideTxs[si] = changed;
          const v = replay(log, { index, record: { ...r, obs: { ...c, sideTxs } } }).find(
            (x) => x.oracle === 'side-tx-results',
          );
          expect(v, `side tx ${si} at ${c.height}`).toBeDefined();
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(15);
  });

  it('side-tx-results: validators agreeing on what the parent chain does not hold', () => {
    // A block that runs a post handler on votes with an observation (the votes of its last commit).
    const at = commits.find(
      ({ r }) =>
        (r.obs as Commit).sideTxs.some((t) => t.tally === 'yes') &&
        (r.obs as Commit).sideVotes.some((v) => v.result === 'yes' && v.observation !== null),
    )!;
    const c = at.r.obs as Commit;
    // Every yes vote agrees on an observation with every field changed.
    const changed = (o: object) => Object.fromEntries(Object.entries(o).map(([k, x]) => [k, alter(x)]));
    const sideVotes = c.sideVotes.map((v) =>
      v.result === 'yes' && v.observation !== null && typeof v.observation === 'object'
        ? { ...v, observation: changed(v.observation) }
        : v,
    );
    const vs = replay(log, { index: at.index, record: { ...at.r, obs: { ...c, sideVotes } } });
    expect(vs.map((v) => v.message).join('\n')).toMatch(/does not hold|tallied|refuses|applies/);
  });

  it('side-tx-results: a vote no honest validator casts on a relayed event is named', () => {
    // Each yes on a join, stake update, exit, signer update, top-up or record turned into a no
    // (the event says what the message says; a top-up's user is its validator's signer where the
    // vote was cast): the oracle fires, naming the vote (or, where the one vote moves the tally, the
    // tally).
    let named = 0;
    let checked = 0;
    let topups = 0;
    const eventBacked = /MsgValidatorJoin|MsgStakeUpdate|MsgValidatorExit|MsgSignerUpdate|MsgEventRecord|MsgTopup/;
    for (const { r, index } of commits) {
      const c = r.obs as Commit;
      const backed = new Set(c.sideTxs.filter((t) => eventBacked.test(t.msgType)).map((t) => t.txHash));
      for (const [vi, v] of c.sideVotes.entries()) {
        if (v.result !== 'yes' || !backed.has(v.txHash)) continue;
        const sideVotes = [...c.sideVotes];
        sideVotes[vi] = { ...v, result: 'no', observation: null };
        const got = replay(log, { index, record: { ...r, obs: { ...c, sideVotes } } }).find(
          (x) => x.oracle === 'side-tx-results',
        );
        expect(got, `vote ${vi} at ${c.height}`).toBeDefined();
        if (/which no honest validator votes/.test(got!.message)) named++;
        if (c.sideTxs.some((t) => t.txHash === v.txHash && /MsgTopup/.test(t.msgType))) topups++;
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(4);
    expect(named).toBeGreaterThan(0);
    expect(topups, 'top-up votes checked').toBeGreaterThan(0);
  });

  it('query-answers: a change in any field of any answer, or a refusal turned into an answer, is named', () => {
    const queries = log.map((r, index) => ({ r, index })).filter((x) => x.r.obs.kind === 'service.query');
    const model = new ServiceModel('real');
    for (const r of log) model.observe(r);
    expect(queries.length).toBeGreaterThan(100);
    let checked = 0;
    const tried = new Set<string>();
    for (const { r } of queries) {
      const q = r.obs as Extract<RunRecord['obs'], { kind: 'service.query' }>;
      const route = q.path.replace(/\/\d+/g, '/N').replace(/0x[0-9a-f]+/g, 'A');
      for (const { path, changed } of leafChanges(q.answer)) {
        const field = `${route} ${path.filter((p) => !/^\d+$/.test(p)).join('.')}`;
        if (tried.has(field)) continue;
        tried.add(field);
        const answer =
          path[0] === 'ok'
            ? q.answer.ok
              ? { ok: false, kind: 'notFound', message: 'x' }
              : { ok: true, result: {} }
            : changed;
        // Queries change nothing in the model: one model fed the whole run judges every changed answer.
        const oracle = new QueryAnswersOracle(model);
        oracle.observe({ ...r, obs: { ...q, answer: answer as typeof q.answer } });
        const v = oracle.violation;
        expect(v, `${field}`).toBeDefined();
        expect(v!.message).toContain(q.path);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(80);
  });

  it('service-state: a genesis report that is not what the document makes is named', () => {
    const at = log.findIndex((r) => r.obs.kind === 'service.genesis');
    const r = log[at]!;
    const g = r.obs as Extract<RunRecord['obs'], { kind: 'service.genesis' }>;
    let checked = 0;
    const tried = new Set<string>();
    for (const [wi, w] of g.state.entries()) {
      for (const { path, changed } of leafChanges(w)) {
        const kindField = `${w.what}.${path.filter((p) => !/^\d+$/.test(p)).join('.')}`;
        if (path[0] === 'what' || tried.has(kindField)) continue;
        tried.add(kindField);
        const state = [...g.state];
        state[wi] = changed as (typeof state)[number];
        const v = replay(log, { index: at, record: { ...r, obs: { ...g, state } } }).find(
          (x) => x.oracle === 'service-state',
        );
        expect(v, kindField).toBeDefined();
        expect(v!.message).toMatch(/^genesis record|lacks/);
        checked++;
      }
    }
    // A record left out of the report.
    const state = g.state.filter((w) => w.what !== 'validatorSet');
    const v = replay(log, { index: at, record: { ...r, obs: { ...g, state } } }).find(
      (x) => x.oracle === 'service-state',
    );
    expect(v?.message).toContain('lacks validatorSet');
    expect(checked).toBeGreaterThan(20);
  });
});
