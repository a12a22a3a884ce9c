/**
 * Executing a block's transfers on the accounts (geth's state transition for a transaction to an
 * account without code, with Bor's transfer log), the same code for the producer that fills a
 * block and for every node that imports it:
 *
 *   1. checks: chain id, nonce = the sender's nonce, gas ≥ 21,000, the block's gas left, fee cap ≥
 *      base fee, balance ≥ gas limit × fee cap + value ("insufficient funds for gas * price + value");
 *   2. buy gas: the sender pays gas limit × effective price, and its nonce grows by one;
 *   3. transfer the value, and log it as Bor does (`LogTransfer` from the MATIC token contract
 *      0x…1010, with both balances before and after, only when the value is positive);
 *   4. refund the unused gas; the tip (effective price − base fee) × gas used goes to the block's
 *      author (Bor pays its signer: the coinbase is zero); the base fee is burnt.
 *
 * Every transfer uses exactly 21,000 gas and succeeds (status 1) once it passes the checks: there
 * is no code to run or revert. A block whose transactions do not pass is invalid.
 */
import { type Address, ZERO_ADDRESS } from '../core/address';
import { isPlanted } from '../core/plants';
import { type Bytes, type Hex, concatBytes, fromHex, toHex } from '../core/bytes';
import { type Account, type AccountState, accountOf, withChanges } from './accounts';
import { type SignedTx, TRANSFER_GAS, effectiveGasPrice } from './transaction';

/** Bor's MATIC token contract on the sidechain, which every native transfer's log names. */
export const MATIC_TOKEN: Address = '0x0000000000000000000000000000000000001010';
/** keccak256("LogTransfer(address,address,address,uint256,uint256,uint256,uint256,uint256)"). */
export const LOG_TRANSFER_TOPIC: Hex = '0xe6497e3ee548a3372136af2fcb0696db31fc6cf20260707645068bd3fe97f3c4';

/** A log as execution emits it (its place in a block is added by blockActivity). */
export interface RawLog {
  readonly address: Address;
  readonly topics: readonly Hex[];
  readonly data: Hex;
}

/** What one transaction did. */
export interface TxOutcome {
  readonly gasUsed: bigint;
  readonly effectiveGasPrice: bigint;
  readonly logs: readonly RawLog[];
}

/** The block a transaction runs in. */
export interface BlockEnv {
  chainId: bigint;
  baseFee: bigint;
  gasLimit: bigint;
  /** Who receives the tips: the block's signer. */
  author: Address;
}

export interface Executed {
  accounts: AccountState;
  outcomes: TxOutcome[];
  gasUsed: bigint;
}

/** geth's words for a transaction that cannot run now, with the numbers it prints. */
export function whyNotExecutable(
  account: Account,
  tx: SignedTx,
  env: Pick<BlockEnv, 'chainId' | 'baseFee'>,
  gasLeft: bigint,
): string | null {
  if (tx.chainId !== env.chainId) return `invalid chain id for signer: have ${tx.chainId} want ${env.chainId}`;
  if (tx.nonce < account.nonce) return `nonce too low: address ${tx.from}, tx: ${tx.nonce} state: ${account.nonce}`;
  if (tx.nonce > account.nonce) return `nonce too high: address ${tx.from}, tx: ${tx.nonce} state: ${account.nonce}`;
  if (tx.gasLimit < TRANSFER_GAS) return `intrinsic gas too low: gas ${tx.gasLimit}, minimum needed ${TRANSFER_GAS}`;
  if (tx.gasLimit > gasLeft)
    return `gas limit reached: the block has ${gasLeft} gas left, the transaction wants ${tx.gasLimit}`;
  if (tx.maxPriorityFeePerGas > tx.maxFeePerGas)
    return `max priority fee per gas higher than max fee per gas: address ${tx.from}, maxPriorityFeePerGas: ${tx.maxPriorityFeePerGas}, maxFeePerGas: ${tx.maxFeePerGas}`;
  if (effectiveGasPrice(tx, env.baseFee) === null)
    return `max fee per gas less than block base fee: address ${tx.from}, maxFeePerGas: ${tx.maxFeePerGas}, baseFee: ${env.baseFee}`;
  const need = tx.gasLimit * tx.maxFeePerGas + tx.value;
  if (account.balance < need)
    return `insufficient funds for gas * price + value: address ${tx.from} have ${account.balance} want ${need}`;
  return null;
}

