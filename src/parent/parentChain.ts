/**
 * The parent chain (an Ethereum L1 model): one block producer, a FIFO of submitted calls, blocks
 * with receipts and ABI-encoded logs, a confirmation depth, and the contracts the service watches
 * (StakeManager with its StakingInfo logger, RootChain, StateSender).
 *
 * Deterministic by construction: no clock of its own (the caller passes each block's virtual time
 * in integer ms), tx hashes are keccak(canonical JSON of {chainId, nonce, call}) with a per-chain
 * nonce, and block hashes are keccak(canonical JSON of the header fields), so the same calls mined
 * at the same times give the same hashes in every run.
 *
 * Log positions follow geth: `logIndex` counts logs across the whole block, not within the receipt.
 * A failed call gets status 0, its error text, no logs, and leaves the contracts unchanged.
 */
import { type Address } from '../core/address';
import { type Hex, toHex, utf8 } from '../core/bytes';
import { canonicalJson, canonicalJsonBytes } from '../core/canonicalJson';
import { keccak256Bytes } from '../core/hash';
import { InputError } from '../core/errors';
import { PARENT_CONTRACTS } from './contracts/addresses';
import { type CallResult } from './contracts/callResult';
import { StakeManager } from './contracts/stakeManager';
import { type SignatureScheme, realScheme } from '../core/signatureScheme';
import {
  type CheckpointSignData,
  type RootChainHeaderBlock,
  DEFAULT_CHILD_BLOCK_INTERVAL,
  RootChain,
} from './contracts/rootChain';
import { StateSender } from './contracts/stateSender';

export interface ParentChainConfig {
  /** The L1 chain id (part of every tx and block hash, so two chains never share one). */
  chainId: bigint;
  blockTimeMs: number;
  /** Blocks on top of a block before it is final (Heimdall's MainchainTxConfirmations). */
  confirmations: number;
  /** StakeManager.validatorThreshold. */
  validatorSlots: number;
  childBlockInterval: bigint;
  /** Virtual time of block 0. */
  genesisTimeMs: number;
  /** When set, the RootChain rejects checkpoints for another sidechain. */
  sidechainChainId?: string;
}

export const DEFAULT_PARENT_CHAIN_CONFIG: Readonly<ParentChainConfig> = Object.freeze({
  chainId: 1337n,
  blockTimeMs: 12_000,
  confirmations: 6,
  validatorSlots: 10,
  childBlockInterval: DEFAULT_CHILD_BLOCK_INTERVAL,
  genesisTimeMs: 0,
});

/** A validator the parent chain starts with, as its stake manager holds it (the service has its own genesis validators). */
export interface GenesisStaker {
  owner: Address;
  /** 65 bytes, 0x04-prefixed. */
  signerPubkey: Hex;
  /** Wei. */
  amount: bigint;
}

export interface ParentGenesis {
  validators: GenesisStaker[];
}

/** A transaction: which contract method, with its arguments and its sender. */
export type ParentCall =
  | { method: 'stake'; from: Address; signerPubkey: Hex; amount: bigint }
  | { method: 'stakeFor'; from: Address; user: Address; signerPubkey: Hex; amount: bigint }
  | { method: 'restake'; from: Address; validatorId: bigint; amount: bigint }
  | { method: 'unstake'; from: Address; validatorId: bigint }
  | { method: 'updateSigner'; from: Address; validatorId: bigint; signerPubkey: Hex }
  | { method: 'topUpForFee'; from: Address; user: Address; fee: bigint }
  | { method: 'syncState'; from: Address; receiver: Address; data: Hex }
  | { method: 'submitCheckpoint'; from: Address; checkpoint: CheckpointSignData; signatures: Hex[] };

export type ParentCallMethod = ParentCall['method'];

const METHODS: readonly ParentCallMethod[] = [
  'stake',
  'stakeFor',
  'restake',
  'unstake',
  'updateSigner',
  'topUpForFee',
  'syncState',
  'submitCheckpoint',
];

