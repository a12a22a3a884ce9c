/**
 * A Byzantine sender's crafted transactions get the reference's answer (spec: Authentication 1-4,
 * the transition table and Errors; heimdall.md §6.2-§6.3 for the ante handler's codes, README
 * item 24; each message handler's rejections). The `byzantineTxs` fault records, for each tx it
 * puts into a block it proposes, where it put it and the result the reference gives it on the
 * state that block continues: refused by DeliverTx with a code, or taken by DeliverTx and refused
 * by its side-tx result. When that block is the one committed at that height (the tx is at its
 * place), the result must be that answer: a tx the service accepts, or refuses with another code,
 * is a violation. A tx whose answer depends on an earlier tx of the block (`ifAccepted`) is judged
 * only when that one was accepted. Gossiped copies are not judged (the state moves before a block
 * carries them).
 *
 * It judges each height once, on the first node that commits it (the committed block is the same
 * on every honest node: another oracle guards that).
 */
import { type Hex } from '../../src/core/bytes';
import { type ByzantineExpectFact, type RunObservation } from '../core/record';
import { Oracle, type RunRecord } from './oracle';

type Crafted = Extract<RunObservation, { kind: 'byzantine.tx' }>;

interface Awaiting {
  craft: string;
  height: bigint;
  expect: ByzantineExpectFact;
}

export class ByzantineRefusedOracle extends Oracle {
  readonly name = 'byzantine-refused';
  readonly class = 'safety' as const;
  readonly reads = ['byzantine.tx', 'service.commit'] as const;
  /** Crafted txs by the height of the block they were put in. */
  private readonly crafted = new Map<bigint, Crafted[]>();
  private readonly judged = new Set<bigint>();
  /** Crafted txs DeliverTx took, awaiting their side-tx result. */
  private readonly sideAwaiting = new Map<Hex, Awaiting>();

  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'byzantine.tx') {
      if (o.via !== 'block' || o.expect === null || o.height === null || this.judged.has(o.height)) return;
      const list = this.crafted.get(o.height) ?? [];
      list.push(o);
      this.crafted.set(o.height, list);
      return;
    }
    if (o.kind !== 'service.commit' || this.judged.has(o.height)) return;
    this.judged.add(o.height);
    for (const st of o.sideTxs) {
      const a = this.sideAwaiting.get(st.txHash);
      if (a === undefined) continue;
      this.sideAwaiting.delete(st.txHash);
      if (!a.expect.codes.includes(st.code))
        this.fail(
          r.t,
          r.node,
          `${a.craft} tx ${st.txHash} of height ${a.height}: side-tx result ${st.code}, the reference gives ${a.expect.codes.join(' or ')}`,
          { craft: a.craft, txHash: st.txHash, height: a.height, code: st.code, expected: a.expect.codes },
        );
    }
    const list = this.crafted.get(o.height);
    this.crafted.delete(o.height);
    for (const h of [...this.crafted.keys()]) if (h < o.height) this.crafted.delete(h);
    for (const c of list ?? []) {
      const t = o.txs[c.index!];
      if (t === undefined || t.hash !== c.txHash) continue;
      if (c.ifAccepted !== null && o.txs[c.ifAccepted]?.code !== 0) continue;
      const e = c.expect!;
      if (e.stage === 'side') {
        if (t.code === 0) {
          this.sideAwaiting.set(t.hash, { craft: c.craft, height: o.height, expect: e });
          continue;
        }
        this.fail(
          r.t,
          r.node,
          `${c.craft} tx ${t.hash} at height ${o.height}: refused by DeliverTx (${t.codespace}/${t.code}); the reference takes it and refuses its side tx (${e.codes.join(' or ')})`,
          { craft: c.craft, txHash: t.hash, height: o.height, code: t.code, codespace: t.codespace },
        );
        continue;
      }
      if (t.codespace === e.codespace && e.codes.includes(t.code)) continue;
      const got = t.code === 0 ? 'accepted' : `refused with ${t.codespace}/${t.code}`;
      this.fail(
        r.t,
        r.node,
        `${c.craft} tx ${t.hash} at height ${o.height} was ${got}; the reference refuses it with ${e.codespace}/${e.codes.join(' or ')}`,
        {
          craft: c.craft,
          txHash: t.hash,
          height: o.height,
          index: c.index,
          code: t.code,
          codespace: t.codespace,
          expected: { codespace: e.codespace, codes: e.codes },
        },
      );
    }
  }
}
