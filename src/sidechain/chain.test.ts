import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { type Address } from '../core/address';
import { toHex, type Hex } from '../core/bytes';
import { keccak256Bytes } from '../core/hash';
import { addressOfPublicKey, publicKeyBytesFromPrivateKey } from '../core/secp256k1';
import { SidechainChain, type StoredBlock } from './chain';
import { blockActivity } from './blockActivity';
import { buildBlock, planProduction, type ProductionInputs } from './producer';
import { type SidechainBlock } from './block';
import { type SidechainHeader, headerHash, sealHeader } from './header';
import { type SignedTx } from './transaction';
import { clearCaches } from '../core/memo';
import {
  FIXTURE_CONFIG,
  type FixtureKey as Key,
  fixtureAlloc,
  fixtureTransfer,
  fixtureKeys,
  fixtureProducers,
  fixtureRecords,
  fixtureSpans,
} from './testing/fixture';

const keys = fixtureKeys('sidechain-test');
// Small numbers so spans turn over quickly: sprint 4, span 0 = blocks 0..15, spans of 16 blocks.
const cfg = FIXTURE_CONFIG;
const producers = fixtureProducers(keys);
// Span 2 onwards rotates who is in: drop the first producer to see the change take effect.
const spans = () => fixtureSpans(producers, { rotate: true });
const records = fixtureRecords(10, 1000n);

const inputs = (spanMap = spans()): ProductionInputs => ({
  span: (id) => spanMap.get(id) ?? null,
  stateSyncs: (fromId, toTimeS) => records.filter((r) => r.id >= fromId && r.timeS < toTimeS),
  txs: [],
});

function keyOf(a: Address): Key {
  return keys.find((k) => k.address === a)!;
}

/** The block the producer at `succession` would make on top of `parent`. */
function produce(chain: SidechainChain, parent: StoredBlock, who: Address, extraDelayS = 0n): SidechainBlock | null {
  const plan = planProduction(chain.cfg, parent, who);
  if (!plan) return null;
  return buildBlock(chain, plan, keyOf(who).sk, who, inputs(), plan.timeS + extraDelayS);
}

function inTurn(parent: StoredBlock): Address {
  return parent.snapshot.validatorSet.proposer.address;
}

const FAR = 10n ** 12n;

function grow(
  chain: SidechainChain,
  n: number,
  pick: (parent: StoredBlock, i: number) => Address = (p) => inTurn(p),
): StoredBlock[] {
  const out: StoredBlock[] = [];
  for (let i = 0; i < n; i++) {
    const head = chain.head();
    const b = produce(chain, head, pick(head, i))!;
    const r = chain.import(b, FAR, 0);
    expect(r).toMatchObject({ status: 'imported', newHead: true });
    out.push(chain.head());
  }
  return out;
}

/** A chain of six blocks, and the first backup after the in-turn producer on its head. */
function sixBlocks() {
  const a = new SidechainChain(cfg, { timeS: 1000n, producers });
  grow(a, 6);
  const base = a.head();
  const set = base.snapshot.validatorSet;
  const p = set.indexOfAddress(set.proposer.address);
  return { a, base, backup: set.validators[(p + 1) % set.size]!.address };
}

/** Six blocks, then a backup's two-block branch on them (imported: the head). */
function backupBranch() {
  const { a, base, backup } = sixBlocks();
  const b1 = produce(a, base, backup)!;
  a.import(b1, FAR, 0);
  const b2 = inTurnChild(a, b1.hash).block;
  return { a, base, b1, b2 };
}

/** The in-turn producer's block on a stored parent, imported at `atMs`. */
function inTurnChild(a: SidechainChain, parentHash: Hex, atMs = 0) {
  const parent = a.get(parentHash)!;
  const block = produce(a, parent, inTurn(parent))!;
  return { block, result: a.import(block, FAR, atMs) };
}

