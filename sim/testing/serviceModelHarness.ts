/**
 * A harness that runs random (or scripted) blocks of transactions through a TestChain, a real
 * service app, and feeds what the app did to the reference model of the service and its three
 * oracles, as a node would report it. The model's tests use it to hold the model against the app
 * (they must agree), and to plant divergences in what a node reports (the oracles must fire).
 */
import fc from 'fast-check';
import { type Address } from '../../src/core/address';
import { type Hex, toHex } from '../../src/core/bytes';
import { pad32 } from '../../src/core/amount';
import { keccak256Bytes } from '../../src/core/hash';
import { type MsgDef } from '../../src/modules/framework/msgDef';
import { signTx, txJson } from '../../src/modules/auth/stdTx';
import { canonicalJsonBytes } from '../../src/core/canonicalJson';
import { getAccount } from '../../src/modules/auth/keeper';
import { getValidatorSet, allValidators } from '../../src/modules/staking/keeper';
import { getLastCheckpoint, getBuffer } from '../../src/modules/checkpoint/keeper';
import { getLastSpan } from '../../src/modules/span/keeper';
import { dividendAccountRoot } from '../../src/modules/topup/accountRoot';
import { MsgMultiSendDef, MsgSendDef } from '../../src/modules/bank/msgs';
import { MsgCheckpointAckDef, MsgCheckpointDef, MsgCheckpointNoAckDef } from '../../src/modules/checkpoint/msgs';
import { MsgEventRecordDef } from '../../src/modules/clerk/msgs';
import { MsgProposeSpanDef } from '../../src/modules/span/msgs';
import {
  MsgSignerUpdateDef,
  MsgStakeUpdateDef,
  MsgValidatorExitDef,
  MsgValidatorJoinDef,
} from '../../src/modules/staking/msgs';
import { MsgTopupDef, MsgWithdrawFeeDef } from '../../src/modules/topup/msgs';
import { TestChain, testKey, type TestKey, TOKEN } from '../../src/app/testing/testChain';
import { fakeTxHash, sidechainRoot } from '../../src/app/testing/fakeObservers';
import { genesisObservation } from '../../src/node/service/reporting';
import { stateWritesOf, txFactOf } from '../../src/node/stateFacts';
import { type Observation, type ParentEventFact } from '../../src/node/observations';
import { probe } from '../workload/queryProbe';
import { type ServiceNode } from '../../src/node/service/serviceNode';
import { ServiceModel } from '../oracles/model/service/serviceModel';
import {
  QueryAnswersOracle,
  ServiceStateOracle,
  SideTxResultsOracle,
  TxResultsOracle,
} from '../oracles/serviceModelOracles';
import { type RunRecord } from '../oracles/oracle';

export const KINDS = [
  'send',
  'multisend',
  'withdraw',
  'join',
  'stakeUpdate',
  'exit',
  'signerUpdate',
  'topup',
  'checkpoint',
  'ack',
  'noAck',
  'span',
  'record',
] as const;
export const BREAKS = [
  'none',
  'none',
  'none',
  'chainId',
  'sequence',
  'badSig',
  'noSig',
  'memo',
  'extraField',
  'badHex',
] as const;

export const txSpec = fc.record({
  // The checkpoint path needs a checkpoint, two blocks, then an ack: drawn more often.
  kind: fc.constantFrom(...KINDS, 'checkpoint', 'ack', 'ack', 'checkpoint', 'ack'),
  sender: fc.nat(7),
  target: fc.nat(9),
  amount: fc.nat(4),
  flag: fc.boolean(),
  // Mostly well-formed and correctly signed, so that state moves and later messages meet it.
  brk: fc.oneof(
    { arbitrary: fc.constant('none' as const), weight: 6 },
    { arbitrary: fc.constantFrom(...BREAKS), weight: 2 },
  ),
});
export const blockSpec = fc.record({
  txs: fc.array(txSpec, { maxLength: 4 }),
  /** A block of its first transaction alone (a checkpoint must be alone in its block). */
  solo: fc.boolean(),
  /** Mostly the usual 5 s; sometimes long enough for a buffer time to run out. */
  stepS: fc.oneof(fc.constant(5), fc.constant(5), fc.integer({ min: 1, max: 1300 })),
});

