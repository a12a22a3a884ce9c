/**
 * The model's service state: what the spec's resources hold (accounts, validators and the
 * validator set with its proposer priorities, dividend accounts, the checkpoint buffer, acked
 * checkpoints, the ack count and last no-ack, spans, state-sync records, the replay keys of
 * parent-chain events, pending side transactions), as plain immutable records in branchable
 * tables. A transaction runs on a branch of its block's state, a block on a branch of the
 * committed state.
 */
import { type PrioritySet } from '../proposerPriority';
import { Layered } from './layered';
import { type Addr, type ModelCoin, type ModelMsg } from './txDecode';

export interface ModelAccount {
  address: Addr;
  /** denom → amount; zero balances are left out. */
  coins: ReadonlyMap<string, bigint>;
  sequence: bigint;
  accountNumber: bigint;
  pubKey: string | null;
}

export interface ModelValidator {
  id: bigint;
  signer: Addr;
  pubKey: string;
  power: bigint;
  startEpoch: bigint;
  endEpoch: bigint;
  lastUpdated: bigint | null;
  jailed: boolean;
}

export interface ModelCheckpoint {
  proposer: Addr;
  startBlock: bigint;
  endBlock: bigint;
  rootHash: string;
  accountRootHash: string;
  /** Seconds of the block time that buffered it. */
  timestampS: bigint;
}

export interface ModelProducer {
  id: bigint;
  signer: Addr;
  power: bigint;
}

export interface SpanMember {
  id: bigint;
  startEpoch: bigint;
  endEpoch: bigint;
  pubKey: string;
  signer: Addr;
}

export interface ModelSpan {
  id: bigint;
  startBlock: bigint;
  endBlock: bigint;
  producers: ModelProducer[];
  sidechainChainId: string;
  /** The validator set as it stood when the span was frozen: members, powers, priorities, proposer. */
  validators: Array<{ address: Addr; power: bigint; priority: bigint }>;
  /** The set's stored proposer, as it stood when it was picked. */
  proposer: { address: Addr; power: bigint; priority: bigint } | null;
  /** The records of the set's members, then of producers outside it, as they stood then. */
  members: SpanMember[];
}

export interface ModelRecord {
  id: bigint;
  contract: Addr;
  data: string;
  txHash: string;
  logIndex: bigint;
  sidechainChainId: string;
  recordTimeMs: number;
}

export interface PendingSide {
  txHash: string;
  height: bigint;
  msg: ModelMsg;
  /**
   * A top-up's validator's signer in the state the side votes are cast on (the end of the block
   * that delivered it; null: no such validator), noted when that block ends.
   */
  voteSigner?: Addr | null;
}

export type ReplayModule = 'staking' | 'topup' | 'clerk';

export interface ModelParams {
  chainId: string;
  txFees: bigint;
  maxMemoCharacters: bigint;
  txSigLimit: bigint;
  txSizeCostPerByte: bigint;
  sigVerifyCostSecp256k1: bigint;
  sigVerifyCostEd25519: bigint;
  maxTxGas: bigint;
  checkpointBufferTimeMs: bigint;
  avgCheckpointLength: bigint;
  maxCheckpointLength: bigint;
  childBlockInterval: bigint;
  sprint: bigint;
  spanDuration: bigint;
  producerCount: bigint;
  parentConfirmations: bigint;
  sidechainConfirmations: bigint;
  sidechainChainId: string;
  sendEnabled: boolean;
}

/** Scalars of the state, each its own record. */
export interface Scalars {
  validatorSet: PrioritySet;
  buffer: ModelCheckpoint | null;
  ackCount: bigint;
  lastNoAckS: bigint;
  lastSpanId: bigint | null;
  seedBlock: bigint;
  nextAccountNumber: bigint;
}

type ScalarName = keyof Scalars;

export class ModelState {
  readonly accounts: Layered<ModelAccount>;
  readonly validators: Layered<ModelValidator>;
  readonly dividends: Layered<bigint>;
  readonly checkpoints: Layered<ModelCheckpoint>;
  readonly spans: Layered<ModelSpan>;
  readonly records: Layered<ModelRecord>;
  readonly replay: Layered<true>;
  readonly pending: Layered<PendingSide>;
  private readonly scalars: Layered<Scalars[ScalarName]>;

  constructor(base: ModelState | null = null) {
    this.accounts = base ? base.accounts.branch() : new Layered();
    this.validators = base ? base.validators.branch() : new Layered();
    this.dividends = base ? base.dividends.branch() : new Layered();
    this.checkpoints = base ? base.checkpoints.branch() : new Layered();
    this.spans = base ? base.spans.branch() : new Layered();
    this.records = base ? base.records.branch() : new Layered();
    this.replay = base ? base.replay.branch() : new Layered();
    this.pending = base ? base.pending.branch() : new Layered();
    this.scalars = base ? base.scalars.branch() : new Layered();
  }

