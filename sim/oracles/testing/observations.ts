/**
 * Raw observations for the oracles' unit tests: small sidechain trees and service blocks built
 * by hand, so each test can break exactly one rule and see the oracle that guards it fire.
 */
import { type Address } from '../../../src/core/address';
import { type Hex, concatBytes, fromHex, toHex } from '../../../src/core/bytes';
import { keccak256Bytes } from '../../../src/core/hash';
import {
  type CommitFact,
  type Observation,
  type SidechainBlockFact,
  type StateWrite,
  type TxFact,
  type TxMsgFact,
  type VoteFact,
} from '../../../src/node/observations';
import { type RunObservation, type RunRecord } from '../../core/record';
import { EMPTY_BLOOM } from '../model/logsBloom';

export const rec = (t: number, node: string, obs: RunObservation): RunRecord => ({ t, node, obs });

/** A 20-byte address ending in `n` (0x…01 < 0x…02 < …). */
export const address = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}`;
/** A 32-byte hash from a label (distinct labels, distinct hashes; order follows the label's text). */
export const hash = (label: string): Hex =>
  `0x${Buffer.from(label, 'utf8').toString('hex').padEnd(64, '0').slice(0, 64)}`;

export const EMPTY_ROOT: Hex = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
export const GENESIS_TIME = 1_700_000_000n;
export const PARAMS = {
  periodS: 2,
  producerDelayS: 4,
  sprint: 4,
  backupMultiplierS: 2,
  stateSyncDelayS: 10,
  firstSpanEnd: 15n,
};

/** Three equal producers A < B < C (A is in turn first, then B, C, …). */
export const PRODUCERS = [1, 2, 3].map((i) => ({ id: BigInt(i), signer: address(i), power: 1n }));

export function sidechainStarted(producers = PRODUCERS): Observation {
  return {
    kind: 'sidechain.started',
    genesis: {
      hash: hash('genesis'),
      time: GENESIS_TIME,
      difficulty: 1n,
      txHash: EMPTY_ROOT,
      receiptHash: EMPTY_ROOT,
      producers,
      chainId: CHAIN_ID,
      baseFee: INITIAL_BASE_FEE,
      gasLimit: GAS_LIMIT,
      gasUsed: 0n,
      alloc: [],
    },
    head: { hash: hash('genesis'), number: 0n },
  };
}

export function block(
  label: string,
  parent: { hash: Hex; number: bigint; time: bigint },
  over: Partial<SidechainBlockFact> & { signer: Address; difficulty: bigint },
): SidechainBlockFact {
  const number = parent.number + 1n;
  return {
    number,
    hash: hash(label),
    parentHash: parent.hash,
    time: parent.time + 2n,
    txHash: EMPTY_ROOT,
    receiptHash: EMPTY_ROOT,
    bloom: EMPTY_BLOOM,
    stateSyncs: [],
    spanCommit: null,
    announced: null,
    baseFee: emptyChainBaseFee(number),
    gasLimit: GAS_LIMIT,
    gasUsed: 0n,
    ...over,
  };
}

export const CHAIN_ID = 15001n;
export const INITIAL_BASE_FEE = 1_000_000_000n;
export const GAS_LIMIT = 30_000_000n;

/** The base fee at block `number` of a chain whose blocks all used no gas: 1/16 less each block. */
export function emptyChainBaseFee(number: bigint): bigint {
  let fee = INITIAL_BASE_FEE;
  for (let n = 0n; n < number; n++) fee -= fee / 16n;
  return fee;
}

export const genesisRef = { hash: hash('genesis'), number: 0n, time: GENESIS_TIME };

/** 'sidechain.imported' with the head the node reports after it (default: the block itself). */
export function imported(b: SidechainBlockFact, head: { hash: Hex; number: bigint } = b): Observation {
  return { kind: 'sidechain.imported', block: b, head: { hash: head.hash, number: head.number } };
}

/**
 * A chain of in-turn blocks on three equal producers with sprint 4: every block correct (signer,
 * difficulty 3, time, sprint-end announcements), from `from` to `to` (numbers, inclusive).
 */
export function inTurnChain(count: number, prefix = 'b'): SidechainBlockFact[] {
  const out: SidechainBlockFact[] = [];
  let parent = genesisRef;
  for (let n = 1; n <= count; n++) {
    // Proposer of sprint k = PRODUCERS[k % 3] (equal powers rotate A, B, C).
    const sprintIndex = Math.floor(n / PARAMS.sprint);
    const signer = PRODUCERS[sprintIndex % 3]!.signer;
    const sprintStart = n % PARAMS.sprint === 0;
    const b = block(`${prefix}${n}`, parent, {
      signer,
      difficulty: 3n,
      time: parent.time + BigInt(sprintStart ? PARAMS.producerDelayS : PARAMS.periodS),
      announced: (n + 1) % PARAMS.sprint === 0 ? PRODUCERS.map((p) => ({ address: p.signer, power: p.power })) : null,
    });
    out.push(b);
    parent = b;
  }
  return out;
}

// --- the service ---------------------------------------------------------------------------------

export const VALIDATORS = [1, 2, 3, 4].map((i) => ({ id: BigInt(i), signer: address(0x100 + i), power: 10n }));
export const TX_FEE = 10n ** 15n;

/**
 * A service genesis: four validators of power 10, 100 fees each, and the stored proposer given
 * (the checkpoint tests compute it with the oracles' own model; null otherwise).
 */
export function serviceGenesis(
  extra: StateWrite[] = [],
  validators = VALIDATORS,
  proposer: Address | null = null,
): Observation {
  return {
    kind: 'service.genesis',
    chainId: 'test-1',
    timeMs: Number(GENESIS_TIME) * 1000,
    params: {
      txFees: TX_FEE,
      maxMemoCharacters: 256n,
      txSigLimit: 7n,
      txSizeCostPerByte: 10n,
      sigVerifyCostSecp256k1: 1000n,
      sigVerifyCostEd25519: 590n,
      maxTxGas: 1_000_000n,
      checkpointBufferTimeMs: 100_000n,
      avgCheckpointLength: 256n,
      maxCheckpointLength: 1024n,
      childBlockInterval: 10_000n,
      sprint: 4n,
      spanDuration: 16n,
      producerCount: 3n,
      parentConfirmations: 3n,
      sidechainConfirmations: 4n,
      sidechainChainId: 'test-side',
      sendEnabled: true,
    },
    state: [
      ...validators.map(
        (v): StateWrite => ({
          what: 'validator',
          id: v.id,
          signer: v.signer,
          power: v.power,
          startEpoch: 0n,
          endEpoch: 0n,
          pubKey: `0x04${v.signer.slice(2).repeat(4)}${'00'.repeat(4)}` as Hex,
          lastUpdated: null,
          jailed: false,
        }),
      ),
      {
        what: 'validatorSet',
        validators: validators.map((v) => ({ address: v.signer, power: v.power, priority: 0n })),
        proposer,
        proposerPower: proposer === null ? null : 10n,
        proposerPriority: proposer === null ? null : 0n,
      },
      ...validators.map(
        (v): StateWrite => ({
          what: 'account',
          address: v.signer,
          coins: [{ denom: 'matic', amount: 100n * TX_FEE }],
          sequence: 0n,
          accountNumber: v.id,
          pubKey: null,
        }),
      ),
      ...extra,
    ],
  };
}

export function account(a: Address, matic: bigint, sequence: bigint): StateWrite {
  return {
    what: 'account',
    address: a,
    coins: matic === 0n ? [] : [{ denom: 'matic', amount: matic }],
    sequence,
    accountNumber: 0n,
    pubKey: null,
  };
}

export function tx(index: number, signer: Address, msg: TxMsgFact, code = 0, label = `tx${index}-${code}`): TxFact {
  return {
    index,
    hash: hash(label),
    raw: hash(`raw ${label}`),
    signer,
    msg,
    code,
    codespace: code === 0 ? '' : 'sdk',
    gasUsed: 1000n,
  };
}

export const precommits = (height: bigint, round: number, blockHash: Hex, who: Address[]): VoteFact[] =>
  who.map((validator) => ({ type: 'precommit', height, round, blockHash, validator }));

/**
 * `votes` as a commit fact over the set `members` (its addresses sorted here): the votes that are
 * precommits for (height, round of the first, blockHash) by members as bits, the rest listed.
 * `set` overrides the digest (to name another set).
 */
export function commitFactOf(
  height: bigint,
  blockHash: Hex,
  votes: VoteFact[],
  members: Address[] = VALIDATORS.map((v) => v.signer),
  set?: Hex,
): CommitFact {
  const order = [...members].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const round = votes[0]?.round ?? 0;
  const bits = new Uint8Array(Math.ceil(order.length / 8));
  const others: VoteFact[] = [];
  for (const v of votes) {
    const i = order.indexOf(v.validator);
    if (v.type === 'precommit' && v.height === height && v.round === round && v.blockHash === blockHash && i >= 0)
      bits[i >> 3]! |= 1 << (i & 7);
    else others.push(v);
  }
  const digest = toHex(keccak256Bytes(concatBytes(...order.map((a) => fromHex(a)))));
  return { height, round, blockHash, set: set ?? digest, signers: toHex(bits), others };
}

export function commit(
  height: bigint,
  over: Partial<Extract<Observation, { kind: 'service.commit' }>> = {},
): Extract<Observation, { kind: 'service.commit' }> {
  const blockHash = over.blockHash ?? hash(`block${height}`);
  return {
    kind: 'service.commit',
    height,
    blockHash,
    appHash: hash(`app${height}`),
    proposer: VALIDATORS[0]!.signer,
    timeMs: Number(GENESIS_TIME) * 1000 + Number(height) * 3000,
    commit: commitFactOf(
      height,
      blockHash,
      precommits(
        height,
        0,
        blockHash,
        VALIDATORS.map((v) => v.signer),
      ),
    ),
    sideVotes: [],
    txs: [],
    sideTxs: [],
    writes: [],
    ...over,
  };
}
