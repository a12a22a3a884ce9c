import { describe, expect, it } from 'vitest';
import { type Hex } from '../../core/bytes';
import { realScheme } from '../../core/signatureScheme';
import { type SidechainBlock } from '../../sidechain/block';
import { FIXTURE_CONFIG, fixtureKeys, fixtureProducers } from '../../sidechain/testing/fixture';
import { type NodeContext } from '../ports';
import { type NodeMessage } from '../messages';
import { SidechainNode, type SidechainTimer } from './sidechainNode';

const H = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex;
/** Block `n` of a branch the node does not have: its parent is block n - 1 (import only looks that far). */
const block = (n: number) =>
  ({ hash: H(n), header: { number: BigInt(n), parentHash: H(n - 1) } }) as unknown as SidechainBlock;

/** A follower `sc-1` with two peers, and the block requests it sends. */
function setup() {
  const node = new SidechainNode(
    { id: 'sc-1', producer: null, peers: ['sc-2', 'sc-3'], serviceNode: 'svc-1' },
    FIXTURE_CONFIG,
    { timeS: 1000n, producers: fixtureProducers(fixtureKeys('sidechain-node-test')) },
    realScheme,
  );
  const asked: Array<{ to: string; hash: Hex }> = [];
  const ctx = {
    nowMs: () => 5_000_000,
    send: (to: string, msg: NodeMessage) => {
      if (msg.kind === 'sc.getBlock') asked.push({ to, hash: msg.hash });
    },
    broadcast: () => {},
    multicast: () => {},
    setTimer: () => {},
    random: () => 0.5,
    observe: () => {},
  } as NodeContext<NodeMessage, SidechainTimer>;
  node.start(ctx);
  return { node, ctx, asked };
}

describe('sidechain node: fetching the ancestors of a block', () => {
  it('walks back from a block whose parent is missing, one parent at a time, from the peer that sent it', () => {
    const { node, ctx, asked } = setup();
    node.onMessage('sc-2', { kind: 'sc.newBlock', block: block(10) }, ctx);
    node.onMessage('sc-2', { kind: 'sc.block', block: block(9) }, ctx);
    expect(asked).toEqual([
      { to: 'sc-2', hash: H(9) },
      { to: 'sc-2', hash: H(8) },
    ]);
  });

  it('asks for the oldest missing ancestor, not again for held blocks, when the walk back was cut', () => {
    const { node, ctx, asked } = setup();
    // Blocks 10 down to 3 arrive and are held; the answer for block 2 is lost and the node is re-planned
    // (its fetch timers dropped), so nothing asks for block 2 again.
    node.onMessage('sc-2', { kind: 'sc.newBlock', block: block(10) }, ctx);
    for (let n = 9; n >= 3; n--) node.onMessage('sc-2', { kind: 'sc.block', block: block(n) }, ctx);
    expect(asked.at(-1)).toEqual({ to: 'sc-2', hash: H(2) });
    node.start(ctx);
    asked.length = 0;
    // The next block: its parent (10) is held, the missing block is 2. Asking for 10 would walk the
    // eight held blocks again, one round trip each.
    node.onMessage('sc-3', { kind: 'sc.newBlock', block: block(11) }, ctx);
    expect(asked).toEqual([{ to: 'sc-3', hash: H(2) }]);
  });
});
