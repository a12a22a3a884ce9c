/**
 * One sidechain node's view of the chain: every block it knows, their total difficulty, the
 * producer snapshot and system state after each, the canonical head by Bor's fork choice, and the
 * reorgs it went through.
 *
 * Import re-checks what Bor checks (reference §2.4-§2.7): the signer is a producer of the parent
 * snapshot, difficulty = N - succession, the timestamp is not before parent.time + delay(succession),
 * sprint-start system calls (span commit, sequential state syncs) re-execute to the header's state
 * root, and the validator bytes of a sprint-end header equal the producers the contract names for
 * the next block. A node never reorgs below its finality floor (the last acked checkpoint).
 */
import { type Address, ZERO_ADDRESS } from '../core/address';
import { type Hex } from '../core/bytes';
import { InputError, assert } from '../core/errors';
import { type SignatureScheme, realScheme } from '../core/signatureScheme';
import { toHex, fromHex, concatBytes } from '../core/bytes';
import { type SidechainConfig, calcProducerDelay, producerDelayParams } from './config';
import {
  type SidechainHeader,
  EMPTY_BLOOM,
  EXTRA_SEAL_LENGTH,
  EXTRA_VANITY_LENGTH,
  UNCLE_HASH,
  ZERO_HASH,
  ZERO_NONCE,
  buildExtra,
  encodeValidatorBytes,
  headerHash,
  headerValidatorBytes,
  recoverSigner,
} from './header';
import { type Snapshot, snapshotSuccession } from './snapshot';
import { sharedApplyHeader, sharedGenesisSnapshot } from './sharedSnapshots';
import { isSprintEnd, isSprintStart, isStateSyncBlock } from './sprint';
import { compareHeads, isValidReorg } from './forkChoice';
import { rootHashOf } from './rootHash';
import { type SidechainBlock, EMPTY_BODY, EMPTY_ROOT, txRoot } from './block';
import { type AccountState, type GenesisAlloc, genesisAccounts } from './accounts';
import { runBlock } from './blockRun';
import { INITIAL_BASE_FEE, nextBaseFee } from './baseFee';
import { stateRoot } from './stateRoot';
import { type TxOutcome } from './transfers';
import {
  type SpanProducer,
  type SystemState,
  checkSpanCommit,
  checkStateSync,
  commitSpan,
  commitStateSync,
  genesisSystemState,
  needsSpanCommit,
  producersForBlock,
} from './systemState';
import { isPlanted } from '../core/plants';
import { weakMemo } from '../core/memo';

export interface StoredBlock {
  block: SidechainBlock;
  td: bigint;
  /** Producer snapshot after this block (the one its child is checked against). */
  snapshot: Snapshot;
  /** System state after this block's system calls. */
  state: SystemState;
  /** The accounts after this block's balance overrides and transactions. */
  accounts: AccountState;
  /** What each of the block's transactions did, in block order. */
  outcomes: readonly TxOutcome[];
  /** Virtual ms at which this node first imported it (for reports). */
  importedAtMs: number;
}

export interface Reorg {
  atMs: number;
  depth: number;
  oldHead: Hex;
  newHead: Hex;
  oldNumber: bigint;
  newNumber: bigint;
  commonAncestor: bigint;
}

export type ImportResult =
  | { status: 'imported'; newHead: boolean; reorg: Reorg | null }
  | { status: 'known' }
  | { status: 'orphan'; parentHash: Hex }
  | { status: 'future'; retryAtS: bigint }
  | { status: 'rejected'; reason: string };

/** Execute a block's system calls on the parent's state (the same code for producer and importer). */
type Verdict =
  | { status: 'ok'; state: SystemState; accounts: AccountState; outcomes: readonly TxOutcome[] }
  | { status: 'future' }
  | { status: 'rejected'; reason: string };

