/**
 * The sidechain's accounts and transfers, recomputed: the oracle keeps its own accounts per block
 * hash (from the genesis allocation, each block on the state after its parent hash, so forks and
 * reorgs need nothing special), recomputes every block's base fee from its parent's header, every
 * transaction's validity and outcome and what the block leaves in the accounts
 * (model/sidechainAccounts.ts), and the header's logs bloom over its transfers' logs
 * (model/logsBloom.ts), and compares each with what the first node to import the block reported.
 * The first difference is named: block, transaction, field, expected and got (for the bloom, the
 * first byte that differs).
 *
 * On a real-crypto run it also recovers each transaction's sender from its signature itself
 * (model/txSender.ts) and compares it with the sender the node reported: a node that took some
 * other signature format as a sender's (a fast-scheme signature, say) credits and debits the named
 * account consistently, so only the recovery shows it. A fast-crypto run's signatures are the fast
 * scheme's keyed hashes, not secp256k1: there the sender is not judged.
 *
 * Every node runs the same code, so a bug in the execution of transfers passes every comparison
 * between nodes; only a model written from the rules sees it. A block imported again by other
 * nodes is not judged again (same hash, same block). States far below the highest block seen are
 * forgotten: a block built on one of them (a node catching up on old blocks) is not judged.
 */
import { type DeepReadonly } from '../../src/core/readonly';
import { type CryptoMode } from '../../src/core/signatureScheme';
import { type SidechainBlockFact } from '../../src/node/observations';
import {
  type ModelAccount,
  type ModelAccounts,
  type ParentGas,
  accountIn,
  childBaseFee,
  runTransfers,
} from './model/sidechainAccounts';
import { firstDifferingByte, logsBloom } from './model/logsBloom';
import { recoverTxSender } from './model/txSender';
import { Oracle, type RunRecord } from './oracle';
import { type RuleId } from './ruleId';

/** How far below the highest block a state is kept (far deeper than any reorg a run allows). */
const KEEP_BLOCKS = 512n;

interface BlockState {
  number: bigint;
  gas: ParentGas;
  accounts: ModelAccounts;
}

export class SidechainAccountsOracle extends Oracle {
  readonly name = 'sidechain-accounts';
  readonly class = 'safety' as const;
  readonly reads = ['sidechain.started', 'sidechain.imported'] as const;
  static readonly judges: readonly RuleId[] = [
    'sidechain.base-fee.eip1559',
    'sidechain.tx.chain-id',
    'sidechain.tx.sender-recovery',
    'sidechain.tx.nonce',
    'sidechain.tx.fee-cap',
    'sidechain.tx.funds',
    'sidechain.tx.gas',
    'sidechain.tx.transfer',
    'sidechain.tx.tip-to-author',
    'sidechain.accounts.balance-override',
    'sidechain.header.bloom',
  ];

  /** `crypto`: the run's signature scheme (only a real-crypto run's senders are recovered). */
  constructor(private readonly crypto: CryptoMode) {
    super();
  }

