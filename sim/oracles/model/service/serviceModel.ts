/**
 * The reference model of the service state machine: an auditor in TigerBeetle's sense, a model in
 * Jepsen's. Its own small implementation, written from the spec and the reference notes, of the
 * service state as a function of the delivered transactions, the parent chain's events and the
 * blocks' heights, times and proposers. It starts from the genesis state a node reports, runs each
 * height once (the first time any node commits it, from the block's transactions and its last
 * commit's side votes, never from a node's results), and keeps for each height what it predicts:
 * every transaction's result, every side transaction's tally and post result, and every record the
 * block changes. The oracles (sim/oracles/serviceModelOracles.ts) hold each node's reports against
 * it. It shares no rule code with src/: only byte and hash helpers and types come from there.
 */
import { type DeepReadonly } from '../../../../src/core/readonly';
import { type ParentEventFact, type ServiceParamsFact, type StateWrite } from '../../../../src/node/observations';
import { keccak256Raw } from '../../../../src/core/hash';
import { type RunRecord } from '../../oracle';
import { PrioritySet } from '../proposerPriority';
import { type AnteContext } from './ante';
import { type BlockOutcome, runBlock } from './block';
import { type Fact, firstDifference, keyOfWrite, modelFact, writtenKeys } from './facts';
import { type HeaderBlock, type ParentEvent, type ParentTruth } from './post';
import { type Answer, expectedAnswer } from './queries';
import { type CryptoMode, type KeyLookup } from './signature';
import { genesisOf } from './genesis';
import { type ModelParams, ModelState, idKey, replayKey } from './state';

export interface HeightExpectation {
  height: bigint;
  blockHash: string;
  outcome: BlockOutcome;
  /** Records the block changed, with the model's fact after it (null: the record is gone). */
  changes: Map<string, Fact | null>;
}

/** The module account that collects a block's fees (the project's name for it, hashed to an address). */
function feeCollectorAddress(): string {
  const h = keccak256Raw(new TextEncoder().encode('lockstep/module/fee_collector')).subarray(12);
  let s = '0x';
  for (const x of h) s += x.toString(16).padStart(2, '0');
  return s;
}

class ParentChainFacts implements ParentTruth {
  private readonly events = new Map<string, ParentEvent>();
  private readonly hashes = new Map<bigint, string>();
  private readonly headers = new Map<bigint, HeaderBlock>();

  constructor(private readonly childBlockInterval: () => bigint) {}

  observe(number: bigint, hash: string, events: ReadonlyArray<DeepReadonly<ParentEventFact>>): void {
    this.hashes.set(number, hash.toLowerCase());
    for (const e of events) {
      const key = `${e.txHash.toLowerCase()}/${e.logIndex}`;
      const at = { blockNumber: number };
      switch (e.event) {
        case 'TopUpFee':
          this.events.set(key, { ...at, event: 'TopUpFee', user: e.user.toLowerCase(), fee: e.fee });
          break;
        case 'StateSynced':
          this.events.set(key, { ...at, event: 'StateSynced', id: e.id, contract: e.contract, data: e.data });
          break;
        case 'Staked':
          this.events.set(key, {
            ...at,
            event: 'Staked',
            signer: e.signer.toLowerCase(),
            validatorId: e.validatorId,
            activationEpoch: e.activationEpoch,
            amount: e.amount,
            signerPubkey: e.signerPubkey,
          });
          break;
        case 'StakeUpdate':
          this.events.set(key, { ...at, event: 'StakeUpdate', validatorId: e.validatorId, newAmount: e.newAmount });
          break;
        case 'UnstakeInit':
          this.events.set(key, {
            ...at,
            event: 'UnstakeInit',
            validatorId: e.validatorId,
            deactivationEpoch: e.deactivationEpoch,
          });
          break;
        case 'SignerChange':
          this.events.set(key, {
            ...at,
            event: 'SignerChange',
            validatorId: e.validatorId,
            newSigner: e.newSigner.toLowerCase(),
            signerPubkey: e.signerPubkey,
          });
          break;
        case 'NewHeaderBlock': {
          const n = e.headerBlockId / this.childBlockInterval();
          this.headers.set(n, {
            number: n,
            proposer: e.proposer.toLowerCase(),
            startBlock: e.start,
            endBlock: e.end,
            rootHash: e.root.toLowerCase(),
          });
          this.events.set(key, { ...at, event: 'other', name: 'NewHeaderBlock' });
          break;
        }
        default:
          this.events.set(key, { ...at, event: 'other', name: e.name });
      }
    }
  }