/** Blocks found good, with the parent block, config and scheme they were verified on (see verifyOnce). */
const verifiedBlocks = weakMemo<
  SidechainBlock,
  {
    parent: SidechainBlock;
    cfg: SidechainConfig;
    scheme: SignatureScheme;
    verdict: Extract<Verdict, { status: 'ok' }>;
  }
>('sidechain.verifiedBlocks');

export function executeSystemCalls(
  parentState: SystemState,
  block: { header: { number: bigint; time: bigint }; body: SidechainBlock['body'] },
  cfg: SidechainConfig,
): { ok: true; state: SystemState } | { ok: false; reason: string } {
  const n = block.header.number;
  const sprint = BigInt(cfg.sprint);
  let state = parentState;
  const { spanCommit, stateSyncs } = block.body;
  if ((spanCommit && !isSprintStart(n, sprint)) || (stateSyncs.length && !isStateSyncBlock(n, sprint)))
    return { ok: false, reason: `system calls in block ${n}, which is not a sprint start` };
  if (spanCommit) {
    if (!needsSpanCommit(state, n, sprint))
      return { ok: false, reason: `span ${spanCommit.id} committed at block ${n}, where no commit is due` };
    const why = checkSpanCommit(state, spanCommit, sprint);
    if (why) return { ok: false, reason: `commitSpan: ${why}` };
    state = commitSpan(state, spanCommit);
  }
  const toTime = block.header.time - BigInt(cfg.stateSyncDelayS);
  for (const r of stateSyncs) {
    const why = checkStateSync(state, r);
    if (why) return { ok: false, reason: why };
    if (!(r.timeS < toTime))
      return { ok: false, reason: `state sync ${r.id} is newer than the confirmation delay allows` };
    state = commitStateSync(state, r);
  }
  return { ok: true, state };
}

/** What a sidechain's genesis holds besides its time and producers: the funded accounts. */
export interface SidechainGenesis {
  timeS: bigint;
  producers: SpanProducer[];
  alloc?: readonly GenesisAlloc[];
}

export class SidechainChain {
  private readonly blocks = new Map<Hex, StoredBlock>();
  private readonly canonical = new Map<bigint, Hex>();
  /** Every stored block by number (all branches), for scans above a number. */
  private readonly atNumber = new Map<bigint, StoredBlock[]>();
  private topNumber = 0n;
  private headHash: Hex;
  private floor: { number: bigint; hash: Hex } | null = null;
  readonly reorgs: Reorg[] = [];
  readonly genesis: StoredBlock;

  constructor(
    readonly cfg: SidechainConfig,
    genesis: SidechainGenesis,
    /** How seals are checked: secp256k1 (`real`) or the run's `fast` keyed hash. */
    readonly scheme: SignatureScheme = realScheme,
  ) {
    const state = genesisSystemState(genesis.producers);
    const accounts = genesisAccounts(genesis.alloc ?? []);
    // Genesis carries the initial producers in its extra data and an empty seal, as clique does.
    const header: SidechainHeader = {
      parentHash: ZERO_HASH,
      uncleHash: UNCLE_HASH,
      coinbase: ZERO_ADDRESS,
      stateRoot: stateRoot(state, accounts),
      txHash: EMPTY_ROOT,
      receiptHash: EMPTY_ROOT,
      bloom: EMPTY_BLOOM,
      difficulty: 1n,
      number: 0n,
      gasLimit: 30_000_000n,
      gasUsed: 0n,
      time: genesis.timeS,
      extraData: toHex(
        concatBytes(fromHex(buildExtra(encodeValidatorBytes(genesis.producers))), new Uint8Array(EXTRA_SEAL_LENGTH)),
      ),
      mixDigest: ZERO_HASH,
      nonce: ZERO_NONCE,
      // London from genesis, as a new Bor chain: geth's initial base fee.
      baseFee: INITIAL_BASE_FEE,
    };
    const hash = headerHash(header);
    const snapshot = sharedGenesisSnapshot(
      genesis.producers.map((p) => ({ address: p.address, power: p.power, id: p.id })),
      hash,
    );
    this.genesis = {
      block: { header, hash, signer: ZERO_ADDRESS, body: EMPTY_BODY },
      td: 1n,
      snapshot,
      state,
      accounts,
      outcomes: [],
      importedAtMs: 0,
    };
    this.store(this.genesis);
    this.canonical.set(0n, hash);
    this.headHash = hash;
  }

