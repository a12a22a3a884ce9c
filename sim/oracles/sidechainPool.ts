/**
 * A node's pool answers a client's transaction as geth's would, and keeps to its answer (reference:
 * sidechain.md §5 items 8-9, a wallet sends and reads a refusal by its words; geth
 * `core/txpool/validation.go` and `legacypool.add`).
 *
 * The node reports, with each answer, what it was given on (observations.ts `PoolAdmissionFact`):
 * the transaction's bytes and the fields it read from them (the oracle reads the bytes itself, with
 * ethers, and judges on its own reading; a field the node read otherwise is named), its head's gas limit, the sender's account there, the sender's transactions in
 * the pool just before and just after the answer, and the pool's size. Its own model of admission
 * (below, written from geth, sharing nothing with src/sidechain/txPool.ts) says what the answer
 * must be, in geth's order:
 * - `already known` when the pool held the very transaction;
 * - the checks of the transaction on the head: the chain id, intrinsic gas (21,000), the block gas
 *   limit, a tip of at least 1 wei and a fee cap no lower than the lowest base fee the chain reaches,
 *   a nonce not below the sender's, a cost (gas × fee cap + value) the balance covers;
 * - the overdraft: the sender's pooled transactions and this one (in place of the one it replaces)
 *   payable together;
 * - a replacement (same sender and nonce) pays both fees strictly more and at least 10% more.
 * A refusal must name the first check that fails (geth's words, matched on their stem); a
 * transaction that passes them all must be admitted, unless the pool is near its limits (a sender's
 * 64 queued, 1,024 in all), where a limit refusal is not judged.
 *
 * And the answer is kept: a refused transaction leaves the sender's pooled transactions as they
 * were; an admitted one is in the pool after, in place of the one it replaced, and nothing else of
 * the sender's came or went (but for evictions, judged only when the pool is far from full).
 */
import { Transaction } from 'ethers';
import { type Hex, fromHex, toHex } from '../../src/core/bytes';
import { keccak256Bytes } from '../../src/core/hash';
import { type DeepReadonly } from '../../src/core/readonly';
import { type PoolAdmissionFact, type PooledTxFact } from '../../src/node/observations';
import { Oracle, type RunRecord } from './oracle';
import { BOR_BASE_FEE_DENOMINATOR } from './model/sidechainAccounts';
import { type RuleId } from './ruleId';

type Admission = DeepReadonly<PoolAdmissionFact>;
type Pooled = DeepReadonly<PooledTxFact>;

/** geth's intrinsic gas of a plain transfer. */
const TX_GAS = 21_000n;
/** geth's `--txpool.pricelimit` (wei). */
const MIN_TIP_WEI = 1n;
/** The lowest base fee an EIP-1559 chain with Bor's denominator comes down to (below it the change rounds to zero). */
const LOWEST_BASE_FEE_WEI = BOR_BASE_FEE_DENOMINATOR - 1n;
/** geth's `--txpool.pricebump` (percent). */
const PRICE_BUMP_PERCENT = 10n;
/** geth's AccountQueue and GlobalQueue: past either, a limit refusal is possible and not judged. */
const ACCOUNT_QUEUE = 64;
const GLOBAL_QUEUE = 1024;

/** What geth's pool must answer: a refusal (the stem of its words, the rule, why) or admission. */
type Expected = { refuse: string; rule: RuleId; why: string } | { refuse: null };

