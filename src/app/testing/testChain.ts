/**
 * A single-app chain driver for tests: validators with known keys, signed txs, blocks with side-tx
 * votes computed by every validator from (possibly different) observers, as consensus would carry
 * them. It is a test harness, not a consensus engine.
 */
import { type Address } from '../../core/address';
import { type Hex, toHex } from '../../core/bytes';
import { pad32 } from '../../core/amount';
import { keccak256Bytes } from '../../core/hash';
import { addressOfPublicKey, publicKeyBytesFromPrivateKey } from '../../core/secp256k1';
import { type MsgDef, type SideVote } from '../../modules/framework/msgDef';
import { type Observers } from '../../modules/framework/observers';
import { encodeTx, signTx } from '../../modules/auth/stdTx';
import { getAccount } from '../../modules/auth/keeper';
import { getValidatorSet } from '../../modules/staking/keeper';
import { ServiceApp } from '../serviceApp';
import { type CommitResponse, type EndBlockResponse, type TxResult } from '../blockResults';
import { type SideTxVotes } from '../sideTx';
import { type AppliedBlock, type SharedExecution } from '../sharedExecution';
import { type StoreWrites } from '../../store/kvStore';
import { FakeObservers } from './fakeObservers';

export interface TestKey {
  privateKey: Hex;
  pubKey: Hex;
  address: Address;
}

export function testKey(label: string | number): TestKey {
  const privateKey = toHex(keccak256Bytes(new TextEncoder().encode(`lockstep-test-key/${label}`)));
  const pubKey = toHex(publicKeyBytesFromPrivateKey(privateKey));
  return { privateKey, pubKey, address: addressOfPublicKey(pubKey) };
}

export const TOKEN = 10n ** 18n;

/** A StdTx's JSON as a decode test breaks it: any field of the tx or its msg may be rewritten or deleted. */
export interface TxJson {
  [field: string]: unknown;
  msg: { [field: string]: unknown; value: Record<string, unknown> };
}

/** The `/auth/accounts/{address}` result. */
export interface AccountJson {
  type: string;
  value: {
    address: string;
    coins: Array<{ denom: string; amount: { i: string } }>;
    public_key: { type: string; value: string } | null;
    account_number: string;
    sequence: string;
  };
}

export interface TestChainOptions {
  validators?: number;
  powers?: bigint[];
  /** Extra funded accounts (by key label). */
  accounts?: Array<{ key: TestKey; amount: bigint }>;
  balance?: bigint;
  appState?: Record<string, unknown>;
  chainId?: string;
  /** Check the modules' invariants after every block (default: on in tests, see invariantCheck.ts). */
  checkInvariants?: boolean;
  /** Block records shared with other chains of the test (as the nodes of a run share them). */
  sharedExecution?: SharedExecution;
}

export interface BlockResult {
  height: bigint;
  txs: TxResult[];
  end: EndBlockResponse;
  commit: CommitResponse;
}

export class TestChain {
  readonly app: ServiceApp;
  readonly validators: TestKey[];
  readonly observers = new FakeObservers();
  /** Per-validator observers (default: the shared one). */
  readonly observerOf = new Map<Address, Observers>();
  /** Validators that do not vote (offline). */
  readonly silent = new Set<Address>();
  /** Validators whose vote is replaced (Byzantine). */
  readonly voteOverride = new Map<Address, (txHash: Hex, honest: SideVote) => SideVote>();
  timeMs = 0;
  blockTimeMs = 5_000;
  /** The genesis document the app started from, as written. */
  readonly genesisDocument: Record<string, unknown>;
  private votes = new Map<Hex, SideTxVotes['votes']>();

  constructor(opts: TestChainOptions = {}) {
    const n = opts.validators ?? 4;
    this.validators = Array.from({ length: n }, (_, i) => testKey(`validator-${i + 1}`));
    const balance = opts.balance ?? 1000n * TOKEN;
    const genesis = {
      chain_id: opts.chainId ?? 'lockstep-test',
      genesis_time_ms: 0,
      app_state: {
        auth: {
          accounts: [
            ...this.validators.map((v) => ({
              address: v.address,
              coins: [{ denom: 'matic', amount: { i: balance.toString() } }],
            })),
            ...(opts.accounts ?? []).map((a) => ({
              address: a.key.address,
              coins: [{ denom: 'matic', amount: { i: a.amount.toString() } }],
            })),
          ],
        },
        staking: {
          validators: this.validators.map((v, i) => ({
            id: i + 1,
            pub_key: v.pubKey,
            power: Number(opts.powers?.[i] ?? 100n),
          })),
        },
        ...opts.appState,
      },
    };
    this.genesisDocument = genesis;
    this.app = new ServiceApp(genesis, undefined, {
      ...(opts.checkInvariants !== undefined ? { checkInvariants: opts.checkInvariants } : {}),
      ...(opts.sharedExecution ? { sharedExecution: opts.sharedExecution } : {}),
    });
  }

  get chainId(): string {
    return this.app.chainId;
  }

