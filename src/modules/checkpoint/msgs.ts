/**
 * MsgCheckpoint, MsgCheckpointAck and MsgCheckpointNoAck (heimdall §3.2-§3.4 with the spec's field
 * names, README items 8-10). A checkpoint is verified against the sidechain by the validators'
 * side vote, buffered by its post handler, and stored by an ack whose header-block record the
 * validators read from the parent chain. Each ack and no-ack rotates the proposer by one.
 */
import { CheckpointErrors } from './errors';
import { CommonErrors } from '../framework/errors';
import { type Address, ZERO_ADDRESS } from '../../core/address';
import { type Hex } from '../../core/bytes';
import { InputError, err } from '../../core/errors';
import { type MsgDef, OK, rejected, type HandlerResult, type Ctx } from '../framework/msgDef';
import { type Obj, addr, asObject, hexN, noExtraKeys, uint64 } from '../framework/decode';
import { type KVReader, type KVStore } from '../../store/kvStore';
import { getChainParams } from '../chain/keeper';
import { getAckCount, setAckCount } from './keeper';
import {
  addCheckpoint,
  flushBuffer,
  getBuffer,
  getCheckpointParams,
  getLastCheckpoint,
  getLastNoAck,
  setBuffer,
  setLastNoAck,
} from './keeper';
import { blockSeconds, bufferExpired } from './bufferTime';
import { getValidatorSet, incrementAccum } from '../staking/keeper';
import { dividendAccountRoot } from '../topup/accountRoot';
import { type HeaderBlockRecord } from '../framework/observers';
import { isPlanted } from '../../core/plants';

const P = 'tx.msg.value';
const ZERO_HASH = ('0x' + '00'.repeat(32)) as Hex;

// --- MsgCheckpoint ---------------------------------------------------------------------------

export interface MsgCheckpoint {
  proposer: Address;
  startBlock: bigint;
  endBlock: bigint;
  rootHash: Hex;
  accountRootHash: Hex;
}

/** Continuity with the last acked checkpoint (1509 / 1510; the first must start at 0, else 1501). */
function checkContinuity(state: KVReader, m: MsgCheckpoint): HandlerResult {
  const last = getLastCheckpoint(state);
  if (last) {
    if (last.checkpoint.endBlock > m.startBlock) return rejected(CheckpointErrors.OldCheckpoint);
    if (last.checkpoint.endBlock + 1n !== m.startBlock) return rejected(CheckpointErrors.DisContinuousCheckpoint);
  } else if (m.startBlock !== 0n) {
    return rejected(CheckpointErrors.BadBlockDetails);
  }
  return OK;
}

/** What a node reports of a delivered checkpoint message (src/node/observations.ts). */
export type CheckpointMsgFact =
  | {
      type: 'checkpoint/MsgCheckpoint';
      proposer: Address;
      startBlock: bigint;
      endBlock: bigint;
      rootHash: Hex;
      accountRootHash: Hex;
    }
  | { type: 'checkpoint/MsgCheckpointACK'; from: Address; headerBlock: bigint; txHash: Hex; logIndex: bigint }
  | { type: 'checkpoint/MsgCheckpointNoACK'; from: Address };

/** `root_Hash` keeps the reference's capital H; `root_hash` is accepted too (every other member is snake_case). */
function bodyRootHash(body: Obj): Hex {
  if (body.root_Hash !== undefined && body.root_hash !== undefined)
    throw new InputError('body.root_Hash', 'give root_Hash or root_hash, not both');
  return hexN(body, body.root_hash !== undefined ? 'root_hash' : 'root_Hash', 'body', 32);
}

