/**
 * The service state machine (an ABCI-style application): tx decode, ante, router, side-tx votes,
 * begin/end block, block gas and byte limits, app hash, queries.
 *
 * Every transaction runs on a branch of the block's state that is committed only if the ante
 * handler and the message handler both succeed, so a rejected transaction leaves the state (and the
 * app hash) untouched — it pays no fee and its sequence does not rise.
 */
import { type DecodedTx, decodeTxBytes, decodeTxHex } from './decodedTx';
import { CommonErrors } from '../modules/framework/errors';
import { SdkErrors } from '../modules/framework/errors';
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { type AppliedBlock, executionKey, type SharedExecution } from './sharedExecution';
import { type ResultError, abciLog, assert, err } from '../core/errors';
import { MemoryStore, type Branch, type KVStore, type StoreWrites } from '../store/kvStore';
import { type AppEvent, type Ctx, type MsgDef, type SideVote } from '../modules/framework/msgDef';
import { type Observers } from '../modules/framework/observers';
import { encodeTx } from '../modules/auth/stdTx';
import { anteHandler, isCheckpointTx } from '../modules/auth/ante';
import { FEE_COLLECTOR, getAccount } from '../modules/auth/keeper';
import { type SignatureScheme, realScheme } from '../core/signatureScheme';
import { FEE_DENOM } from '../modules/auth/params';
import { balanceOf } from '../modules/auth/keeper';
import { sendCoins } from '../modules/bank/keeper';
import { applyValidatorSetChanges } from '../modules/staking/currentValidators';
import { getValidatorSet } from '../modules/staking/keeper';
import { decodeGenesis, initGenesis, type Genesis } from './genesis';
import { MSG_REGISTRY } from './registry';
import { addPending, pendingSideTxs, tally, type SideTxVotes } from './sideTx';
import { type QueryAnswer } from './queryRouter';
import {
  type BeginBlockRequest,
  type CommitResponse,
  type EndBlockResponse,
  type SideTxResult,
  type TxResult,
} from './blockResults';
import { QUERY_ROUTER } from './modules';
import { checkInvariants, invariantChecksByDefault } from './invariantCheck';
import { canonicalJson } from '../core/canonicalJson';
import { isPlanted } from '../core/plants';
import { weakMemo } from '../core/memo';

export const BLOCK_MAX_GAS = 10_000_000n;
export const BLOCK_MAX_BYTES = 22_020_096;

interface BlockState {
  height: bigint;
  timeMs: number;
  proposer: Address;
  branch: Branch;
  gasUsed: bigint;
  bytes: number;
  txCount: number;
  hasCheckpoint: boolean;
  sideTxResults: SideTxResult[];
}

export interface ServiceAppOptions {
  /**
   * Check every module's invariants at the end of every block this app executes (a block adopted
   * from another node's record was checked by the node that executed it). Default: on in test
   * builds (invariantCheck.ts), off otherwise.
   */
  checkInvariants?: boolean;
  /**
   * The block records this app shares with the other nodes of its run (sharedExecution.ts): it
   * adopts a record of a block another node already applied to the same state, and records the
   * blocks it runs. Without it every block runs here.
   */
  sharedExecution?: SharedExecution | null;
}

export class ServiceApp {
  readonly store = new MemoryStore();
  readonly genesis: Genesis;
  private lastHeight = 0n;
  private lastTimeMs: number;
  private lastAppHash: Hex;
  private block: BlockState | null = null;
  private checkState: Branch;
  private readonly checksInvariants: boolean;
  private readonly shared: SharedExecution | null;

  constructor(
    genesis: unknown,
    /** How tx signatures are checked: secp256k1 (`real`, default) or the keyed-hash `fast` scheme. */
    readonly scheme: SignatureScheme = realScheme,
    opts: ServiceAppOptions = {},
  ) {
    this.checksInvariants = opts.checkInvariants ?? invariantChecksByDefault();
    this.shared = opts.sharedExecution ?? null;
    this.genesis = decodeGenesis(genesis);
    initGenesis(this.store, this.genesis);
    this.lastTimeMs = this.genesis.genesisTimeMs;
    this.lastAppHash = this.store.hash();
    this.checkState = this.store.branch();
  }

  get chainId(): string {
    return this.genesis.chainId;
  }