export interface ParentLog {
  /** The emitting contract. */
  address: Address;
  topics: readonly Hex[];
  data: Hex;
  /** Position in the block (geth semantics). */
  logIndex: bigint;
  txHash: Hex;
  blockNumber: bigint;
  blockHash: Hex;
}

export interface ParentReceipt {
  txHash: Hex;
  blockNumber: bigint;
  blockHash: Hex;
  status: 1 | 0;
  /** Why a failed call failed (status 0 only). */
  error?: string;
  logs: readonly ParentLog[];
}

export interface ParentBlock {
  number: bigint;
  hash: Hex;
  parentHash: Hex;
  timeMs: number;
  /** keccak of the canonical JSON of the receipts (tx hash, status, error, logs), a header field. */
  receiptsRoot: Hex;
  receipts: readonly ParentReceipt[];
}

export const ZERO_HASH: Hex = `0x${'00'.repeat(32)}`;

/** When the next block is due: one block time after the previous one. */
export function nextBlockTimeMs(prevTimeMs: number, blockTimeMs: number): number {
  return prevTimeMs + blockTimeMs;
}

export class ParentChain {
  readonly config: Readonly<ParentChainConfig>;
  readonly stakeManager: StakeManager;
  readonly rootChain: RootChain;
  readonly stateSender: StateSender;
  private readonly blocks: ParentBlock[] = [];
  private readonly receiptsByTx = new Map<Hex, ParentReceipt>();
  private pending: Array<{ txHash: Hex; call: ParentCall }> = [];
  private nonce = 0n;

  constructor(
    config: Partial<ParentChainConfig> = {},
    genesis: ParentGenesis = { validators: [] },
    scheme: SignatureScheme = realScheme,
  ) {
    this.config = Object.freeze(readConfig({ ...DEFAULT_PARENT_CHAIN_CONFIG, ...config }));
    this.stakeManager = new StakeManager({
      validatorThreshold: this.config.validatorSlots,
      loggerAddress: PARENT_CONTRACTS.stakingInfo,
    });
    this.rootChain = new RootChain({
      stakeManager: this.stakeManager,
      childBlockInterval: this.config.childBlockInterval,
      ...(this.config.sidechainChainId !== undefined ? { sidechainChainId: this.config.sidechainChainId } : {}),
      scheme,
    });
    this.stateSender = new StateSender();

    if (typeof genesis !== 'object' || genesis === null || !Array.isArray(genesis.validators)) {
      throw new InputError('genesis.validators', 'expected an array');
    }
    genesis.validators.forEach((v, i) => {
      const r = this.stakeManager.stakeAtGenesis(v?.owner, v?.signerPubkey, v?.amount);
      if (!r.ok) throw new InputError(`genesis.validators[${i}]`, r.error);
    });

    // Block 0 commits to the genesis stake, so chains with different genesis validators differ from block 0 on.
    const genesisRoot = toHex(
      keccak256Bytes(
        canonicalJsonBytes({
          chainId: this.config.chainId,
          validatorSlots: this.config.validatorSlots,
          childBlockInterval: this.config.childBlockInterval,
          sidechainChainId: this.config.sidechainChainId,
          validators: this.stakeManager.allValidators().map((v) => ({ ...v })),
        }),
      ),
    );
    this.blocks.push(this.seal(0n, ZERO_HASH, this.config.genesisTimeMs, [], genesisRoot));
  }

  // --- transactions and blocks ------------------------------------------------------------------

  /**
   * Queue a call for the next block; returns its tx hash. The hash is fixed now (canonical JSON of
   * the call and the chain's nonce), so it is known before the call runs, as on a real chain.
   */
  submit(call: ParentCall): Hex {
    if (typeof call !== 'object' || call === null || !METHODS.includes(call.method)) {
      throw new InputError('call.method', `expected one of ${METHODS.join(', ')}`);
    }
    let copy: ParentCall;
    let json: string;
    try {
      // A private copy: the caller mutating its object later must not change what runs or what was hashed.
      copy = structuredClone(call);
      json = canonicalJson({ chainId: this.config.chainId, nonce: this.nonce, call: copy });
    } catch (e) {
      throw new InputError('call', `not plain data (strings, bigints, arrays, objects): ${(e as Error).message}`);
    }
    const txHash = toHex(keccak256Bytes(utf8(json)));
    this.nonce += 1n;
    this.pending.push({ txHash, call: copy });
    return txHash;
  }