export const MsgCheckpointDef: MsgDef<MsgCheckpoint> = {
  type: 'checkpoint/MsgCheckpoint',
  name: 'MsgCheckpoint',
  fact: (m): CheckpointMsgFact => ({
    type: 'checkpoint/MsgCheckpoint',
    proposer: m.proposer,
    startBlock: m.startBlock,
    endBlock: m.endBlock,
    rootHash: m.rootHash,
    accountRootHash: m.accountRootHash,
  }),
  // POST /checkpoint/new: `{base_req, proposer, start_block, end_block, root_Hash, account_root_hash}`
  // (the reference's `bor_chain_id` is dropped).
  prepare: {
    path: '/checkpoint/new',
    fromBody: (b) => ({
      proposer: addr(b, 'proposer', 'body'),
      startBlock: uint64(b, 'start_block', 'body'),
      endBlock: uint64(b, 'end_block', 'body'),
      rootHash: bodyRootHash(b),
      accountRootHash: hexN(b, 'account_root_hash', 'body', 32),
    }),
  },
  route: 'checkpoint',
  msgType: 'checkpoint',
  decode(value) {
    const o = asObject(value, P);
    noExtraKeys(o, ['proposer', 'startBlock', 'endBlock', 'rootHash', 'accountRootHash'], P);
    return {
      proposer: addr(o, 'proposer', P),
      startBlock: uint64(o, 'startBlock', P),
      endBlock: uint64(o, 'endBlock', P),
      rootHash: hexN(o, 'rootHash', P, 32),
      accountRootHash: hexN(o, 'accountRootHash', P, 32),
    };
  },
  encode: (m) => ({
    proposer: m.proposer,
    startBlock: m.startBlock,
    endBlock: m.endBlock,
    rootHash: m.rootHash,
    accountRootHash: m.accountRootHash,
  }),
  signer: (m) => m.proposer,
  validateBasic(m) {
    if (m.rootHash === ZERO_HASH) return err(CommonErrors.InvalidMsg, `Invalid rootHash ${m.rootHash}`);
    if (m.proposer === ZERO_ADDRESS) return err(CommonErrors.InvalidMsg, `Invalid proposer ${m.proposer}`);
    if (!(m.startBlock < m.endBlock) || m.endBlock === 0n)
      return err(CommonErrors.InvalidMsg, `Invalid startBlock ${m.startBlock} or/and endBlock ${m.endBlock}`);
    return null;
  },
  handle(ctx, m) {
    const params = getCheckpointParams(ctx.store);
    const buf = getBuffer(ctx.store);
    if (buf) {
      if (bufferExpired(buf, ctx.timeMs, params.checkpointBufferTimeMs)) flushBuffer(ctx.store);
      else
        return rejected(
          err(
            CheckpointErrors.NoAck,
            `Checkpoint Already Exists In Buffer, ACK expected, expires at ${buf.timestamp + params.checkpointBufferTimeMs / 1000n}`,
          ),
        );
    }
    const c = checkContinuity(ctx.store, m);
    if (!c.ok) return c;
    if (dividendAccountRoot(ctx.store) !== m.accountRootHash) return rejected(CheckpointErrors.BadBlockDetails);
    const proposer = getValidatorSet(ctx.store).proposer;
    if (!proposer) return rejected(err(CommonErrors.InvalidMsg, 'No proposer in stored validator set'));
    if (proposer.address !== m.proposer) return rejected(err(CommonErrors.InvalidMsg, 'Invalid proposer in msg'));
    ctx.events.push({
      type: 'checkpoint',
      attributes: { proposer: m.proposer, 'start-block': m.startBlock.toString(), 'end-block': m.endBlock.toString() },
    });
    return OK;
  },
  side: {
    vote(m, state, observers) {
      const params = getCheckpointParams(state);
      if (m.endBlock - m.startBlock + 1n > params.maxCheckpointLength)
        return { result: 'skip', reason: 'number of headers requested exceeds' };
      const root = observers.sidechain.rootHash(
        m.startBlock,
        m.endBlock,
        getChainParams(state).sidechainTxConfirmations,
      );
      if (root === null) return { result: 'skip', reason: 'sidechain blocks not yet confirmed' };
      if (root !== m.rootHash) return { result: 'no', reason: `root hash differs: sidechain has ${root}` };
      // An acked checkpoint is final: attest the next range only on a sidechain that still holds the
      // last acked one. The sidechain node whitelists an ack only once it has fetched it; until then
      // it may be on a fork that left the acked range, and a root read there would be a root of that
      // fork, which no chain that keeps the acked checkpoint can have.
      const last = getLastCheckpoint(state);
      if (last) {
        const { startBlock, endBlock, rootHash } = last.checkpoint;
        if (observers.sidechain.rootHash(startBlock, endBlock, 0n) !== rootHash)
          return { result: 'skip', reason: `sidechain is not on the chain of checkpoint ${last.number}` };
      }
      return { result: 'yes', observation: null };
    },
    post(ctx, m) {
      const c = checkContinuity(ctx.store, m);
      if (!c.ok) return c;
      if (getBuffer(ctx.store)) return rejected(CheckpointErrors.NoAck);
      setBuffer(ctx.store, { ...m, timestamp: blockSeconds(ctx.timeMs) });
      ctx.events.push({
        type: 'checkpoint-buffered',
        attributes: {
          proposer: m.proposer,
          'start-block': m.startBlock.toString(),
          'end-block': m.endBlock.toString(),
          'root-hash': m.rootHash,
        },
      });
      return OK;
    },
  },
};