  get height(): bigint {
    return this.lastHeight;
  }

  get appHash(): Hex {
    return this.lastAppHash;
  }

  get lastBlockTimeMs(): number {
    return this.lastTimeMs;
  }

  beginBlock(req: BeginBlockRequest): void {
    assert(this.block === null, 'beginBlock called twice without commit', { height: this.lastHeight });
    const height = req.height ?? this.lastHeight + 1n;
    assert(height === this.lastHeight + 1n, 'blocks are applied in order', {
      expected: this.lastHeight + 1n,
      got: height,
    });
    assert(Number.isSafeInteger(req.timeMs) && req.timeMs >= this.lastTimeMs, 'block time never goes back', {
      last: this.lastTimeMs,
      got: req.timeMs,
    });
    this.block = {
      height,
      timeMs: req.timeMs,
      proposer: req.proposer,
      branch: this.store.branch(),
      gasUsed: 0n,
      bytes: 0,
      txCount: 0,
      hasCheckpoint: false,
      sideTxResults: [],
    };
    this.processSideTxs(req.sideTxVotes ?? []);
  }

  /** Post handlers for side txs delivered at least two blocks ago (Heimdall's BeginSideBlocker). */
  private processSideTxs(voteSets: readonly SideTxVotes[]): void {
    const b = this.block!;
    const votesByTx = new Map<string, SideTxVotes['votes']>();
    for (const vs of voteSets) votesByTx.set(vs.txHash, [...(votesByTx.get(vs.txHash) ?? []), ...vs.votes]);
    for (const [key, p] of pendingSideTxs(b.branch)) {
      if (p.height > b.height - 2n) continue;
      b.branch.delete(key);
      const def = MSG_REGISTRY.get(p.msgType);
      assert(def?.side !== undefined, 'pending side tx of an unknown or non-side message', { type: p.msgType });
      const t = tally(getValidatorSet(b.branch), votesByTx.get(p.txHash) ?? []);
      const events: AppEvent[] = [];
      let error: ResultError | null = null;
      if (t.result !== 'yes') error = CommonErrors.SideTxValidation;
      else {
        const txBranch = b.branch.branch();
        const ctx: Ctx = { store: txBranch, height: b.height, timeMs: b.timeMs, chainId: this.chainId, events };
        const r = def.side.post(ctx, def.decode(p.msgValue), t.observation);
        if (r.ok) txBranch.commit();
        else {
          txBranch.discard();
          error = r.error;
          events.length = 0;
        }
      }
      b.sideTxResults.push({
        txHash: p.txHash,
        msgType: p.msgType,
        tally: t,
        code: error?.code ?? 0,
        codespace: error?.codespace ?? '',
        log: error ? abciLog(error) : '',
        events,
      });
    }
  }

  deliverTx(input: Uint8Array | DecodedTx): TxResult {
    const b = this.block;
    assert(b !== null, 'deliverTx outside a block');
    const d = input instanceof Uint8Array ? decodeTxBytes(input) : input;
    const txBytes = d.raw;
    const hash = d.hash;
    const fail = (e: ResultError, gasUsed = 0n, gasWanted = 0n): TxResult => ({
      code: e.code,
      codespace: e.codespace,
      log: abciLog(e),
      gasWanted,
      gasUsed,
      events: [],
      hash,
    });

    const tx = d.tx;
    if (tx === null) return fail(err(SdkErrors.TxDecode, d.error!));
    if (b.bytes + txBytes.length > BLOCK_MAX_BYTES)
      return fail(
        err(SdkErrors.TxDecode, `block max bytes exceeded: ${b.bytes + txBytes.length} > ${BLOCK_MAX_BYTES}`),
      );
    const checkpoint = isCheckpointTx(tx);
    if ((checkpoint && b.txCount > 0) || b.hasCheckpoint) {
      return fail(
        err(
          SdkErrors.OutOfGas,
          'out of gas in location: block; a block holding MsgCheckpoint holds no other transaction',
        ),
      );
    }

    const branch = b.branch.branch();
    const events: AppEvent[] = [];
    const result = this.runTx(branch, tx, txBytes.length, b.height, b.timeMs, events);
    if (!result.ok) {
      if (isPlanted('sequence-on-failure') && result.gasWanted > 0n) branch.commit();
      else branch.discard();
      return fail(result.error, result.gasUsed, result.gasWanted);
    }
    if (b.gasUsed + result.gasUsed > BLOCK_MAX_GAS) {
      branch.discard();
      return fail(
        err(
          SdkErrors.OutOfGas,
          `out of gas in location: block; block gas ${b.gasUsed} + ${result.gasUsed} exceeds ${BLOCK_MAX_GAS}`,
        ),
        result.gasUsed,
        result.gasWanted,
      );
    }
    if (tx.def.side)
      addPending(branch, b.txCount, {
        txHash: hash,
        height: b.height,
        msgType: tx.def.type,
        msgValue: tx.def.encode(tx.msg),
      });
    branch.commit();
    b.gasUsed += result.gasUsed;
    b.bytes += txBytes.length;
    b.txCount++;
    b.hasCheckpoint ||= checkpoint;
    return { code: 0, codespace: '', log: '', gasWanted: result.gasWanted, gasUsed: result.gasUsed, events, hash };
  }