  head(): StoredBlock {
    return this.blocks.get(this.headHash)!;
  }

  get(hash: Hex): StoredBlock | undefined {
    return this.blocks.get(hash);
  }

  has(hash: Hex): boolean {
    return this.blocks.has(hash);
  }

  /** The canonical block at `n`. */
  byNumber(n: bigint): StoredBlock | undefined {
    const h = this.canonical.get(n);
    return h === undefined ? undefined : this.blocks.get(h);
  }

  get size(): number {
    return this.blocks.size;
  }

  finalityFloor(): { number: bigint; hash: Hex } | null {
    return this.floor;
  }

  /** Never reorg below `number` again (the end block of the last acked checkpoint). */
  setFinalized(number: bigint): void {
    const b = this.byNumber(number);
    if (b && (!this.floor || number > this.floor.number)) this.floor = { number, hash: b.block.hash };
  }

  /** Verify and store a block; switch the head if fork choice prefers it. */
  import(block: SidechainBlock, nowS: bigint, nowMs: number): ImportResult {
    if (this.blocks.has(block.hash)) return { status: 'known' };
    const parent = this.blocks.get(block.header.parentHash);
    if (!parent) return { status: 'orphan', parentHash: block.header.parentHash };
    const verdict = this.verifyOrRefuse(parent, block, nowS);
    if (verdict.status !== 'ok')
      return verdict.status === 'future'
        ? { status: 'future', retryAtS: block.header.time }
        : { status: 'rejected', reason: verdict.reason };
    // What verify established, as the store relies on it: one number above its parent.
    if (block.header.number !== parent.block.header.number + 1n)
      assert(false, 'a stored block extends its parent by one', { number: block.header.number, hash: block.hash });
    const stored: StoredBlock = {
      block,
      td: parent.td + block.header.difficulty,
      snapshot: sharedApplyHeader(parent.snapshot, block.header, block.signer, BigInt(this.cfg.sprint)),
      state: verdict.state,
      accounts: verdict.accounts,
      outcomes: verdict.outcomes,
      importedAtMs: nowMs,
    };
    this.store(stored);
    const head = this.head();
    if (!prefer(stored, head)) return { status: 'imported', newHead: false, reorg: null };
    if (!this.floorAllows(stored)) return { status: 'imported', newHead: false, reorg: null };
    const reorg = this.setHead(stored, nowMs);
    return { status: 'imported', newHead: true, reorg };
  }

  /**
   * A block comes from the network: whatever in it cannot be read (a field a helper refuses as
   * malformed input) refuses the block, as Bor's header checks return an error, and never stops the
   * node. A broken invariant of the node's own (an assert) still does.
   */
  private verifyOrRefuse(parent: StoredBlock, block: SidechainBlock, nowS: bigint): Verdict {
    try {
      return this.verifyOnce(parent, block, nowS);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      return { status: 'rejected', reason: `block ${block.header.number}: ${e.message}` };
    }
  }

  /**
   * `verify`, once per network: every node imports the same block object on the same parent block,
   * and what verify finds depends only on those two (the parent's snapshot, system state and
   * accounts follow from its ancestry, which its header's state root commits to), the chain's
   * config and scheme, and the time (only whether the block is from the future). A block found
   * good on a parent is good for every node that holds that parent, with the same state, accounts
   * and outcomes (immutable values, shared); only its time is checked against this node's clock.
   */
  private verifyOnce(parent: StoredBlock, block: SidechainBlock, nowS: bigint): Verdict {
    const hit = verifiedBlocks.get(block);
    if (hit !== undefined && hit.parent === parent.block && hit.cfg === this.cfg && hit.scheme === this.scheme)
      return block.header.time > nowS ? { status: 'future' } : hit.verdict;
    const verdict = this.verify(parent, block, nowS);
    if (verdict.status === 'ok')
      verifiedBlocks.set(block, { parent: parent.block, cfg: this.cfg, scheme: this.scheme, verdict });
    return verdict;
  }

