/**
 * Three oracles that hold every service node's reports against the reference model of the service
 * (sim/oracles/model/service/): what each delivered transaction came to, what each side
 * transaction's tally and post handler came to, and what each block wrote. A handler that refuses
 * what the rules accept is caught as surely as one that accepts what they refuse, and a write the
 * rules do not explain as surely as a missing one.
 */
import { type DeepReadonly } from '../../src/core/readonly';
import { type StateWrite } from '../../src/node/observations';
import { type Fact, firstDifference, keyOfWrite } from './model/service/facts';
import { type ServiceModel } from './model/service/serviceModel';
import { type MsgType } from './model/service/txDecode';
import { Oracle, type RunRecord } from './oracle';

/** The rule an accepted message's delivery exercises. */
const ACCEPTED_RULE: Record<MsgType, string> = {
  'cosmos-sdk/MsgSend': 'bank.send.moves-amount',
  'cosmos-sdk/MsgMultiSend': 'bank.multisend.moves-amounts',
  'staking/MsgValidatorJoin': 'staking.join.new-id-and-signer',
  'staking/MsgStakeUpdate': 'staking.stake-update.known-validator',
  'staking/MsgValidatorExit': 'staking.exit.once',
  'staking/MsgSignerUpdate': 'staking.signer-update.new-signer',
  'checkpoint/MsgCheckpoint': 'checkpoint.msg.current-proposer',
  'checkpoint/MsgCheckpointACK': 'checkpoint.ack.needs-buffer',
  'checkpoint/MsgCheckpointNoACK': 'checkpoint.noack.after-buffer-time',
  'topup/MsgTopup': 'topup.mint.once-per-event',
  'topup/MsgWithdrawFee': 'topup.withdraw.amount',
  'sidechain/MsgProposeSpan': 'span.propose.continues-last',
  'clerk/MsgEventRecord': 'clerk.record.once',
};

/** The rule whose effect a changed record shows. */
const RECORD_RULE: Record<StateWrite['what'], string> = {
  account: 'auth.account.balances-and-sequence',
  nextAccountNumber: 'auth.account.numbering',
  dividend: 'topup.withdraw.dividend-account',
  validator: 'staking.validator.record',
  validatorSet: 'staking.set.current-by-epoch',
  checkpointBuffer: 'checkpoint.buffer.holds-voted-checkpoint',
  checkpoint: 'checkpoint.ack.stores-checkpoint',
  ackCount: 'checkpoint.ack.count',
  lastNoAck: 'checkpoint.noack.records-time',
  span: 'span.select.producers',
  spanSeedBlock: 'span.select.seed',
  record: 'clerk.record.stored',
  replayKey: 'app.parent-event.applied-once',
};

type Commit = Extract<RunRecord['obs'], { kind: 'service.commit' }>;

export class TxResultsOracle extends Oracle {
  readonly name = 'tx-results';
  readonly class = 'safety' as const;

  constructor(private readonly model: ServiceModel) {
    super();
  }

  override observe(r: RunRecord): void {
    if (r.obs.kind !== 'service.commit') return;
    const c = r.obs;
    const e = this.model.expectation(c.height, c.blockHash);
    if (!e) return;
    const predicted = e.outcome.txs;
    if (c.txs.length !== predicted.length) {
      this.fail(
        r.t,
        r.node,
        `block ${c.height} reports ${c.txs.length} transaction results for ${predicted.length} transactions`,
      );
      return;
    }
    for (const [i, t] of c.txs.entries()) {
      const p = predicted[i]!;
      this.saw(p.outcome.rule ?? (p.msgType ? ACCEPTED_RULE[p.msgType as MsgType] : 'auth.tx.well-formed'));
      const sameCode = t.code === p.outcome.code && (t.code === 0 || t.codespace === p.outcome.codespace);
      if (sameCode) continue;
      const got = t.code === 0 ? 'accepted it' : `refused it with ${t.codespace}/${t.code}`;
      const want = p.outcome.code === 0 ? 'accepts it' : `refuses it with ${p.outcome.codespace}/${p.outcome.code}`;
      this.fail(
        r.t,
        r.node,
        `transaction ${i} of block ${c.height} (${p.msgType ?? 'undecodable'}): the node ${got}, the model ${want} (${p.outcome.why})`,
        {
          height: c.height,
          index: i,
          txHash: t.hash,
          msgType: p.msgType,
          nodeCode: t.code,
          nodeCodespace: t.codespace,
          modelCode: p.outcome.code,
          modelCodespace: p.outcome.codespace,
          rule: p.outcome.rule,
        },
      );
      return;
    }
  }
}

export class SideTxResultsOracle extends Oracle {
  readonly name = 'side-tx-results';
  readonly class = 'safety' as const;

  constructor(private readonly model: ServiceModel) {
    super();
  }

