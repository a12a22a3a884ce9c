import { describe, expect, it } from 'vitest';
import { TestChain } from '../../app/testing/testChain';
import { getSpan } from '../../modules/span/keeper';
import { setRecord } from '../../modules/clerk/keeper';
import { addCheckpoint, setAckCount } from '../../modules/checkpoint/keeper';
import { checkpointAnswer, spanAnswer, stateSyncAnswer } from './peerAnswers';

describe('peer answers (what a sidechain node reads of its service node)', () => {
  const chain = new TestChain({ validators: 3 });
  const store = chain.app.store;

  it('a span in the sidechain’s terms; none for an unknown id', () => {
    const span0 = getSpan(store, 0n)!;
    expect(spanAnswer(store, 0n)).toEqual({
      id: 0n,
      startBlock: 0n,
      endBlock: span0.endBlock,
      producers: span0.selectedProducers.map((p) => ({ id: p.id, address: p.signer, power: p.power })),
    });
    expect(spanAnswer(store, 9n)).toBeNull();
  });

  it('no state syncs and no checkpoint yet at genesis', () => {
    expect(stateSyncAnswer(store, 1n)).toEqual([]);
    expect(checkpointAnswer(store)).toBeNull();
  });

  it('state syncs from an id, in consecutive ids, with their time in seconds; the last acked checkpoint', () => {
    const b = store.branch();
    const hash = `0x${'12'.repeat(32)}` as const;
    for (const id of [1n, 2n, 4n])
      setRecord(b, {
        id,
        contract: '0x0000000000000000000000000000000000000001',
        data: '0xbeef',
        txHash: hash,
        logIndex: id,
        sidechainChainId: '15001',
        recordTimeMs: 2_500,
      });
    expect(stateSyncAnswer(b, 1n).map((r) => [r.id, r.timeS, r.chainId])).toEqual([
      [1n, 2n, '15001'],
      [2n, 2n, '15001'],
    ]);
    addCheckpoint(b, 1n, {
      proposer: chain.validators[0]!.address,
      startBlock: 0n,
      endBlock: 63n,
      rootHash: hash,
      accountRootHash: hash,
      timestamp: 1n,
    });
    setAckCount(b, 1n);
    expect(checkpointAnswer(b)).toEqual({ start: 0n, end: 63n, rootHash: hash });
  });
});