  /** Calls submitted but not yet mined. */
  pendingCount(): number {
    return this.pending.length;
  }

  /** Run every queued call, in submission order, into a new block at virtual time `timeMs`. */
  mineBlock(timeMs: number): ParentBlock {
    const parent = this.head();
    if (!Number.isSafeInteger(timeMs) || timeMs <= parent.timeMs) {
      throw new InputError(
        'timeMs',
        `a block's time must be an integer after its parent's (${parent.timeMs}), got ${timeMs}`,
      );
    }
    const queue = this.pending;
    this.pending = [];
    const results = queue.map(({ txHash, call }) => ({ txHash, result: this.run(call) }));
    const block = this.seal(parent.number + 1n, parent.hash, timeMs, results);
    this.blocks.push(block);
    for (const r of block.receipts) this.receiptsByTx.set(r.txHash, r);
    return block;
  }

  /** The time the next block is due (one block time after the head). */
  nextBlockTimeMs(): number {
    return nextBlockTimeMs(this.head().timeMs, this.config.blockTimeMs);
  }

  // --- views ------------------------------------------------------------------------------

  head(): ParentBlock {
    return this.blocks[this.blocks.length - 1]!;
  }

  block(n: bigint): ParentBlock | null {
    if (typeof n !== 'bigint' || n < 0n || n >= BigInt(this.blocks.length)) return null;
    return this.blocks[Number(n)] ?? null;
  }

  blockHash(n: bigint): Hex | null {
    return this.block(n)?.hash ?? null;
  }

  /** The highest block with `confirmations` blocks on top of it (never below 0). */
  finalizedNumber(): bigint {
    const n = this.head().number - BigInt(this.config.confirmations);
    return n > 0n ? n : 0n;
  }

  isFinal(blockNumber: bigint): boolean {
    return typeof blockNumber === 'bigint' && blockNumber >= 0n && blockNumber <= this.finalizedNumber();
  }

  /** The receipt of a mined call, or null (unknown or still queued). */
  receipt(txHash: Hex): ParentReceipt | null {
    return typeof txHash === 'string' ? (this.receiptsByTx.get(txHash.toLowerCase() as Hex) ?? null) : null;
  }

  /** The log at block-wide position `logIndex` in the block holding `txHash`, if that tx emitted it. */
  log(txHash: Hex, logIndex: bigint): ParentLog | null {
    return this.receipt(txHash)?.logs.find((l) => l.logIndex === logIndex) ?? null;
  }

  /** Every log of blocks fromBlock..toBlock (inclusive, clamped to the chain), in chain order. */
  logs(fromBlock: bigint, toBlock: bigint): ParentLog[] {
    const out: ParentLog[] = [];
    const last = toBlock < this.head().number ? toBlock : this.head().number;
    for (let n = fromBlock > 0n ? fromBlock : 0n; n <= last; n++) {
      for (const r of this.blocks[Number(n)]!.receipts) out.push(...r.logs);
    }
    return out;
  }

  /**
   * A digest of every contract's storage. Not part of the block hash (the receipts already fix what
   * the calls did); tests and oracles use it to check that a failed call changed nothing.
   */
  stateDigest(): Hex {
    const json = `{"rootChain":${this.rootChain.stateJson()},"stakeManager":${this.stakeManager.stateJson()},"stateSender":${this.stateSender.stateJson()}}`;
    return toHex(keccak256Bytes(utf8(json)));
  }

  /** RootChain header block `n` (checkpoint number n). */
  headerBlock(n: bigint): RootChainHeaderBlock | null {
    return this.rootChain.headerBlock(n);
  }

  // --- internals ----------------------------------------------------------------------------

