/**
 * The service chain's BFT consensus (Tendermint, "The latest gossip on BFT consensus"), checked
 * from the votes the nodes sign and the blocks they commit, with the voting power of each height
 * tallied here from the validator set as stored (the set after block h − 1 votes on block h):
 *
 *  - quorum: every committed block carries precommits of one round for it from validators holding
 *    more than 2/3 of that height's power; a node precommits a block only after more than 2/3 of
 *    the power prevoted it in that round (counted over every prevote any node signed). A commit
 *    names its signers as a bitmap over the set it was checked against, in ascending address
 *    order, with the keccak256 of those addresses: the oracle decodes it over its own copy of the
 *    stored set, and a commit indexed against another set fails;
 *  - lock: once a node precommitted block B in round r (it is locked on B), it prevotes another
 *    block B' in a later round only for a proposal of B' whose POL round is at least r, with more
 *    than 2/3 of the power prevoting B' in that POL round. A node that restarts forgets its lock.
 */
import { type DeepReadonly } from '../../src/core/readonly';
import { type Address } from '../../src/core/address';
import { type Hex, concatBytes, fromHex, toHex } from '../../src/core/bytes';
import { keccak256Bytes } from '../../src/core/hash';
import { type CommitFact, type StateWrite } from '../../src/node/observations';
import { Oracle, type RunRecord } from './oracle';

/** Prevotes of heights this far below the latest commit are forgotten (no node still votes there). */
const PRUNE_BEHIND = 256n;
/** Heights between two sweeps of the prevote tally. */
const PRUNE_EVERY = 64n;

/** A validator set's powers by lowercase address, and their sum; never changed once made. */
interface Powers {
  powers: Map<string, bigint>;
  total: bigint;
  /** The members in ascending address order (the order a commit's bitmap indexes). */
  order: string[];
  /** keccak256 of `order` (20 bytes each), made when a commit first asks. */
  digest: Hex | null;
  /** The powers in `order`, as numbers when the total is a safe integer (else null), made when a commit first asks. */
  byIndex: number[] | null;
}

/** Distinct sets kept for sharing at most (a set changes rarely; older ones are dropped). */
const SHARED_SETS = 64;

/**
 * Per node: the stored validator set's powers, for the next height it will commit. The nodes
 * store the same sets: equal sets share one Powers object (by content), so that tallies over it
 * (PrevoteTally.polka) are kept once for all nodes.
 */
class PowerTracker {
  private readonly byNode = new Map<string, Powers>();
  private readonly byContent = new Map<string, Powers>();
  /**
   * The Powers of a validator-set write, by the write: the nodes that committed a block report one
   * shared write list (the set is written at every height, its priorities move), and reading its
   * content again for each node cost O(n) per node per height at a hundred validators.
   */
  private readonly byWrite = new WeakMap<object, Powers>();

  observe(r: RunRecord): void {
    const o = r.obs;
    const writes: DeepReadonly<StateWrite[]> =
      o.kind === 'service.genesis' ? o.state : o.kind === 'service.commit' ? o.writes : [];
    for (const w of writes) {
      if (w.what !== 'validatorSet') continue;
      const known = this.byWrite.get(w);
      if (known !== undefined) {
        this.byNode.set(r.node, known);
        continue;
      }
      const entries = w.validators.map((v) => [v.address.toLowerCase(), v.power] as const);
      const key = entries.map(([a, p]) => `${a}:${p}`).join(',');
      let set = this.byContent.get(key);
      if (set === undefined) {
        const powers = new Map(entries);
        let total = 0n;
        for (const p of powers.values()) total += p;
        const order = [...powers.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        set = { powers, total, order, digest: null, byIndex: null };
        if (this.byContent.size >= SHARED_SETS) this.byContent.clear();
        this.byContent.set(key, set);
      }
      this.byWrite.set(w, set);
      this.byNode.set(r.node, set);
    }
  }

  /** The powers `node` votes with now (before its next commit's writes are applied). */
  of(node: string): Powers | undefined {
    return this.byNode.get(node);
  }
}

/**
 * Whether the powers of `voters` (each counted once) add up to more than 2/3 of `set.total`. This
 * runs for every node's commit, over a hundred voters at mainnet size: while every
 * sum stays exact in a double (the total is far below 2^53 / 3 in any real set), it adds numbers
 * (bigint sums allocate); otherwise bigints.
 */
function moreThanTwoThirds(voters: Iterable<string>, set: Powers): boolean {
  if (set.total >= 0n && set.total <= SAFE_TOTAL) {
    let power = 0;
    let exact = true;
    for (const v of voters) {
      const p = set.powers.get(v);
      if (p === undefined) continue;
      if (p < 0n || p > SAFE_TOTAL) {
        exact = false;
        break;
      }
      power += Number(p);
    }
    // Distinct voters with powers in [0, total]: the sum is at most the total, exact.
    if (exact && power <= Number(SAFE_TOTAL)) return power * 3 > Number(set.total) * 2;
  }
  let power = 0n;
  for (const v of voters) power += set.powers.get(v) ?? 0n;
  return power * 3n > set.total * 2n;
}
const SAFE_TOTAL = BigInt(Math.floor(Number.MAX_SAFE_INTEGER / 3));

/**
 * Whether the members whose bits are set in `bits` (bit i & 7 of byte i >> 3: the member at
 * position i of `set.order`) hold more than 2/3 of `set.total`. False when the sum cannot be made
 * exactly in numbers (the caller then counts in full): it answers only the exact case.
 */
function bitmapOverTwoThirds(bits: Uint8Array, set: Powers): boolean {
  if (set.byIndex === null) {
    if (!(set.total >= 0n && set.total <= SAFE_TOTAL) || set.order.some((a) => set.powers.get(a)! < 0n)) return false;
    set.byIndex = set.order.map((a) => Number(set.powers.get(a)!));
  }
  const byIndex = set.byIndex;
  let power = 0;
  for (let i = 0; i < byIndex.length; i++) if ((bits[i >> 3]! & (1 << (i & 7))) !== 0) power += byIndex[i]!;
  // Distinct members with powers in [0, total]: the sum is at most the total, exact.
  return power * 3 > Number(set.total) * 2;
}

/**
 * The signers of the prevotes of one (height, round, block), in the order they came, and the
 * power each set has summed of them so far: the signers only grow, so a tally of a set (every
 * node's precommit asks about the same set, shared by PowerTracker) adds the new signers only.
 */
interface Prevoters {
  seen: Set<string>;
  order: string[];
  tallies: Map<Powers, { counted: number; power: bigint }>;
}

/** Every prevote signed, by (height, round, block): who signed it. */
class PrevoteTally {
  private readonly voters = new Map<string, Prevoters>();
  private floorHeight = 0n;