  private verify(parent: StoredBlock, block: SidechainBlock, nowS: bigint): Verdict {
    const h = block.header;
    const n = h.number;
    const reject = (reason: string) => ({ status: 'rejected' as const, reason: `block ${n}: ${reason}` });
    if (n !== parent.block.header.number + 1n)
      return reject(`number does not follow parent ${parent.block.header.number}`);
    if (headerHash(h) !== block.hash) return reject('hash does not match the header');
    // Bor checks the extra's make-up before anything reads it (errMissingVanity, errMissingSignature):
    // the producer list sits between the two, and a short extra has no place for it.
    const extraLength = (h.extraData.length - 2) / 2;
    if (extraLength < EXTRA_VANITY_LENGTH) return reject('extra-data 32 byte vanity prefix missing');
    if (extraLength < EXTRA_VANITY_LENGTH + EXTRA_SEAL_LENGTH)
      return reject('extra-data 65 byte signature suffix missing');
    const signer = recoverSigner(h, this.scheme);
    if (signer === null || signer !== block.signer) return reject('seal does not recover to the claimed signer');
    const set = parent.snapshot.validatorSet;
    if (!set.hasAddress(signer) && !isPlanted('unauthorised-signer'))
      return reject(`Signer ${signer} is not a part of the producer set at block ${n}`);
    const succession = snapshotSuccession(parent.snapshot, signer);
    const expectedDifficulty = BigInt(set.size - succession);
    if (h.difficulty !== expectedDifficulty)
      return reject(
        `Wrong difficulty at block ${n}, expected: ${expectedDifficulty}, actual ${h.difficulty}. Signer was ${signer}`,
      );
    const delay = calcProducerDelay(n, succession, producerDelayParams(this.cfg));
    if (h.time < parent.block.header.time + BigInt(this.cfg.periodS)) return reject('invalid timestamp');
    if (h.time < parent.block.header.time + BigInt(delay) && !isPlanted('early-block'))
      return reject(`Block ${n} was created too soon. Signer turn-ness number is ${succession}`);
    if (h.time > nowS) return { status: 'future' };
    const baseFee = nextBaseFee(parent.block.header);
    if (h.baseFee !== baseFee) return reject(`invalid baseFee: have ${h.baseFee}, want ${baseFee}`);
    if (h.gasLimit !== parent.block.header.gasLimit) return reject('gas limit differs from the parent');
    const exec = executeSystemCalls(parent.state, block, this.cfg);
    if (!exec.ok) return reject(exec.reason);
    const ran = runBlock(block, parent.accounts, {
      chainId: this.cfg.chainId,
      baseFee,
      gasLimit: h.gasLimit,
      author: signer,
    });
    if (!ran.ok) return reject(ran.reason);
    const transfers = ran.run;
    if (h.gasUsed !== transfers.gasUsed)
      return reject(`invalid gas used (remote: ${h.gasUsed} local: ${transfers.gasUsed})`);
    if (h.txHash !== txRoot(block.body.txs) || h.receiptHash !== transfers.receiptRoot)
      return reject('transaction or receipt root mismatch');
    if (h.bloom !== transfers.bloom) return reject('invalid bloom');
    if (stateRoot(exec.state, transfers.accounts) !== h.stateRoot) return reject('state root mismatch');
    const middle = headerValidatorBytes(h);
    if (isSprintEnd(n, this.cfg.sprint)) {
      const expected = encodeValidatorBytes(producersForBlock(exec.state, n + 1n, this.cfg.firstSpanEnd));
      if (toHex(middle) !== expected) return reject('validator bytes differ from the span (errInvalidSpanValidators)');
    } else if (middle.length !== 0) {
      return reject('validator bytes on a non-sprint-end block (errExtraValidators)');
    }
    return { status: 'ok', state: exec.state, accounts: transfers.accounts, outcomes: transfers.outcomes };
  }

