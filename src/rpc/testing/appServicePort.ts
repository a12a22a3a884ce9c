/**
 * Test fixtures for the RPC servers: a ServicePort and a NodeStatusPort over one real ServiceApp
 * driven by the TestChain harness, instead of a live simulated network. Queries answer from the
 * committed state; sync broadcasts run CheckTx and keep admitted txs in a mempool; block broadcasts
 * deliver the mempool in the next block. Used by the REST and status server tests, and reusable
 * by anything that needs the ports without a network.
 */
import { type Address } from '../../core/address';
import { type Hex, toHex, utf8 } from '../../core/bytes';
import { keccak256Bytes } from '../../core/hash';
import { sidechainRoot } from '../../app/testing/fakeObservers';
import { TestChain, type BlockResult, type TestChainOptions, type TestKey } from '../../app/testing/testChain';
import { getValidatorSet } from '../../modules/staking/keeper';
import { MsgCheckpointAckDef, MsgCheckpointDef } from '../../modules/checkpoint/msgs';
import {
  type BroadcastMode,
  type BroadcastResult,
  type NodeStatusPort,
  type PeerInfo,
  type ServicePort,
} from '../ports';
import { type QueryAnswer } from '../../app/queryRouter';
import { asyncBroadcastResult, broadcastResultOf } from '../rest/txResponse';

export class AppServicePort implements ServicePort {
  /** Txs admitted by CheckTx and not yet in a block. */
  readonly mempool: Uint8Array[] = [];
  /** How many times `query` / `broadcast` were called (to prove a request reached the port). */
  calls = { query: 0, broadcast: 0 };

  constructor(readonly chain: TestChain) {}

  get chainId(): string {
    return this.chain.chainId;
  }

  query(pathWithQuery: string): QueryAnswer {
    this.calls.query++;
    return this.chain.app.query(pathWithQuery, this.chain.observers);
  }

  async broadcast(tx: Uint8Array, mode: BroadcastMode): Promise<BroadcastResult> {
    this.calls.broadcast++;
    const check = this.chain.app.checkTx(tx);
    if (check.code === 0) this.mempool.push(tx);
    // Async answers before CheckTx's outcome is known, so even a rejected tx gets code 0.
    if (mode === 'async') return asyncBroadcastResult(check.hash);
    if (mode === 'sync' || check.code !== 0) return broadcastResultOf(check, null);
    const block = this.commitMempool();
    return broadcastResultOf(block.txs[block.txs.length - 1]!, block.height);
  }

  /** Deliver the mempool in the next block. */
  commitMempool(): BlockResult {
    return this.chain.block(this.mempool.splice(0));
  }
}

/** A node status port reporting the chain's head as validator 1's node, with the others as peers. */
export class AppNodeStatusPort implements NodeStatusPort {
  catchingUp = false;

  constructor(readonly chain: TestChain) {}

  status(): ReturnType<NodeStatusPort['status']> {
    const app = this.chain.app;
    const me = this.chain.validators[0]!.address;
    return {
      nodeId: nodeId(me),
      moniker: 'svc-1',
      network: app.chainId,
      version: '0.32.7',
      latestBlockHeight: app.height,
      // The app has no block hash of its own; any deterministic 32 bytes per block will do here.
      latestBlockHash: toHex(keccak256Bytes(utf8(`block/${app.height}/${app.appHash}`))),
      latestAppHash: app.appHash,
      latestBlockTimeMs: app.lastBlockTimeMs,
      catchingUp: this.catchingUp,
      validatorAddress: me,
      votingPower: getValidatorSet(app.store).getByAddress(me)?.power ?? 0n,
    };
  }

  netInfo(): { listening: boolean; peers: PeerInfo[] } {
    return {
      listening: true,
      peers: this.chain.validators.slice(1).map((v, i) => ({ id: nodeId(v.address), moniker: `svc-${i + 2}` })),
    };
  }
}

/** Tendermint node ids are 20 bytes of bare lower-case hex. */
function nodeId(address: Address): string {
  return toHex(keccak256Bytes(utf8(`node/${address}`))).slice(2, 42);
}

const keyOf = (chain: TestChain, address: Address): TestKey => chain.validators.find((k) => k.address === address)!;

/** Deliver txs, then the two blocks that run their side-tx post handlers; fails loudly if any tx does. */
function settle(chain: TestChain, txs: Uint8Array[]): void {
  const r = chain.blockAndSettle(txs);
  const bad = [...r.txs, ...r.side].find((t) => t.code !== 0);
  if (bad) throw new Error(`fixture tx failed: ${bad.log}`);
}

function bufferCheckpoint(chain: TestChain, startBlock: bigint, endBlock: bigint): void {
  const proposer = getValidatorSet(chain.app.store).proposer!.address;
  const accountRootHash = chain.queryResult<{ accountRootHash: Hex }>('/topup/dividend-account-root').accountRootHash;
  const msg = { proposer, startBlock, endBlock, rootHash: sidechainRoot(startBlock, endBlock), accountRootHash };
  settle(chain, [chain.tx(MsgCheckpointDef, msg, keyOf(chain, proposer))]);
}

/**
 * Give the chain a checkpoint history so every checkpoint query has something to show: checkpoint
 * 1 (blocks 0-255) acked, and 256-511 waiting in the buffer.
 */
export function seedCheckpoints(chain: TestChain): void {
  chain.observers.sidechainHead = 100_000n;
  bufferCheckpoint(chain, 0n, 255n);
  const buffered = chain.queryResult<{
    proposer: Address;
    startBlock: number;
    endBlock: number;
    rootHash: Hex;
    accountRootHash: Hex;
  }>('/checkpoints/buffer');
  chain.observers.headerBlocks.set(1n, {
    number: 1n,
    proposer: buffered.proposer,
    startBlock: BigInt(buffered.startBlock),
    endBlock: BigInt(buffered.endBlock),
    rootHash: buffered.rootHash,
    accountRootHash: buffered.accountRootHash,
  });
  const acker = chain.validators[0]!;
  settle(chain, [
    chain.tx(
      MsgCheckpointAckDef,
      { from: acker.address, headerBlock: 1n, txHash: `0x${'ab'.repeat(32)}`, logIndex: 0n },
      acker,
    ),
  ]);
  bufferCheckpoint(chain, 256n, 511n);
}

export interface AppServiceFixture {
  chain: TestChain;
  port: AppServicePort;
  statusPort: AppNodeStatusPort;
}

/** A four-validator chain behind both ports; `checkpoints` seeds the history above. */
export function appServiceFixture(opts: TestChainOptions & { checkpoints?: boolean } = {}): AppServiceFixture {
  const chain = new TestChain(opts);
  if (opts.checkpoints) seedCheckpoints(chain);
  return { chain, port: new AppServicePort(chain), statusPort: new AppNodeStatusPort(chain) };
}
