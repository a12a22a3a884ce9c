/**
 * The operator console's read expressions over a real chain (the fixture's 14 blocks, produced by
 * real producers): the values geth's console prints, and a clear error for anything else.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { toHex } from '../../core/bytes';
import { keccak256Bytes } from '../../core/hash';
import { type SidechainChain } from '../../sidechain/chain';
import { chainReadPort } from '../../sidechain/readPort';
import { type SidechainView } from '../ports';
import { buildFixtureChain } from '../testing/sidechainPort';
import { evalConsole } from './consoleEval';

const viewOf = (chain: SidechainChain, over: Partial<Omit<SidechainView, 'chain'>> = {}): SidechainView => ({
  chain: chainReadPort(chain),
  chainId: 15001n,
  peerCount: 3,
  syncing: null,
  ...over,
});

let chain: SidechainChain;
let view: SidechainView;
beforeAll(() => {
  chain = buildFixtureChain(14);
  view = viewOf(chain);
});

describe('console expressions: never throw (property)', () => {
  it('the console answers any string without throwing', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 60 }),
          fc
            .array(
              fc.constantFrom(
                'eth',
                'admin',
                '.',
                'syncing',
                'blockNumber',
                '(',
                ')',
                "'latest'",
                ' ',
                '*',
                '100',
                '/',
                '-',
                'currentBlock',
                'highestBlock',
                'nodeInfo',
                'enode',
                'peers',
                'length',
                'getBlock',
                'number',
              ),
              { maxLength: 12 },
            )
            .map((t) => t.join('')),
        ),
        (expr) => {
          const r = evalConsole(view, expr);
          expect(typeof r.ok).toBe('boolean');
          if (!r.ok) expect(typeof r.error).toBe('string');
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('sidechain console expressions (spec "Operator console")', () => {
  const PUB = `0x04${'11'.repeat(32)}${'22'.repeat(32)}`;
  const syncingView = () =>
    viewOf(chain, {
      syncing: { startingBlock: 0n, currentBlock: 250n, highestBlock: 1000n },
      peerCount: 7,
      nodeKey: PUB,
    });

  it('peers, block number, latest block', () => {
    expect(evalConsole(syncingView(), 'admin.peers.length')).toEqual({ ok: true, value: 7 });
    expect(evalConsole(view, 'eth.blockNumber')).toEqual({ ok: true, value: 14 });
    expect(evalConsole(view, "eth.getBlock('latest').number")).toEqual({ ok: true, value: 14 });
    expect(evalConsole(view, 'eth.getBlock("latest").number')).toEqual({ ok: true, value: 14 });
    expect(evalConsole(view, "  eth . getBlock ( 'latest' ) . number ;")).toEqual({ ok: true, value: 14 });
    expect(evalConsole(view, '\teth.blockNumber\n')).toEqual({ ok: true, value: 14 });
  });

  it('node info and enode', () => {
    const enode = `enode://${'11'.repeat(32)}${'22'.repeat(32)}@127.0.0.1:30303`;
    expect(evalConsole(syncingView(), 'admin.nodeInfo.enode')).toEqual({ ok: true, value: enode });
    const info = evalConsole(syncingView(), 'admin.nodeInfo');
    expect(info.ok).toBe(true);
    const v = (info as { value: Record<string, unknown> }).value;
    expect(v).toMatchObject({ enode, id: toHex(keccak256Bytes(`0x${'11'.repeat(32)}${'22'.repeat(32)}`)).slice(2) });
    expect(typeof v.name).toBe('string');
    expect(v.protocols).toMatchObject({
      eth: { network: 15001, genesis: chain.genesis.block.hash, head: chain.head().block.hash },
    });
    // Without a node key: zeros.
    expect(evalConsole(view, 'admin.nodeInfo.enode')).toEqual({
      ok: true,
      value: `enode://${'00'.repeat(64)}@127.0.0.1:30303`,
    });
    const broken = evalConsole(viewOf(chain, { nodeKey: '0x1234' }), 'admin.nodeInfo.enode');
    expect(broken.ok).toBe(false);
    expect((broken as { error: string }).error).toMatch(/nodeKey/);
  });

  it('syncing state, blocks behind and progress', () => {
    const s = syncingView();
    expect(evalConsole(s, 'eth.syncing')).toMatchObject({
      ok: true,
      value: { startingBlock: 0, currentBlock: 250, highestBlock: 1000 },
    });
    expect(evalConsole(s, 'eth.syncing.highestBlock - eth.syncing.currentBlock')).toEqual({ ok: true, value: 750 });
    expect(evalConsole(s, 'eth.syncing.highestBlock-eth.syncing.currentBlock')).toEqual({ ok: true, value: 750 });
    expect(evalConsole(s, 'eth.syncing.currentBlock * 100 / eth.syncing.highestBlock')).toEqual({
      ok: true,
      value: 25,
    });
    expect(evalConsole(view, 'eth.syncing')).toEqual({ ok: true, value: false });
    // As in geth's console: false.highestBlock is undefined, so the arithmetic is NaN.
    expect(evalConsole(view, 'eth.syncing.highestBlock - eth.syncing.currentBlock')).toEqual({ ok: true, value: NaN });
  });

  it('anything else is a clear error', () => {
    for (const expr of [
      'eth.accounts',
      'admin.peers',
      'eth.getBlock(latest).number',
      'eth.syncing.currentBlock + 1',
      'e th.blockNumber',
      'eth.blockNumber()',
      "eth.getBlock('pending').number",
      '',
      'eth.blockNumber;1',
    ]) {
      const r = evalConsole(view, expr);
      expect(r.ok, expr).toBe(false);
      expect((r as { error: string }).error.length).toBeGreaterThan(0);
    }
    expect(evalConsole(view, 'eth.foo')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/unsupported console expression "eth\.foo"; supported: admin\.peers\.length/),
    });
    expect(evalConsole(view, "eth.getBlock('latest).number")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/unterminated string/),
    });
    expect(evalConsole(view, 'debug.setHead("0x1")')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/debug\.setHead/),
    });
  });
});