// --- MsgCheckpointAck ------------------------------------------------------------------------

export interface MsgCheckpointAck {
  from: Address;
  headerBlock: bigint;
  txHash: Hex;
  logIndex: bigint;
}

/** 1502 checks between the buffer and the parent chain's header-block record (README item 10). */
function checkAgainstBuffer(state: KVReader, rec: HeaderBlockRecord): HandlerResult {
  const buf = getBuffer(state);
  if (!buf) return rejected(CheckpointErrors.BadAck);
  if (rec.startBlock !== buf.startBlock) return rejected(CheckpointErrors.BadAck);
  if (rec.endBlock === buf.endBlock && rec.rootHash !== buf.rootHash) return rejected(CheckpointErrors.BadAck);
  return OK;
}

export const MsgCheckpointAckDef: MsgDef<MsgCheckpointAck> = {
  type: 'checkpoint/MsgCheckpointACK',
  name: 'MsgCheckpointAck',
  fact: (m): CheckpointMsgFact => ({
    type: 'checkpoint/MsgCheckpointACK',
    from: m.from,
    headerBlock: m.headerBlock,
    txHash: m.txHash,
    logIndex: m.logIndex,
  }),
  // POST /checkpoint/ack: `{base_req, from, header_block, tx_hash, log_index}` (the reference's
  // start/end block, proposer and root hash are not part of this service's ack, item 10).
  prepare: {
    path: '/checkpoint/ack',
    fromBody: (b) => ({
      from: addr(b, 'from', 'body'),
      headerBlock: uint64(b, 'header_block', 'body'),
      txHash: hexN(b, 'tx_hash', 'body', 32),
      logIndex: uint64(b, 'log_index', 'body'),
    }),
  },
  route: 'checkpoint',
  msgType: 'checkpoint-ack',
  decode(value) {
    const o = asObject(value, P);
    noExtraKeys(o, ['from', 'headerBlock', 'tx_hash', 'log_index'], P);
    return {
      from: addr(o, 'from', P),
      headerBlock: uint64(o, 'headerBlock', P),
      txHash: hexN(o, 'tx_hash', P, 32),
      logIndex: uint64(o, 'log_index', P),
    };
  },
  encode: (m) => ({ from: m.from, headerBlock: m.headerBlock, tx_hash: m.txHash, log_index: m.logIndex }),
  signer: (m) => m.from,
  handle(ctx) {
    return getBuffer(ctx.store) ? OK : rejected(CheckpointErrors.BadAck);
  },
  side: {
    vote(m, state, observers) {
      const rec = observers.parent.headerBlock(m.headerBlock);
      if (rec === null) return { result: 'skip', reason: 'header block not found on the parent chain' };
      const c = checkAgainstBuffer(state, rec);
      if (!c.ok) return { result: 'no', reason: c.error.message };
      return { result: 'yes', observation: rec };
    },
    post(ctx, m, observation) {
      const rec = observation as HeaderBlockRecord;
      const c = checkAgainstBuffer(ctx.store, rec);
      if (!c.ok) return c;
      const buf = getBuffer(ctx.store)!;
      // End-block adjust (post-Aalborg): the parent chain's record wins where it differs.
      const stored =
        buf.endBlock !== rec.endBlock
          ? { ...buf, endBlock: rec.endBlock, rootHash: rec.rootHash, proposer: rec.proposer }
          : buf;
      addCheckpoint(ctx.store, m.headerBlock, stored);
      flushBuffer(ctx.store);
      setAckCount(ctx.store, getAckCount(ctx.store) + 1n);
      if (!isPlanted('rotation-on-ack')) incrementAccum(ctx.store, 1);
      ctx.events.push({
        type: 'checkpoint-ack',
        attributes: {
          'header-index': m.headerBlock.toString(),
          'new-proposer': getValidatorSet(ctx.store).proposer?.address ?? '',
        },
      });
      return OK;
    },
  },
};