  event(txHash: string, logIndex: bigint): ParentEvent | undefined {
    return this.events.get(`${txHash.toLowerCase()}/${logIndex}`);
  }

  blockHash(number: bigint): string | undefined {
    return this.hashes.get(number);
  }

  headerBlock(number: bigint): HeaderBlock | undefined {
    return this.headers.get(number);
  }
}

/** A stored proposer snapshot from its facts. */
function stored(w: {
  proposer: string | null;
  proposerPower: bigint | null;
  proposerPriority: bigint | null;
}): { address: string; power: bigint; priority: bigint } | null {
  return w.proposer === null
    ? null
    : { address: w.proposer.toLowerCase(), power: w.proposerPower ?? 0n, priority: w.proposerPriority ?? 0n };
}

export class ServiceModel {
  private state: ModelState | null = null;
  private params: ModelParams | null = null;
  private height = 0n;
  /** Set when the model can no longer follow the chain (a height it never saw): it stops predicting. */
  lost: string | null = null;
  private readonly parent = new ParentChainFacts(() => this.params?.childBlockInterval ?? 10_000n);
  private readonly byHeight = new Map<bigint, HeightExpectation>();
  /** Each record's history: [height, fact after it]; height 0 holds the genesis state. */
  private readonly history = new Map<string, Array<[bigint, Fact | null]>>();
  /** The genesis state the first node reported, by record key. */
  private genesisFacts = new Map<string, Fact>();
  private readonly feeCollector = feeCollectorAddress();

  constructor(
    private readonly mode: CryptoMode,
    private readonly keys: KeyLookup = () => undefined,
  ) {}

  get started(): boolean {
    return this.state !== null;
  }