export class Harness {
  readonly users = [testKey('user-1'), testKey('user-2')];
  readonly outsider = testKey('outsider');
  readonly chain = new TestChain({
    validators: 4,
    accounts: this.users.map((key) => ({ key, amount: 50n * TOKEN })),
    appState: { checkpoint: { params: { checkpoint_buffer_time_ms: '300000' } } },
  });
  readonly model = new ServiceModel('real');
  readonly oracles = [
    new TxResultsOracle(this.model),
    new SideTxResultsOracle(this.model),
    new ServiceStateOracle(this.model),
    new QueryAnswersOracle(this.model),
  ];
  private t = 0;
  private parentBlock = 1n;
  private eventCount = 0;
  readonly newKeys: TestKey[] = [];
  /** Parent events made so far, by kind (replays reuse them). */
  readonly made: Array<{ kind: string; txHash: Hex; logIndex: bigint; id: bigint; key?: TestKey }> = [];

  constructor() {
    this.feed({ kind: 'service.genesisDocument', document: this.chain.genesisDocument }, 'client');
    this.feed(genesisObservation(this.chain.app));
    // The scripted parent chain's block hashes (the span seed reads them).
    for (let n = 1n; n <= 200n; n++) this.parentFacts(n, []);
  }

  /** Every record fed to the model, in order (tests replay it with a divergence planted). */
  readonly log: RunRecord[] = [];

  feed(obs: Observation, node = 'svc-1'): void {
    const r: RunRecord = { t: ++this.t, seq: this.t, node, obs } as RunRecord;
    this.log.push(r);
    this.model.observe(r);
    for (const o of this.oracles) o.observe(r);
  }

  private parentFacts(n: bigint, events: ParentEventFact[]): void {
    this.feed(
      { kind: 'parent.block', number: n, hash: toHex(keccak256Bytes(pad32(n))), timeMs: 0, txs: 0, events },
      'parent',
    );
  }

  /** An event on the scripted parent chain, seen by the validators and by the model. */
  event(e: ParentEventFact & Record<string, unknown>, name: string): void {
    const blockNumber = this.parentBlock++;
    const base = { txHash: e.txHash, logIndex: e.logIndex, blockNumber };
    const obs = this.chain.observers;
    switch (e.event) {
      case 'Staked':
        obs.addEvent({
          ...base,
          name: 'Staked',
          signer: e.signer,
          validatorId: e.validatorId,
          activationEpoch: e.activationEpoch,
          amount: e.amount,
          total: e.amount,
          signerPubkey: e.signerPubkey,
        });
        break;
      case 'StakeUpdate':
        obs.addEvent({ ...base, name: 'StakeUpdate', validatorId: e.validatorId, newAmount: e.newAmount });
        break;
      case 'UnstakeInit':
        obs.addEvent({
          ...base,
          name: 'UnstakeInit',
          user: `0x${'11'.repeat(20)}` as Address,
          validatorId: e.validatorId,
          deactivationEpoch: e.deactivationEpoch,
          amount: 0n,
        });
        break;
      case 'SignerChange':
        obs.addEvent({
          ...base,
          name: 'SignerChange',
          validatorId: e.validatorId,
          oldSigner: e.oldSigner,
          newSigner: e.newSigner,
          signerPubkey: e.signerPubkey,
        });
        break;
      case 'TopUpFee':
        obs.addEvent({ ...base, name: 'TopUpFee', user: e.user, fee: e.fee });
        break;
      case 'StateSynced':
        obs.addEvent({ ...base, name: 'StateSynced', id: e.id, contractAddress: e.contract, data: e.data });
        break;
      case 'NewHeaderBlock':
        // The root chain's record is in obs.headerBlocks; the model reads the event.
        break;
      default:
        throw new Error(`no scripted ${name}`);
    }
    this.parentFacts(blockNumber, [e]);
  }

  nextRef(label: string): { txHash: Hex; logIndex: bigint } {
    return { txHash: fakeTxHash(`${label}-${++this.eventCount}`), logIndex: BigInt(this.eventCount % 3) };
  }

  keyOf(i: number): TestKey {
    const all = [...this.chain.validators, ...this.users, this.outsider, ...this.newKeys];
    return all[i % all.length]!;
  }