  add(height: bigint, round: number, blockHash: Hex, validator: Address): void {
    if (height < this.floorHeight) return;
    const key = `${height}/${round}/${blockHash}`;
    let s = this.voters.get(key);
    if (!s) {
      s = { seen: new Set(), order: [], tallies: new Map() };
      this.voters.set(key, s);
    }
    const a = validator.toLowerCase();
    if (s.seen.has(a)) return;
    s.seen.add(a);
    s.order.push(a);
  }

  /** More than 2/3 of `set`'s power prevoted `blockHash` in (height, round). */
  polka(height: bigint, round: number, blockHash: Hex, set: Powers): boolean {
    const voters = this.voters.get(`${height}/${round}/${blockHash}`);
    if (voters === undefined) return 0n > set.total * 2n;
    let t = voters.tallies.get(set);
    if (t === undefined) {
      t = { counted: 0, power: 0n };
      voters.tallies.set(set, t);
    }
    for (; t.counted < voters.order.length; t.counted++) t.power += set.powers.get(voters.order[t.counted]!) ?? 0n;
    return t.power * 3n > set.total * 2n;
  }

  /**
   * Forget heights below `h` (every node is past them). It sweeps every PRUNE_EVERY heights, not at
   * each new one: a sweep reads every key, and keeping a few more heights changes no answer.
   */
  prune(h: bigint): void {
    if (h < this.floorHeight + PRUNE_EVERY) return;
    this.floorHeight = h;
    for (const k of [...this.voters.keys()]) if (BigInt(k.slice(0, k.indexOf('/'))) < h) this.voters.delete(k);
  }
}

export class BftQuorumOracle extends Oracle {
  readonly name = 'bft-quorum';
  readonly class = 'safety' as const;
  readonly reads = ['service.genesis', 'consensus.vote', 'service.commit'] as const;
  private readonly powers = new PowerTracker();
  private readonly prevotes = new PrevoteTally();
  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'consensus.vote') {
      const v = o.vote;
      if (v.type === 'prevote' && v.blockHash !== null) this.prevotes.add(v.height, v.round, v.blockHash, v.validator);
      if (o.origin === 'consensus' && v.type === 'precommit' && v.blockHash !== null) {
        const set = this.powers.of(r.node);
        if (set) this.saw('consensus.precommit.after-polka');
        if (set && !this.prevotes.polka(v.height, v.round, v.blockHash, set))
          this.fail(
            r.t,
            r.node,
            `precommitted ${v.blockHash} at height ${v.height} round ${v.round} without prevotes of more than 2/3 of the power for it`,
            { height: v.height, round: v.round, block: v.blockHash },
          );
      }
      return;
    }
    if (o.kind === 'service.commit') {
      const set = this.powers.of(r.node);
      if (set) this.checkCommit(r, o.height, o.blockHash, o.commit, set);
      if (o.height > PRUNE_BEHIND) this.prevotes.prune(o.height - PRUNE_BEHIND);
    }
    this.powers.observe(r);
  }

  private checkCommit(
    r: RunRecord,
    height: bigint,
    blockHash: Hex,
    commit: DeepReadonly<CommitFact>,
    set: Powers,
  ): void {
    this.saw('consensus.commit.quorum');
    const round = commit.round;
    if (commit.height !== height || commit.blockHash !== blockHash) {
      this.fail(r.t, r.node, `the commit of height ${height} carries precommits for another block or height`, {
        height,
        commit: { height: commit.height, round, block: commit.blockHash },
      });
      return;
    }
    set.digest ??= toHex(keccak256Bytes(concatBytes(...set.order.map((a) => fromHex(a)))));
    const bits = fromHex(commit.signers);
    if (commit.set !== set.digest || bits.length !== Math.ceil(set.order.length / 8)) {
      this.fail(
        r.t,
        r.node,
        `the commit of height ${height} names its signers over a validator set other than the stored one`,
        { height, set: commit.set, stored: set.digest, members: set.order.length },
      );
      return;
    }
    // The usual commit: signers only in the bitmap, summed by position (no set of addresses).
    if (commit.others.length === 0 && bitmapOverTwoThirds(bits, set)) return;
    const seen = new Set<string>();
    for (let i = 0; i < set.order.length; i++) if ((bits[i >> 3]! & (1 << (i & 7))) !== 0) seen.add(set.order[i]!);
    for (const v of commit.others) {
      if (v.type !== 'precommit' || v.height !== height || v.blockHash !== blockHash || v.round !== round) {
        this.fail(
          r.t,
          r.node,
          `the commit of height ${height} carries a vote that is not a precommit for it in round ${round}`,
          {
            height,
            vote: { type: v.type, height: v.height, round: v.round, block: v.blockHash, validator: v.validator },
          },
        );
        return;
      }
      seen.add(v.validator.toLowerCase());
    }
    if (!moreThanTwoThirds(seen, set)) {
      let power = 0n;
      for (const a of seen) power += set.powers.get(a) ?? 0n;
      this.fail(
        r.t,
        r.node,
        `block ${height} was committed with precommits of ${power} of ${set.total} voting power (not more than 2/3)`,
        { height, power, total: set.total, signers: [...seen] },
      );
    }
  }
}