  /** A new head may not replace the canonical block at the finality floor (Bor's whitelist). */
  private floorAllows(candidate: StoredBlock): boolean {
    if (!this.floor) return true;
    return isValidReorg(
      { floorNumber: this.floor.number, floorHash: this.floor.hash },
      (n) => this.ancestorAt(candidate, n)?.block.hash,
      candidate.block.header.number,
      this.head().block.header.number,
    );
  }

  private ancestorAt(from: StoredBlock, n: bigint): StoredBlock | undefined {
    let b: StoredBlock | undefined = from;
    while (b && b.block.header.number > n) {
      // `canonical` is exactly the chain from genesis to the head: once the walk is on it, so are
      // the ancestors (the usual case, a block on the head, costs one step instead of a walk).
      if (this.canonical.get(b.block.header.number) === b.block.hash) return this.byNumber(n);
      b = this.blocks.get(b.block.header.parentHash);
    }
    return b && b.block.header.number === n ? b : undefined;
  }

  private setHead(next: StoredBlock, nowMs: number): Reorg | null {
    const old = this.head();
    if (isPlanted('sticky-head') && next.block.header.parentHash !== old.block.hash && old.block.header.number > 0n)
      return null;
    // Walk back from the new head until we meet the canonical chain.
    const path: StoredBlock[] = [];
    let b: StoredBlock | undefined = next;
    while (b && this.canonical.get(b.block.header.number) !== b.block.hash) {
      path.push(b);
      b = this.blocks.get(b.block.header.parentHash);
    }
    assert(b !== undefined, 'a stored block descends from genesis');
    const ancestor = b.block.header.number;
    for (let k = old.block.header.number; k > ancestor; k--) this.canonical.delete(k);
    for (const p of path) this.canonical.set(p.block.header.number, p.block.hash);
    this.headHash = next.block.hash;
    // The canonical index is the chain from genesis to the new head: it ends at the head, and the
    // head's parent is the canonical block below it.
    const n = next.block.header.number;
    if (
      this.canonical.get(n) !== next.block.hash ||
      this.canonical.has(n + 1n) ||
      (n > 0n && this.canonical.get(n - 1n) !== next.block.header.parentHash)
    )
      assert(false, 'the canonical chain ends at the head and links to its parent', {
        head: next.block.hash,
        number: n,
      });
    const depth = Number(old.block.header.number - ancestor);
    if (old.block.hash === next.block.header.parentHash || depth === 0) return null;
    const reorg: Reorg = {
      atMs: nowMs,
      depth,
      oldHead: old.block.hash,
      newHead: next.block.hash,
      oldNumber: old.block.header.number,
      newNumber: next.block.header.number,
      commonAncestor: ancestor,
    };
    this.reorgs.push(reorg);
    return reorg;
  }

  /**
   * A stored block numbered `end`, on any branch, whose chain has `root` (bare hex, as
   * `rootHash`) over `start..end`, or undefined. Bor, on a checkpoint that the canonical chain does
   * not match, re-inserts the checkpoint's fork when its blocks are present locally.
   */
  findCheckpointFork(start: bigint, end: bigint, root: string): StoredBlock | undefined {
    for (const b of this.atNumber.get(end) ?? []) {
      const r = rootHashOf(
        { headNumber: () => end, headerByNumber: (n) => this.ancestorAt(b, n)?.block.header },
        start,
        end,
      );
      if (r.ok && r.value === root) return b;
    }
    return undefined;
  }