export class SidechainPoolOracle extends Oracle {
  readonly name = 'sidechain-pool';
  readonly class = 'safety' as const;
  readonly reads = ['sidechain.started', 'sidechain.tx'] as const;
  static readonly judges: readonly RuleId[] = [
    'sidechain.pool.admission',
    'sidechain.pool.replacement',
    'sidechain.pool.answer-kept',
  ];
  private chainId: bigint | null = null;

  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'sidechain.started') {
      this.chainId ??= o.genesis.chainId;
      return;
    }
    if (o.kind !== 'sidechain.tx' || o.admission === undefined || this.chainId === null) return;
    const read = this.readBytes(r, o.admission);
    if (read === null) return;
    const a = { ...o.admission, tx: read };
    const e = expectedAnswer(a, this.chainId);
    const evidence = { tx: a.tx.hash, from: a.tx.from, nonce: a.tx.nonce, answer: o.ok ? 'admitted' : o.error };
    if (e === 'unjudged') {
      this.kept(r, o.ok, a, evidence);
      return;
    }
    const rule: RuleId = e.refuse === null ? this.ruleOf(a) : e.rule;
    this.saw(rule);
    if (e.refuse === null && !o.ok)
      this.fail(
        r.t,
        r.node,
        `transaction ${a.tx.hash} was refused ("${o.error}"), but it passes every admission check on head ${a.head.number}`,
        { ...evidence, rule },
      );
    else if (e.refuse !== null && o.ok)
      this.fail(r.t, r.node, `transaction ${a.tx.hash} was admitted; it must be refused: ${e.why}`, {
        ...evidence,
        rule,
        expected: e.refuse,
      });
    else if (e.refuse !== null && !(o.error ?? '').startsWith(e.refuse))
      this.fail(
        r.t,
        r.node,
        `transaction ${a.tx.hash} was refused with "${o.error}"; the first check it fails is "${e.refuse}": ${e.why}`,
        { ...evidence, rule, expected: e.refuse },
      );
    this.kept(r, o.ok, a, evidence);
  }

  /**
   * The transaction as its bytes say (read here with ethers, not with the node's decoder), with the
   * sender the node recovered; null, after a violation, when the node read its fields otherwise.
   */
  private readBytes(r: RunRecord, a: Admission): Pooled | null {
    const own = transferFromBytes(a.raw, a.tx.from);
    const field =
      typeof own === 'string' ? null : POOLED_FIELDS.find((k) => (own[k] as unknown) !== (a.tx[k] as unknown));
    if (typeof own !== 'string' && field === undefined) return own;
    this.saw('sidechain.pool.admission');
    this.fail(
      r.t,
      r.node,
      typeof own === 'string'
        ? `transaction ${a.tx.hash} was answered on, but its bytes do not read as a transfer: ${own}`
        : `transaction ${a.tx.hash}: the node read ${field} as ${a.tx[field!]}, its bytes say ${own[field!]}`,
      { tx: a.tx.hash, rule: 'sidechain.pool.admission', ...(field ? { field } : {}) },
    );
    return null;
  }

  /** The rule an admission speaks about: a replacement's, or admission's. */
  private ruleOf(a: Admission): RuleId {
    return a.before.some((p) => p.nonce === a.tx.nonce) ? 'sidechain.pool.replacement' : 'sidechain.pool.admission';
  }

  /** The answer is kept: the pool after it is the pool before, with the admitted transaction in its place. */
  private kept(r: RunRecord, ok: boolean, a: Admission, evidence: Record<string, unknown>): void {
    const far = a.poolSize < GLOBAL_QUEUE;
    this.saw('sidechain.pool.answer-kept');
    const before = new Set<Hex>(a.before.map((p) => p.hash));
    const after = new Set<Hex>(a.after.map((p) => p.hash));
    const fail = (what: string) =>
      this.fail(r.t, r.node, `transaction ${a.tx.hash} was ${ok ? 'admitted' : 'refused'}, but ${what}`, {
        ...evidence,
        rule: 'sidechain.pool.answer-kept',
      });
    if (!ok) {
      // A refusal changes nothing, however full the pool.
      const came = [...after].find((h) => !before.has(h));
      const gone = [...before].find((h) => !after.has(h));
      if (came !== undefined) fail(`the sender's pooled transactions gained ${came}`);
      else if (gone !== undefined) fail(`the sender's pooled transactions lost ${gone}`);
      return;
    }
    const replaced = a.before.find((p) => p.nonce === a.tx.nonce && p.hash !== a.tx.hash);
    const came = [...after].find((h) => h !== a.tx.hash && !before.has(h));
    const gone = a.before.find((p) => p !== replaced && !after.has(p.hash));
    if (!after.has(a.tx.hash)) fail('the pool does not hold it');
    else if (replaced !== undefined && after.has(replaced.hash))
      fail(`the pool still holds ${replaced.hash}, which it replaced (nonce ${a.tx.nonce})`);
    else if (came !== undefined) fail(`the sender's pooled transactions gained ${came} too`);
    // An eviction from a full pool may take one of the sender's; far from full, nothing may go.
    else if (gone !== undefined && far)
      fail(`the sender's pooled transactions lost ${gone.hash} (nonce ${gone.nonce})`);
  }
}

/** The fields admission reads, compared between the node's reading and the bytes'. */
const POOLED_FIELDS = [
  'hash',
  'nonce',
  'chainId',
  'gasLimit',
  'value',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
] as const;

