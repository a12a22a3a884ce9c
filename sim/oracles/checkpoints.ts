/**
 * Checkpoints (spec: transition table, Hash rules; heimdall.md §3.2-§3.6; README items 8-14),
 * from each node's committed blocks, with the oracle's own models:
 *
 *  - no-ack only after CheckpointBufferTime since the last acked checkpoint (its buffer time, whole
 *    seconds) and since the last no-ack, from raw block times; its sender is one of the next
 *    proposers the elapsed time allows (post-Aalborg sender check);
 *  - the checkpoint proposer (the stored validator set's) rotates by one proposer-priority round
 *    on each ack and each no-ack, by the oracle's own model, and only then; membership changes do
 *    not rotate it; a checkpoint is proposed by the proposer of the moment;
 *  - acked checkpoints are numbered 1, 2, … and contiguous (start = previous end + 1, from 0),
 *    stored with the time of the block that buffered them;
 *  - a proposal's account root is the oracle's own root over the dividend accounts of every
 *    validator ever known (README items 11-12).
 * CheckpointRootOracle: each acked root equals the oracle's own Merkle root over the final
 * canonical chain's blocks of its range (hash rules 1-2, from the imported blocks' headers). A
 * sidechain node learns an ack from its fetch loop (sidechain.md §3.2: checkpoints every 100 s), so
 * a checkpoint acked less than that before the end is not judged: until fetched, the node may still
 * be on the fork it chose before the ack (a reorg below a checkpoint voted but not yet acked).
 */
import { type DeepReadonly } from '../../src/core/readonly';
import { type StateWrite } from '../../src/node/observations';
import { Oracle, type RunRecord } from './oracle';
import { PrioritySet } from './model/proposerPriority';
import { accountLeaf, blockLeaf, merkleRoot } from './model/merkle';
import { DeliveredMsgs } from './model/serviceFacts';
import { GENESIS_HOLDER, NodeStates, equalFacts } from './model/nodeStates';

type Commit = Extract<RunRecord['obs'], { kind: 'service.commit' }>;
import { type SidechainModel } from './model/sidechainModel';

interface Books {
  set: PrioritySet;
  /** The stored set's proposer as last reported. */
  storedProposer: string | null;
  bufferMs: bigint;
  /** Own buffer timestamp (s) of the checkpoint waiting for its ack. */
  bufferS: bigint | null;
  lastCheckpointS: bigint;
  lastNoAckS: bigint;
  /** The buffer timestamp the last ack stored. */
  ackedS: bigint | null;
  last: { number: bigint; endBlock: bigint } | null;
  validatorIds: Set<bigint>;
  dividends: Map<bigint, { fee: bigint; slashed: bigint }>;
  /** The members and powers of `set`, as the membership of the set write they were last made equal to. */
  membership: string;
}

const seconds = (ms: number): bigint => BigInt(Math.floor(ms / 1000));

/** Bor's checkpoint fetch period (sidechain.md §3.2 "Fetch loops"): an ack is enforced within this long. */
export const CHECKPOINT_FETCH_MS = 100_000;

export class CheckpointOracle extends Oracle {
  readonly name = 'checkpoint-timeouts';
  readonly class = 'safety' as const;
  readonly reads = ['service.genesis', 'service.commit'] as const;
  /** Each node's books, shared by the nodes whose books are equal (model/nodeStates.ts). */
  private readonly books = new NodeStates<Books>((b) => ({
    ...b,
    set: b.set.copy(),
    validatorIds: new Set(b.validatorIds),
    dividends: new Map(b.dividends),
  }));
  private genesis: { state: unknown; bufferMs: bigint; books: Books } | null = null;
  private readonly msgs = new DeliveredMsgs();
  /**
   * Each validator-set write's members and powers (not priorities) as one string, once per write:
   * the set is written at every height and every node reports the same write, so a node whose set
   * already has those members and powers need not compare them one by one (O(n) per node per
   * height at a hundred validators). Equal memberships share one string.
   */
  private readonly membershipOfWrite = new WeakMap<object, string>();
  private readonly memberships = new Map<string, string>();