  block(txs: Uint8Array[], stepS: number): void {
    const b = this.chain.applyBlock(txs, { timeMs: this.chain.timeMs + stepS * 1000, proposer: this.proposer() });
    const hexes = txs.map((t) => toHex(t));
    this.feed({
      kind: 'service.commit',
      height: b.height,
      blockHash: toHex(keccak256Bytes(new TextEncoder().encode(`${b.height}`))),
      appHash: b.commit.appHash,
      proposer: b.proposer,
      timeMs: b.timeMs,
      commit: {
        height: b.height,
        round: 0,
        blockHash: toHex(keccak256Bytes(new TextEncoder().encode(`${b.height}`))),
        set: toHex(new Uint8Array(32)),
        signers: '0x',
        others: [],
      },
      sideVotes: b.votes.flatMap((v) =>
        v.votes.map((x) => ({
          validator: x.validator,
          txHash: v.txHash,
          result: x.vote.result,
          observation: x.vote.result === 'yes' ? (x.vote.observation ?? null) : null,
        })),
      ),
      txs: hexes.map((h, i) => txFactOf(i, h, b.txs[i]!)),
      sideTxs: b.end.sideTxResults.map((r) => ({
        txHash: r.txHash,
        msgType: r.msgType,
        tally: r.tally.result,
        code: r.code,
      })),
      writes: stateWritesOf(b.writes),
    });
  }

  /** A client's round of REST reads at the chain's height (sim/workload/queryProbe.ts), fed as a node reports it. */
  probe(round: number): void {
    const addresses = [...this.chain.validators, ...this.users, ...this.newKeys].map((k) => k.address);
    for (const obs of probe({ app: this.chain.app } as ServiceNode, round, addresses, this.chain.validators.length))
      this.feed(obs);
  }

  proposer(): Address {
    const set = getValidatorSet(this.chain.app.store);
    return set.validators[Number(this.chain.app.height % BigInt(set.validators.length))]!.address;
  }

  violations(): string[] {
    return this.oracles
      .map((o) => o.violation)
      .filter((v) => v !== null)
      .map((v) => `${v.oracle}: ${v.message}`);
  }
}

/** One transaction of the plan, made against the chain as it stands. */
export interface TxSpec {
  kind: (typeof KINDS)[number];
  sender: number;
  target: number;
  amount: number;
  flag: boolean;
  brk: (typeof BREAKS)[number];
}

