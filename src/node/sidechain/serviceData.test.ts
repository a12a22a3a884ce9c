import { describe, expect, it } from 'vitest';
import { type Hex } from '../../core/bytes';
import { type StateSyncRecord, type SystemState } from '../../sidechain/systemState';
import { ServiceData } from './serviceData';

const record = (id: bigint, timeS: bigint): StateSyncRecord => ({
  id,
  contract: '0x0000000000000000000000000000000000000001',
  data: '0x' as Hex,
  txHash: `0x${'00'.repeat(32)}` as Hex,
  logIndex: 0n,
  chainId: '15001',
  timeS,
});

describe("a sidechain node's copies of its service node's data", () => {
  it('state syncs: consecutive ids from the first asked for, made before the block time', () => {
    const d = new ServiceData();
    d.addRecords([record(1n, 10n), record(2n, 20n), record(4n, 5n), record(3n, 30n)]);
    expect(d.stateSyncs(1n, 25n).map((r) => r.id)).toEqual([1n, 2n]);
    expect(d.stateSyncs(1n, 100n).map((r) => r.id)).toEqual([1n, 2n, 3n, 4n]);
    expect(d.stateSyncs(5n, 100n)).toEqual([]);
  });

  it('polls ask for the next span only until it is held', () => {
    const d = new ServiceData();
    const state = {
      spans: [{ id: 0n, startBlock: 0n, endBlock: 63n, producers: [] }],
      lastStateId: 7n,
    } as unknown as SystemState;
    expect(d.polls(state).map((m) => m.kind)).toEqual(['svc.getSpan', 'svc.getStateSyncs', 'svc.getCheckpoint']);
    expect(d.polls(state)[1]).toEqual({ kind: 'svc.getStateSyncs', fromId: 8n });
    d.addSpan(1n, { id: 1n, startBlock: 64n, endBlock: 127n, producers: [] });
    expect(d.polls(state).map((m) => m.kind)).toEqual(['svc.getStateSyncs', 'svc.getCheckpoint']);
    expect(d.span(1n)?.startBlock).toBe(64n);
  });
});
