/** StateSender: sequential ids from 1, the StateSynced log, and rejected arguments. */
import { describe, expect, it } from 'vitest';
import { type Hex } from '../../core/bytes';
import { decodeLog } from '../abi';
import { PARENT_CONTRACTS } from './addresses';
import { StateSender } from './stateSender';
import { testOwner } from '../testing/parentTestKit';

const TX = `0x${'02'.repeat(32)}` as Hex;

describe('StateSender', () => {
  it('emits StateSynced(id, receiver, data) with ids 1, 2, …', () => {
    const ss = new StateSender();
    const receiver = testOwner(7);
    const ids = ['0xdeadbeef', '0x', '0xAB'].map((data) => {
      const r = ss.syncState(testOwner(1), receiver, data as Hex);
      expect(r.ok).toBe(true);
      if (!r.ok) return null;
      expect(r.logs[0]!.address).toBe(PARENT_CONTRACTS.stateSender);
      return decodeLog({ ...r.logs[0]!, txHash: TX, logIndex: 0n, blockNumber: 1n });
    });
    expect(ids).toEqual([
      {
        name: 'StateSynced',
        txHash: TX,
        logIndex: 0n,
        blockNumber: 1n,
        id: 1n,
        contractAddress: receiver,
        data: '0xdeadbeef',
      },
      { name: 'StateSynced', txHash: TX, logIndex: 0n, blockNumber: 1n, id: 2n, contractAddress: receiver, data: '0x' },
      {
        name: 'StateSynced',
        txHash: TX,
        logIndex: 0n,
        blockNumber: 1n,
        id: 3n,
        contractAddress: receiver,
        data: '0xab',
      },
    ]);
    expect(ss.lastStateId).toBe(3n);
  });

  it('a bad receiver or data fails and does not use up an id', () => {
    const ss = new StateSender();
    expect(ss.syncState(testOwner(1), '0x12' as Hex, '0x00')).toEqual({ ok: false, error: 'invalid receiver' });
    expect(ss.syncState(testOwner(1), testOwner(2), '0x0' as Hex)).toEqual({ ok: false, error: 'invalid data' });
    expect(ss.lastStateId).toBe(0n);
    expect(ss.syncState(testOwner(1), testOwner(2), '0x00').ok).toBe(true);
    expect(ss.lastStateId).toBe(1n);
  });
});