/** A transfer's admission fields from its bytes (a legacy transaction's gas price is both fees), or why it does not read. */
function transferFromBytes(raw: Hex, from: Pooled['from']): Pooled | string {
  try {
    const t = Transaction.from(raw);
    const legacy = t.type === 0;
    const fee = legacy ? t.gasPrice : t.maxFeePerGas;
    const tip = legacy ? t.gasPrice : t.maxPriorityFeePerGas;
    if (fee === null || tip === null) return `type ${t.type} without its fees`;
    return {
      hash: toHex(keccak256Bytes(fromHex(raw))),
      from,
      nonce: BigInt(t.nonce),
      chainId: t.chainId,
      gasLimit: t.gasLimit,
      value: t.value,
      maxFeePerGas: fee,
      maxPriorityFeePerGas: tip,
    };
  } catch (e) {
    return (e as { shortMessage?: string }).shortMessage ?? (e as Error).message;
  }
}

/** A transaction's most it can cost: gas × fee cap + value. */
function costOf(t: Pooled): bigint {
  return t.gasLimit * t.maxFeePerGas + t.value;
}

/** What geth's pool must answer on `a`, or 'unjudged' where only the pool's limits could decide. */
export function expectedAnswer(a: Admission, chainId: bigint): Expected | 'unjudged' {
  const t = a.tx;
  const refuse = (stem: string, why: string, rule: RuleId = 'sidechain.pool.admission'): Expected => ({
    refuse: stem,
    rule,
    why,
  });
  if (a.before.some((p) => p.hash === t.hash)) return refuse('already known', 'the pool holds it');
  if (t.chainId !== chainId) return refuse('invalid chain id', `chain id ${t.chainId}, the chain's is ${chainId}`);
  if (t.gasLimit < TX_GAS) return refuse('intrinsic gas too low', `gas ${t.gasLimit} < ${TX_GAS}`);
  if (t.gasLimit > a.headGasLimit)
    return refuse('exceeds block gas limit', `gas ${t.gasLimit} > the head's limit ${a.headGasLimit}`);
  if (t.maxPriorityFeePerGas > t.maxFeePerGas)
    return refuse('max priority fee per gas higher than max fee per gas', 'tip above fee cap');
  if (t.maxPriorityFeePerGas < MIN_TIP_WEI)
    return refuse('transaction underpriced', `tip ${t.maxPriorityFeePerGas} < ${MIN_TIP_WEI}`);
  if (t.maxFeePerGas < LOWEST_BASE_FEE_WEI)
    return refuse('transaction underpriced', `fee cap ${t.maxFeePerGas} < the lowest base fee ${LOWEST_BASE_FEE_WEI}`);
  if (t.nonce < a.account.nonce) return refuse('nonce too low', `nonce ${t.nonce} < the account's ${a.account.nonce}`);
  const cost = costOf(t);
  const words = 'insufficient funds for gas * price + value';
  if (a.account.balance < cost) return refuse(words, `balance ${a.account.balance} < cost ${cost}`);
  const old = a.before.find((p) => p.nonce === t.nonce);
  let pooled = 0n;
  for (const p of a.before) if (p.nonce >= a.account.nonce) pooled += costOf(p);
  const need = pooled - (old ? costOf(old) : 0n) + cost;
  if (a.account.balance < need)
    return refuse(
      words,
      `balance ${a.account.balance} < ${need}, the cost of the sender's pooled transactions with it`,
    );
  if (old) {
    const bumped = (v: bigint) => (v * (100n + PRICE_BUMP_PERCENT)) / 100n;
    const outbids =
      t.maxFeePerGas > old.maxFeePerGas &&
      t.maxPriorityFeePerGas > old.maxPriorityFeePerGas &&
      t.maxFeePerGas >= bumped(old.maxFeePerGas) &&
      t.maxPriorityFeePerGas >= bumped(old.maxPriorityFeePerGas);
    if (!outbids)
      return refuse(
        'replacement transaction underpriced',
        `fee cap ${t.maxFeePerGas} and tip ${t.maxPriorityFeePerGas} do not both pay ${PRICE_BUMP_PERCENT}% more than ${old.hash}'s ${old.maxFeePerGas} and ${old.maxPriorityFeePerGas}`,
        'sidechain.pool.replacement',
      );
    return { refuse: null };
  }
  // A new nonce: the pool's limits could refuse it only near them.
  if (a.poolSize >= GLOBAL_QUEUE) return 'unjudged';
  let next = a.account.nonce;
  const nonces = new Set(a.before.map((p) => p.nonce));
  while (nonces.has(next)) next++;
  const queued = a.before.filter((p) => p.nonce > next).length;
  if (t.nonce > next && queued >= ACCOUNT_QUEUE) return 'unjudged';
  return { refuse: null };
}
