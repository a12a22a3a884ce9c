/** What a sidechain node reports (observations.ts): raw facts of its blocks, head and reorgs. */
import { weakMemo } from '../../core/memo';
import { type DeepReadonly } from '../../core/readonly';
import { compareAddresses } from '../../core/address';
import { type AccountState, accountOf } from '../../sidechain/accounts';
import { type SidechainBlock } from '../../sidechain/block';
import { type Reorg, type SidechainChain } from '../../sidechain/chain';
import { decodeValidatorBytes, headerValidatorBytes } from '../../sidechain/header';
import { type SignedTx } from '../../sidechain/transaction';
import { type PoolHead } from '../../sidechain/txPool';
import { type TxOutcome } from '../../sidechain/transfers';
import {
  type HeadFact,
  type Observation,
  type PoolAdmissionFact,
  type PooledTxFact,
  type SidechainAccountFact,
  type SidechainBlockFact,
  type SidechainTransfersFact,
  type SidechainTxFact,
} from '../observations';

/**
 * Every node imports every block (the block object is shared by the nodes of a process) and
 * reports it with its head: one frozen fact per block, not one per node, so a run at a hundred
 * nodes keeps one copy and the trace writes its text once (sim/trace/observationJson.ts).
 */
const blockFacts = weakMemo<SidechainBlock, DeepReadonly<SidechainBlockFact>>('sidechainFacts.blocks');
const headFacts = weakMemo<SidechainBlock, Readonly<HeadFact>>('sidechainFacts.heads');

export function headFact(chain: SidechainChain): Readonly<HeadFact> {
  const h = chain.head().block;
  let f = headFacts.get(h);
  if (f === undefined) {
    f = Object.freeze({ hash: h.hash, number: h.header.number });
    headFacts.set(h, f);
  }
  return f;
}

export function startedObservation(chain: SidechainChain, serviceNode: string): Observation {
  const g = chain.genesis;
  const h = g.block.header;
  return {
    kind: 'sidechain.started',
    genesis: {
      hash: g.block.hash,
      time: h.time,
      difficulty: h.difficulty,
      txHash: h.txHash,
      receiptHash: h.receiptHash,
      producers: g.state.initialProducers.map((p) => ({ id: p.id, signer: p.address, power: p.power })),
      chainId: chain.cfg.chainId,
      baseFee: h.baseFee ?? null,
      gasLimit: h.gasLimit,
      gasUsed: h.gasUsed,
      alloc: writtenAccounts(new Map(), g.accounts).map((a) => ({ address: a.address, balance: a.balance })),
    },
    head: headFact(chain),
    serviceNode,
  };
}

export function reorgObservation(r: Reorg): Observation {
  return {
    kind: 'sidechain.reorg',
    depth: r.depth,
    oldHead: r.oldHead,
    newHead: r.newHead,
    ancestor: r.commonAncestor,
  };
}

/** What the importing node's run of a block came to: the accounts before and after it, each transaction's outcome. */
export interface RunFacts {
  parentAccounts: AccountState;
  accounts: AccountState;
  outcomes: readonly TxOutcome[];
}

/**
 * What a block's header says and its body carries, with what the first node to report it computed
 * for its transactions (no rule applied: the oracles judge it). Facts are shared by block, as the
 * block's run is (src/sidechain/blockRun.ts): every node that imports it runs it on the same accounts.
 */
export function blockFact(block: SidechainBlock, run: RunFacts): DeepReadonly<SidechainBlockFact> {
  let f = blockFacts.get(block);
  if (f === undefined) {
    f = deepFreeze(computeBlockFact(block, run));
    blockFacts.set(block, f);
  }
  return f;
}

