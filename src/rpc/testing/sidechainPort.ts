/**
 * Test fixture: a `SidechainPort` over a real sidechain — four producers with real secp256k1 keys
 * seal blocks in turn, and some blocks carry transfers and state syncs — so the JSON-RPC server and
 * the operator console are tested against the same chain code the devnet runs, not a stub.
 *
 * `setHead(n)` rewinds by replaying the canonical blocks 1..n into a fresh chain: the chain has no
 * rewind of its own, and a replay gives exactly the state a node would have had at block n.
 */
import { type SignedTx } from '../../sidechain/transaction';
import { SidechainChain, type StoredBlock } from '../../sidechain/chain';
import { buildBlock, planProduction, type ProductionInputs } from '../../sidechain/producer';
import { chainReadPort } from '../../sidechain/readPort';
import { type OperatorResult, type SidechainPort, type SidechainView } from '../ports';
import {
  FIXTURE_CONFIG,
  fixtureAlloc,
  fixtureKeys,
  fixtureTransfer,
  fixtureProducers,
  fixtureRecords,
  fixtureSpans,
} from '../../sidechain/testing/fixture';

const keys = fixtureKeys('rpc-fixture-producer');

/** Small sprints and spans so a short chain has sprint starts, span commits and state syncs. */
export { FIXTURE_CONFIG };
export const FIXTURE_CHAIN_ID = 15001n;
const GENESIS_TIME_S = 1000n;
/** Import "now" far in the future, so no block is refused as from the future. */
const FAR_FUTURE_S = 10n ** 12n;

const producers = fixtureProducers(keys);
const spans = () => fixtureSpans(producers, { rotate: false });
const records = fixtureRecords(6, GENESIS_TIME_S);

/**
 * The signed transfers of blocks 10 and 12, between the first two producers: a legacy and an
 * EIP-1559 transfer in each (one of value 0, which logs nothing).
 */
export const FIXTURE_TRANSFERS: ReadonlyMap<bigint, readonly SignedTx[]> = new Map([
  [
    10n,
    [
      fixtureTransfer(keys[0]!, keys[1]!.address, 0n, { value: 5n * 10n ** 18n, type: 0 }),
      fixtureTransfer(keys[1]!, keys[0]!.address, 0n, { value: 0n, type: 2 }),
    ],
  ],
  [
    12n,
    [
      fixtureTransfer(keys[0]!, keys[1]!.address, 1n, { value: 10n ** 18n, type: 2 }),
      fixtureTransfer(keys[1]!, keys[0]!.address, 1n, { value: 2n, type: 0 }),
    ],
  ],
]);

function inputs(txs: readonly SignedTx[]): ProductionInputs {
  const spanMap = spans();
  return {
    span: (id) => spanMap.get(id) ?? null,
    stateSyncs: (fromId, toTimeS) => records.filter((r) => r.id >= fromId && r.timeS < toTimeS),
    txs,
  };
}

function emptyChain(): SidechainChain {
  return new SidechainChain(FIXTURE_CONFIG, { timeS: GENESIS_TIME_S, producers, alloc: fixtureAlloc(keys) });
}

/** Grow `chain` by `count` blocks, each sealed by the in-turn producer; `txsAt(n)` fills block n. */
export function growChain(
  chain: SidechainChain,
  count: number,
  txsAt: (n: bigint) => readonly SignedTx[] = () => [],
): void {
  for (let i = 0; i < count; i++) {
    const head = chain.head();
    const who = head.snapshot.validatorSet.proposer.address;
    const plan = planProduction(chain.cfg, head, who);
    if (!plan) throw new Error(`fixture: ${who} cannot produce on block ${head.block.header.number}`);
    const key = keys.find((k) => k.address === who)!;
    const block = buildBlock(chain, plan, key.sk, who, inputs(txsAt(head.block.header.number + 1n)), plan.timeS);
    const r = chain.import(block, FAR_FUTURE_S, 0);
    if (r.status !== 'imported' || !r.newHead)
      throw new Error(
        `fixture: block ${block.header.number} not imported as head: ${JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}`,
      );
  }
}

/** A chain of `blocks` blocks; blocks 10 and 12 carry transfers (12 is a sprint start with state syncs). */
export function buildFixtureChain(blocks = 14): SidechainChain {
  const chain = emptyChain();
  growChain(chain, blocks, (n) => FIXTURE_TRANSFERS.get(n) ?? []);
  return chain;
}

/** A fresh chain holding the canonical blocks 1..n of `from`. */
function replayTo(from: SidechainChain, n: bigint): SidechainChain {
  const chain = emptyChain();
  for (const b of from.canonicalRange(1n, n)) {
    const r = chain.import(b.block, FAR_FUTURE_S, 0);
    if (r.status !== 'imported')
      throw new Error(`fixture: replay of block ${b.block.header.number} failed: ${r.status}`);
  }
  return chain;
}

export interface FixtureSidechainPort extends SidechainPort {
  /** The chain the next `view()` reads (replaced by `setHead`). */
  chain: SidechainChain;
  /** Overrides for the view's other fields. */
  viewExtras: Omit<SidechainView, 'chain'>;
  /** Every block number `setHead` was asked for, in order. */
  readonly setHeadCalls: bigint[];
  /** How many times `view()` was called. */
  viewCalls: number;
}

export function createFixtureSidechainPort(
  opts: { blocks?: number; chain?: SidechainChain; viewExtras?: Partial<Omit<SidechainView, 'chain'>> } = {},
): FixtureSidechainPort {
  const port: FixtureSidechainPort = {
    chain: opts.chain ?? buildFixtureChain(opts.blocks),
    viewExtras: { chainId: FIXTURE_CHAIN_ID, peerCount: 3, syncing: null, ...opts.viewExtras },
    setHeadCalls: [],
    viewCalls: 0,
    view(): SidechainView {
      port.viewCalls++;
      return { ...port.viewExtras, chain: chainReadPort(port.chain) };
    },
    async setHead(n: bigint): Promise<OperatorResult> {
      port.setHeadCalls.push(n);
      const head = port.chain.head().block.header.number;
      if (n > head) return { ok: false, error: `cannot set head to block ${n}: the head is block ${head}` };
      port.chain = replayTo(port.chain, n);
      return { ok: true };
    },
  };
  return port;
}

/** The canonical blocks of a chain, genesis first. */
export function canonicalBlocks(chain: SidechainChain): StoredBlock[] {
  return chain.canonicalRange(0n);
}
