import { describe, expect, it } from 'vitest';
import { type Hex } from '../../core/bytes';
import { type SidechainBlock } from '../../sidechain/block';
import { type SidechainChain } from '../../sidechain/chain';
import { type NodeContext } from '../ports';
import { type NodeMessage } from '../messages';
import { ANNOUNCE_ARRIVE_MS, BlockGossip, type GossipHost, type GossipTimer, MAX_UNCLE_DISTANCE } from './blockGossip';

const H = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex;
const block = (n: number, number = BigInt(n)) => ({ hash: H(n), header: { number } }) as unknown as SidechainBlock;
const PEERS = Array.from({ length: 9 }, (_, i) => `sc-${i + 2}`);

/** A node `sc-1` with nine peers, a chain holding `have` (head: the last), and what it sent. */
function setup(have: SidechainBlock[] = [block(1)], td = 10n) {
  const sent: Array<{ to: string; msg: NodeMessage }> = [];
  const timers: Array<{ afterMs: number; tag: GossipTimer }> = [];
  const received: Array<{ hash: Hex; from: string; relay: boolean }> = [];
  const fetched: Array<{ hash: Hex; from: string }> = [];
  const known: Hex[] = [];
  const held = new Set<Hex>();
  const blocks = new Map(have.map((b) => [b.hash, b]));
  const chain = {
    has: (h: Hex) => blocks.has(h),
    get: (h: Hex) => (blocks.has(h) ? { block: blocks.get(h) } : undefined),
    head: () => ({ block: have[have.length - 1]!, td }),
  } as unknown as SidechainChain;
  let draws = 0;
  const ctx = {
    nowMs: () => 0,
    send: (to: string, msg: NodeMessage) => sent.push({ to, msg }),
    broadcast: () => {
      throw new Error('gossip does not broadcast');
    },
    multicast: (to: readonly string[], msg: NodeMessage, mask: Uint8Array) =>
      to.forEach((p, i) => {
        if (mask[i >> 3]! & (1 << (i & 7))) sent.push({ to: p, msg });
      }),
    setTimer: (afterMs: number, tag: GossipTimer) => timers.push({ afterMs, tag }),
    random: () => ((draws++ * 0.37) % 1) as number,
    observe: () => {},
  } as NodeContext<NodeMessage, GossipTimer>;
  const host: GossipHost = {
    chain,
    receive: (_c, b, from, relay) => {
      received.push({ hash: b.hash, from, relay });
      blocks.set(b.hash, b);
    },
    known: (_c, b) => known.push(b.hash),
    holds: (h) => held.has(h),
    fetch: (_c, hash, from) => fetched.push({ hash, from }),
  };
  const gossip = new BlockGossip('sc-1', PEERS, host);
  return { gossip, ctx, sent, timers, received, fetched, known, held, blocks };
}

const kinds = (sent: Array<{ msg: NodeMessage }>) => sent.map((s) => s.msg.kind);

