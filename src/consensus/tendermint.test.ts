import { describe, expect, it } from 'vitest';
import { ValidatorSet } from '../core/validatorSet';
import { type Address } from '../core/address';
import { type Hex, toHex } from '../core/bytes';
import { keccak256Bytes } from '../core/hash';
import { Tendermint, type ConsensusOutput, type ConsensusInput } from './tendermint';
import { type Proposal, type ServiceBlock, type Vote, blockHash } from './types';
import seedrandom from 'seedrandom';

const addr = (i: number) => ('0x' + (i + 1).toString(16).padStart(40, '0')) as Address;

interface Msg {
  to: number;
  input: ConsensusInput;
}

/**
 * A tiny deterministic network for the engine alone: messages are delivered in a seeded random
 * order; timers fire only when no message is in flight. Signatures are not checked here (the node
 * layer does that); `byzantine` validators double-sign.
 */
function simulate(opts: {
  n: number;
  powers?: bigint[];
  crashed?: number[];
  byzantine?: number[];
  /** Byzantine validators also propose two blocks (default); false: they only double-vote. */
  byzantineProposals?: boolean;
  /** Gossip: an honest node passes on each vote it receives to every other node (once per vote). */
  relay?: boolean;
  seed: number;
  height?: bigint;
  maxSteps?: number;
  partition?: (from: number, to: number) => boolean;
}) {
  const prng = seedrandom.alea(`tendermint-test/${opts.seed}`);
  const rng = { int: (lo: number, hi: number) => lo + Math.floor(prng.double() * (hi - lo + 1)) };
  const set = new ValidatorSet(
    Array.from({ length: opts.n }, (_, i) => ({ address: addr(i), power: opts.powers?.[i] ?? 10n })),
  );
  const height = opts.height ?? 1n;
  const decisions = new Map<number, Hex>();
  const engines = Array.from(
    { length: opts.n },
    (_, i) => new Tendermint(addr(i), height, set.copy(), { validBlock: () => true }),
  );
  const inflight: Msg[] = [];
  const timers: Array<{ to: number; input: ConsensusInput }> = [];
  const makeBlock = (i: number, round: number, variant = 0): ServiceBlock => ({
    height,
    timeMs: 1000 + round,
    proposer: addr(i),
    lastBlockHash: toHex(keccak256Bytes(new Uint8Array([variant]))),
    lastAppHash: toHex(new Uint8Array(32)),
    lastCommit: [],
    txs: [],
  });
  const alive = (i: number) => !opts.crashed?.includes(i);
  const broadcast = (from: number, input: ConsensusInput) => {
    for (let j = 0; j < opts.n; j++) if (alive(j) && !opts.partition?.(from, j)) inflight.push({ to: j, input });
  };
  const process = (i: number, outs: ConsensusOutput[]) => {
    for (const o of outs) {
      if (o.kind === 'propose') {
        const variants = opts.byzantine?.includes(i) && opts.byzantineProposals !== false ? [0, 1] : [0];
        for (const variant of variants) {
          const block = o.reuse ?? makeBlock(i, o.round, variant);
          const p: Proposal = {
            height,
            round: o.round,
            block,
            blockHash: blockHash(block),
            polRound: o.polRound,
            proposer: addr(i),
            signature: '0x',
          };
          if (variants.length === 1) broadcast(i, { kind: 'proposal', proposal: p });
          else
            for (let j = 0; j < opts.n; j++)
              if (alive(j) && j % 2 === variant) inflight.push({ to: j, input: { kind: 'proposal', proposal: p } });
        }
      } else if (o.kind === 'vote') {
        const hashes =
          opts.byzantine?.includes(i) && o.blockHash !== null
            ? [o.blockHash, toHex(keccak256Bytes(new Uint8Array([9])))]
            : [o.blockHash];
        for (const [k, h] of hashes.entries()) {
          const v: Vote = { type: o.type, height, round: o.round, blockHash: h, validator: addr(i), signature: '0x' };
          if (hashes.length === 1) broadcast(i, { kind: 'vote', vote: v });
          else
            for (let j = 0; j < opts.n; j++)
              if (alive(j) && j % 2 === k) inflight.push({ to: j, input: { kind: 'vote', vote: v } });
        }
      } else if (o.kind === 'timer') {
        timers.push({ to: i, input: o.timeout });
      } else if (o.kind === 'decide') {
        decisions.set(i, o.blockHash);
      }
    }
  };
  for (let i = 0; i < opts.n; i++) if (alive(i)) process(i, engines[i]!.start());
  const relayed = new Set<Vote>();
  let steps = 0;
  while (steps++ < (opts.maxSteps ?? 20_000)) {
    if (inflight.length) {
      const k = rng.int(0, inflight.length - 1);
      const [m] = inflight.splice(k, 1);
      const input = m!.input;
      if (opts.relay && input.kind === 'vote' && !relayed.has(input.vote) && !opts.byzantine?.includes(m!.to)) {
        relayed.add(input.vote);
        broadcast(m!.to, input);
      }
      process(m!.to, engines[m!.to]!.handle(input));
    } else if (timers.length) {
      const t = timers.shift()!;
      process(t.to, engines[t.to]!.handle(t.input));
    } else break;
    const honestAlive = engines.filter((_, i) => alive(i) && !opts.byzantine?.includes(i));
    if (honestAlive.every((e) => e.hasDecided) && timers.length === 0) break;
  }
  return { decisions, engines, rounds: engines.map((e) => e.round) };
}

