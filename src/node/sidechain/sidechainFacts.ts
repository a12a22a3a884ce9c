/** What a sidechain node reports (observations.ts): raw facts of its blocks, head and reorgs. */
import { weakMemo } from '../../core/memo';
import { type DeepReadonly } from '../../core/readonly';
import { type SidechainBlock } from '../../sidechain/block';
import { type Reorg, type SidechainChain } from '../../sidechain/chain';
import { decodeValidatorBytes, headerValidatorBytes } from '../../sidechain/header';
import { type HeadFact, type Observation, type SidechainBlockFact } from '../observations';

/**
 * Every node imports every block (the block object is shared by the nodes of a process) and
 * reports it with its head: one frozen fact per block, not one per node, so a run at a hundred
 * nodes keeps one copy and the trace writes its text once (sim/trace/observationJson.ts).
 */
const blockFacts = weakMemo<SidechainBlock, DeepReadonly<SidechainBlockFact>>('sidechainFacts.blocks');
const headFacts = weakMemo<SidechainBlock, Readonly<HeadFact>>('sidechainFacts.heads');

export function headFact(chain: SidechainChain): Readonly<HeadFact> {
  const h = chain.head().block;
  let f = headFacts.get(h);
  if (f === undefined) {
    f = Object.freeze({ hash: h.hash, number: h.header.number });
    headFacts.set(h, f);
  }
  return f;
}

export function startedObservation(chain: SidechainChain, serviceNode: string): Observation {
  const g = chain.genesis;
  return {
    kind: 'sidechain.started',
    genesis: {
      hash: g.block.hash,
      time: g.block.header.time,
      difficulty: g.block.header.difficulty,
      txHash: g.block.header.txHash,
      receiptHash: g.block.header.receiptHash,
      producers: g.state.initialProducers.map((p) => ({ id: p.id, signer: p.address, power: p.power })),
    },
    head: headFact(chain),
    serviceNode,
  };
}

export function reorgObservation(r: Reorg): Observation {
  return {
    kind: 'sidechain.reorg',
    depth: r.depth,
    oldHead: r.oldHead,
    newHead: r.newHead,
    ancestor: r.commonAncestor,
  };
}

/** What a block's header says and its body carries (no rule applied: the oracles judge it). */
export function blockFact(block: SidechainBlock): DeepReadonly<SidechainBlockFact> {
  let f = blockFacts.get(block);
  if (f === undefined) {
    f = deepFreeze(computeBlockFact(block));
    blockFacts.set(block, f);
  }
  return f;
}

function computeBlockFact(block: SidechainBlock): SidechainBlockFact {
  const h = block.header;
  let announced: SidechainBlockFact['announced'] = null;
  try {
    const bytes = headerValidatorBytes(h);
    if (bytes.length > 0) announced = decodeValidatorBytes(bytes);
  } catch {
    announced = null;
  }
  const span = block.body.spanCommit;
  return {
    number: h.number,
    hash: block.hash,
    parentHash: h.parentHash,
    time: h.time,
    difficulty: h.difficulty,
    signer: block.signer,
    txHash: h.txHash,
    receiptHash: h.receiptHash,
    stateSyncs: block.body.stateSyncs.map((r) => ({ id: r.id, timeS: r.timeS })),
    spanCommit: span
      ? {
          id: span.id,
          startBlock: span.startBlock,
          endBlock: span.endBlock,
          producers: span.producers.map((p) => ({ id: p.id, signer: p.address, power: p.power })),
        }
      : null,
    announced,
  };
}

/** Freeze plain data all the way down (a fact shared by every node that reports it). */
function deepFreeze<T>(value: T): DeepReadonly<T> {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value as DeepReadonly<T>;
}