describe('sidechain chain and producer', () => {
  it('in-turn production: difficulty N, delay by sprint position, proposer changes once per sprint', () => {
    const chain = new SidechainChain(cfg, { timeS: 1000n, producers });
    const blocks = grow(chain, 40);
    let prev = chain.genesis;
    const proposerPerSprint = new Map<bigint, Address>();
    for (const b of blocks) {
      const n = b.block.header.number;
      const set = prev.snapshot.validatorSet;
      expect(b.block.header.difficulty).toBe(BigInt(set.size));
      expect(b.block.header.time - prev.block.header.time).toBe(n % 4n === 0n ? 4n : 2n);
      const sprint = n / 4n;
      const p = proposerPerSprint.get(sprint);
      if (p) expect(b.block.signer).toBe(p);
      else proposerPerSprint.set(sprint, b.block.signer);
      prev = b;
    }
    // Consecutive sprints have different proposers (equal powers rotate).
    const ps = [...proposerPerSprint.values()];
    for (let i = 1; i < ps.length; i++) expect(ps[i]).not.toBe(ps[i - 1]);
  });

  it('span commits at the reference block numbers; new producers govern from the span start', () => {
    const chain = new SidechainChain(cfg, { timeS: 1000n, producers });
    const blocks = grow(chain, 60);
    const commits = blocks
      .filter((b) => b.block.body.spanCommit)
      .map((b) => [Number(b.block.header.number), Number(b.block.body.spanCommit!.id)]);
    // Span 1 at the first sprint start (nothing committed yet); span k+1 at end_k - sprint + 1.
    expect(commits).toEqual([
      [4, 1],
      [28, 2],
      [44, 3],
      [60, 4],
    ]);
    // Span 2 (blocks 32..47) drops the first producer: its sprint-end header at 31 announces it.
    const at31 = chain.byNumber(31n)!;
    expect(at31.snapshot.validatorSet.size).toBe(3);
    for (const b of blocks.filter((x) => x.block.header.number >= 32n && x.block.header.number <= 47n))
      expect(b.block.signer).not.toBe(producers[0]!.address);
  });

  it('state syncs commit at sprint starts with sequential ids, older than the confirmation delay', () => {
    const chain = new SidechainChain(cfg, { timeS: 1000n, producers });
    const blocks = grow(chain, 40);
    const ids: bigint[] = [];
    for (const b of blocks) {
      if (b.block.body.stateSyncs.length) expect(b.block.header.number % 4n).toBe(0n);
      for (const r of b.block.body.stateSyncs) {
        expect(r.timeS < b.block.header.time - 10n).toBe(true);
        ids.push(r.id);
      }
    }
    expect(ids).toEqual(records.map((r) => r.id));
    expect(chain.head().state.lastStateId).toBe(10n);
  });

  it('a backup steps in after its delay with difficulty N - succession; an early seal is refused', () => {
    const chain = new SidechainChain(cfg, { timeS: 1000n, producers });
    grow(chain, 5);
    const head = chain.head();
    const set = head.snapshot.validatorSet;
    const p = set.indexOfAddress(set.proposer.address);
    const backup = set.validators[(p + 1) % set.size]!.address;
    const b = produce(chain, head, backup)!;
    expect(b.header.difficulty).toBe(BigInt(set.size - 1));
    expect(b.header.time - head.block.header.time).toBe(2n + 2n);
    expect(chain.import(b, FAR, 0)).toMatchObject({ status: 'imported', newHead: true });

    // An out-of-turn producer that seals before parent.time + delay(succession) is rejected.
    const head2 = chain.head();
    const set2 = head2.snapshot.validatorSet;
    const p2 = set2.indexOfAddress(set2.proposer.address);
    const early = set2.validators[(p2 + 2) % set2.size]!.address;
    const plan = planProduction(cfg, head2, early)!;
    const forged = buildBlock(
      chain,
      { ...plan, timeS: head2.block.header.time + 2n },
      keyOf(early).sk,
      early,
      inputs(),
      0n,
    );
    const r = chain.import(forged, FAR, 0);
    expect(r.status).toBe('rejected');
    expect((r as { reason: string }).reason).toMatch(/created too soon. Signer turn-ness number is 2/);
  });

  it('a block verified by one chain is taken by another on the same parent as it would verify it itself', () => {
    // Two nodes' chains import the same blocks (the same objects); the second reuses the first's
    // verification. Its results must be what verifying gives: checked against a third chain that
    // imports with an empty cache each time.
    const a = new SidechainChain(cfg, { timeS: 1000n, producers });
    const b = new SidechainChain(cfg, { timeS: 1000n, producers });
    const c = new SidechainChain(cfg, { timeS: 1000n, producers });
    for (let i = 0; i < 24; i++) {
      const block = produce(a, a.head(), inTurn(a.head()))!;
      const onA = a.import(block, FAR, 0);
      // Before its time on b: from the future, as b's own verification would say, though a found it good.
      expect(b.import(block, block.header.time - 1n, 0)).toEqual({ status: 'future', retryAtS: block.header.time });
      const onB = b.import(block, FAR, 0);
      clearCaches();
      const onC = c.import(block, FAR, 0);
      expect(onB).toEqual(onA);
      expect(onC).toEqual(onA);
      const sa = a.get(block.hash)!;
      const sb = b.get(block.hash)!;
      const sc = c.get(block.hash)!;
      // From block 2 on (block 1's parents are each chain's own genesis), b holds a's values.
      if (i > 0) {
        expect(sb.state).toBe(sa.state);
        expect(sb.accounts).toBe(sa.accounts);
      }
      expect(sc.state).toEqual(sa.state);
      expect(sc.accounts).toEqual(sa.accounts);
      expect(sc.td).toBe(sa.td);
    }
    // On another parent (a branch), the block is verified anew: a block built on a's head does
    // not fit the chain that lacks that head.
    const d = new SidechainChain(cfg, { timeS: 1000n, producers });
    const first = a.byNumber(1n)!.block;
    d.import(first, FAR, 0);
    const later = a.head().block;
    expect(d.import(later, FAR, 0)).toMatchObject({ status: 'orphan' });
  });

  it('wrong difficulty, unknown signer and future blocks are not imported', () => {
    const chain = new SidechainChain(cfg, { timeS: 1000n, producers });
    const head = chain.head();
    const good = produce(chain, head, inTurn(head))!;
    expect(chain.import(good, good.header.time - 1n, 0)).toEqual({ status: 'future', retryAtS: good.header.time });
    const stranger = toHex(keccak256Bytes(new TextEncoder().encode('stranger')));
    const strangerAddr = addressOfPublicKey(publicKeyBytesFromPrivateKey(stranger));
    const plan = planProduction(cfg, head, inTurn(head))!;
    const bad = buildBlock(chain, plan, stranger, strangerAddr, inputs(), 0n);
    expect(chain.import(bad, FAR, 0)).toMatchObject({
      status: 'rejected',
      reason: expect.stringMatching(/not a part of the producer set/),
    });
    const wrongDiff = buildBlock(
      chain,
      { ...plan, difficulty: plan.difficulty - 1n },
      keyOf(inTurn(head)).sk,
      inTurn(head),
      inputs(),
      0n,
    );
    expect(chain.import(wrongDiff, FAR, 0)).toMatchObject({
      status: 'rejected',
      reason: expect.stringMatching(/Wrong difficulty/),
    });
    expect(chain.import(good, FAR, 0)).toMatchObject({ status: 'imported' });
    expect(chain.import(good, FAR, 0)).toEqual({ status: 'known' });
  });

  it('a block whose extra cannot hold vanity and seal, or cannot be read at all, is refused and stops nothing', () => {
    const chain = new SidechainChain(cfg, { timeS: 1000n, producers });
    const head = chain.head();
    const good = produce(chain, head, inTurn(head))!;
    const withExtra = (extraData: Hex): SidechainBlock => {
      const header: SidechainHeader = { ...good.header, extraData };
      return { ...good, header, hash: headerHash(header) };
    };
    // A seal and no vanity (Bor: errMissingSignature), and not even a seal (errMissingVanity).
    expect(chain.import(withExtra(toHex(new Uint8Array(65).fill(1))), FAR, 0)).toMatchObject({
      status: 'rejected',
      reason: expect.stringMatching(/65 byte signature suffix missing/),
    });
    expect(chain.import(withExtra('0x00'), FAR, 0)).toMatchObject({
      status: 'rejected',
      reason: expect.stringMatching(/32 byte vanity prefix missing/),
    });
    // A header field no helper can read: refused with what the reader said, the chain unchanged.
    const unreadable = { ...good, header: { ...good.header, extraData: '0xzz' as Hex } };
    expect(chain.import(unreadable, FAR, 0)).toMatchObject({
      status: 'rejected',
      reason: expect.stringMatching(/^block 1: /),
    });
    expect(chain.head().block.hash).toBe(head.block.hash);
    expect(chain.import(good, FAR, 0)).toMatchObject({ status: 'imported', newHead: true });
  });

  it('fork choice: the in-turn branch beats a backup branch; reorgs are recorded with depth', () => {
    // A partitioned backup builds two blocks; then the in-turn producer's branch arrives.
    const { a, base, b1, b2 } = backupBranch();
    expect(a.head().block.hash).toBe(b2.hash);
    const main1 = inTurnChild(a, base.block.hash).block;
    const { block: main2, result: r } = inTurnChild(a, main1.hash, 1234);
    expect(a.get(main2.hash)!.td > a.get(b2.hash)!.td).toBe(true);
    expect(r).toMatchObject({
      status: 'imported',
      newHead: true,
      reorg: { depth: 2, commonAncestor: base.block.header.number, atMs: 1234 },
    });
    expect(a.reorgs).toHaveLength(1);
    expect(a.byNumber(base.block.header.number + 1n)!.block.hash).toBe(main1.hash);
    // Every branch is listed by number, and a rewind forgets what it removed.
    const n = base.block.header.number;
    const hashesFrom = (k: bigint) => [...a.blocksFrom(k)].map((b) => b.block.hash).sort();
    expect(hashesFrom(n + 1n)).toEqual([b1.hash, b2.hash, main1.hash, main2.hash].sort());
    expect(hashesFrom(n)).toEqual([base.block.hash, b1.hash, b2.hash, main1.hash, main2.hash].sort());
    expect([...a.blocksFrom(0n)]).toHaveLength(a.size);
    expect(a.rewindTo(n + 1n)).toMatchObject({ ok: true, removed: 2 });
    expect(hashesFrom(n + 1n)).toEqual([b1.hash, main1.hash].sort());
    expect(hashesFrom(n + 2n)).toEqual([]);
  });

  it('a checkpoint of a fork that lost the fork choice: found among the stored blocks, made final and the head', () => {
    // The backup's branch is canonical first; its root over base+1..base+2 is what gets checkpointed.
    const { a, base, b2: s2 } = backupBranch();
    const n = base.block.header.number;
    const root = (a.rootHash(n + 1n, n + 2n) as { ok: true; root: string }).root;
    // Then the in-turn branch wins by total difficulty.
    const m1 = inTurnChild(a, base.block.hash).block;
    const m2 = inTurnChild(a, m1.hash).block;
    expect(a.head().block.hash).toBe(m2.hash);
    expect((a.rootHash(n + 1n, n + 2n) as { ok: true; root: string }).root).not.toBe(root);
    expect(a.findCheckpointFork(n + 1n, n + 2n, 'ab'.repeat(32))).toBeUndefined();
    const fork = a.findCheckpointFork(n + 1n, n + 2n, root)!;
    expect(fork.block.hash).toBe(s2.hash);
    const reorg = a.finalizeFork(fork, 777);
    expect(reorg).toMatchObject({ newHead: s2.hash, oldHead: m2.hash, atMs: 777 });
    expect(a.head().block.hash).toBe(s2.hash);
    expect(a.finalityFloor()).toEqual({ number: n + 2n, hash: s2.hash });
    expect((a.rootHash(n + 1n, n + 2n) as { ok: true; root: string }).root).toBe(root);
    // The heavier branch no longer wins: it does not contain the final block.
    expect(inTurnChild(a, m2.hash).result).toMatchObject({ status: 'imported', newHead: false });
  });

  it('never reorgs below the finality floor', () => {
    const { a, base, backup } = sixBlocks();
    const side = produce(a, base, backup)!;
    a.import(side, FAR, 0);
    a.setFinalized(side.header.number);
    const heavier = produce(a, base, inTurn(base))!;
    const r = a.import(heavier, FAR, 0);
    expect(r).toMatchObject({ status: 'imported', newHead: false });
    expect(a.head().block.hash).toBe(side.hash);
  });

  it('root hash over the canonical chain, with Bor errors', () => {
    const a = new SidechainChain(cfg, { timeS: 1000n, producers });
    grow(a, 8);
    expect(a.rootHash(1n, 4n)).toMatchObject({ ok: true, root: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(a.rootHash(5n, 9n)).toEqual({ ok: false, error: 'Invalid parameters start: 5 and end block: 9 params' });
  });
});

describe('sidechain properties', () => {
  it('any mix of primaries and backups: timestamps respect the delay, difficulty = N - succession, the head is the heaviest', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ skip: fc.integer({ min: 0, max: 3 }), fork: fc.boolean() }), {
          minLength: 1,
          maxLength: 40,
        }),
        (steps) => {
          const chain = new SidechainChain(cfg, { timeS: 1000n, producers });
          const all: StoredBlock[] = [chain.genesis];
          for (const s of steps) {
            // Build on the head, or (fork) on a random earlier block.
            const parent = s.fork ? all[Math.floor(all.length / 2)]! : chain.head();
            const set = parent.snapshot.validatorSet;
            const p = set.indexOfAddress(set.proposer.address);
            const who = set.validators[(p + s.skip) % set.size]!.address;
            const b = produce(chain, parent, who)!;
            const r = chain.import(b, FAR, 0);
            if (r.status !== 'imported') continue;
            const stored = chain.get(b.hash)!;
            all.push(stored);
            const succession = s.skip % set.size;
            expect(b.header.difficulty).toBe(BigInt(set.size - succession));
            const delay = (b.header.number % 4n === 0n ? 4n : 2n) + 2n * BigInt(succession);
            expect(b.header.time >= parent.block.header.time + delay).toBe(true);
            // The head is the best of everything known.
            let best = chain.genesis;
            for (const x of chain.allBlocks()) {
              if (
                x.td > best.td ||
                (x.td === best.td &&
                  (x.block.header.number < best.block.header.number ||
                    (x.block.header.number === best.block.header.number && x.block.hash > best.block.hash)))
              )
                best = x;
            }
            expect(chain.head().block.hash).toBe(best.block.hash);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('a block’s transactions and state (issue 22)', () => {
  const funded = () => new SidechainChain(cfg, { timeS: 1000n, producers, alloc: fixtureAlloc(keys) });
  /** The in-turn block on the head carrying `txs`, with header fields changed and sealed again. */
  function tampered(chain: SidechainChain, txs: readonly SignedTx[], change: Partial<SidechainHeader>) {
    const head = chain.head();
    const who = inTurn(head);
    const plan = planProduction(cfg, head, who)!;
    const b = buildBlock(chain, plan, keyOf(who).sk, who, { ...inputs(), txs }, plan.timeS);
    const header = sealHeader({ ...b.header, ...change }, keyOf(who).sk);
    return { ...b, header, hash: headerHash(header) };
  }
  const reject = (chain: SidechainChain, b: SidechainBlock, why: RegExp) =>
    expect(chain.import(b, FAR, 0)).toMatchObject({ status: 'rejected', reason: expect.stringMatching(why) });

  it('the genesis state root commits to the funded accounts; a block without transactions keeps them', () => {
    const a = funded();
    const b = new SidechainChain(cfg, { timeS: 1000n, producers });
    expect(a.genesis.block.header.stateRoot).not.toBe(b.genesis.block.header.stateRoot);
    expect(a.genesis.block.header.baseFee).toBe(10n ** 9n);
    grow(a, 1);
    expect(a.head().accounts).toBe(a.genesis.accounts);
  });

  it('a header that does not match what its transactions did is refused', () => {
    const chain = funded();
    const tx = fixtureTransfer(keys[0]!, keys[1]!.address, 0n);
    const ok = tampered(chain, [tx], {});
    reject(chain, tampered(chain, [tx], { baseFee: ok.header.baseFee! + 1n }), /invalid baseFee/);
    reject(chain, tampered(chain, [tx], { gasUsed: 0n }), /invalid gas used \(remote: 0 local: 21000\)/);
    reject(chain, tampered(chain, [tx], { stateRoot: `0x${'11'.repeat(32)}` }), /state root mismatch/);
    reject(chain, tampered(chain, [tx], { receiptHash: `0x${'22'.repeat(32)}` }), /receipt root mismatch/);
    reject(chain, tampered(chain, [tx], { bloom: `0x${'00'.repeat(256)}` }), /invalid bloom/);
    expect(chain.import(ok, FAR, 0)).toMatchObject({ status: 'imported', newHead: true });
    expect(chain.head().accounts.get(keys[0]!.address)!.nonce).toBe(1n);
  });

  it('a block carrying a transaction that cannot run is refused (a producer never seals one)', () => {
    const chain = funded();
    const ahead = fixtureTransfer(keys[0]!, keys[1]!.address, 5n);
    // The producer leaves it out...
    expect(tampered(chain, [ahead], {}).body.txs).toEqual([]);
    // ...and a block that carries it anyway does not import.
    const head = chain.head();
    const who = inTurn(head);
    const plan = planProduction(cfg, head, who)!;
    const good = buildBlock(chain, plan, keyOf(who).sk, who, inputs(), plan.timeS);
    const forged = { ...good, body: { ...good.body, txs: [ahead] } };
    reject(chain, forged, /nonce too high/);
  });
});

describe('two chains of one process (two nodes of a simulation)', () => {
  it('hold the same snapshot object for each block both imported', () => {
    const a = new SidechainChain(cfg, { timeS: 1000n, producers });
    const b = new SidechainChain(cfg, { timeS: 1000n, producers });
    expect(b.head().snapshot).toBe(a.head().snapshot);
    for (const stored of grow(a, 5)) {
      expect(b.import(stored.block, FAR, 0)).toMatchObject({ status: 'imported', newHead: true });
      expect(b.head().snapshot).toBe(stored.snapshot);
      // The same run (outcomes), so the same receipts and logs object for both nodes.
      expect(b.head().outcomes).toBe(stored.outcomes);
      expect(blockActivity(b.head())).toBe(blockActivity(stored));
    }
  });
});
