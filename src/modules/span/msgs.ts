/**
 * MsgProposeSpan. Deliver checks come from the reference (3506 chain id, 3503 no span, 3501
 * continuity, 3507 duration); the side vote applies the spec's window `start <= n < end` to the
 * sidechain head n each validator observes (README item 2) and reads the seed block hash; the post
 * handler freezes the set once per span id (1401 on a repeat).
 */
import { CommonErrors } from '../framework/errors';
import { SpanErrors } from './errors';
import { type Address } from '../../core/address';
import { type Hex } from '../../core/bytes';

import { type MsgDef, OK, rejected, type Ctx, type HandlerResult } from '../framework/msgDef';
import { addr, asObject, noExtraKeys, str, uint64 } from '../framework/decode';
import { getChainParams } from '../chain/keeper';
import { freezeSet } from './freezeSet';
import { continuesSpan, getLastSpan, getSpan, nextSpanSeedBlock } from './keeper';
import { getSpanParams } from './keeper';
import { type KVReader } from '../../store/kvStore';
import { isPlanted } from '../../core/plants';

export interface MsgProposeSpan {
  spanId: bigint;
  proposer: Address;
  startBlock: bigint;
  endBlock: bigint;
  sidechainChainId: string;
}

const P = 'tx.msg.value';

function checkSpan(state: KVReader, m: MsgProposeSpan): HandlerResult {
  if (m.sidechainChainId !== getChainParams(state).sidechainChainId)
    return rejected(SpanErrors.InvalidSidechainChainId);
  const last = getLastSpan(state);
  if (!last) return rejected(SpanErrors.SpanNotFound);
  if (!(last.id + 1n === m.spanId && continuesSpan(last, m.startBlock) && m.endBlock >= m.startBlock))
    return rejected(SpanErrors.SpanNotContinuous);
  if (getSpanParams(state).spanDuration !== m.endBlock - m.startBlock + 1n)
    return rejected(SpanErrors.InvalidSpanDuration);
  return OK;
}

/** The spec's proposal window: the current span's StartBlock <= n < EndBlock. */
export function inSpanProposalWindow(current: { startBlock: bigint; endBlock: bigint }, head: bigint): boolean {
  return (isPlanted('span-window') || current.startBlock <= head) && head < current.endBlock;
}

interface SpanObservation {
  seed: Hex;
}

/** What a node reports of a delivered span message (src/node/observations.ts). */
export type SpanMsgFact = {
  type: 'sidechain/MsgProposeSpan';
  spanId: bigint;
  proposer: Address;
  startBlock: bigint;
  endBlock: bigint;
};

export const MsgProposeSpanDef: MsgDef<MsgProposeSpan> = {
  type: 'sidechain/MsgProposeSpan',
  name: 'MsgProposeSpan',
  fact: (m): SpanMsgFact => ({
    type: 'sidechain/MsgProposeSpan',
    spanId: m.spanId,
    proposer: m.proposer,
    startBlock: m.startBlock,
    endBlock: m.endBlock,
  }),
  route: 'sidechain',
  msgType: 'propose-span',
  decode(value) {
    const o = asObject(value, P);
    noExtraKeys(o, ['span_id', 'proposer', 'start_block', 'end_block', 'sidechain_chain_id'], P);
    return {
      spanId: uint64(o, 'span_id', P),
      proposer: addr(o, 'proposer', P),
      startBlock: uint64(o, 'start_block', P),
      endBlock: uint64(o, 'end_block', P),
      sidechainChainId: str(o, 'sidechain_chain_id', P, { maxLength: 64 }),
    };
  },
  encode: (m) => ({
    span_id: m.spanId,
    proposer: m.proposer,
    start_block: m.startBlock,
    end_block: m.endBlock,
    sidechain_chain_id: m.sidechainChainId,
  }),
  signer: (m) => m.proposer,
  handle: (ctx, m) => checkSpan(ctx.store, m),
  side: {
    vote(_m, state, observers) {
      const last = getLastSpan(state);
      if (!last) return { result: 'skip', reason: 'no span' };
      const head = observers.sidechain.headNumber();
      if (head === null) return { result: 'skip', reason: 'sidechain head unknown' };
      if (!inSpanProposalWindow(last, head)) return { result: 'skip', reason: 'Span proposed is not in-turn' };
      const seed = observers.parent.blockHash(nextSpanSeedBlock(state));
      if (seed === null) return { result: 'skip', reason: 'seed block not available' };
      const obs: SpanObservation = { seed };
      return { result: 'yes', observation: obs };
    },
    post(ctx: Ctx, m, observation) {
      if (getSpan(ctx.store, m.spanId)) return rejected(CommonErrors.OldTx);
      const check = checkSpan(ctx.store, m);
      if (!check.ok) return check;
      const span = freezeSet(
        ctx.store,
        m.spanId,
        m.startBlock,
        m.endBlock,
        m.sidechainChainId,
        (observation as SpanObservation).seed,
      );
      ctx.events.push({
        type: 'propose-span',
        attributes: {
          'span-id': span.id.toString(),
          'start-block': span.startBlock.toString(),
          'end-block': span.endBlock.toString(),
        },
      });
      return OK;
    },
  },
};