  private chainId: bigint | null = null;
  private readonly states = new Map<string, BlockState>();
  private highest = 0n;
  private prunedBelow = 0n;

  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'sidechain.started') {
      if (this.chainId !== null) return;
      this.chainId = o.genesis.chainId;
      const accounts = new Map<string, ModelAccount>();
      for (const a of o.genesis.alloc) {
        const k = a.address.toLowerCase();
        accounts.set(k, { nonce: 0n, balance: accountIn(accounts, k).balance + a.balance });
      }
      const { baseFee, gasLimit, gasUsed } = o.genesis;
      this.states.set(o.genesis.hash, { number: 0n, gas: { baseFee, gasLimit, gasUsed }, accounts });
      return;
    }
    if (o.kind !== 'sidechain.imported' || this.states.has(o.block.hash)) return;
    const parent = this.states.get(o.block.parentHash);
    // A block on a forgotten state (or before any genesis): not judged.
    if (parent === undefined || this.chainId === null) return;
    const state = this.judge(r, o.block, parent, this.chainId);
    this.states.set(o.block.hash, state);
    if (state.number > this.highest) this.highest = state.number;
    this.prune();
  }

  /** Check one block against its parent's state; the state after it, as the model computes it. */
  private judge(r: RunRecord, b: DeepReadonly<SidechainBlockFact>, parent: BlockState, chainId: bigint): BlockState {
    const at = `block ${b.number} (${b.hash})`;
    const gas: ParentGas = { baseFee: b.baseFee, gasLimit: b.gasLimit, gasUsed: b.gasUsed };
    const next = (accounts: ModelAccounts): BlockState => ({ number: b.number, gas, accounts });
    const differs = (rule: RuleId, field: string, expected: unknown, got: unknown, tx?: string) =>
      this.fail(
        r.t,
        r.node,
        `${at}${tx ? `, transaction ${tx}` : ''}: ${field} is ${String(got)}, the rules give ${String(expected)} (${rule})`,
        { block: b.number, hash: b.hash, ...(tx ? { tx } : {}), rule, field, expected, got },
      );
    const baseFee = childBaseFee(parent.gas);
    this.saw('sidechain.base-fee.eip1559');
    if (b.baseFee !== baseFee) differs('sidechain.base-fee.eip1559', 'baseFee', baseFee, b.baseFee);
    const t = b.transfers;
    const txs = t?.txs ?? [];
    const overrides = (t?.balances ?? []).map((o) => ({ address: o.address.toLowerCase(), balance: o.balance }));
    const modelTxs = txs.map((x) => ({ ...x, from: x.from.toLowerCase(), to: x.to.toLowerCase() }));
    const run = runTransfers(parent.accounts, overrides, modelTxs, {
      chainId,
      baseFee,
      gasLimit: b.gasLimit,
      author: b.signer.toLowerCase(),
    });
    if (overrides.length > 0) this.saw('sidechain.accounts.balance-override');
    for (const [i] of modelTxs.entries()) {
      if (!run.ok && i > run.index) break;
      for (const rule of TX_RULES) this.saw(rule);
    }
    if (!run.ok) {
      differs(run.rule, run.field, run.expected, run.got, txs[run.index]!.hash);
      // The node's block stands on the chain; the model's state stays its parent's (no transfer ran).
      return next(parent.accounts);
    }
    this.saw('sidechain.tx.gas');
    for (const [i, x] of txs.entries()) {
      const e = run.outcomes[i]!;
      if (x.gasUsed !== e.gasUsed) differs('sidechain.tx.gas', 'gasUsed', e.gasUsed, x.gasUsed, x.hash);
      else if (x.effectiveGasPrice !== e.effectiveGasPrice)
        differs('sidechain.tx.fee-cap', 'effectiveGasPrice', e.effectiveGasPrice, x.effectiveGasPrice, x.hash);
    }
    if (b.gasUsed !== run.gasUsed) differs('sidechain.tx.gas', 'gasUsed', run.gasUsed, b.gasUsed);
    this.compareAccounts(run.accounts, parent.accounts, b, run.writers, differs);
    // The header's bloom over the logs of its transactions only: the state-sync logs are in no
    // header bloom (pre-PIP-74 Bor), and a block without logs has the empty bloom.
    this.saw('sidechain.header.bloom');
    const bloom = firstDifferingByte(logsBloom(run.outcomes.flatMap((o) => o.logs)), b.bloom);
    if (bloom) differs('sidechain.header.bloom', `bloom byte ${bloom.byte}`, bloom.expected, bloom.got);
    // Last: any other reported field that differs changes the signing digest, and so the recovered
    // sender, too; it is named above. Fast crypto: the signatures are the fast scheme's keyed
    // hashes, not secp256k1; nothing here recovers them, and the sender is not judged.
    if (this.crypto === 'real')
      for (const x of txs) {
        this.saw('sidechain.tx.sender-recovery');
        const sender = recoverTxSender(x);
        if (sender.ok && sender.from === x.from.toLowerCase()) continue;
        differs(
          'sidechain.tx.sender-recovery',
          'from',
          sender.ok ? sender.from : `no sender (${sender.why})`,
          x.from,
          x.hash,
        );
        break;
      }
    return next(run.accounts);
  }

  /** Every account the model or the node says the block changed: the node's value against the model's. */
  private compareAccounts(
    expected: ModelAccounts,
    before: ModelAccounts,
    b: DeepReadonly<SidechainBlockFact>,
    writers: ReadonlyMap<string, RuleId>,
    differs: (rule: RuleId, field: string, expected: unknown, got: unknown) => void,
  ): void {
    const reported = new Map<string, ModelAccount>();
    for (const a of b.transfers?.accounts ?? []) reported.set(a.address.toLowerCase(), a);
    const addresses = new Set([...reported.keys()]);
    if (expected !== before) for (const [address, a] of expected) if (before.get(address) !== a) addresses.add(address);
    // Code-unit order of lower-case hex: the same on every run.
    for (const address of [...addresses].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0))) {
      const want = accountIn(expected, address);
      const got = reported.get(address) ?? accountIn(before, address);
      const writer = writers.get(address) ?? 'sidechain.tx.transfer';
      // Only a transaction moves a nonce: its sender's, by one.
      if (got.nonce !== want.nonce) {
        differs('sidechain.tx.nonce', `nonce of ${address}`, want.nonce, got.nonce);
        return;
      }
      if (got.balance !== want.balance) {
        differs(writer, `balance of ${address}`, want.balance, got.balance);
        return;
      }
    }
  }

  /** Forget the states far below the highest block (every KEEP_BLOCKS blocks). */
  private prune(): void {
    const floor = this.highest - KEEP_BLOCKS;
    if (floor < this.prunedBelow + KEEP_BLOCKS) return;
    for (const [hash, s] of this.states) if (s.number < floor) this.states.delete(hash);
    this.prunedBelow = floor;
  }
}

/** The rules a transaction that the model ran (or refused) was judged by. */
const TX_RULES: readonly RuleId[] = [
  'sidechain.tx.chain-id',
  'sidechain.tx.nonce',
  'sidechain.tx.fee-cap',
  'sidechain.tx.funds',
  'sidechain.tx.gas',
  'sidechain.tx.transfer',
  'sidechain.tx.tip-to-author',
];