/** A transaction applied to a draft of the changed accounts (the checks passed). */
function apply(draft: Map<Address, Account>, base: AccountState, tx: SignedTx, env: BlockEnv): TxOutcome {
  const get = (a: Address): Account => draft.get(a) ?? accountOf(base, a);
  const price = effectiveGasPrice(tx, env.baseFee)!;
  const sender = get(tx.from);
  draft.set(tx.from, { nonce: sender.nonce + 1n, balance: sender.balance - tx.gasLimit * price });
  // Bor's Transfer: the balances of both sides before and after, in the log.
  const in1 = get(tx.from).balance;
  const in2 = get(tx.to).balance;
  draft.set(tx.from, { ...get(tx.from), balance: in1 - tx.value });
  draft.set(tx.to, { ...get(tx.to), balance: get(tx.to).balance + tx.value });
  const logs: RawLog[] =
    tx.value > 0n ? [transferLog(tx.from, tx.to, [tx.value, in1, in2, get(tx.from).balance, get(tx.to).balance])] : [];
  const refund = (tx.gasLimit - TRANSFER_GAS) * price;
  draft.set(tx.from, { ...get(tx.from), balance: get(tx.from).balance + refund });
  const tip = TRANSFER_GAS * (isPlanted('base-fee-to-author') ? price : price - env.baseFee);
  if (tip > 0n && env.author !== ZERO_ADDRESS)
    draft.set(env.author, { ...get(env.author), balance: get(env.author).balance + tip });
  return { gasUsed: TRANSFER_GAS, effectiveGasPrice: price, logs };
}

/** Bor `addTransferLog`: topics [event, token, from, to]; data amount, input1, input2, output1, output2. */
function transferLog(from: Address, to: Address, words: readonly bigint[]): RawLog {
  return {
    address: MATIC_TOKEN,
    topics: [LOG_TRANSFER_TOPIC, word(MATIC_TOKEN), word(from), word(to)],
    data: toHex(concatBytes(...words.map(uint256))),
  };
}

const word = (a: Address): Hex => `0x${'00'.repeat(12)}${a.slice(2)}`;

function uint256(v: bigint): Bytes {
  return fromHex(`0x${v.toString(16).padStart(64, '0')}`);
}

/** Run every transaction of a block in order; the first that cannot run makes the block invalid. */
export function executeTransfers(
  parent: AccountState,
  txs: readonly SignedTx[],
  env: BlockEnv,
): ({ ok: true } & Executed) | { ok: false; reason: string } {
  const draft = new Map<Address, Account>();
  const outcomes: TxOutcome[] = [];
  let gasUsed = 0n;
  for (const [i, tx] of txs.entries()) {
    const why = whyNotExecutable(draft.get(tx.from) ?? accountOf(parent, tx.from), tx, env, env.gasLimit - gasUsed);
    if (why) return { ok: false, reason: `transaction ${i} (${tx.hash}): ${why}` };
    const o = apply(draft, parent, tx, env);
    outcomes.push(o);
    gasUsed += o.gasUsed;
  }
  return { ok: true, accounts: withChanges(parent, draft), outcomes, gasUsed };
}

/**
 * The producer's choice: the candidates in order, each kept if it runs on what the ones before
 * left (a later nonce of a sender may follow an earlier one), at most `maxTxs`.
 */
export function selectTransfers(
  parent: AccountState,
  candidates: readonly SignedTx[],
  env: BlockEnv,
  maxTxs: number,
): Executed & { txs: SignedTx[] } {
  const draft = new Map<Address, Account>();
  const txs: SignedTx[] = [];
  const outcomes: TxOutcome[] = [];
  let gasUsed = 0n;
  for (const tx of candidates) {
    if (txs.length >= maxTxs) break;
    if (whyNotExecutable(draft.get(tx.from) ?? accountOf(parent, tx.from), tx, env, env.gasLimit - gasUsed)) continue;
    const o = apply(draft, parent, tx, env);
    txs.push(tx);
    outcomes.push(o);
    gasUsed += o.gasUsed;
  }
  return { txs, accounts: withChanges(parent, draft), outcomes, gasUsed };
}