// --- MsgCheckpointNoAck ----------------------------------------------------------------------

export interface MsgCheckpointNoAck {
  from: Address;
}

export const MsgCheckpointNoAckDef: MsgDef<MsgCheckpointNoAck> = {
  type: 'checkpoint/MsgCheckpointNoACK',
  name: 'MsgCheckpointNoAck',
  fact: (m): CheckpointMsgFact => ({ type: 'checkpoint/MsgCheckpointNoACK', from: m.from }),
  // POST /checkpoint/no-ack: `{base_req, proposer}` (it becomes the message's `from`).
  prepare: { path: '/checkpoint/no-ack', fromBody: (b) => ({ from: addr(b, 'proposer', 'body') }) },
  route: 'checkpoint',
  msgType: 'checkpoint-no-ack',
  decode(value) {
    const o = asObject(value, P);
    noExtraKeys(o, ['from'], P);
    return { from: addr(o, 'from', P) };
  },
  encode: (m) => ({ from: m.from }),
  signer: (m) => m.from,
  handle: (ctx, m) => handleNoAck(ctx, m),
};

function handleNoAck(ctx: Ctx, m: MsgCheckpointNoAck): HandlerResult {
  const bufferMs = getCheckpointParams(ctx.store).checkpointBufferTimeMs;
  const now = BigInt(ctx.timeMs);
  const lastMs = (getLastCheckpoint(ctx.store)?.checkpoint.timestamp ?? 0n) * (isPlanted('noack-timing') ? 1n : 1000n);
  if (lastMs > now || now - lastMs < bufferMs) return rejected(CheckpointErrors.InvalidNoAck);

  // Only the next `count` proposers after the current one may time it out (post-Aalborg). A sender
  // outside the set can never be one of them: reject it before the rotation loop, whose length
  // grows with the time since the last checkpoint.
  const count = (now - lastMs) / bufferMs;
  const set = getValidatorSet(ctx.store).copy();
  if (!set.hasAddress(m.from)) return rejected(CheckpointErrors.InvalidNoAckProposer);
  set.incrementProposerPriority(1);
  let allowed = false;
  for (let i = 0n; i < count; i++) {
    if (set.proposer?.address === m.from) {
      allowed = true;
      break;
    }
    set.incrementProposerPriority(1);
  }
  if (!allowed) return rejected(CheckpointErrors.InvalidNoAckProposer);

  const lastNoAckMs = getLastNoAck(ctx.store) * 1000n;
  if (lastNoAckMs > now || now - lastNoAckMs < bufferMs) return rejected(CheckpointErrors.TooManyNoAck);

  setLastNoAck(ctx.store, blockSeconds(ctx.timeMs));
  if (!isPlanted('rotation-on-noack')) incrementAccum(ctx.store as KVStore, 1);
  ctx.events.push({
    type: 'checkpoint-noack',
    attributes: { 'new-proposer': getValidatorSet(ctx.store).proposer?.address ?? '' },
  });
  return OK;
}
