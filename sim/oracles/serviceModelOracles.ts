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
import { type RuleId } from './ruleId';
import { equalFacts } from './model/nodeStates';

/** The rule an accepted message's delivery shows held (its handler's pre-checks passed). */
const ACCEPTED_RULE: Record<MsgType, RuleId> = {
  'cosmos-sdk/MsgSend': 'bank.send.insufficient',
  'cosmos-sdk/MsgMultiSend': 'bank.multisend.balanced',
  'staking/MsgValidatorJoin': 'staking.join.already-joined',
  'staking/MsgStakeUpdate': 'staking.events.unknown-validator',
  'staking/MsgValidatorExit': 'staking.exit.already-exiting',
  'staking/MsgSignerUpdate': 'staking.signer-update.unchanged',
  'checkpoint/MsgCheckpoint': 'checkpoint.propose.continuity',
  'checkpoint/MsgCheckpointACK': 'checkpoint.ack.needs-buffer',
  'checkpoint/MsgCheckpointNoACK': 'checkpoint.noack.after-buffer-time',
  'topup/MsgTopup': 'topup.replay.deliver',
  'topup/MsgWithdrawFee': 'topup.withdraw.too-much',
  'sidechain/MsgProposeSpan': 'span.proposal.continuity',
  'clerk/MsgEventRecord': 'clerk.record.id-exists',
};

/** The rule a side transaction's post handler shows held when it applied, by message. */
const POSTED_RULE: Record<MsgType, RuleId> = {
  'cosmos-sdk/MsgSend': 'app.side-tx.post-only-on-yes',
  'cosmos-sdk/MsgMultiSend': 'app.side-tx.post-only-on-yes',
  'staking/MsgValidatorJoin': 'staking.events.replay-post',
  'staking/MsgStakeUpdate': 'staking.events.replay-post',
  'staking/MsgValidatorExit': 'staking.events.replay-post',
  'staking/MsgSignerUpdate': 'staking.signer-update.signer-taken',
  'checkpoint/MsgCheckpoint': 'checkpoint.post.buffer-taken',
  'checkpoint/MsgCheckpointACK': 'checkpoint.ack.double',
  'checkpoint/MsgCheckpointNoACK': 'app.side-tx.post-only-on-yes',
  'topup/MsgTopup': 'topup.replay.post',
  'topup/MsgWithdrawFee': 'app.side-tx.post-only-on-yes',
  'sidechain/MsgProposeSpan': 'span.post.replay',
  'clerk/MsgEventRecord': 'clerk.record.replay',
};

/** The rule the validators broke when they agreed on what the parent chain does not hold, by message. */
const MUST_MATCH: Partial<Record<MsgType, RuleId>> = {
  'staking/MsgValidatorJoin': 'staking.events.must-match',
  'staking/MsgStakeUpdate': 'staking.events.must-match',
  'staking/MsgValidatorExit': 'staking.events.must-match',
  'staking/MsgSignerUpdate': 'staking.events.must-match',
  'topup/MsgTopup': 'topup.event.user-is-signer',
  'clerk/MsgEventRecord': 'clerk.record.must-match',
  'checkpoint/MsgCheckpointACK': 'checkpoint.ack.matches-record',
  'sidechain/MsgProposeSpan': 'span.selection.seed-block',
};

type Commit = Extract<RunRecord['obs'], { kind: 'service.commit' }>;