  private run(call: ParentCall): CallResult {
    switch (call.method) {
      case 'stake':
        return this.stakeManager.stake(call.from, call.signerPubkey, call.amount);
      case 'stakeFor':
        return this.stakeManager.stakeFor(call.from, call.user, call.signerPubkey, call.amount);
      case 'restake':
        return this.stakeManager.restake(call.from, call.validatorId, call.amount);
      case 'unstake':
        return this.stakeManager.unstake(call.from, call.validatorId);
      case 'updateSigner':
        return this.stakeManager.updateSigner(call.from, call.validatorId, call.signerPubkey);
      case 'topUpForFee':
        return this.stakeManager.topUpForFee(call.from, call.user, call.fee);
      case 'syncState':
        return this.stateSender.syncState(call.from, call.receiver, call.data);
      case 'submitCheckpoint':
        return this.rootChain.submitCheckpoint(call.from, call.checkpoint, call.signatures);
    }
  }

  /** Hash the header, then stamp every receipt and log with the block's position and hash. */
  private seal(
    number: bigint,
    parentHash: Hex,
    timeMs: number,
    results: Array<{ txHash: Hex; result: CallResult }>,
    genesisRoot?: Hex,
  ): ParentBlock {
    const receiptsRoot = toHex(
      keccak256Bytes(
        canonicalJsonBytes(
          results.map(({ txHash, result }) =>
            result.ok
              ? {
                  txHash,
                  status: 1,
                  logs: result.logs.map((l) => ({ address: l.address, topics: l.topics, data: l.data })),
                }
              : { txHash, status: 0, error: result.error, logs: [] },
          ),
        ),
      ),
    );
    const hash = toHex(
      keccak256Bytes(
        canonicalJsonBytes({ chainId: this.config.chainId, number, parentHash, timeMs, receiptsRoot, genesisRoot }),
      ),
    );

    let logIndex = 0n;
    const receipts = results.map(({ txHash, result }): ParentReceipt => {
      if (!result.ok)
        return deepFreeze({ txHash, blockNumber: number, blockHash: hash, status: 0, error: result.error, logs: [] });
      const logs = result.logs.map(
        (l): ParentLog => ({
          address: l.address,
          topics: [...l.topics],
          data: l.data,
          logIndex: logIndex++,
          txHash,
          blockNumber: number,
          blockHash: hash,
        }),
      );
      return deepFreeze({ txHash, blockNumber: number, blockHash: hash, status: 1, logs });
    });
    return deepFreeze({ number, hash, parentHash, timeMs, receiptsRoot, receipts });
  }
}

function readConfig(c: ParentChainConfig): ParentChainConfig {
  const nonNegInt = (v: unknown, field: string, min = 0): number => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min)
      throw new InputError(`config.${field}`, `expected an integer >= ${min}, got ${String(v)}`);
    return v;
  };
  const positiveBig = (v: unknown, field: string): bigint => {
    if (typeof v !== 'bigint' || v <= 0n)
      throw new InputError(`config.${field}`, `expected a positive bigint, got ${String(v)}`);
    return v;
  };
  if (
    c.sidechainChainId !== undefined &&
    (typeof c.sidechainChainId !== 'string' || !/^(0|[1-9][0-9]*)$/.test(c.sidechainChainId))
  ) {
    throw new InputError('config.sidechainChainId', `not a decimal integer: ${JSON.stringify(c.sidechainChainId)}`);
  }
  return {
    chainId: positiveBig(c.chainId, 'chainId'),
    blockTimeMs: nonNegInt(c.blockTimeMs, 'blockTimeMs', 1),
    confirmations: nonNegInt(c.confirmations, 'confirmations'),
    validatorSlots: nonNegInt(c.validatorSlots, 'validatorSlots'),
    childBlockInterval: positiveBig(c.childBlockInterval, 'childBlockInterval'),
    genesisTimeMs: nonNegInt(c.genesisTimeMs, 'genesisTimeMs'),
    ...(c.sidechainChainId !== undefined ? { sidechainChainId: c.sidechainChainId } : {}),
  };
}

/** Blocks are shared with every reader; freezing them keeps a reader from rewriting history. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