  override observe(r: RunRecord): void {
    if (r.obs.kind !== 'service.commit') return;
    const c = r.obs;
    const e = this.model.expectation(c.height, c.blockHash);
    if (!e) return;
    const want = e.outcome.sideTxs;
    if (c.sideTxs.length !== want.length) {
      this.fail(
        r.t,
        r.node,
        `block ${c.height} ran ${c.sideTxs.length} side transactions; the model runs ${want.length} (those delivered two blocks before)`,
        { height: c.height, node: c.sideTxs.map((s) => s.txHash), model: want.map((s) => s.txHash) },
      );
      return;
    }
    for (const [i, s] of c.sideTxs.entries()) {
      const m = want[i]!;
      this.saw('app.side-tx.two-thirds-yes');
      if (m.tally === 'yes') this.saw(m.outcome.rule ?? ACCEPTED_RULE[m.msgType as MsgType]);
      const problem =
        s.txHash.toLowerCase() !== m.txHash
          ? `side transaction ${i} is ${s.txHash}, the model's is ${m.txHash}`
          : s.tally !== m.tally
            ? `the node tallied ${s.tally}, the model tallies ${m.tally} from the same votes`
            : s.code !== m.outcome.code
              ? `the post handler ${s.code === 0 ? 'applied it' : `refused it with code ${s.code}`}; the model ${
                  m.outcome.code === 0 ? 'applies it' : `refuses it with code ${m.outcome.code} (${m.outcome.why})`
                }`
              : m.disagreement !== null
                ? `the validators agreed on what the parent chain does not hold: ${m.disagreement}`
                : null;
      if (m.disagreement !== null) this.saw('app.side-tx.observation-is-parent-truth');
      if (problem) {
        this.fail(r.t, r.node, `block ${c.height}, ${m.msgType} ${m.txHash}: ${problem}`, {
          height: c.height,
          txHash: m.txHash,
          msgType: m.msgType,
          nodeTally: s.tally,
          modelTally: m.tally,
          nodeCode: s.code,
          modelCode: m.outcome.code,
        });
        return;
      }
    }
  }
}

const OPTIONAL_AT_GENESIS: ReadonlySet<string> = new Set(['checkpointBuffer', 'lastNoAck', 'spanSeedBlock']);

export class ServiceStateOracle extends Oracle {
  readonly name = 'service-state';
  readonly class = 'safety' as const;
  /** Verdicts per reported write list (nodes that adopt one block record share one list). */
  private readonly judged = new WeakMap<object, string | null>();

  constructor(private readonly model: ServiceModel) {
    super();
  }

  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'service.genesis') {
      this.saw('app.genesis.state-from-document');
      const want = this.model.genesis();
      const reported = new Set<string>();
      for (const w of o.state) {
        const key = keyOfWrite(w);
        reported.add(key);
        const fact = want.get(key);
        const d = fact === undefined ? 'a record the model does not hold' : firstDifference(fact, w);
        if (d) {
          this.fail(r.t, r.node, `genesis record ${key}: ${d}`);
          return;
        }
      }
      // Records a genesis always holds (a buffer, a no-ack time or a seed block only once written).
      for (const key of want.keys())
        if (!reported.has(key) && !OPTIONAL_AT_GENESIS.has(key)) {
          this.fail(r.t, r.node, `the genesis state lacks ${key}`);
          return;
        }
      return;
    }
    if (o.kind !== 'service.commit') return;
    const e = this.model.expectation(o.height, o.blockHash);
    if (!e) return;
    let verdict = this.judged.get(o.writes);
    if (verdict === undefined) {
      verdict = this.judge(o, e.changes);
      this.judged.set(o.writes, verdict);
    }
    for (const w of o.writes) this.saw(RECORD_RULE[w.what]);
    if (verdict) this.fail(r.t, r.node, `block ${o.height}: ${verdict}`, { height: o.height });
  }

  private judge(o: Commit, changes: ReadonlyMap<string, Fact | null>): string | null {
    const written = new Set<string>();
    for (const w of o.writes as ReadonlyArray<DeepReadonly<StateWrite>>) {
      const key = keyOfWrite(w);
      written.add(key);
      const want = this.model.factAt(key, o.height);
      if (want === null) return `the node wrote ${key}, a record the model does not hold`;
      const d = firstDifference(want, w);
      if (d) return `${key}: ${d}`;
    }
    for (const [key, fact] of changes)
      if (!written.has(key))
        return fact === null
          ? `the model removes ${key}; the node did not write it`
          : `the model changes ${key}; the node did not write it`;
    return null;
  }
}

/** The rule a REST route's answer shows, by the path's first segments. */
function routeRule(path: string): string {
  const p = path.split('?')[0]!;
  if (p.startsWith('/sidechain/span') || p === '/sidechain/latest-span') return 'rest.sidechain.span';
  if (p.startsWith('/sidechain/')) return 'rest.sidechain.params';
  if (p.startsWith('/auth/accounts/')) return 'rest.auth.account';
  if (p.startsWith('/auth/')) return 'rest.auth.params';
  if (p.startsWith('/staking/')) return 'rest.staking.validators';
  if (p === '/overview') return 'rest.checkpoints.overview';
  if (p.startsWith('/checkpoints/')) return 'rest.checkpoints.reads';
  if (p.startsWith('/topup/')) return 'rest.topup.dividends';
  if (p.startsWith('/clerk/')) return 'rest.clerk.records';
  return 'rest.chain.params';
}

export class QueryAnswersOracle extends Oracle {
  readonly name = 'query-answers';
  readonly class = 'safety' as const;

  constructor(private readonly model: ServiceModel) {
    super();
  }

  override observe(r: RunRecord): void {
    if (r.obs.kind !== 'service.query') return;
    const q = r.obs;
    const want = this.model.answerAt(q.height, q.path);
    if (want === null) return;
    this.saw(routeRule(q.path));
    if (!want.ok) this.saw('rest.errors.named');
    const got = q.answer;
    const problem =
      got.ok !== want.ok
        ? got.ok
          ? `the node answered, the model refuses (${want.ok ? '' : `${want.kind}: ${want.message}`})`
          : `the node refused (${got.kind}: ${got.message}), the model answers`
        : got.ok && want.ok
          ? firstDifference(want.result, got.result)
          : !got.ok && !want.ok && (got.kind !== want.kind || got.message !== want.message)
            ? `the node refused with ${got.kind} "${got.message}", the model with ${want.kind} "${want.message}"`
            : null;
    if (problem)
      this.fail(r.t, r.node, `GET ${q.path} at height ${q.height}: ${problem}`, { path: q.path, height: q.height });
  }
}
