/**
 * A producer's block production: plan the next block on the head (Bor's delay for its turn, plus
 * what a fault bends), and build the planned block when its time comes, if the head is still its
 * parent.
 */
import { type Hex } from '../../core/bytes';
import { type BalanceOverride, type SidechainBlock } from '../../sidechain/block';
import { type SidechainChain } from '../../sidechain/chain';
import { buildBlock, jitterBoundMs, planProduction, type ProductionPlan } from '../../sidechain/producer';
import { type CommittedSpan, type StateSyncRecord } from '../../sidechain/systemState';
import { type SignedTx } from '../../sidechain/transaction';
import { type ProducerKey } from './config';

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
  /** The operator's next-block time for this block (evm_setNextBlockTimestamp), or null. */
  notBeforeS(plan: ProductionPlan): bigint | null;
}

/** Where a block's system data comes from (the node's copies of the service node's spans and records). */
export interface BlockSources {
  span(id: bigint): CommittedSpan | null;
  stateSyncs(fromId: bigint, toTimeS: bigint): StateSyncRecord[];
  txs: readonly SignedTx[];
  balances: readonly BalanceOverride[];
  vanity?: Uint8Array;
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
    let timeS = early ? head.block.header.time + BigInt(this.chain.cfg.periodS) : plan.timeS + BigInt(extra);
    // An operator's next-block time holds every producer back to it, backups by their wiggle too,
    // so the in-turn block still comes first and every delay rule still holds.
    const notBefore = bends.notBeforeS(plan);
    if (notBefore !== null) {
      const wiggled = notBefore + BigInt(plan.succession * this.chain.cfg.backupMultiplierS);
      if (wiggled > timeS) timeS = wiggled;
    }
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
