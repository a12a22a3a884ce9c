/**
 * The oracle's own model of the sidechain's accounts and transfers, written from the rules (geth's
 * London state transition for a transaction to an account without code, Bor's EIP-1559 base fee),
 * never from the node's code:
 *
 * - base fee: the child of a block whose gas use was at its target (half the gas limit) keeps the
 *   parent's base fee; above it, the fee rises by parentFee × (used − target) / target / 16, at
 *   least 1 wei; below it, it falls by parentFee × (target − used) / target / 16 (not below 0).
 *   16 is Bor's change denominator since Delhi (geth: 8); a parent without a base fee (pre-London)
 *   gives geth's initial 1 gwei.
 * - a transaction is valid when its chain id is the chain's, its nonce is the sender's, its tip is
 *   at most its fee cap, its fee cap at least the block's base fee, the sender holds gas limit × fee
 *   cap + value, its gas limit fits in what the block has left, and it offers at least 21,000 gas.
 *   A legacy transaction's gas price is both its fee cap and its tip.
 * - a valid transfer uses exactly 21,000 gas at the effective price min(baseFee + tip, feeCap): the
 *   sender pays the value and that gas and its nonce grows by one, the recipient gets the value,
 *   the block's author (its signer) gets (price − baseFee) per gas, the base fee is burnt.
 * - a devnet's balance overrides set balances (nonces stay) before the block's transactions.
 * - a transfer of a positive value logs Bor's `LogTransfer` (core/bor_fee_log.go `AddTransferLog`):
 *   from the fee-token contract 0x…1010, topics keccak256 of the event's signature, then the token,
 *   the sender and the recipient, each left-padded to 32 bytes; a transfer of 0 logs nothing. Its
 *   data (the amount and both balances before and after) is not modelled: the bloom does not read
 *   it. Bor's deprecated `LogFeeTransfer` for the tip is not emitted here (docs/DEVNET.md).
 */
import { toHex, utf8 } from '../../../src/core/bytes';
import { keccak256Raw } from '../../../src/core/hash';
import { type RuleId } from '../ruleId';

export interface ModelAccount {
  readonly nonce: bigint;
  readonly balance: bigint;
}

/** Accounts by lower-case address; absent = nonce 0, balance 0. */
export type ModelAccounts = ReadonlyMap<string, ModelAccount>;

const EMPTY: ModelAccount = { nonce: 0n, balance: 0n };

export const accountIn = (state: ModelAccounts, address: string): ModelAccount => state.get(address) ?? EMPTY;

/** What a child's base fee follows from. */
export interface ParentGas {
  baseFee: bigint | null;
  gasLimit: bigint;
  gasUsed: bigint;
}

/** geth's initial base fee (1 gwei), for the first London block. */
export const LONDON_INITIAL_BASE_FEE = 1_000_000_000n;
/** Bor since Delhi. */
export const BOR_BASE_FEE_DENOMINATOR = 16n;
export const TRANSFER_GAS_USED = 21_000n;

export function childBaseFee(parent: ParentGas): bigint {
  if (parent.baseFee === null) return LONDON_INITIAL_BASE_FEE;
  const fee = parent.baseFee;
  const target = parent.gasLimit / 2n;
  if (target === 0n || parent.gasUsed === target) return fee;
  if (parent.gasUsed > target) {
    const up = (fee * (parent.gasUsed - target)) / target / BOR_BASE_FEE_DENOMINATOR;
    return fee + (up < 1n ? 1n : up);
  }
  const down = (fee * (target - parent.gasUsed)) / target / BOR_BASE_FEE_DENOMINATOR;
  return down >= fee ? 0n : fee - down;
}

/** A transaction as decoded (the fields the rules read). */
export interface ModelTx {
  readonly hash: string;
  readonly type: number;
  readonly chainId: bigint;
  readonly nonce: bigint;
  readonly from: string;
  readonly to: string;
  readonly value: bigint;
  readonly gasLimit: bigint;
  readonly gasPrice?: bigint;
  readonly maxFeePerGas?: bigint;
  readonly maxPriorityFeePerGas?: bigint;
}

export interface ModelBlockEnv {
  chainId: bigint;
  baseFee: bigint;
  gasLimit: bigint;
  /** Who gets the tips: the block's signer (Bor's coinbase is zero). */
  author: string;
}

/** A log as the model knows it: lower-case hex address and topics. */
export interface ModelLog {
  readonly address: string;
  readonly topics: readonly string[];
}

export interface ModelOutcome {
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  logs: ModelLog[];
}

/** Bor's fee-token contract on the sidechain (MATIC, now POL), which every native transfer's log names. */
export const FEE_TOKEN = '0x0000000000000000000000000000000000001010';
/** The event's signature hashed here, not copied: the topic the log must carry. */
export const LOG_TRANSFER_TOPIC = toHex(
  keccak256Raw(utf8('LogTransfer(address,address,address,uint256,uint256,uint256,uint256,uint256)')),
);

/** An address as an indexed event argument: 12 zero bytes, then its 20. */
const asTopic = (address: string): string => `0x${'00'.repeat(12)}${address.slice(2).toLowerCase()}`;

