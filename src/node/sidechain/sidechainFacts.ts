/** What a sidechain node reports (observations.ts): raw facts of its blocks, head and reorgs. */
import { type SidechainBlock } from '../../sidechain/block';
import { type Reorg, type SidechainChain } from '../../sidechain/chain';
import { decodeValidatorBytes, headerValidatorBytes } from '../../sidechain/header';
import { type HeadFact, type Observation, type SidechainBlockFact } from '../observations';

export function headFact(chain: SidechainChain): HeadFact {
  const h = chain.head().block;
  return { hash: h.hash, number: h.header.number };
}

export function startedObservation(chain: SidechainChain): Observation {
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
export function blockFact(block: SidechainBlock): SidechainBlockFact {
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