describe('Tendermint engine', () => {
  it('4 honest validators decide one block in round 0', () => {
    for (let seed = 0; seed < 20; seed++) {
      const { decisions, rounds } = simulate({ n: 4, seed });
      expect(decisions.size).toBe(4);
      expect(new Set(decisions.values()).size).toBe(1);
      expect(Math.max(...rounds)).toBe(0);
    }
  });

  it('keeps deciding with up to 2 of 7 equal validators crashed (including the proposer)', () => {
    for (let seed = 0; seed < 10; seed++) {
      const set = new ValidatorSet(Array.from({ length: 7 }, (_, i) => ({ address: addr(i), power: 10n })));
      const proposerIndex = Number(BigInt(set.proposer.address));
      const crashed = [proposerIndex - 1, (proposerIndex + 2) % 7];
      const { decisions } = simulate({ n: 7, crashed, seed });
      expect(decisions.size).toBe(5);
      expect(new Set(decisions.values()).size).toBe(1);
    }
  });

  it('no decision when 3 of 7 equal validators are gone (no side has +2/3)', () => {
    const { decisions } = simulate({ n: 7, crashed: [0, 1, 2], seed: 3, maxSteps: 3000 });
    expect(decisions.size).toBe(0);
  });

  it('a double-signing validator under 1/3 of the power never splits honest decisions', () => {
    for (let seed = 0; seed < 30; seed++) {
      const { decisions } = simulate({ n: 4, byzantine: [seed % 4], seed });
      const honest = [...decisions.entries()].filter(([i]) => i !== seed % 4).map(([, h]) => h);
      expect(new Set(honest).size).toBeLessThanOrEqual(1);
    }
  });

  it('equivocators under 1/3 of the power cannot stop honest validators deciding', () => {
    // Two of seven vote for the block to one half and for another block to the other half, in
    // every round, and honest nodes pass every vote on. Their votes count for both values, so no
    // honest node is left with a tally the others cannot complete (counting only the first vote
    // each node received left honest nodes locked apart, undecided for good, in 7 of 100 seeds).
    const undecided: number[] = [];
    for (let seed = 0; seed < 100; seed++) {
      const byz = [seed % 7, (seed + 3) % 7];
      const { decisions } = simulate({ n: 7, byzantine: byz, byzantineProposals: false, relay: true, seed });
      const honest = [...decisions.entries()].filter(([i]) => !byz.includes(i));
      if (honest.length !== 5) undecided.push(seed);
      expect(new Set(honest.map(([, h]) => h)).size).toBeLessThanOrEqual(1);
    }
    expect(undecided).toEqual([]);
  });

  it('stale timeouts are ignored', () => {
    const set = new ValidatorSet([{ address: addr(0), power: 1n }]);
    const e = new Tendermint(addr(0), 5n, set, { validBlock: () => true });
    e.start();
    expect(e.handle({ kind: 'timeout', height: 4n, round: 0, step: 'propose' })).toEqual([]);
    expect(e.handle({ kind: 'timeout', height: 5n, round: 3, step: 'propose' })).toEqual([]);
    expect(e.step).toBe('propose');
  });

  it('reports equivocation as evidence', () => {
    const set = new ValidatorSet([0, 1, 2, 3].map((i) => ({ address: addr(i), power: 1n })));
    const e = new Tendermint(addr(0), 1n, set, { validBlock: () => true });
    e.start();
    const v = (h: Hex | null): Vote => ({
      type: 'prevote',
      height: 1n,
      round: 0,
      blockHash: h,
      validator: addr(2),
      signature: '0x',
    });
    e.handle({ kind: 'vote', vote: v(('0x' + '11'.repeat(32)) as Hex) });
    const out = e.handle({ kind: 'vote', vote: v(null) });
    expect(out.some((o) => o.kind === 'evidence')).toBe(true);
  });
});
