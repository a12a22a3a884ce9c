import { describe, expect, it } from 'vitest';
import { type Hex, toHex } from '../../core/bytes';
import { TestChain, testKey } from '../../app/testing/testChain';
import { decodeTxBytes } from '../../app/decodedTx';
import { type Vote } from '../../consensus/types';
import { MsgCheckpointDef } from '../../modules/checkpoint/msgs';
import { MsgProposeSpanDef } from '../../modules/span/msgs';
import { checkpointSignDigest } from '../../parent/contracts/checkpointSignDigest';
import { castSideVotes, checkpointSignatures, sideVotesOf } from './sideVoter';

describe('side voter', () => {
  const chain = new TestChain({ validators: 2 });
  const v = chain.validators[0]!;
  const root = toHex(new Uint8Array(32).fill(3));
  const cp = { proposer: v.address, startBlock: 0n, endBlock: 31n, rootHash: root, accountRootHash: root };
  const span = { spanId: 1n, proposer: v.address, startBlock: 256n, endBlock: 1855n, sidechainChainId: '15001' };
  const cpTx = decodeTxBytes(chain.tx(MsgCheckpointDef, cp, v));
  const spanTx = decodeTxBytes(chain.tx(MsgProposeSpanDef, span, v));
  const block = [cpTx.hex, spanTx.hex];
  const sign = { sidechainChainId: '15001', signDigest: (d: Uint8Array) => Uint8Array.from([...d.slice(0, 4)]) };

  it('signs the checkpoint digest on a yes, reports span votes, and votes only on what was asked', () => {
    const yes = castSideVotes(
      [
        { txHash: cpTx.hash, vote: { result: 'yes', observation: null } },
        { txHash: spanTx.hash, vote: { result: 'skip', reason: 'not in turn' } },
      ],
      block,
      sign,
    );
    const digest = checkpointSignDigest({ ...cp, sidechainChainId: '15001' });
    expect(yes.entries).toEqual([
      { txHash: cpTx.hash, vote: { result: 'yes', observation: null }, signature: toHex(digest.slice(0, 4)) },
      { txHash: spanTx.hash, vote: { result: 'skip', reason: 'not in turn' } },
    ]);
    expect(yes.spanVotes).toEqual([{ txHash: spanTx.hash, spanId: 1n, vote: 'skip' }]);
    // What each vote was on, for the confirmation-depth facts: a checkpoint's range end; neither
    // message names a parent-chain event.
    expect(yes.targets).toEqual([
      { txHash: cpTx.hash, msgType: 'checkpoint/MsgCheckpoint', vote: 'yes', parentEvent: null, checkpointEnd: 31n },
      {
        txHash: spanTx.hash,
        msgType: 'sidechain/MsgProposeSpan',
        vote: 'skip',
        parentEvent: null,
        checkpointEnd: null,
      },
    ]);
    const no = castSideVotes([{ txHash: cpTx.hash, vote: { result: 'no', reason: 'root differs' } }], block, sign);
    expect(no.entries[0]).not.toHaveProperty('signature');
    expect(castSideVotes([], block, sign)).toEqual({ entries: [], spanVotes: [], targets: [] });
  });

  it("groups a commit's side votes by tx, and picks the checkpoint signatures of the yes votes", () => {
    const a = testKey('voter-a').address;
    const b = testKey('voter-b').address;
    const pc = (validator: typeof a, entries: NonNullable<Vote['sideTxVotes']>): Vote => ({
      type: 'precommit',
      height: 3n,
      round: 0,
      blockHash: '0x01' as Hex,
      validator,
      sideTxVotes: entries,
      signature: '0x' as Hex,
    });
    const grouped = sideVotesOf([
      pc(a, [{ txHash: cpTx.hash, vote: { result: 'yes', observation: null }, signature: '0xaa' as Hex }]),
      pc(b, [
        { txHash: cpTx.hash, vote: { result: 'no' } },
        { txHash: spanTx.hash, vote: { result: 'yes', observation: { seed: '0x' } } },
      ]),
    ]);
    expect(grouped.map((g) => [g.txHash, g.votes.map((x) => x.validator)])).toEqual([
      [cpTx.hash, [a, b]],
      [spanTx.hash, [b]],
    ]);
    expect(checkpointSignatures(grouped, cpTx.hash)).toEqual(['0xaa']);
    expect(checkpointSignatures(grouped, spanTx.hash)).toEqual([]);
  });
});