export class TxResultsOracle extends Oracle {
  readonly name = 'tx-results';
  readonly class = 'safety' as const;
  readonly reads = ['service.commit'] as const;
  /** The rules the model's predictions of delivery decide (sim/oracles/model/service/{ante,deliver,block}.ts). */
  static readonly judges: readonly RuleId[] = [
    'auth.ante.decode-errors',
    'auth.ante.check-order',
    'auth.ante.signature-required',
    'auth.ante.memo-limit',
    'auth.ante.unknown-account',
    'auth.ante.fee-balance',
    'auth.ante.signature-recovers-signer',
    'auth.ante.signature-binds-chain-id',
    'auth.ante.signature-binds-sequence',
    'auth.gas.tx-limit',
    'auth.gas.formula',
    'app.block.max-bytes',
    'app.block.max-gas',
    'app.block.checkpoint-alone',
    'bank.send.amount-valid',
    'bank.send.disabled',
    'bank.send.insufficient',
    'bank.multisend.nonempty',
    'bank.multisend.signer-is-input',
    'bank.multisend.balanced',
    'staking.join.already-joined',
    'staking.events.replay-deliver',
    'staking.events.unknown-validator',
    'staking.exit.already-exiting',
    'staking.signer-update.unchanged',
    'checkpoint.propose.validate-basic',
    'checkpoint.propose.buffer-busy',
    'checkpoint.propose.continuity',
    'checkpoint.propose.account-root',
    'checkpoint.propose.proposer',
    'checkpoint.ack.needs-buffer',
    'checkpoint.noack.after-buffer-time',
    'checkpoint.noack.sender',
    'checkpoint.noack.too-many',
    'topup.deliver.send-disabled',
    'topup.replay.deliver',
    'topup.withdraw.validator-only',
    'topup.withdraw.nothing',
    'topup.withdraw.too-much',
    'span.proposal.chain-id',
    'span.proposal.continuity',
    'span.proposal.duration',
    'clerk.record.max-size',
    'clerk.record.id-exists',
    'clerk.record.chain-id',
    'clerk.record.replay',
  ];

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
      this.saw(p.outcome.rule ?? ACCEPTED_RULE[p.msgType as MsgType]);
      if (p.msgType !== null) {
        // The order of the checks and the signature are judged on every decoded transaction.
        this.saw('auth.ante.check-order');
        this.saw('auth.ante.signature-binds-chain-id');
        this.saw('auth.ante.signature-binds-sequence');
      }
      const sameCode = t.code === p.outcome.code && (t.code === 0 || t.codespace === p.outcome.codespace);
      if (sameCode && p.gas !== null) {
        this.saw('auth.gas.formula');
        if (t.gasUsed !== p.gas) {
          this.fail(
            r.t,
            r.node,
            `transaction ${i} of block ${c.height} (${p.msgType}) used ${t.gasUsed} gas; the model counts ${p.gas}`,
            { height: c.height, index: i, txHash: t.hash, nodeGas: t.gasUsed, modelGas: p.gas },
          );
          return;
        }
      }
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
  readonly reads = ['service.commit'] as const;
  /** The rules the model's tally and post handlers decide (sim/oracles/model/service/{block,post}.ts). */
  static readonly judges: readonly RuleId[] = [
    'app.side-tx.tally',
    'app.side-tx.vote-matches-event',
    'app.side-tx.post-only-on-yes',
    'app.side-tx.forged-minority',
    'staking.join.already-joined',
    'staking.join.min-one-token',
    'staking.events.replay-post',
    'staking.events.unknown-validator',
    'staking.events.must-match',
    'staking.exit.already-exiting',
    'staking.signer-update.unchanged',
    'staking.signer-update.signer-taken',
    'checkpoint.propose.continuity',
    'checkpoint.post.buffer-taken',
    'checkpoint.ack.double',
    'checkpoint.ack.matches-record',
    'topup.deliver.send-disabled',
    'topup.replay.post',
    'topup.event.user-is-signer',
    'topup.mint.event-fee',
    'span.proposal.chain-id',
    'span.proposal.continuity',
    'span.proposal.duration',
    'span.post.replay',
    'span.selection.seed-block',
    'clerk.record.replay',
    'clerk.record.must-match',
  ];

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
      this.saw('app.side-tx.tally');
      this.saw('app.side-tx.forged-minority');
      this.saw(m.outcome.rule ?? POSTED_RULE[m.msgType as MsgType]);
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
      const mustMatch = MUST_MATCH[m.msgType as MsgType];
      if (mustMatch) this.saw(mustMatch);
      if (m.votesJudged && s.txHash.toLowerCase() === m.txHash) this.saw('app.side-tx.vote-matches-event');
      const bad = problem === null ? m.badVotes[0] : undefined;
      if (bad) {
        this.fail(
          r.t,
          r.node,
          `block ${c.height}, ${m.msgType} ${m.txHash}: validator ${bad.validator} voted ${bad.result}, which no honest validator votes: ${bad.why}`,
          { height: c.height, txHash: m.txHash, msgType: m.msgType, badVotes: m.badVotes },
        );
        return;
      }
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
  readonly reads = ['service.genesis', 'service.commit'] as const;
  /** The rules whose effects the model's state shows (the block's effects, sim/oracles/model/service). */
  static readonly judges: readonly RuleId[] = [
    'auth.account.pubkey-recorded',
    'span.genesis.first-span',
    'staking.set.current-validators',
    'staking.join.activation-epoch',
    'staking.exit.leaves-at-epoch',
    'staking.join.from-staked-event',
    'staking.join.power-from-amount',
    'staking.stake-update.power',
    'staking.exit.end-epoch',
    'staking.signer-update.changes-signer',
    'checkpoint.propose.expired-buffer-flush',
    'checkpoint.post.buffered',
    'checkpoint.ack.effects',
    'checkpoint.ack.end-adjust',
    'checkpoint.noack.keeps-buffer',
    'span.selection.eligible',
    'span.selection.all-if-few',
    'span.selection.slots-and-shuffle',
    'span.selection.span-power',
    'span.selection.seed-block',
    'span.record.frozen',
    'clerk.record.stored',
  ];
  /** Verdicts per reported write list (nodes that adopt one block record share one list). */
  private readonly judged = new WeakMap<object, string | null>();
  /** The last genesis state judged to hold, by content: every node reports an equal one. */
  private goodGenesis: unknown = null;