export class BftLockOracle extends Oracle {
  readonly name = 'bft-lock';
  readonly class = 'safety' as const;
  readonly reads = [
    'service.genesis',
    'service.started',
    'consensus.proposal',
    'consensus.vote',
    'service.commit',
  ] as const;
  private readonly powers = new PowerTracker();
  private readonly prevotes = new PrevoteTally();
  private readonly nodes = new Map<
    string,
    {
      height: bigint;
      lock: { round: number; hash: Hex } | null;
      /** Every proposal the node took in, by round (its consensus keeps the first valid one). */
      proposals: Map<number, Array<{ hash: Hex; pol: number }>>;
    }
  >();

  private state(node: string, height: bigint) {
    let s = this.nodes.get(node);
    if (!s || s.height !== height) {
      s = { height, lock: null, proposals: new Map() };
      this.nodes.set(node, s);
    }
    return s;
  }

  override observe(r: RunRecord): void {
    const o = r.obs;
    switch (o.kind) {
      case 'service.started':
        this.nodes.delete(r.node);
        return;
      case 'consensus.proposal': {
        const s = this.state(r.node, o.height);
        const list = s.proposals.get(o.round) ?? [];
        list.push({ hash: o.blockHash, pol: o.polRound });
        s.proposals.set(o.round, list);
        return;
      }
      case 'consensus.vote': {
        const v = o.vote;
        if (v.type === 'prevote' && v.blockHash !== null)
          this.prevotes.add(v.height, v.round, v.blockHash, v.validator);
        if (o.origin !== 'consensus' || v.blockHash === null) return;
        const s = this.state(r.node, v.height);
        if (v.type === 'precommit') {
          if (!s.lock || v.round > s.lock.round) s.lock = { round: v.round, hash: v.blockHash };
          return;
        }
        this.saw('consensus.prevote.lock');
        const lock = s.lock;
        if (!lock || lock.hash === v.blockHash || lock.round >= v.round) return;
        const set = this.powers.of(r.node);
        const prevoted = v.blockHash;
        const candidates = s.proposals.get(v.round) ?? [];
        const justified = candidates.some(
          (p) =>
            p.hash === prevoted &&
            p.pol >= lock.round &&
            p.pol < v.round &&
            set !== undefined &&
            this.prevotes.polka(v.height, p.pol, prevoted, set),
        );
        const p = candidates.find((c) => c.hash === v.blockHash) ?? candidates[0];
        if (!justified)
          this.fail(
            r.t,
            r.node,
            `prevoted ${v.blockHash} at height ${v.height} round ${v.round} while locked on ${lock.hash} since round ${lock.round}, without a proposal for it whose POL round (2/3 prevotes) is at least ${lock.round}`,
            {
              height: v.height,
              round: v.round,
              prevoted: v.blockHash,
              lockedOn: lock.hash,
              lockedRound: lock.round,
              proposal: p ? { block: p.hash, polRound: p.pol } : null,
            },
          );
        return;
      }
      case 'service.commit':
        if (o.height > PRUNE_BEHIND) this.prevotes.prune(o.height - PRUNE_BEHIND);
        this.powers.observe(r);
        return;
      case 'service.genesis':
        this.powers.observe(r);
        return;
      default:
        return;
    }
  }
}