export function makeTx(h: Harness, spec: TxSpec, offset: Map<string, bigint>): Uint8Array {
  const chain = h.chain;
  const store = chain.app.store;
  // Checkpoints and no-acks come from the proposer (and the next one) when the spec says so.
  const set = getValidatorSet(store);
  const next = set.copy();
  next.incrementProposerPriority(1);
  const byAddress = (a: Address | undefined) => chain.validators.find((k) => k.address === a);
  const sender =
    (spec.flag && spec.kind === 'checkpoint' ? byAddress(set.proposer?.address) : undefined) ??
    (spec.flag && spec.kind === 'noAck' ? byAddress(next.proposer?.address) : undefined) ??
    h.keyOf(spec.sender);
  const target = h.keyOf(spec.target);
  const validators = allValidators(store);
  const someValidator = validators[spec.target % validators.length]!;
  const amounts = [0n, 1n, 5n * TOKEN, 10n ** 15n, 10n ** 30n];
  const amount = amounts[spec.amount]!;
  let def: MsgDef<unknown>;
  let msg: unknown;
  switch (spec.kind) {
    case 'send':
      def = MsgSendDef as MsgDef<unknown>;
      msg = {
        fromAddress: sender.address,
        toAddress: spec.flag ? target.address : testKey(`fresh-${spec.target}`).address,
        amount: amount === 0n ? [] : [{ denom: 'matic', amount }],
      };
      break;
    case 'multisend': {
      def = MsgMultiSendDef as MsgDef<unknown>;
      const a = amount === 0n ? 1n : amount;
      msg = {
        inputs: [{ address: spec.flag ? sender.address : target.address, coins: [{ denom: 'matic', amount: a }] }],
        outputs: [
          { address: target.address, coins: [{ denom: 'matic', amount: a - (spec.target > 6 ? 0n : 0n) }] },
          ...(spec.target === 9 ? [{ address: sender.address, coins: [{ denom: 'matic', amount: 1n }] }] : []),
        ],
      };
      break;
    }
    case 'withdraw':
      def = MsgWithdrawFeeDef as MsgDef<unknown>;
      msg = { fromAddress: sender.address, amount: spec.flag ? 0n : amount };
      break;
    case 'join': {
      const key = spec.flag ? testKey(`joiner-${h.newKeys.length}`) : target;
      const id = spec.target > 6 ? someValidator.id : BigInt(10 + h.newKeys.length);
      const ref = h.nextRef('staked');
      h.event(
        {
          event: 'Staked',
          ...ref,
          signer: key.address,
          validatorId: id,
          activationEpoch: BigInt(spec.amount),
          amount: amount === 0n ? TOKEN / 2n : amount,
          signerPubkey: `0x${key.pubKey.slice(4)}` as Hex,
        },
        'Staked',
      );
      if (spec.flag) h.newKeys.push(key);
      def = MsgValidatorJoinDef as MsgDef<unknown>;
      msg = { from: sender.address, id, pubKey: key.pubKey, ...ref };
      break;
    }
    case 'stakeUpdate': {
      const id = spec.flag ? someValidator.id : 77n;
      const ref = h.nextRef('stake');
      h.event(
        { event: 'StakeUpdate', ...ref, validatorId: id, newAmount: amount === 0n ? TOKEN / 2n : amount },
        'StakeUpdate',
      );
      def = MsgStakeUpdateDef as MsgDef<unknown>;
      msg = { from: sender.address, id, ...ref };
      break;
    }
    case 'exit': {
      const id = spec.flag ? someValidator.id : 77n;
      const ref = h.nextRef('exit');
      h.event(
        { event: 'UnstakeInit', ...ref, validatorId: id, deactivationEpoch: BigInt(spec.amount + 1) },
        'UnstakeInit',
      );
      def = MsgValidatorExitDef as MsgDef<unknown>;
      msg = { from: sender.address, id, ...ref };
      break;
    }
    case 'signerUpdate': {
      const key = spec.flag ? testKey(`signer-${h.newKeys.length}`) : target;
      const ref = h.nextRef('signer');
      h.event(
        {
          event: 'SignerChange',
          ...ref,
          validatorId: someValidator.id,
          oldSigner: someValidator.signer,
          newSigner: key.address,
          signerPubkey: `0x${key.pubKey.slice(4)}` as Hex,
        },
        'SignerChange',
      );
      if (spec.flag) h.newKeys.push(key);
      def = MsgSignerUpdateDef as MsgDef<unknown>;
      msg = { from: sender.address, id: someValidator.id, pubKey: key.pubKey, ...ref };
      break;
    }
    case 'topup': {
      const replay = h.made.find((m) => m.kind === 'topup');
      const ref = spec.flag || !replay ? h.nextRef('topup') : { txHash: replay.txHash, logIndex: replay.logIndex };
      if (spec.flag || !replay) {
        h.event(
          {
            event: 'TopUpFee',
            ...ref,
            user: spec.target > 7 ? target.address : someValidator.signer,
            fee: amount === 0n ? 10n ** 14n : amount,
          },
          'TopUpFee',
        );
        h.made.push({ kind: 'topup', ...ref, id: someValidator.id });
      }
      def = MsgTopupDef as MsgDef<unknown>;
      msg = { fromAddress: sender.address, id: someValidator.id, ...ref };
      break;
    }
    case 'checkpoint': {
      const last = getLastCheckpoint(store);
      const start = (last ? last.checkpoint.endBlock + 1n : 0n) + (spec.amount === 4 ? 1n : 0n);
      const end = start + 9n + BigInt(spec.target);
      chain.observers.sidechainHead = end + 20n;
      def = MsgCheckpointDef as MsgDef<unknown>;
      msg = {
        proposer: spec.flag ? (set.proposer?.address ?? sender.address) : sender.address,
        startBlock: start,
        endBlock: end,
        rootHash: spec.amount === 3 ? fakeTxHash('not-a-root') : sidechainRoot(start, end),
        accountRootHash: spec.amount === 2 ? fakeTxHash('not-an-account-root') : dividendAccountRoot(store),
      };
      break;
    }
    case 'ack': {
      const buf = getBuffer(store);
      const number = (getLastCheckpoint(store)?.number ?? 0n) + 1n;
      if (buf && spec.flag && !chain.observers.headerBlocks.has(number)) {
        // The root chain took the checkpoint, maybe with an end block of its own (the ack adjusts).
        const end = spec.amount === 4 ? buf.endBlock - 1n : buf.endBlock;
        const rootHash = end === buf.endBlock ? buf.rootHash : sidechainRoot(buf.startBlock, end);
        const rec = { number, proposer: buf.proposer, startBlock: buf.startBlock, endBlock: end, rootHash };
        chain.observers.headerBlocks.set(number, { ...rec, accountRootHash: buf.accountRootHash });
        h.event(
          {
            event: 'NewHeaderBlock',
            txHash: fakeTxHash(`header-${number}`),
            logIndex: 0n,
            proposer: rec.proposer,
            headerBlockId: number * 10_000n,
            start: rec.startBlock,
            end: rec.endBlock,
            root: rec.rootHash,
          },
          'NewHeaderBlock',
        );
      }
      def = MsgCheckpointAckDef as MsgDef<unknown>;
      msg = { from: sender.address, headerBlock: number, txHash: fakeTxHash(`header-${number}`), logIndex: 0n };
      break;
    }
    case 'noAck':
      def = MsgCheckpointNoAckDef as MsgDef<unknown>;
      msg = { from: sender.address };
      break;
    case 'span': {
      const last = getLastSpan(store)!;
      chain.observers.sidechainHead = spec.flag ? last.startBlock + BigInt(spec.target) : last.endBlock + 1n;
      def = MsgProposeSpanDef as MsgDef<unknown>;
      msg = {
        spanId: last.id + (spec.amount === 4 ? 2n : 1n),
        proposer: sender.address,
        startBlock: last.endBlock + 1n,
        endBlock: last.endBlock + (spec.amount === 3 ? 5n : 1600n),
        sidechainChainId: spec.amount === 2 ? 'other' : '15001',
      };
      break;
    }
    case 'record': {
      const ref = h.nextRef('synced');
      const id = BigInt(spec.target % 4) + 1n;
      const data = spec.flag ? '0x' : '0x1234';
      h.event({ event: 'StateSynced', ...ref, id, contract: target.address, data: '0x1234' }, 'StateSynced');
      def = MsgEventRecordDef as MsgDef<unknown>;
      msg = {
        from: sender.address,
        ...ref,
        id,
        contractAddress: target.address,
        data,
        sidechainChainId: spec.amount === 2 ? 'other' : '15001',
      };
      break;
    }
  }
  const acc = getAccount(store, sender.address);
  const used = offset.get(sender.address) ?? 0n;
  const doc = {
    chainId: spec.brk === 'chainId' ? 'another-chain' : chain.chainId,
    accountNumber: acc?.accountNumber ?? 0n,
    sequence: (acc?.sequence ?? 0n) + used + (spec.brk === 'sequence' ? 1n : 0n),
    memo: spec.brk === 'memo' ? 'm'.repeat(257) : '',
  };
  offset.set(sender.address, used + 1n);
  const json = txJson(signTx(def, msg, doc, sender.privateKey)) as {
    msg: { value: Record<string, unknown> };
    signature: string;
    memo: string;
  };
  if (spec.brk === 'badSig')
    json.signature = `${json.signature.slice(0, 10)}${json.signature[10] === 'a' ? 'b' : 'a'}${json.signature.slice(11)}`;
  if (spec.brk === 'noSig') json.signature = '';
  if (spec.brk === 'extraField') json.msg.value.extra = '1';
  const bytes = canonicalJsonBytes(json);
  if (spec.brk === 'badHex')
    return new TextEncoder().encode(new TextDecoder().decode(bytes).replace(/0x[0-9a-f]{40}/, '0xZZ'));
  return bytes;
}