  branch(): ModelState {
    return new ModelState(this);
  }

  commit(): void {
    for (const t of this.tables()) t.commit();
  }

  private tables(): Array<Layered<unknown>> {
    return [
      this.accounts,
      this.validators,
      this.dividends,
      this.checkpoints,
      this.spans,
      this.records,
      this.replay,
      this.pending,
      this.scalars,
    ] as Array<Layered<unknown>>;
  }

  /** Scalars written in this layer. */
  scalarsWritten(): string[] {
    return this.scalars.written();
  }

  get<N extends ScalarName>(name: N): Scalars[N] {
    const v = this.scalars.get(name);
    if (v === undefined) throw new Error(`model state has no ${name}`);
    return v as Scalars[N];
  }

  put<N extends ScalarName>(name: N, value: Scalars[N]): void {
    this.scalars.set(name, value);
  }

  /** The validator set as stored (a copy the caller may change and put back). */
  set(): PrioritySet {
    return this.get('validatorSet').copy();
  }

  // --- accounts -------------------------------------------------------------------------------

  account(a: Addr): ModelAccount | undefined {
    return this.accounts.get(a);
  }

  balance(a: Addr, denom: string): bigint {
    return this.accounts.get(a)?.coins.get(denom) ?? 0n;
  }

  /** An account is created with the next number the first time it receives coins. */
  private accountOrNew(a: Addr): ModelAccount {
    const have = this.accounts.get(a);
    if (have) return have;
    const n = this.get('nextAccountNumber');
    this.put('nextAccountNumber', n + 1n);
    const fresh: ModelAccount = { address: a, coins: new Map(), sequence: 0n, accountNumber: n, pubKey: null };
    this.accounts.set(a, fresh);
    return fresh;
  }

  addCoins(a: Addr, coins: readonly ModelCoin[]): void {
    const acc = this.accountOrNew(a);
    const next = new Map(acc.coins);
    for (const c of coins) next.set(c.denom, (next.get(c.denom) ?? 0n) + c.amount);
    this.accounts.set(a, { ...acc, coins: dropZeros(next) });
  }

  /** Take coins; false (and nothing taken) when the account cannot pay them all. */
  subCoins(a: Addr, coins: readonly ModelCoin[]): boolean {
    const acc = this.accounts.get(a);
    if (!acc) return coins.length === 0;
    const next = new Map(acc.coins);
    for (const c of coins) {
      const have = next.get(c.denom) ?? 0n;
      if (have < c.amount) return false;
      next.set(c.denom, have - c.amount);
    }
    this.accounts.set(a, { ...acc, coins: dropZeros(next) });
    return true;
  }

  send(from: Addr, to: Addr, coins: readonly ModelCoin[]): boolean {
    if (!this.subCoins(from, coins)) return false;
    this.addCoins(to, coins);
    return true;
  }

  // --- staking --------------------------------------------------------------------------------

  validator(id: bigint): ModelValidator | undefined {
    return this.validators.get(idKey(id));
  }

  validatorBySigner(signer: Addr): ModelValidator | undefined {
    // The first in id order, as a walk of allValidators() would find it.
    return this.validators.findFirst((v) => v.signer === signer);
  }

  putValidator(v: ModelValidator): void {
    this.validators.set(idKey(v.id), v);
  }

  allValidators(): ModelValidator[] {
    return this.validators.values();
  }

  // --- replay keys ------------------------------------------------------------------------------

  seen(module: ReplayModule, txHash: string, logIndex: bigint): boolean {
    return this.replay.has(replayKey(module, txHash, logIndex));
  }

  markSeen(module: ReplayModule, txHash: string, logIndex: bigint): void {
    this.replay.set(replayKey(module, txHash, logIndex), true);
  }

  // --- checkpoints ------------------------------------------------------------------------------

  checkpoint(n: bigint): ModelCheckpoint | undefined {
    return this.checkpoints.get(idKey(n));
  }

  lastCheckpoint(): { number: bigint; checkpoint: ModelCheckpoint } | undefined {
    const n = this.get('ackCount');
    const c = n === 0n ? undefined : this.checkpoint(n);
    return c ? { number: n, checkpoint: c } : undefined;
  }

  // --- spans ------------------------------------------------------------------------------------

  span(id: bigint): ModelSpan | undefined {
    return this.spans.get(idKey(id));
  }

  lastSpan(): ModelSpan | undefined {
    const id = this.get('lastSpanId');
    return id === null ? undefined : this.span(id);
  }
}

export function idKey(n: bigint): string {
  return n.toString().padStart(20, '0');
}

export function replayKey(module: ReplayModule, txHash: string, logIndex: bigint): string {
  return `${module}/${txHash}/${logIndex}`;
}

function dropZeros(m: Map<string, bigint>): Map<string, bigint> {
  for (const [d, v] of m) if (v === 0n) m.delete(d);
  return m;
}