  /** Feed every record in run order (before the oracles that read the model). */
  observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'parent.block') this.parent.observe(o.number, o.hash, o.events);
    else if (o.kind === 'service.genesisDocument' && this.state === null) this.initFromDocument(o.document);
    // Without the document (a hand-made record stream), the first node's report is the start.
    else if (o.kind === 'service.genesis' && this.state === null) this.init(o.chainId, o.params, o.state);
    else if (o.kind === 'service.commit' && this.state !== null && this.lost === null && o.height === this.height + 1n)
      this.advance(o);
    else if (o.kind === 'service.commit' && this.state !== null && this.lost === null && o.height > this.height + 1n)
      this.lost = `height ${o.height} was committed before the model saw height ${this.height + 1n}`;
  }

  /** What the model predicts for `height`, if it ran that height with the block `blockHash`. */
  expectation(height: bigint, blockHash: string): HeightExpectation | undefined {
    const e = this.byHeight.get(height);
    return e && e.blockHash === blockHash ? e : undefined;
  }

  /** The model's fact for a record key as it stood after `height` (null: no such record). */
  factAt(key: string, height: bigint): Fact | null {
    const h = this.history.get(key);
    if (h === undefined) return null;
    // Nodes ask about the height the model just ran, or one close to it: search from the end.
    for (let i = h.length - 1; i >= 0; i--) if (h[i]![0] <= height) return h[i]![1];
    return null;
  }

  /**
   * What a GET of `path` must answer at `height` (null: the model does not judge that route, or
   * holds no state for that height: it keeps only its latest).
   */
  answerAt(height: bigint, path: string): Answer | null {
    if (this.state === null || this.lost !== null || height !== this.height) return null;
    return expectedAnswer(this.state, this.params!, path);
  }

  /** Whether the account an `/auth/accounts/{address}…` path names exists at `height` (the model's latest). */
  accountExists(height: bigint, path: string): boolean {
    const a = /^\/auth\/accounts\/(0x[0-9a-fA-F]{40})/.exec(path)?.[1]?.toLowerCase();
    return a !== undefined && height === this.height && this.state?.account(a) !== undefined;
  }

  genesis(): ReadonlyMap<string, Fact> {
    return this.genesisFacts;
  }

  private init(
    chainId: string,
    p: DeepReadonly<ServiceParamsFact>,
    state: ReadonlyArray<DeepReadonly<StateWrite>>,
  ): void {
    this.params = { chainId, ...p };
    const s = new ModelState();
    let set: PrioritySet = PrioritySet.restore([], null);
    let lastSpanId: bigint | null = null;
    let nextAccount: bigint | null = null;
    let maxAccount = -1n;
    s.put('buffer', null);
    s.put('ackCount', 0n);
    s.put('lastNoAckS', 0n);
    s.put('seedBlock', 0n);
    for (const w of state) {
      switch (w.what) {
        case 'account':
          s.accounts.set(w.address.toLowerCase(), {
            address: w.address.toLowerCase(),
            coins: new Map(w.coins.map((c) => [c.denom, c.amount])),
            sequence: w.sequence,
            accountNumber: w.accountNumber,
            pubKey: w.pubKey,
          });
          if (w.accountNumber > maxAccount) maxAccount = w.accountNumber;
          break;
        case 'nextAccountNumber':
          nextAccount = w.next;
          break;
        case 'validator':
          s.putValidator({
            id: w.id,
            signer: w.signer.toLowerCase(),
            pubKey: w.pubKey.toLowerCase(),
            power: w.power,
            startEpoch: w.startEpoch,
            endEpoch: w.endEpoch,
            lastUpdated: w.lastUpdated,
            jailed: w.jailed,
          });
          break;
        case 'validatorSet':
          set = PrioritySet.restore(w.validators, stored(w));
          break;
        case 'dividend':
          s.dividends.set(idKey(w.id), w.feeAmount);
          break;
        case 'checkpointBuffer':
          s.put(
            'buffer',
            w.checkpoint === null
              ? null
              : {
                  proposer: w.checkpoint.proposer.toLowerCase(),
                  startBlock: w.checkpoint.startBlock,
                  endBlock: w.checkpoint.endBlock,
                  rootHash: w.checkpoint.rootHash.toLowerCase(),
                  accountRootHash: w.checkpoint.accountRootHash.toLowerCase(),
                  timestampS: w.checkpoint.timestampS,
                },
          );
          break;
        case 'checkpoint':
          s.checkpoints.set(idKey(w.number), {
            proposer: w.proposer.toLowerCase(),
            startBlock: w.startBlock,
            endBlock: w.endBlock,
            rootHash: w.rootHash.toLowerCase(),
            accountRootHash: w.accountRootHash.toLowerCase(),
            timestampS: w.timestampS,
          });
          break;
        case 'ackCount':
          s.put('ackCount', w.count);
          break;
        case 'lastNoAck':
          s.put('lastNoAckS', w.seconds);
          break;
        case 'span':
          s.spans.set(idKey(w.id), {
            id: w.id,
            startBlock: w.startBlock,
            endBlock: w.endBlock,
            producers: w.producers.map((x) => ({ id: x.id, signer: x.signer.toLowerCase(), power: x.power })),
            sidechainChainId: w.sidechainChainId,
            validators: w.validators.map((x) => ({
              address: x.address.toLowerCase(),
              power: x.power,
              priority: x.priority,
            })),
            proposer: stored(w),
            members: w.members.map((x) => ({
              id: x.id,
              startEpoch: x.startEpoch,
              endEpoch: x.endEpoch,
              pubKey: x.pubKey.toLowerCase(),
              signer: x.signer.toLowerCase(),
            })),
          });
          if (lastSpanId === null || w.id > lastSpanId) lastSpanId = w.id;
          break;
        case 'spanSeedBlock':
          s.put('seedBlock', w.block);
          break;
        case 'record':
          s.records.set(idKey(w.id), {
            id: w.id,
            contract: w.contract.toLowerCase(),
            data: w.data.toLowerCase(),
            txHash: w.txHash.toLowerCase(),
            logIndex: w.logIndex,
            sidechainChainId: w.sidechainChainId,
            recordTimeMs: w.recordTimeMs,
          });
          break;
        case 'replayKey':
          s.replay.set(replayKey(w.module, w.txHash.toLowerCase(), w.logIndex), true);
          break;
      }
    }
    s.put('validatorSet', set);
    s.put('lastSpanId', lastSpanId);
    s.put('nextAccountNumber', nextAccount ?? maxAccount + 1n);
    this.state = s;
    for (const w of state) {
      const key = keyOfWrite(w);
      this.genesisFacts.set(key, w);
      this.history.set(key, [[0n, modelFact(s, key)]]);
    }
    for (const key of [
      'validatorSet',
      'checkpointBuffer',
      'ackCount',
      'lastNoAck',
      'spanSeedBlock',
      'nextAccountNumber',
    ])
      if (!this.history.has(key)) this.history.set(key, [[0n, modelFact(s, key)]]);
  }

  /** The model's own genesis, from the document: what every node's genesis report is held to. */
  private initFromDocument(document: unknown): void {
    const g = genesisOf(document);
    this.params = g.params;
    this.state = g.state;
    this.recordGenesis();
  }

  /** Every record of the genesis state, as the model's facts (history at height 0). */
  private recordGenesis(): void {
    const s = this.state!;
    const keys = [
      ...s.accounts.entries().map(([a]) => `account:${a}`),
      ...s.validators.entries().map(([k]) => `validator:${BigInt(k)}`),
      ...s.spans.entries().map(([k]) => `span:${BigInt(k)}`),
      ...s.checkpoints.entries().map(([k]) => `checkpoint:${BigInt(k)}`),
      ...s.dividends.entries().map(([k]) => `dividend:${BigInt(k)}`),
      ...s.records.entries().map(([k]) => `record:${BigInt(k)}`),
      ...s.replay.entries().map(([k]) => `replayKey:${k}`),
      'validatorSet',
      'checkpointBuffer',
      'ackCount',
      'lastNoAck',
      'spanSeedBlock',
      'nextAccountNumber',
    ];
    for (const key of keys) {
      const fact = modelFact(s, key);
      this.history.set(key, [[0n, fact]]);
      if (fact !== null) this.genesisFacts.set(key, fact);
    }
  }

  private anteContext(): AnteContext {
    return { params: this.params!, mode: this.mode, keys: this.keys, feeCollector: this.feeCollector };
  }

  private advance(c: Extract<RunRecord['obs'], { kind: 'service.commit' }>): void {
    const base = this.state!;
    const block = base.branch();
    const outcome = runBlock(
      block,
      {
        height: c.height,
        timeMs: c.timeMs,
        proposer: c.proposer.toLowerCase(),
        txs: c.txs.map((t) => t.raw),
        votes: c.sideVotes.map((v) => ({
          validator: v.validator.toLowerCase(),
          txHash: v.txHash.toLowerCase(),
          result: v.result,
          observation: v.observation,
        })),
      },
      this.anteContext(),
      this.parent,
    );
    const changes = new Map<string, Fact | null>();
    for (const key of new Set(writtenKeys(block))) {
      const after = modelFact(block, key);
      if (firstDifference(modelFact(base, key), after) !== null) changes.set(key, after);
    }
    block.commit();
    this.height = c.height;
    for (const [key, fact] of changes) {
      const h = this.history.get(key);
      if (h) h.push([c.height, fact]);
      else this.history.set(key, [[c.height, fact]]);
    }
    this.byHeight.set(c.height, { height: c.height, blockHash: c.blockHash, outcome, changes });
  }
}