/** A checkpoint by the proposer, its votes, an ack (its end adjusted when `adjust`), settled. */
export function checkpointRound(h: Harness, adjust: boolean): void {
  const spec = (kind: TxSpec['kind'], amount: number): TxSpec => ({
    kind,
    sender: 0,
    target: 0,
    amount,
    flag: true,
    brk: 'none',
  });
  h.block([makeTx(h, spec('checkpoint', 0), new Map())], 5);
  h.block([], 5);
  h.block([], 5);
  h.block([makeTx(h, spec('ack', adjust ? 4 : 0), new Map())], 5);
  h.block([], 5);
  h.block([], 5);
}

export function run(
  blocks: ReadonlyArray<{ txs: TxSpec[]; solo: boolean; stepS: number }>,
  rounds: boolean[],
): Harness {
  const h = new Harness();
  for (const adjust of rounds) checkpointRound(h, adjust);
  // A top-up, and the same event relayed again once it is minted.
  const topup = (flag: boolean): TxSpec => ({ kind: 'topup', sender: 1, target: 0, amount: 2, flag, brk: 'none' });
  h.block([makeTx(h, topup(true), new Map())], 5);
  h.block([], 5);
  h.block([], 5);
  h.block([makeTx(h, topup(false), new Map())], 5);
  for (const b of blocks) {
    const offsets = new Map<string, bigint>();
    h.block(
      (b.solo ? b.txs.slice(0, 1) : b.txs).map((t) => makeTx(h, t, offsets)),
      b.stepS,
    );
  }
  // Two more blocks settle the side transactions' votes and posts.
  h.block([], 5);
  h.block([], 5);
  return h;
}