describe('block gossip (eth protocol)', () => {
  it('sends a new block in full to ⌊√m⌋ of the m peers without it and announces it to the others, once', () => {
    const { gossip, ctx, sent } = setup();
    const b = block(5);
    gossip.onMessage('sc-4', { kind: 'sc.newBlockHashes', hash: b.hash, number: 5n }, ctx);
    gossip.propagate(ctx, b);
    // sc-4 announced it: 8 peers without it, 2 in full, 6 by hash.
    expect(sent.filter((s) => s.msg.kind === 'sc.newBlock')).toHaveLength(2);
    expect(sent.filter((s) => s.msg.kind === 'sc.newBlockHashes')).toHaveLength(6);
    expect(new Set(sent.map((s) => s.to))).toEqual(new Set(PEERS.filter((p) => p !== 'sc-4')));
    expect(sent.find((s) => s.msg.kind === 'sc.newBlockHashes')!.msg).toEqual({
      kind: 'sc.newBlockHashes',
      hash: b.hash,
      number: 5n,
    });
    sent.length = 0;
    gossip.propagate(ctx, b);
    expect(sent).toEqual([]);
  });

  it('picks the full-block peers at random (another draw, other peers)', () => {
    const a = setup();
    a.gossip.propagate(a.ctx, block(5));
    const b = setup();
    b.ctx.random();
    b.ctx.random();
    b.gossip.propagate(b.ctx, block(5));
    const full = (s: typeof a.sent) => s.filter((x) => x.msg.kind === 'sc.newBlock').map((x) => x.to);
    expect(full(a.sent)).toHaveLength(3);
    expect(full(a.sent)).not.toEqual(full(b.sent));
  });

  it('imports a pushed block as fresh, a known one through the known hook', () => {
    const { gossip, ctx, received, known } = setup();
    gossip.onMessage('sc-3', { kind: 'sc.newBlock', block: block(7) }, ctx);
    expect(received).toEqual([{ hash: H(7), from: 'sc-3', relay: true }]);
    gossip.onMessage('sc-5', { kind: 'sc.newBlock', block: block(7) }, ctx);
    expect(known).toEqual([H(7)]);
    expect(received).toHaveLength(1);
  });

  it('fetches an announced block from its first announcer once its arrival time passed, and relays the answer', () => {
    const { gossip, ctx, timers, fetched, received } = setup();
    gossip.onMessage('sc-6', { kind: 'sc.newBlockHashes', hash: H(8), number: 2n }, ctx);
    gossip.onMessage('sc-3', { kind: 'sc.newBlockHashes', hash: H(8), number: 2n }, ctx);
    expect(timers).toEqual([{ afterMs: ANNOUNCE_ARRIVE_MS, tag: { kind: 'announced', hash: H(8) } }]);
    gossip.onTimer(timers[0]!.tag, ctx);
    expect(fetched).toEqual([{ hash: H(8), from: 'sc-6' }]);
    expect(gossip.fetchSource(H(8), 1)).toBe('sc-3');
    gossip.onMessage('sc-6', { kind: 'sc.block', block: block(8, 2n) }, ctx);
    expect(received).toEqual([{ hash: H(8), from: 'sc-6', relay: true }]);
    expect(gossip.fetchSource(H(8), 1)).toBeNull();
  });

  it('does not fetch an announced block that was pushed meanwhile, held, or too far below the head', () => {
    const { gossip, ctx, timers, fetched, held } = setup([block(1), block(100, 100n)]);
    gossip.onMessage('sc-6', { kind: 'sc.newBlockHashes', hash: H(9), number: 100n }, ctx);
    gossip.onMessage('sc-2', { kind: 'sc.newBlock', block: block(9, 100n) }, ctx);
    gossip.onTimer(timers[0]!.tag, ctx);
    held.add(H(10));
    gossip.onMessage('sc-6', { kind: 'sc.newBlockHashes', hash: H(10), number: 100n }, ctx);
    gossip.onMessage('sc-6', { kind: 'sc.newBlockHashes', hash: H(11), number: 100n - MAX_UNCLE_DISTANCE - 1n }, ctx);
    expect(timers).toHaveLength(1);
    expect(fetched).toEqual([]);
  });

  it('an answer nobody announced is catch-up (not relayed)', () => {
    const { gossip, ctx, received } = setup();
    gossip.onMessage('sc-6', { kind: 'sc.block', block: block(8) }, ctx);
    expect(received).toEqual([{ hash: H(8), from: 'sc-6', relay: false }]);
  });

  it('answers a block request with the block, and marks the asker as having it', () => {
    const { gossip, ctx, sent } = setup([block(1), block(3)]);
    gossip.onMessage('sc-7', { kind: 'sc.getBlock', hash: H(3) }, ctx);
    gossip.onMessage('sc-7', { kind: 'sc.getBlock', hash: H(4) }, ctx);
    expect(sent).toEqual([{ to: 'sc-7', msg: { kind: 'sc.block', block: block(3) } }]);
    expect(gossip.knowledge.knows('sc-7', H(3))).toBe(true);
  });

  it('connects once per pair at genesis, to every peer after a crash, each with a status the peer answers', () => {
    const first = setup();
    first.gossip.connect(first.ctx, false);
    expect(first.sent.map((s) => s.to)).toEqual(PEERS.filter((p) => p > 'sc-1'));
    const again = setup();
    again.gossip.connect(again.ctx, true);
    expect(again.sent.map((s) => s.to)).toEqual(PEERS);
    expect(again.sent[0]!.msg).toEqual({ kind: 'sc.status', head: H(1), number: 1n, td: 10n, answer: false });
  });

  it('a status opening a connection is answered and resets what the peer is known to have; a better head is fetched', () => {
    const { gossip, ctx, sent, fetched } = setup();
    gossip.knowledge.mark('sc-3', H(1));
    gossip.onMessage('sc-3', { kind: 'sc.status', head: H(50), number: 50n, td: 99n, answer: false }, ctx);
    expect(kinds(sent)).toEqual(['sc.status']);
    expect(sent[0]!.msg).toMatchObject({ answer: true, td: 10n });
    expect(gossip.knowledge.knows('sc-3', H(1))).toBe(false);
    expect(fetched).toEqual([{ hash: H(50), from: 'sc-3' }]);
    // An answer is not answered; a lighter head is not fetched.
    gossip.onMessage('sc-4', { kind: 'sc.status', head: H(51), number: 3n, td: 5n, answer: true }, ctx);
    expect(sent).toHaveLength(1);
    expect(fetched).toHaveLength(1);
  });
});
