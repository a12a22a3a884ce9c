/**
 * Turning what a service node holds into the raw facts it reports (observations.ts): the records a
 * block wrote to the store, read back as stored, and the decoded message of each transaction.
 *
 * The store layout (key prefixes) is the modules' business; it is named here once, and
 * stateFacts.test.ts writes through the modules' own keepers to pin that every record kind is
 * recognised, so a renamed key fails a test instead of silently blinding an oracle.
 */
import { type DecodedTx, decodeTxHex } from '../app/decodedTx';
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { type StoreValue, type StoreWrites } from '../store/kvStore';
import { type Account } from '../modules/auth/keeper';
import { type DividendAccount } from '../modules/topup/keeper';
import { type Validator } from '../modules/staking/keeper';
import { type Checkpoint } from '../modules/checkpoint/keeper';
import { type Span } from '../modules/span/keeper';
import { type EventRecord } from '../modules/clerk/keeper';
import { type ValidatorSetJSON } from '../core/validatorSet';
import { type StdTx } from '../modules/auth/stdTx';
import { type TxResult } from '../app/blockResults';
import { type DeepReadonly } from '../core/readonly';
import { type CheckpointFact, type Coin, type StateWrite, type TxFact, type TxMsgFact } from './observations';

/** Key prefixes and keys of the records the oracles read (see the module keepers). */
export const STORE_LAYOUT = {
  account: 'auth/account/',
  dividend: 'topup/dividend/',
  validator: 'staking/validator/',
  validatorSet: 'staking/validator_set',
  checkpointBuffer: 'checkpoint/buffer',
  checkpoint: 'checkpoint/number/',
  ackCount: 'checkpoint/ack_count',
  lastNoAck: 'checkpoint/last_no_ack',
  span: 'sidechain/span/',
  spanSeedBlock: 'sidechain/last_eth_block',
  nextAccountNumber: 'auth/next_account_number',
  record: 'clerk/record/',
  stakingSeq: 'staking/seq/',
  topupSeq: 'topup/seq/',
  clerkSeq: 'clerk/seq/',
} as const;

/** The stored proposer snapshot of a set, as facts. */
function proposerOf(p: ValidatorSetJSON['proposer']): {
  proposer: Address | null;
  proposerPower: bigint | null;
  proposerPriority: bigint | null;
} {
  return p === null
    ? { proposer: null, proposerPower: null, proposerPriority: null }
    : { proposer: p.address as Address, proposerPower: BigInt(p.power), proposerPriority: BigInt(p.proposerPriority) };
}

/** A replay key `<prefix><tx hash>/<log index>` as a fact. */
function replayKeyOf(module: 'staking' | 'topup' | 'clerk', rest: string): StateWrite {
  const slash = rest.lastIndexOf('/');
  return { what: 'replayKey', module, txHash: rest.slice(0, slash) as Hex, logIndex: BigInt(rest.slice(slash + 1)) };
}

function coinsOf(coins: Record<string, bigint>): Coin[] {
  return Object.entries(coins).map(([denom, amount]) => ({ denom, amount }));
}

function checkpointFact(c: Checkpoint): CheckpointFact {
  return {
    proposer: c.proposer,
    startBlock: c.startBlock,
    endBlock: c.endBlock,
    rootHash: c.rootHash,
    accountRootHash: c.accountRootHash,
    timestampS: c.timestamp,
  };
}