function computeBlockFact(block: SidechainBlock, run: RunFacts): SidechainBlockFact {
  const h = block.header;
  let announced: SidechainBlockFact['announced'] = null;
  try {
    const bytes = headerValidatorBytes(h);
    if (bytes.length > 0) announced = decodeValidatorBytes(bytes);
  } catch {
    announced = null;
  }
  const span = block.body.spanCommit;
  return {
    number: h.number,
    hash: block.hash,
    parentHash: h.parentHash,
    time: h.time,
    difficulty: h.difficulty,
    signer: block.signer,
    txHash: h.txHash,
    receiptHash: h.receiptHash,
    bloom: h.bloom,
    stateSyncs: block.body.stateSyncs.map((r) => ({ id: r.id, timeS: r.timeS })),
    spanCommit: span
      ? {
          id: span.id,
          startBlock: span.startBlock,
          endBlock: span.endBlock,
          producers: span.producers.map((p) => ({ id: p.id, signer: p.address, power: p.power })),
        }
      : null,
    announced,
    baseFee: h.baseFee ?? null,
    gasLimit: h.gasLimit,
    gasUsed: h.gasUsed,
    // Blocks without transactions or overrides (most of them) carry nothing more.
    ...(block.body.txs.length > 0 || block.body.balances.length > 0 ? { transfers: transfersFact(block, run) } : {}),
  };
}

function transfersFact(block: SidechainBlock, run: RunFacts): SidechainTransfersFact {
  return {
    balances: block.body.balances.map((b) => ({ address: b.address, balance: b.balance })),
    txs: block.body.txs.map((tx, i) => txFact(tx, run.outcomes[i])),
    accounts: writtenAccounts(run.parentAccounts, run.accounts),
  };
}

function txFact(tx: SignedTx, outcome: TxOutcome | undefined): SidechainTxFact {
  const fees =
    tx.type === 0
      ? { gasPrice: tx.maxFeePerGas }
      : { maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas };
  return {
    hash: tx.hash,
    type: tx.type,
    chainId: tx.chainId,
    nonce: tx.nonce,
    from: tx.from,
    r: tx.r,
    s: tx.s,
    yParity: tx.yParity,
    to: tx.to,
    value: tx.value,
    gasLimit: tx.gasLimit,
    ...fees,
    // An imported block's run has an outcome per transaction; -1 would say one is missing.
    gasUsed: outcome?.gasUsed ?? -1n,
    effectiveGasPrice: outcome?.effectiveGasPrice ?? -1n,
  };
}

/** The accounts whose nonce or balance in `after` differs from `before`'s (or that are new), by address. */
function writtenAccounts(before: AccountState, after: AccountState): SidechainAccountFact[] {
  if (before === after) return [];
  const out: SidechainAccountFact[] = [];
  for (const [address, a] of after) {
    const b = before.get(address);
    if (b === a || (b !== undefined && b.nonce === a.nonce && b.balance === a.balance)) continue;
    out.push({ address, nonce: a.nonce, balance: a.balance });
  }
  return out.sort((x, y) => compareAddresses(x.address, y.address));
}

/** Freeze plain data all the way down (a fact shared by every node that reports it). */
function deepFreeze<T>(value: T): DeepReadonly<T> {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value as DeepReadonly<T>;
}

/** What a pool answered a client's transaction on (observations.ts `PoolAdmissionFact`). */
export function admissionFact(
  tx: SignedTx,
  head: Readonly<HeadFact>,
  pool: PoolHead,
  seen: { before: readonly SignedTx[]; after: readonly SignedTx[]; poolSize: number },
): PoolAdmissionFact {
  const account = accountOf(pool.accounts, tx.from);
  return {
    raw: tx.raw,
    tx: pooledFact(tx),
    head,
    headGasLimit: pool.gasLimit,
    account: { nonce: account.nonce, balance: account.balance },
    before: seen.before.map(pooledFact),
    after: seen.after.map(pooledFact),
    poolSize: seen.poolSize,
  };
}

function pooledFact(tx: SignedTx): PooledTxFact {
  return {
    hash: tx.hash,
    from: tx.from,
    nonce: tx.nonce,
    chainId: tx.chainId,
    gasLimit: tx.gasLimit,
    value: tx.value,
    maxFeePerGas: tx.maxFeePerGas,
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
  };
}