  constructor(private readonly model: ServiceModel) {
    super();
  }

  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'service.genesis') {
      this.saw('span.genesis.first-span');
      // Equal to a genesis judged good (exactly): good too, without comparing it with the model again.
      if (this.goodGenesis !== null && equalFacts(this.goodGenesis, o.state)) return;
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
      this.goodGenesis = o.state;
      return;
    }
    if (o.kind !== 'service.commit') return;
    const e = this.model.expectation(o.height, o.blockHash);
    if (!e) return;
    let verdict = this.judged.get(o.writes);
    if (verdict === undefined) {
      verdict = this.judge(o, e.changes);
      this.judged.set(o.writes, verdict);
      // The rules a write list exercises are the same for every node that reports it (one block).
      for (const rule of e.outcome.effects) this.saw(rule);
      for (const w of o.writes) if (w.what === 'account' && w.pubKey !== null) this.saw('auth.account.pubkey-recorded');
    }
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

/** The rule a REST route's answer shows. */
function routeRule(path: string, refused: boolean): RuleId {
  const p = path.split('?')[0]!;
  if (refused) return 'rest.query.state-agrees';
  if (p.startsWith('/sidechain/span') || p === '/sidechain/latest-span') return 'rest.span.shape';
  if (p.startsWith('/sidechain/')) return 'rest.sidechain.params';
  if (p.endsWith('/sequence')) return 'rest.auth.sequence';
  if (p.startsWith('/auth/accounts/')) return 'rest.auth.account';
  if (p.startsWith('/auth/')) return 'rest.auth.params';
  if (p === '/staking/validator-set') return 'rest.staking.validator-set';
  if (p.startsWith('/staking/')) return 'rest.staking.validator';
  if (p === '/overview') return 'rest.overview.fields';
  if (p === '/checkpoints/buffer') return 'rest.checkpoint.buffer';
  if (p === '/checkpoints/count' || p === '/checkpoints/last-no-ack') return 'rest.checkpoint.count';
  if (p === '/checkpoints/parama' || p === '/checkpoints/params') return 'rest.checkpoint.parama';
  if (p.startsWith('/checkpoints/')) return 'rest.checkpoint.numbered';
  if (p.startsWith('/topup/')) return 'rest.topup.dividend-account';
  if (p.endsWith('/isoldtx')) return 'rest.events.isoldtx';
  if (p === '/clerk/event-record/list') return 'clerk.query.from-id';
  if (p.startsWith('/clerk/')) return 'rest.clerk.record';
  return 'rest.query.state-agrees';
}

export class QueryAnswersOracle extends Oracle {
  readonly name = 'query-answers';
  readonly class = 'safety' as const;
  readonly reads = ['service.query'] as const;
  static readonly judges: readonly RuleId[] = [
    'rest.query.state-agrees',
    'rest.events.isoldtx',
    'rest.span.shape',
    'rest.sidechain.params',
    'rest.auth.account',
    'rest.auth.fresh-account',
    'rest.auth.sequence',
    'rest.auth.params',
    'rest.staking.validator-set',
    'rest.staking.validator',
    'rest.checkpoint.numbered',
    'rest.checkpoint.buffer',
    'rest.checkpoint.count',
    'rest.checkpoint.parama',
    'rest.overview.fields',
    'rest.topup.dividend-account',
    'rest.clerk.record',
    'clerk.query.from-id',
  ];

  constructor(private readonly model: ServiceModel) {
    super();
  }

  override observe(r: RunRecord): void {
    if (r.obs.kind !== 'service.query') return;
    const q = r.obs;
    const want = this.model.answerAt(q.height, q.path);
    if (want === null) return;
    this.saw('rest.query.state-agrees');
    this.saw(routeRule(q.path, !want.ok));
    if (q.path.startsWith('/auth/accounts/') && want.ok && !this.model.accountExists(q.height, q.path))
      this.saw('rest.auth.fresh-account');
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