  /**
   * Make `block` final (the finality floor) and the head the heaviest stored block that descends
   * from it: the switch to a checkpointed fork. Returns the reorg, if the head moved to another branch.
   */
  finalizeFork(block: StoredBlock, nowMs: number): Reorg | null {
    this.floor = { number: block.block.header.number, hash: block.block.hash };
    let best = block;
    const n = block.block.header.number;
    for (const b of this.blocksFrom(n + 1n))
      if (this.ancestorAt(b, n)?.block.hash === block.block.hash && prefer(b, best)) best = b;
    return best.block.hash === this.headHash ? null : this.setHead(best, nowMs);
  }

  /**
   * geth's `debug.setHead(n)`: forget every block above `n` (on every branch) and make the
   * canonical block at `n` the head. The finality floor stays: a resync must come back through it.
   * Rewinds are not reorgs (nothing better was chosen), so none is recorded.
   */
  rewindTo(n: bigint): { ok: true; removed: number } | { ok: false; error: string } {
    const head = this.head().block.header.number;
    if (n < 0n) return { ok: false, error: 'block number must not be negative' };
    if (n >= head) return { ok: false, error: `block ${n} is not below the head (${head})` };
    let removed = 0;
    for (const [hash, b] of this.blocks) {
      if (b.block.header.number > n) {
        this.blocks.delete(hash);
        removed++;
      }
    }
    for (let k = head; k > n; k--) this.canonical.delete(k);
    for (let k = this.topNumber; k > n; k--) this.atNumber.delete(k);
    if (this.topNumber > n) this.topNumber = n;
    this.headHash = this.canonical.get(n)!;
    if (this.head().block.header.number !== n || this.blocks.size === 0)
      assert(false, 'a rewind leaves the head at the block it named', { to: n });
    return { ok: true, removed };
  }

  /** `sidechain_getRootHash(start, end)` over the canonical chain (hex without 0x), with Bor's errors. */
  rootHash(start: bigint, end: bigint): { ok: true; root: string } | { ok: false; error: string } {
    const r = rootHashOf(
      { headNumber: () => this.head().block.header.number, headerByNumber: (n) => this.byNumber(n)?.block.header },
      start,
      end,
    );
    return r.ok ? { ok: true, root: r.value } : { ok: false, error: r.error.message };
  }

  /** Walk back from the head: the canonical blocks from `from` to the head. */
  canonicalRange(from: bigint, to: bigint = this.head().block.header.number): StoredBlock[] {
    const out: StoredBlock[] = [];
    for (let k = from; k <= to; k++) {
      const b = this.byNumber(k);
      if (b) out.push(b);
    }
    return out;
  }

  /** Producers that may sign the block after `hash` (address order), as `sidechain_getSigners`. */
  signersAfter(hash: Hex): Address[] {
    return this.blocks.get(hash)?.snapshot.validatorSet.validators.map((v) => v.address) ?? [];
  }

  allBlocks(): IterableIterator<StoredBlock> {
    return this.blocks.values();
  }

  /** The stored blocks numbered `n` or more, on every branch (by number). */
  *blocksFrom(n: bigint): Generator<StoredBlock> {
    for (let k = n; k <= this.topNumber; k++) yield* this.atNumber.get(k) ?? [];
  }

  private store(b: StoredBlock): void {
    const n = b.block.header.number;
    this.blocks.set(b.block.hash, b);
    const list = this.atNumber.get(n);
    if (list) list.push(b);
    else this.atNumber.set(n, [b]);
    if (n > this.topNumber) this.topNumber = n;
  }
}

/** Bor's fork choice (§3.1, forkChoice.ts): higher TD, then the lower number, then the larger hash. */
export function prefer(candidate: StoredBlock, current: StoredBlock): boolean {
  const ref = (b: StoredBlock) => ({ td: b.td, number: b.block.header.number, hash: b.block.hash });
  return compareHeads(ref(candidate), ref(current)) > 0;
}