  private membership(w: { validators: ReadonlyArray<{ address: string; power: bigint }> }): string {
    let m = this.membershipOfWrite.get(w);
    if (m === undefined) {
      const text = w.validators.map((v) => `${v.address.toLowerCase()}:${v.power}`).join(',');
      m = this.memberships.get(text);
      if (m === undefined) {
        if (this.memberships.size >= 64) this.memberships.clear();
        this.memberships.set(text, text);
        m = text;
      }
      this.membershipOfWrite.set(w, m);
    }
    return m;
  }

  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'service.genesis') {
      if (this.books.has(r.node)) return;
      const g = this.genesis;
      if (g !== null && g.bufferMs === o.params.checkpointBufferTimeMs && equalFacts(g.state, o.state)) {
        // The same genesis: the same books, and the same judgment of its proposer.
        this.books.set(r.node, g.books);
        return;
      }
      const setWrite = o.state.find((w) => w.what === 'validatorSet');
      if (setWrite?.what !== 'validatorSet') return;
      // Heimdall's InitGenesis: NewValidatorSet, then one more rotation (heimdall.md §4.3).
      const set = PrioritySet.create(setWrite.validators);
      set.increment(1);
      const b: Books = {
        set,
        storedProposer: null,
        bufferMs: o.params.checkpointBufferTimeMs,
        bufferS: null,
        lastCheckpointS: 0n,
        lastNoAckS: 0n,
        ackedS: null,
        last: null,
        validatorIds: new Set(),
        dividends: new Map(),
        membership: this.membership(setWrite),
      };
      for (const w of o.state) this.applyStored(b, w);
      this.genesis = { state: o.state, bufferMs: o.params.checkpointBufferTimeMs, books: b };
      this.books.set(GENESIS_HOLDER, b);
      this.books.set(r.node, b);
      this.saw('staking.genesis.proposer');
      this.checkProposer(r, b, 'at genesis');
      return;
    }
    if (o.kind !== 'service.commit') return;
    this.msgs.observe(r);
    this.letGenesisGo();
    if (!this.books.has(r.node)) return;
    // What the step reads of the record (besides its time and node, for a violation).
    this.books.advance(r.node, [o.writes, o.sideTxs, o.txs, o.timeMs, o.height], (b) => this.step(r, o, b));
  }

  /** Every node reported its genesis at its start: the held genesis books go (see GENESIS_HOLDER). */
  private letGenesisGo(): void {
    if (this.genesis === null) return;
    this.books.set(GENESIS_HOLDER, null);
    this.genesis = null;
  }

  /** One node's commit on its books (shared with the nodes that take the same step: see NodeStates). */
  private step(r: RunRecord, o: Commit, b: Books): void {
    // Validator records are written by begin-block post handlers (joins), before any tx runs.
    for (const w of o.writes) if (w.what === 'validator') b.validatorIds.add(w.id);
    let acks = 0;
    let noAcks = 0;
    for (const s of o.sideTxs) {
      if (s.code !== 0) continue;
      if (s.msgType === 'checkpoint/MsgCheckpoint') b.bufferS = seconds(o.timeMs);
      if (s.msgType === 'checkpoint/MsgCheckpointACK') {
        this.saw('checkpoint.ack.rotates-once');
        acks++;
        b.ackedS = b.bufferS;
        b.lastCheckpointS = b.bufferS ?? 0n;
        b.bufferS = null;
        b.set.increment(1);
      }
    }
    for (const t of o.txs) {
      if (t.code !== 0 || t.msg === null) continue;
      if (t.msg.type === 'checkpoint/MsgCheckpoint') {
        this.saw('checkpoint.propose.account-root');
        this.saw('checkpoint.hash.account-leaf');
        this.saw('checkpoint.hash.account-root-leaves');
        this.saw('topup.withdraw.next-checkpoint');
        const root = this.accountRoot(b);
        if (root !== t.msg.accountRootHash.toLowerCase()) {
          this.fail(
            r.t,
            r.node,
            `checkpoint ${t.msg.startBlock}..${t.msg.endBlock} accepted with account root ${t.msg.accountRootHash}; the dividend accounts give ${root}`,
            { height: o.height, proposed: t.msg.accountRootHash, expected: root },
          );
          return;
        }
        this.saw('checkpoint.propose.proposer');
        const proposer = b.set.proposer;
        if (t.msg.proposer.toLowerCase() !== proposer) {
          this.fail(
            r.t,
            r.node,
            `checkpoint ${t.msg.startBlock}..${t.msg.endBlock} accepted from ${t.msg.proposer}; the proposer by rotation is ${proposer}`,
            { height: o.height, proposer: t.msg.proposer, expected: proposer },
          );
          return;
        }
      }
      if (t.msg.type === 'checkpoint/MsgCheckpointNoACK') {
        this.saw('checkpoint.noack.after-buffer-time');
        this.saw('checkpoint.noack.too-many');
        const now = BigInt(o.timeMs);
        const lastMs = b.lastCheckpointS * 1000n;
        const noAckMs = b.lastNoAckS * 1000n;
        if (lastMs > now || now - lastMs < b.bufferMs || noAckMs > now || now - noAckMs < b.bufferMs) {
          this.fail(
            r.t,
            r.node,
            `no-ack at ${now} ms, ${now - lastMs} ms after the last checkpoint and ${now - noAckMs} ms after the last no-ack (buffer ${b.bufferMs} ms)`,
            { height: o.height, blockTimeMs: o.timeMs, lastCheckpointS: b.lastCheckpointS, lastNoAckS: b.lastNoAckS },
          );
          return;
        }
        this.saw('checkpoint.noack.sender');
        const count = (now - lastMs) / b.bufferMs;
        const probe = b.set.copy();
        let allowed = false;
        // A member comes round within a bounded number of rounds: only a stranger could loop `count` times.
        for (let i = 0n; i < count && !allowed && probe.indexOf(t.msg.from) >= 0; i++) {
          probe.increment(1);
          allowed = probe.proposer === t.msg.from.toLowerCase();
        }
        if (!allowed) {
          this.fail(r.t, r.node, `no-ack from ${t.msg.from}, who is not among the next ${count} proposers`, {
            height: o.height,
            from: t.msg.from,
          });
          return;
        }
        b.lastNoAckS = seconds(o.timeMs);
        this.saw('checkpoint.noack.rotates');
        noAcks++;
        b.set.increment(1);
      }
    }
    // End block: membership and power changes (the stored proposer stays).
    for (const w of o.writes) {
      if (w.what === 'validatorSet') {
        const membership = this.membership(w);
        // The same members and powers: no change to apply (an empty update changes nothing).
        if (membership === b.membership) {
          this.applyStored(b, w);
          continue;
        }
        b.membership = membership;
        const changes: Array<{ address: string; power: bigint }> = [];
        const next = new Map(w.validators.map((v) => [v.address.toLowerCase(), v.power]));
        for (const m of b.set.validators) if (!next.has(m.address)) changes.push({ address: m.address, power: 0n });
        for (const [a, p] of next) if (b.set.powerOf(a) !== p) changes.push({ address: a, power: p });
        if (changes.length > 0) {
          this.saw('staking.set.newcomer-priority');
          this.saw('staking.set.no-rotation-on-change');
        }
        b.set.update(changes);
      }
      if (w.what === 'checkpoint') {
        this.saw('checkpoint.ack.numbered');
        const prev = b.last;
        const number = prev ? prev.number + 1n : 1n;
        const start = prev ? prev.endBlock + 1n : 0n;
        if (w.number !== number || w.startBlock !== start) {
          this.fail(
            r.t,
            r.node,
            `checkpoint ${w.number} (${w.startBlock}..${w.endBlock}) does not follow ${prev ? `${prev.number} ending at ${prev.endBlock}` : 'genesis'}`,
            { number: w.number, start: w.startBlock, end: w.endBlock },
          );
          return;
        }
        if (b.ackedS !== null) this.saw('checkpoint.ack.buffer-timestamp');
        if (b.ackedS !== null && w.timestampS !== b.ackedS) {
          this.fail(
            r.t,
            r.node,
            `checkpoint ${w.number} is stored with timestamp ${w.timestampS}, but it was buffered at ${b.ackedS}`,
            { number: w.number, stored: w.timestampS, buffered: b.ackedS },
          );
          return;
        }
        b.last = { number: w.number, endBlock: w.endBlock };
      }
      this.applyStored(b, w);
    }
    this.checkProposer(
      r,
      b,
      `height ${o.height} (${acks} ack${acks === 1 ? '' : 's'}, ${noAcks} no-ack${noAcks === 1 ? '' : 's'})`,
    );
  }

  private applyStored(b: Books, w: DeepReadonly<StateWrite>): void {
    if (w.what === 'validatorSet') b.storedProposer = w.proposer === null ? null : w.proposer.toLowerCase();
    else if (w.what === 'validator') b.validatorIds.add(w.id);
    else if (w.what === 'dividend') b.dividends.set(w.id, { fee: w.feeAmount, slashed: w.slashedAmount });
  }

  private checkProposer(r: RunRecord, b: Books, when: string): void {
    this.saw('staking.priority.algorithm');
    if (b.storedProposer !== b.set.proposer)
      this.fail(
        r.t,
        r.node,
        `after ${when} the checkpoint proposer is ${b.storedProposer}, not ${b.set.proposer} by rotation`,
        {
          stored: b.storedProposer,
          expected: b.set.proposer,
        },
      );
  }

  /** One leaf per validator id ever known, in id order (README item 12). */
  private accountRoot(b: Books): string {
    const ids = [...b.validatorIds].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    return merkleRoot(
      ids.map((id) => {
        const d = b.dividends.get(id);
        return accountLeaf({ id, feeAmount: d?.fee ?? 0n, slashedAmount: d?.slashed ?? 0n });
      }),
    ).toLowerCase();
  }
}