  /** Sign with the account's committed number and sequence (plus `sequenceOffset` for several txs in one block). */
  tx<M>(
    def: MsgDef<M>,
    msg: M,
    key: TestKey,
    opts: { sequenceOffset?: bigint; memo?: string; chainId?: string; sequence?: bigint } = {},
  ): Uint8Array {
    const acc = getAccount(this.app.store, key.address);
    const doc = {
      chainId: opts.chainId ?? this.chainId,
      accountNumber: acc?.accountNumber ?? 0n,
      sequence: opts.sequence ?? (acc?.sequence ?? 0n) + (opts.sequenceOffset ?? 0n),
      memo: opts.memo ?? '',
    };
    return encodeTx(signTx(def, msg, doc, key.privateKey));
  }

  /** Apply one block: begin (with the votes gathered so far), deliver, end, commit, then vote. */
  block(txs: Uint8Array[] = [], opts: { proposer?: Address; timeMs?: number } = {}): BlockResult {
    this.timeMs = opts.timeMs ?? this.timeMs + this.blockTimeMs;
    const sideTxVotes: SideTxVotes[] = [...this.votes.entries()].map(([txHash, votes]) => ({ txHash, votes }));
    this.app.beginBlock({ timeMs: this.timeMs, proposer: opts.proposer ?? this.validators[0]!.address, sideTxVotes });
    const results = txs.map((t) => this.app.deliverTx(t));
    const end = this.app.endBlock();
    const commit = this.app.commit();
    for (const r of end.sideTxResults) this.votes.delete(r.txHash);
    this.collectVotes();
    return { height: commit.height, txs: results, end, commit };
  }

  /** The side-tx votes the next block will carry (the validators' votes on the last block's side txs). */
  nextBlockVotes(): SideTxVotes[] {
    return [...this.votes.entries()].map(([txHash, votes]) => ({ txHash, votes }));
  }

  /**
   * Like `block`, through the app's whole-block path (what a node runs): also returns the records
   * the block wrote and the votes it carried.
   */
  applyBlock(
    txs: Uint8Array[] = [],
    opts: { proposer?: Address; timeMs?: number } = {},
  ): Omit<BlockResult, 'txs' | 'end'> & {
    txs: AppliedBlock['results'];
    end: AppliedBlock['end'];
    writes: StoreWrites;
    votes: SideTxVotes[];
    timeMs: number;
    proposer: Address;
  } {
    this.timeMs = opts.timeMs ?? this.timeMs + this.blockTimeMs;
    const votes = this.nextBlockVotes();
    const proposer = opts.proposer ?? this.validators[0]!.address;
    const hexes = txs.map((t) => toHex(t));
    const block = { hexes };
    const applied = this.app.applyBlock(
      { timeMs: this.timeMs, proposer, sideTxVotes: votes },
      hexes,
      block,
      toHex(keccak256Bytes(new TextEncoder().encode(`${this.app.height + 1n}`))),
    );
    for (const r of applied.end.sideTxResults) this.votes.delete(r.txHash);
    this.collectVotes();
    return {
      height: applied.commit.height,
      txs: applied.results,
      end: applied.end,
      commit: applied.commit,
      writes: applied.writes,
      votes,
      timeMs: this.timeMs,
      proposer,
    };
  }

  /** Deliver txs, then run the two blocks that bring their side-tx results; returns all results. */
  blockAndSettle(
    txs: Uint8Array[],
    opts: { proposer?: Address } = {},
  ): { txs: TxResult[]; side: EndBlockResponse['sideTxResults'] } {
    const first = this.block(txs, opts);
    const a = this.block([], opts);
    const b = this.block([], opts);
    return { txs: first.txs, side: [...a.end.sideTxResults, ...b.end.sideTxResults] };
  }

  private collectVotes(): void {
    for (const member of this.setMembers()) {
      if (this.silent.has(member)) continue;
      const observers = this.observerOf.get(member) ?? this.observers;
      for (const { txHash, vote } of this.app.sideTxVotes(observers)) {
        const override = this.voteOverride.get(member);
        const v = override ? override(txHash, vote) : vote;
        this.votes.set(txHash, [...(this.votes.get(txHash) ?? []), { validator: member, vote: v }]);
      }
    }
  }

  private setMembers(): Address[] {
    return getValidatorSet(this.app.store).validators.map((m) => m.address);
  }

  /** A deterministic parent-chain block hash for block n (what FakeObservers.blockHash returns). */
  static parentBlockHash(n: bigint): Hex {
    return toHex(keccak256Bytes(pad32(n)));
  }

  /** The `result` of a 200 query; most are JSON objects, pass `T` for the shape a test reads. */
  queryResult<T = Record<string, unknown>>(path: string): T {
    const { outcome } = this.app.query(path, this.observers);
    if (!outcome.ok) throw new Error(`query ${path} failed (${outcome.kind}): ${outcome.message}`);
    return outcome.result as T;
  }

  balance(address: Address, denom = 'matic'): bigint {
    return getAccount(this.app.store, address)?.coins[denom] ?? 0n;
  }
}
