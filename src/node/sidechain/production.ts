/**
 * A producer's block production: plan the next block on the head (Bor's delay for its turn, plus
 * what a fault bends), and build the planned block when its time comes, if the head is still its
 * parent.
 */
import { type Hex } from '../../core/bytes';
import { type SidechainBlock, type SidechainTx } from '../../sidechain/block';
import { type SidechainChain } from '../../sidechain/chain';
import { buildBlock, jitterBoundMs, planProduction, type ProductionPlan } from '../../sidechain/producer';
import { type CommittedSpan, type StateSyncRecord } from '../../sidechain/systemState';
import { type ProducerKey } from './config';

/** User transactions one block carries at most. */
export const MAX_BLOCK_TXS = 50;

export interface ProductionTimer {
  afterMs: number;
  parentHash: Hex;
  number: bigint;
}

/** How faults bend production (the node's hooks, bound to it). */
export interface ProductionBends {
  /** Offline or slow producer: null to skip, or extra seconds to wait. */
  delayS(plan: ProductionPlan): number | null;
  /** Early seal: a backup seals as if it were in turn. */
  sealEarly(plan: ProductionPlan): boolean;
}

/** Where a block's system data comes from (the node's copies of the service node's spans and records). */
export interface BlockSources {
  span(id: bigint): CommittedSpan | null;
  stateSyncs(fromId: bigint, toTimeS: bigint): StateSyncRecord[];
  txs: SidechainTx[];
}

export class BlockProduction {
  private planned: (ProductionPlan & { key: ProducerKey }) | null = null;

  constructor(
    private readonly chain: SidechainChain,
    /** The node's signer keys: its first, then those its validator rotates to (at most one is a producer of a span). */
    private readonly keys: readonly ProducerKey[],
    private readonly jitter: boolean,
  ) {}

  /** Plan this producer's block on the current head: the timer to set for it, or null (not its turn, or a fault). */
  plan(nowMs: number, random: () => number, bends: ProductionBends): ProductionTimer | null {
    const head = this.chain.head();
    let plan: ProductionPlan | null = null;
    let key: ProducerKey | null = null;
    for (const k of this.keys) {
      plan = planProduction(this.chain.cfg, head, k.address);
      if (plan) {
        key = k;
        break;
      }
    }
    if (!plan || !key) return null;
    const extra = bends.delayS(plan);
    if (extra === null) return null;
    const early = bends.sealEarly(plan);
    const timeS = early ? head.block.header.time + BigInt(this.chain.cfg.periodS) : plan.timeS + BigInt(extra);
    let releaseMs = Number(timeS) * 1000;
    if (this.jitter && plan.succession > 0)
      releaseMs += Math.floor(random() * jitterBoundMs(head.snapshot.validatorSet.size));
    this.planned = { ...plan, timeS, key };
    return { afterMs: Math.max(0, releaseMs - nowMs), parentHash: plan.parentHash, number: plan.number };
  }

  /** The plan made on `parentHash` (with the key it seals with), if that is still the head. */
  due(parentHash: Hex): (ProductionPlan & { key: ProducerKey }) | null {
    const plan = this.planned;
    if (!plan || plan.parentHash !== parentHash || this.chain.head().block.hash !== parentHash) return null;
    return plan;
  }

  /** Drop the plan (the head moved under it). */
  forget(): void {
    this.planned = null;
  }

  build(plan: ProductionPlan & { key: ProducerKey }, sources: BlockSources): SidechainBlock {
    return buildBlock(this.chain, plan, plan.key.privateKey, plan.key.address, sources, plan.timeS);
  }
}