/** Each acked checkpoint's root is the root of its range on the final canonical sidechain. */
export class CheckpointRootOracle extends Oracle {
  readonly name = 'checkpoint-roots';
  readonly class = 'safety' as const;
  readonly reads = ['service.commit'] as const;
  private readonly acked = new Map<
    bigint,
    { startBlock: bigint; endBlock: bigint; rootHash: string; node: string; ackedAtMs: number }
  >();

  constructor(private readonly model: SidechainModel) {
    super();
  }

  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind !== 'service.commit') return;
    for (const w of o.writes)
      if (w.what === 'checkpoint' && !this.acked.has(w.number))
        this.acked.set(w.number, {
          startBlock: w.startBlock,
          endBlock: w.endBlock,
          rootHash: w.rootHash,
          node: r.node,
          ackedAtMs: r.t,
        });
  }

  /** At the end, on the canonical chain ending at `head` (the best live node's). */
  finish(atMs: number, node: string, head: `0x${string}`): void {
    const chain = this.model.chainTo(head);
    for (const [number, c] of [...this.acked].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
      if (BigInt(chain.length) <= c.endBlock) continue;
      if (atMs - c.ackedAtMs < CHECKPOINT_FETCH_MS) continue;
      this.saw('checkpoint.side.root-matches');
      this.saw('checkpoint.side.keeps-acked');
      this.saw('checkpoint.hash.block-leaf');
      this.saw('checkpoint.hash.root-tree');
      const leaves = chain.slice(Number(c.startBlock), Number(c.endBlock) + 1).map((b) => blockLeaf(b.fact));
      const root = merkleRoot(leaves).toLowerCase();
      if (root !== c.rootHash.toLowerCase()) {
        this.fail(
          atMs,
          node,
          `checkpoint ${number} acked root ${c.rootHash} but the final canonical chain's root of ${c.startBlock}..${c.endBlock} is ${root}`,
          { number, acked: c.rootHash, sidechain: root },
        );
        return;
      }
    }
  }
}