/** One store record as a fact, or null for a record no oracle reads. */
export function stateWriteOf(key: string, value: StoreValue | undefined): StateWrite | null {
  const L = STORE_LAYOUT;
  if (key.startsWith(L.account)) {
    if (value === undefined) return null;
    const a = value as Account;
    return {
      what: 'account',
      address: a.address,
      coins: coinsOf(a.coins),
      sequence: a.sequence,
      accountNumber: a.accountNumber,
      pubKey: a.pubKey,
    };
  }
  if (key.startsWith(L.dividend)) {
    if (value === undefined) return null;
    const d = value as DividendAccount;
    return { what: 'dividend', id: d.id, feeAmount: d.feeAmount, slashedAmount: d.slashedAmount };
  }
  if (key === L.validatorSet) {
    if (value === undefined) return null;
    const s = value as ValidatorSetJSON;
    return {
      what: 'validatorSet',
      validators: s.validators.map((v) => ({
        address: v.address as Address,
        power: BigInt(v.power),
        priority: BigInt(v.proposerPriority),
      })),
      proposer: s.proposer === null ? null : (s.proposer.address as Address),
      proposerPower: s.proposer === null ? null : BigInt(s.proposer.power),
      proposerPriority: s.proposer === null ? null : BigInt(s.proposer.proposerPriority),
    };
  }
  if (key.startsWith(L.validator)) {
    if (value === undefined) return null;
    const v = value as Validator;
    return {
      what: 'validator',
      id: v.id,
      signer: v.signer,
      power: v.power,
      startEpoch: v.startEpoch,
      endEpoch: v.endEpoch,
      pubKey: v.pubKey,
      lastUpdated: v.lastUpdated,
      jailed: v.jailed,
    };
  }
  if (key === L.checkpointBuffer) {
    return { what: 'checkpointBuffer', checkpoint: value === undefined ? null : checkpointFact(value as Checkpoint) };
  }
  if (key.startsWith(L.checkpoint)) {
    if (value === undefined) return null;
    return {
      what: 'checkpoint',
      number: BigInt(key.slice(L.checkpoint.length)),
      ...checkpointFact(value as Checkpoint),
    };
  }
  if (key === L.ackCount) return value === undefined ? null : { what: 'ackCount', count: value as bigint };
  if (key === L.lastNoAck) return value === undefined ? null : { what: 'lastNoAck', seconds: value as bigint };
  if (key.startsWith(L.span)) {
    if (value === undefined) return null;
    const s = value as Span;
    return {
      what: 'span',
      id: s.id,
      startBlock: s.startBlock,
      endBlock: s.endBlock,
      producers: s.selectedProducers.map((p) => ({ id: p.id, signer: p.signer, power: p.power })),
      sidechainChainId: s.sidechainChainId,
      validators: (s.validatorSet as ValidatorSetJSON).validators.map((v) => ({
        address: v.address as Address,
        power: BigInt(v.power),
        priority: BigInt(v.proposerPriority),
      })),
      ...proposerOf((s.validatorSet as ValidatorSetJSON).proposer),
      members: s.members.map((m) => ({
        id: m.id,
        startEpoch: m.startEpoch,
        endEpoch: m.endEpoch,
        pubKey: m.pubKey,
        signer: m.signer,
      })),
    };
  }
  if (key === L.spanSeedBlock) return value === undefined ? null : { what: 'spanSeedBlock', block: value as bigint };
  if (key === L.nextAccountNumber)
    return value === undefined ? null : { what: 'nextAccountNumber', next: value as bigint };
  if (key.startsWith(L.record)) {
    if (value === undefined) return null;
    const r = value as EventRecord;
    return {
      what: 'record',
      id: r.id,
      contract: r.contract,
      data: r.data,
      txHash: r.txHash,
      logIndex: r.logIndex,
      sidechainChainId: r.sidechainChainId,
      recordTimeMs: r.recordTimeMs,
    };
  }
  if (value === undefined) return null;
  if (key.startsWith(L.stakingSeq)) return replayKeyOf('staking', key.slice(L.stakingSeq.length));
  if (key.startsWith(L.topupSeq)) return replayKeyOf('topup', key.slice(L.topupSeq.length));
  if (key.startsWith(L.clerkSeq)) return replayKeyOf('clerk', key.slice(L.clerkSeq.length));
  return null;
}

/** The facts among a block's store writes, in write order. */
export function stateWritesOf(writes: StoreWrites | ReadonlyArray<readonly [string, StoreValue]>): StateWrite[] {
  const out: StateWrite[] = [];
  for (const [key, value] of writes) {
    const w = stateWriteOf(key, value);
    if (w !== null) out.push(w);
  }
  return out;
}

/** The message of a decoded tx as a fact: what its definition reports (MsgDef.fact), else its type. */
export function msgFactOf(tx: StdTx): TxMsgFact {
  const fact = tx.def.fact?.(tx.msg);
  return fact === undefined ? { type: 'other', name: tx.def.type } : (fact as TxMsgFact);
}

/** A tx's hash and decoded message (each tx is decoded once per process: app/decodedTx.ts). */
function decodedOrNothing(tx: Hex): { hash: Hex; tx: DecodedTx['tx'] } {
  try {
    return decodeTxHex(tx);
  } catch {
    // Not hex: no hash and no message (a block may carry anything).
    return { hash: '0x' as Hex, tx: null };
  }
}

/** A delivered tx and its result as a fact. */
export function txFactOf(index: number, tx: Hex, r: DeepReadonly<TxResult>): TxFact {
  const d = decodedOrNothing(tx);
  return {
    index,
    hash: r.hash,
    raw: tx,
    signer: d.tx ? d.tx.def.signer(d.tx.msg) : null,
    msg: d.tx ? msgFactOf(d.tx) : null,
    code: r.code,
    codespace: r.codespace,
    gasUsed: r.gasUsed,
  };
}
