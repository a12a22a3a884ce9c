import { describe, expect, it } from 'vitest';
import { Bridge, DEFAULT_BRIDGE_CONFIG, type BridgeInputs } from './bridge';
import { ParentView } from './parentView';
import { type HeaderSummary, SidechainView } from './sidechainView';
import { TestChain } from '../app/testing/testChain';
import { syntheticHeader } from '../app/testing/fakeObservers';
import { toHex, type Hex } from '../core/bytes';
import { keccak256Bytes } from '../core/hash';
import { getBuffer, getCheckpointParams, setBuffer } from '../modules/checkpoint/keeper';
import { getValidatorSet } from '../modules/staking/keeper';

/** A sidechain view that has headers 0..n (synthetic, as the app tests use). */
function viewTo(n: bigint): SidechainView {
  const v = new SidechainView();
  const headers: HeaderSummary[] = [];
  for (let k = 0n; k <= n; k++) {
    const h = syntheticHeader(k);
    headers.push({
      number: k,
      hash: toHex(keccak256Bytes(new TextEncoder().encode(`h${k}`))),
      time: BigInt(h.time),
      txHash: h.txHash as Hex,
      receiptHash: h.receiptHash as Hex,
    });
  }
  v.update(null, headers, n);
  return v;
}

describe('bridge: checkpoint proposals and the buffer', () => {
  const chain = new TestChain();
  const store = chain.app.store;
  const me = getValidatorSet(store).proposer!.address;
  const bufferMs = getCheckpointParams(store).checkpointBufferTimeMs;
  const inputs = (nowMs: number): BridgeInputs => ({
    me,
    nowMs,
    state: store,
    parent: new ParentView(),
    sidechain: viewTo(400n),
    inMempool: () => false,
    genesisTimeMs: 0,
  });
  const proposals = (b: Bridge, nowMs: number) =>
    b.tick(inputs(nowMs)).filter((a) => a.kind === 'tx' && a.def.type === 'checkpoint/MsgCheckpoint');

  it('the proposer proposes the next range when the buffer is empty', () => {
    expect(getBuffer(store)).toBeUndefined();
    const p = proposals(new Bridge({ ...DEFAULT_BRIDGE_CONFIG, checkpointLength: 32n }, '15001'), 1_000_000);
    expect(p).toHaveLength(1);
    expect(p[0]).toMatchObject({ msg: { proposer: me, startBlock: 0n, endBlock: 31n } });
  });

  it('not while a checkpoint waits in the buffer; again once the buffer has expired (a new MsgCheckpoint flushes it)', () => {
    const bufferedAtS = 2_000n;
    setBuffer(store, {
      proposer: me,
      startBlock: 0n,
      endBlock: 31n,
      rootHash: toHex(new Uint8Array(32)),
      accountRootHash: toHex(new Uint8Array(32)),
      timestamp: bufferedAtS,
    });
    const expiresMs = Number(bufferedAtS * 1000n + bufferMs);
    const bridge = new Bridge({ ...DEFAULT_BRIDGE_CONFIG, checkpointLength: 32n }, '15001');
    expect(proposals(bridge, expiresMs - 1_000)).toEqual([]);
    expect(proposals(bridge, expiresMs)).toHaveLength(1);
  });
});