/** The logs of a valid transfer: Bor's LogTransfer when it moves a positive value, none otherwise. */
export function transferLogs(tx: Pick<ModelTx, 'from' | 'to' | 'value'>): ModelLog[] {
  if (tx.value <= 0n) return [];
  return [
    {
      address: FEE_TOKEN,
      topics: [LOG_TRANSFER_TOPIC, asTopic(FEE_TOKEN), asTopic(tx.from), asTopic(tx.to)],
    },
  ];
}

/** Why a transaction may not be in the block: the rule, the field, what the rule wants and what it has. */
export interface ModelRefusal {
  index: number;
  rule: RuleId;
  field: string;
  expected: string;
  got: string;
}

export interface ModelRun {
  accounts: ModelAccounts;
  outcomes: ModelOutcome[];
  gasUsed: bigint;
  /** The rule that wrote each address the block touched (the first role it played: override, sender, recipient, author). */
  writers: Map<string, RuleId>;
}

const ZERO = `0x${'00'.repeat(20)}`;

/** The caps a transaction offers: a legacy one's gas price is both. */
export function feeCaps(tx: ModelTx): { feeCap: bigint; tipCap: bigint } {
  if (tx.type === 0) return { feeCap: tx.gasPrice ?? 0n, tipCap: tx.gasPrice ?? 0n };
  return { feeCap: tx.maxFeePerGas ?? 0n, tipCap: tx.maxPriorityFeePerGas ?? 0n };
}

/** The first rule `tx` breaks on `sender`'s account with `gasLeft` gas left in the block, or null. */
export function refusal(
  sender: ModelAccount,
  tx: ModelTx,
  env: ModelBlockEnv,
  gasLeft: bigint,
): Omit<ModelRefusal, 'index'> | null {
  const { feeCap, tipCap } = feeCaps(tx);
  const no = (rule: RuleId, field: string, expected: string, got: bigint) => ({ rule, field, expected, got: `${got}` });
  if (tx.chainId !== env.chainId) return no('sidechain.tx.chain-id', 'chainId', `${env.chainId}`, tx.chainId);
  if (tx.nonce !== sender.nonce) return no('sidechain.tx.nonce', 'nonce', `${sender.nonce}`, tx.nonce);
  if (tipCap > feeCap) return no('sidechain.tx.fee-cap', 'maxPriorityFeePerGas', `<= ${feeCap}`, tipCap);
  if (feeCap < env.baseFee)
    return no('sidechain.tx.fee-cap', tx.type === 0 ? 'gasPrice' : 'maxFeePerGas', `>= ${env.baseFee}`, feeCap);
  const need = tx.gasLimit * feeCap + tx.value;
  if (sender.balance < need) return no('sidechain.tx.funds', 'balance', `>= ${need}`, sender.balance);
  if (tx.gasLimit > gasLeft) return no('sidechain.tx.gas', 'gasLimit', `<= ${gasLeft} (block gas left)`, tx.gasLimit);
  if (tx.gasLimit < TRANSFER_GAS_USED)
    return no('sidechain.tx.gas', 'gasLimit', `>= ${TRANSFER_GAS_USED}`, tx.gasLimit);
  return null;
}

/** A block's overrides and transfers on its parent's accounts: the accounts after, or the first refusal. */
export function runTransfers(
  parent: ModelAccounts,
  overrides: ReadonlyArray<{ address: string; balance: bigint }>,
  txs: readonly ModelTx[],
  env: ModelBlockEnv,
): ({ ok: true } & ModelRun) | ({ ok: false } & ModelRefusal) {
  const writers = new Map<string, RuleId>();
  if (overrides.length === 0 && txs.length === 0)
    return { ok: true, accounts: parent, outcomes: [], gasUsed: 0n, writers };
  const next = new Map(parent);
  const wrote = (address: string, rule: RuleId, change: (a: ModelAccount) => ModelAccount) => {
    next.set(address, change(accountIn(next, address)));
    if (!writers.has(address)) writers.set(address, rule);
  };
  for (const o of overrides)
    wrote(o.address, 'sidechain.accounts.balance-override', (a) => ({ nonce: a.nonce, balance: o.balance }));
  const outcomes: ModelOutcome[] = [];
  let gasUsed = 0n;
  for (const [index, tx] of txs.entries()) {
    const no = refusal(accountIn(next, tx.from), tx, env, env.gasLimit - gasUsed);
    if (no) return { ok: false, index, ...no };
    const { feeCap, tipCap } = feeCaps(tx);
    // min(baseFee + tip, feeCap), in bigints (Math.min takes numbers).
    let price = env.baseFee + tipCap;
    if (price > feeCap) price = feeCap;
    const used = TRANSFER_GAS_USED;
    wrote(tx.from, 'sidechain.tx.transfer', (a) => ({
      nonce: a.nonce + 1n,
      balance: a.balance - used * price - tx.value,
    }));
    wrote(tx.to, 'sidechain.tx.transfer', (a) => ({ nonce: a.nonce, balance: a.balance + tx.value }));
    const tip = used * (price - env.baseFee);
    if (tip > 0n && env.author !== ZERO)
      wrote(env.author, 'sidechain.tx.tip-to-author', (a) => ({ nonce: a.nonce, balance: a.balance + tip }));
    outcomes.push({ gasUsed: used, effectiveGasPrice: price, logs: transferLogs(tx) });
    gasUsed += used;
  }
  return { ok: true, accounts: next, outcomes, gasUsed, writers };
}