  private runTx(
    branch: KVStore,
    tx: DecodedTx['tx'] & object,
    size: number,
    height: bigint,
    timeMs: number,
    events: AppEvent[],
  ):
    | { ok: true; gasUsed: bigint; gasWanted: bigint }
    | { ok: false; error: ResultError; gasUsed: bigint; gasWanted: bigint } {
    const ante = anteHandler(branch, tx, size, this.chainId, this.scheme);
    if (!ante.ok) return { ok: false, error: ante.error, gasUsed: ante.gasUsed, gasWanted: 0n };
    const ctx: Ctx = { store: branch, height, timeMs, chainId: this.chainId, events };
    const r = (tx.def as MsgDef).handle(ctx, tx.msg);
    if (!r.ok) return { ok: false, error: r.error, gasUsed: ante.value.gasUsed, gasWanted: ante.value.gasWanted };
    return { ok: true, gasUsed: ante.value.gasUsed, gasWanted: ante.value.gasWanted };
  }

  endBlock(): EndBlockResponse {
    const b = this.block;
    assert(b !== null, 'endBlock outside a block');
    const validatorUpdates = applyValidatorSetChanges(b.branch);
    // The block's fees go to its proposer (Heimdall's EndBlocker).
    const fees = balanceOf(b.branch, FEE_COLLECTOR, FEE_DENOM);
    if (fees > 0n) {
      const e = sendCoins(b.branch, FEE_COLLECTOR, b.proposer, [{ denom: FEE_DENOM, amount: fees }]);
      assert(e === null, 'fee collector balance vanished', { fees });
    }
    return { validatorUpdates, sideTxResults: b.sideTxResults };
  }

  commit(): CommitResponse {
    const b = this.block;
    assert(b !== null, 'commit outside a block');
    b.branch.commit();
    if (this.checksInvariants) checkInvariants(this.store, b.height);
    return this.finishCommit(b.height, b.timeMs, this.store.hash());
  }

  private finishCommit(height: bigint, timeMs: number, appHash: Hex): CommitResponse {
    this.block = null;
    this.lastHeight = height;
    this.lastTimeMs = timeMs;
    this.lastAppHash = appHash;
    this.checkState = this.store.branch();
    return { height, appHash };
  }

  /**
   * Begin, deliver every tx, end and commit one block. `block` is the immutable block object the
   * request and txs come from and `blockHash` its hash: when another node of this run already
   * applied that block to the same state, its record is adopted instead (sharedExecution.ts).
   * `writes` are the store records the block wrote (what the node reports as its state facts).
   */
  applyBlock(
    req: BeginBlockRequest & { timeMs: number },
    txs: readonly Hex[],
    block: object,
    blockHash: Hex,
  ): AppliedBlock & { writes: StoreWrites } {
    assert(this.block === null, 'applyBlock inside a block', { height: this.lastHeight });
    const height = req.height ?? this.lastHeight + 1n;
    const shared = this.shared;
    const key = shared
      ? executionKey(
          {
            mode: this.scheme.mode,
            chainId: this.chainId,
            height: this.lastHeight,
            timeMs: this.lastTimeMs,
            appHash: this.lastAppHash,
          },
          `${blockHash}|${req.timeMs}|${req.proposer}|${txs.length}`,
        )
      : '';
    const known = shared?.find(key, block) ?? null;
    if (known) {
      assert(known.applied.commit.height === height, 'a shared block record is for this height', {
        height,
        record: known.applied.commit.height,
      });
      const appHash = this.store.adopt(known.writes, known.delta);
      assert(appHash === known.applied.commit.appHash, 'adopting a block record reaches its app hash', {
        height,
        appHash,
        record: known.applied.commit.appHash,
      });
      this.finishCommit(height, req.timeMs, appHash);
      return { ...known.applied, writes: known.writes };
    }
    this.beginBlock(req);
    const results = txs.map((t) => this.deliverTx(decodeTxHex(t)));
    const end = this.endBlock();
    const b = this.block!;
    const writes = b.branch.changes();
    b.branch.commit();
    if (this.checksInvariants) checkInvariants(this.store, b.height);
    const { hash, delta } = this.store.hashWithDelta();
    const applied = { results, end, commit: this.finishCommit(b.height, b.timeMs, hash) };
    shared?.remember(key, { block, writes, delta, applied });
    return { ...applied, writes };
  }

