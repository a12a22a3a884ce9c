/**
 * Byzantine crafts for the span module: span proposals for another chain, after a gap, one block
 * too long (`1` 3506, 3501, 3507), or while the sidechain is outside the window of the last span
 * (side 5502).
 */
import { MsgProposeSpanDef } from '../../../src/modules/span/msgs';
import { getLastSpan, getSpanParams } from '../../../src/modules/span/keeper';
import { getChainParams } from '../../../src/modules/chain/keeper';
import { type Craft, SIDE_REFUSED, SPANS, canPay, one, one1, sign, when } from './craftKit';

export const SPAN_CRAFTS = {
  // --- kinds of the fault's first version (their names are kept) ---
  spanOutsideWindow: when(SPANS, (env) => {
    const last = getLastSpan(env.state);
    const head = env.node.views.sidechain.headNumber();
    if (!last || head === null || (last.startBlock <= head && head < last.endBlock) || !canPay(env)) return null;
    const p = getSpanParams(env.state);
    // The next span, right in every field, while the sidechain is outside the window of the last
    // one. Each validator judges the window on its own view of the head: well before the last
    // span's start (two sprints) in the most advanced view any node has, no honest view is inside
    // it and the vote cannot pass; at or past its end some views may still be inside, and the
    // tally is not the sender's to predict. (Its own view is not the bound: swarm seed 678 paused
    // the sender's sidechain node, and the others voted the span through.)
    // (The sender's own view is one of those the best is taken over, so best >= head.)
    const best = env.bestSidechainHead ?? head;
    const early = best + 2n * p.sprintDuration < last.startBlock;
    return one1(
      sign(env, MsgProposeSpanDef, {
        spanId: last.id + 1n,
        proposer: env.me.address,
        startBlock: last.endBlock + 1n,
        endBlock: last.endBlock + p.spanDuration,
        sidechainChainId: getChainParams(env.state).sidechainChainId,
      }),
      early ? SIDE_REFUSED : null,
    );
  }),
  spanOutOfSequence(env) {
    const last = getLastSpan(env.state);
    if (!last || !canPay(env)) return null;
    const p = getSpanParams(env.state);
    // A gap of one sprint after the last span (its length still right).
    const start = last.endBlock + 1n + p.sprintDuration;
    return one1(
      sign(env, MsgProposeSpanDef, {
        spanId: last.id + 1n,
        proposer: env.me.address,
        startBlock: start,
        endBlock: start + p.spanDuration - 1n,
        sidechainChainId: getChainParams(env.state).sidechainChainId,
      }),
      one(3501),
    );
  },

  // --- the handler ---
  spanWrongChainId(env) {
    const last = getLastSpan(env.state);
    if (!last || !canPay(env)) return null;
    const p = getSpanParams(env.state);
    return one1(
      sign(env, MsgProposeSpanDef, {
        spanId: last.id + 1n,
        proposer: env.me.address,
        startBlock: last.endBlock + 1n,
        endBlock: last.endBlock + p.spanDuration,
        sidechainChainId: `${getChainParams(env.state).sidechainChainId}9`,
      }),
      one(3506),
    );
  },
  spanWrongDuration: when(SPANS, (env) => {
    const last = getLastSpan(env.state);
    if (!last || !canPay(env)) return null;
    const p = getSpanParams(env.state);
    return one1(
      sign(env, MsgProposeSpanDef, {
        spanId: last.id + 1n,
        proposer: env.me.address,
        startBlock: last.endBlock + 1n,
        endBlock: last.endBlock + p.spanDuration + 1n,
        sidechainChainId: getChainParams(env.state).sidechainChainId,
      }),
      one(3507),
    );
  }),
} satisfies Record<string, Craft>;