  /** Mempool admission: decode and ante against the check state (sequences advance per admitted tx). */
  checkTx(input: Uint8Array | DecodedTx): TxResult {
    const d = input instanceof Uint8Array ? decodeTxBytes(input) : input;
    const hash = d.hash;
    const fail = (e: ResultError): TxResult => ({
      code: e.code,
      codespace: e.codespace,
      log: abciLog(e),
      gasWanted: 0n,
      gasUsed: 0n,
      events: [],
      hash,
    });
    if (d.tx === null) return fail(err(SdkErrors.TxDecode, d.error!));
    const branch = this.checkState.branch();
    const ante = anteHandler(branch, d.tx, d.raw.length, this.chainId, this.scheme);
    if (!ante.ok) {
      branch.discard();
      return fail(ante.error);
    }
    branch.commit();
    return {
      code: 0,
      codespace: '',
      log: '',
      gasWanted: ante.value.gasWanted,
      gasUsed: ante.value.gasUsed,
      events: [],
      hash,
    };
  }

  /** Account number and next sequence for signing a new tx (the mempool's check state). */
  signingAccount(address: Address): { accountNumber: bigint; sequence: bigint } | null {
    const acc = getAccount(this.checkState, address);
    return acc ? { accountNumber: acc.accountNumber, sequence: acc.sequence } : null;
  }

  /** Start a fresh check state from the committed state (after a block, to re-check the mempool). */
  resetCheckState(): void {
    this.checkState = this.store.branch();
  }

  /** This validator's votes on the side txs of the last committed block. */
  sideTxVotes(observers: Observers): Array<{ txHash: Hex; vote: SideVote }> {
    const out: Array<{ txHash: Hex; vote: SideVote }> = [];
    for (const [, p] of pendingSideTxs(this.store)) {
      if (p.height !== this.lastHeight) continue;
      const def = MSG_REGISTRY.get(p.msgType)!;
      out.push({ txHash: p.txHash, vote: def.side!.vote(decodedSideMsg(def, p.msgValue), this.store, observers) });
    }
    return out;
  }

  /** Answer a GET path of the spec (with its query string) from the committed state. */
  query(path: string, observers?: Observers): QueryAnswer {
    return QUERY_ROUTER.route(this.store, { height: this.lastHeight, timeMs: this.lastTimeMs }, path, observers);
  }

  /** Deterministic export of the committed state (for snapshots, debugging and tests). */
  exportState(): string {
    return canonicalJson(Object.fromEntries(this.store.entries()));
  }
}

/**
 * A pending side tx's message, decoded once per stored value: every validator votes on the same
 * pending record (one object, written by the node that ran the block and adopted by the others),
 * and decoding it again per node was most of a vote's cost. Votes only read the message.
 */
const decodedSideMsgs = weakMemo<object, { def: MsgDef; msg: unknown }>('app.decodedSideMsgs');

function decodedSideMsg(def: MsgDef, value: Record<string, unknown>): unknown {
  const hit = decodedSideMsgs.get(value);
  if (hit !== undefined && hit.def === def) return hit.msg;
  const msg = def.decode(value);
  decodedSideMsgs.set(value, { def, msg });
  return msg;
}

export function createServiceApp(genesis: unknown): ServiceApp {
  return new ServiceApp(genesis);
}

export { encodeTx };
