/**
 * The oracles of one run: built from the scenario, fed every observation as the run goes (the
 * sidechain model first, then each oracle that reads its kind), and given the end-of-run facts as
 * plain data (each live sidechain node's head), so it works whichever thread ran the sidechain.
 * The verdict is the class of the earliest violation, or pass.
 *
 * One record, its readers: each oracle declares the kinds of record it reads (`Oracle.reads`), and
 * a record goes to those oracles only, in suite order (a run's votes and commits are most of its
 * records, and most oracles read neither). `routing.test.ts` holds the declarations to the code.
 */
import { type Hex } from '../../src/core/bytes';
import { type FaultSpec, type Scenario, type Verdict } from '../scenario/scenario';
import { type Oracle, type RecordKind, type RunRecord, type Violation } from './oracle';
import { ServiceSafetyOracle } from './serviceSafety';
import { AccountsOracle, SupplyOracle, TopupIdempotencyOracle } from './accounts';
import { StateSyncLatencyOracle, StateSyncOracle } from './stateSync';
import { SpanOracle } from './spans';
import { BackupStepInOracle, ProducerScheduleOracle } from './schedule';
import { CheckpointOracle, CheckpointRootOracle } from './checkpoints';
import { ConvergenceOracle, ForkChoiceOracle } from './forkChoice';
import { LivenessOracle } from './liveness';
import { BftLockOracle, BftQuorumOracle } from './bft';
import { ByzantineRefusedOracle } from './byzantineRefused';
import { SidechainRefusedOracle } from './sidechainRefused';
import { SidechainModel } from './model/sidechainModel';
import { ServiceModel } from './model/service/serviceModel';
import { type KeyLookup } from './model/service/signature';
import { SidechainAccountsOracle } from './sidechainAccounts';
import { SidechainPoolOracle } from './sidechainPool';
import { SidechainInclusionOracle } from './sidechainInclusion';
import { RpcAnswersOracle } from './rpcAnswers';
import { QueryAnswersOracle, ServiceStateOracle, SideTxResultsOracle, TxResultsOracle } from './serviceModelOracles';
import { type RuleId } from './ruleId';
import { SpanCommitOracle } from './spanCommit';
import { FinalityFloorOracle } from './finalityFloor';
import { BridgeConfirmationsOracle } from './bridgeConfirmations';
import { CheckpointSubmitterOracle } from './checkpointSubmitter';
import { RoundProposerOracle } from './roundProposer';
import { BftProgressOracle, bftProgressBounds } from './bftProgress';
import { DEFAULT_ORACLE_TIMINGS, type OracleTimings, triesFor, worstLatencyMs } from './timings';

/**
 * Fault kinds that can delay a sidechain producer or its view of the head (a slow or skewed
 * producer, a paused or crashed node, a cut or slowed link): a backup block stamped late is excused
 * while one is in force.
 */
const DELAYING_FAULTS: ReadonlySet<string> = new Set([
  'slowProducer',
  'clockSkew',
  'pause',
  'crash',
  'partition',
  'oneWayPartition',
  'link',
  'isolateProducer',
]);

export interface FinalFacts {
  endMs: number;
  /** Each live sidechain node's head at the end (as the node reports it). */
  sidechains: Array<{ node: string; headHash: Hex; headNumber: bigint }>;
  /** Windows [fromS, toS] (sidechain seconds) where faults silenced every producer. */
  silentWindows: Array<[bigint, bigint]>;
}

export class OracleSuite {
  readonly oracles: Oracle[];
  readonly model: SidechainModel;
  /** The reference model of the service state machine the service-model oracles compare with. */
  readonly service: ServiceModel;
  private readonly convergence = new ConvergenceOracle();
  private readonly backup: BackupStepInOracle;
  private readonly liveness: LivenessOracle;
  private readonly roots: CheckpointRootOracle;
  private readonly stateSyncLatency: StateSyncLatencyOracle;
  private readonly floor: FinalityFloorOracle;
  private readonly bftProgress: BftProgressOracle;
  /** The oracles that read each kind of record, in suite order. */
  private readonly readers = new Map<RecordKind, Oracle[]>();

  constructor(
    readonly scenario: Scenario,
    /**
     * The signer addresses of validator `index` (1-based): its first and those it rotates to, to
     * know whose blocks an isolated producer made.
     */
    private readonly signersOf: (index: number) => readonly string[] = () => [],
    /**
     * Whether a fault may silence every producer (node crashes and pauses, partitions and link
     * faults touching sidechain nodes): each fault kind says so itself (sim/faults).
     */
    private readonly silencesProducers: (f: FaultSpec) => boolean = () => false,
    /** The keys the run made, by address: what the model checks `fast` signatures with. */
    keys: KeyLookup = () => undefined,
    /** The timings the run's nodes are built with (the progress oracles derive their bounds from them). */
    timings: OracleTimings = DEFAULT_ORACLE_TIMINGS,
  ) {
    this.service = new ServiceModel(scenario.crypto, keys);
    const p = scenario.params;
    const delays = {
      periodS: p.periodS,
      producerDelayS: p.producerDelayS,
      sprint: p.sprint,
      backupMultiplierS: p.backupMultiplierS,
    };
    this.model = new SidechainModel({
      ...delays,
      stateSyncDelayS: p.stateSyncDelayS,
      firstSpanEnd: BigInt(p.firstSpanDuration - 1),
    });
    // BUGGIFY's late timers (sim/scenario/buggify.ts) delay a step as a slow link would: every bound
    // derived from the worst latency takes them in, and the bounds that do not use it add them.
    const lateMs = scenario.buggify?.lateTimers?.maxMs ?? 0;
    const latencyMs = worstLatencyMs(scenario.network) + lateMs;
    // A backup stamps parent.time + its delay unless it learned of the parent later: at most the
    // worst latency, in whole seconds.
    this.backup = new BackupStepInOracle(delays, 3n, BigInt(Math.max(1, Math.ceil(latencyMs / 1000))));
    // A sidechain node has what its service node committed after one poll and a round trip (more
    // polls on a lossy network).
    const fetchMs = triesFor(scenario.network.loss) * timings.sidechainServicePollMs + 2 * latencyMs + 100;
    // A node's address is fixed for the run and asked for on every proposal: worked out once per node.
    const addresses = new Map<string, string | undefined>();
    const addressOf = (node: string): string | undefined => {
      if (addresses.has(node)) return addresses.get(node);
      const m = /^svc-(\d+)$/.exec(node);
      // Its first signer: a node that took up a rotated key is not counted as running (the checks
      // that need it skip the height, never fire for it).
      const a = m ? this.signersOf(Number(m[1]))[0] : undefined;
      addresses.set(node, a);
      return a;
    };
    this.floor = new FinalityFloorOracle(this.model, fetchMs);
    this.bftProgress = new BftProgressOracle(
      bftProgressBounds(timings, latencyMs, scenario.network.loss, lateMs > 0),
      addressOf,
    );
    // Bounds: a service block within a few round timeouts; a sidechain block within the last
    // backup's delay plus slack; a checkpoint within the buffer time, an interval and the ack path.
    const intervalMs =
      (p.checkpointLength + p.sidechainConfirmations) * (p.periodS * 1000) +
      p.parentBlockTimeMs * (p.parentConfirmations + 2);
    this.liveness = new LivenessOracle({
      serviceMs: 60_000,
      sidechainMs: (p.producerDelayS + (p.producerCount - 1) * p.backupMultiplierS + 10) * 1000 + lateMs,
      checkpointMs: p.checkpointBufferTimeMs + intervalMs + 120_000,
    });
    this.roots = new CheckpointRootOracle(this.model);
    // A state sync: parent confirmations, the bridge's relay (one rank per validator), the side-tx
    // round trip on the service, the sidechain's poll, the confirmation delay and a sprint start.
    this.stateSyncLatency = new StateSyncLatencyOracle(
      this.model,
      (p.parentConfirmations + 3) * p.parentBlockTimeMs +
        p.relayDelayPerRankMs * scenario.validators.length +
        (p.stateSyncDelayS + p.sprint * p.periodS + p.producerDelayS + p.producerCount * p.backupMultiplierS) * 1000 +
        60_000 +
        4 * lateMs,
    );
    this.oracles = [
      new ServiceSafetyOracle(),
      new BftQuorumOracle(),
      new BftLockOracle(),
      new AccountsOracle(),
      new SupplyOracle(),
      new TopupIdempotencyOracle(),
      new ByzantineRefusedOracle(),
      new SidechainRefusedOracle(),
      new StateSyncOracle(this.model),
      this.stateSyncLatency,
      new SpanOracle(),
      new ProducerScheduleOracle(this.model),
      new CheckpointOracle(),
      this.roots,
      new ForkChoiceOracle(this.model, scenario.expect.max.reorgDepth ?? null),
      this.convergence,
      this.backup,
      this.liveness,
      new SpanCommitOracle(this.model, { fetchMs }),
      this.floor,
      new BridgeConfirmationsOracle(BigInt(p.parentConfirmations), BigInt(p.sidechainConfirmations)),
      new CheckpointSubmitterOracle(),
      new RoundProposerOracle(addressOf),
      this.bftProgress,
      // The reference model's oracles come last: when one record breaks a rule that a specific
      // oracle guards, the specific oracle is named first, then the transaction's result, then the
      // state it left (a symptom of the others).
      new TxResultsOracle(this.service),
      new SideTxResultsOracle(this.service),
      new ServiceStateOracle(this.service),
      new QueryAnswersOracle(this.service),
      // The sidechain's accounts model: its transfers' results, then the accounts they left.
      new SidechainAccountsOracle(scenario.crypto),
      // Each client transaction's answer from a node's pool, and the pool it left.
      new SidechainPoolOracle(),
      // And what it admitted as next in line, a block takes.
      new SidechainInclusionOracle(scenario.network.loss > 0),
      // A simulated client's JSON-RPC reads of the sidechain, against the chain the nodes reported.
      new RpcAnswersOracle(),
    ];
    for (const oracle of this.oracles)
      for (const kind of oracle.reads) {
        let list = this.readers.get(kind);
        if (list === undefined) {
          list = [];
          this.readers.set(kind, list);
        }
        list.push(oracle);
      }
  }

  private openFaults = 0;
  private healedAtMs = 0;
  /** When each fault (by scenario index) started: a height-triggered one has no time in the scenario. */
  private readonly faultStartMs = new Map<number, number>();
  /** Every fault's window [from, to] in virtual ms (to = Infinity while in force), and its kind. */
  private readonly faultWindows: Array<{ index: number; kind: string; fromMs: number; toMs: number }> = [];

  /** isolateProducer faults: the signer cut off, from when, until when (null while in force). */
  private readonly isolations: Array<{ index: number; signer: string; fromMs: number; toMs: number | null }> = [];

  observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'fault.start') {
      this.openFaults++;
      if (!this.faultStartMs.has(o.index)) this.faultStartMs.set(o.index, r.t);
      this.faultWindows.push({ index: o.index, kind: o.fault, fromMs: r.t, toMs: Infinity });
      // The record names the validator the fault resolved to (an `inTurn` target is resolved when it fires).
      const v = o.fault === 'isolateProducer' ? /^validator (\d+)/.exec(o.detail) : null;
      for (const signer of v ? this.signersOf(Number(v[1])) : [])
        this.isolations.push({ index: o.index, signer, fromMs: r.t, toMs: null });
    }
    if (o.kind === 'fault.end') {
      for (const open of this.isolations) if (open.index === o.index && open.toMs === null) open.toMs = r.t;
      const w = this.faultWindows.find((x) => x.index === o.index && x.toMs === Infinity);
      if (w) w.toMs = r.t;
      if (--this.openFaults === 0) this.healedAtMs = r.t;
    }
    this.model.observe(r);
    this.service.observe(r);
    this.offer(r);
  }

  /** Hand a record to the oracles that read its kind. */
  protected offer(r: RunRecord): void {
    const readers = this.readers.get(r.obs.kind);
    if (readers !== undefined) for (const oracle of readers) oracle.observe(r);
  }

  /**
   * Windows (sidechain seconds) where faults could silence every producer — node crashes and
   * pauses, partitions and link faults touching sidechain nodes. Producer faults are not excused:
   * when one producer is offline, slow or cut off, a backup must step in.
   */
  silentWindows(): Array<[bigint, bigint]> {
    const s = this.scenario;
    const out: Array<[bigint, bigint]> = [];
    for (const [i, f] of s.faults.entries()) {
      const atMs = f.atMs ?? this.faultStartMs.get(i);
      if (atMs === undefined || !this.silencesProducers(f)) continue;
      const from = BigInt(Math.floor((s.epochMs + atMs) / 1000));
      const to =
        f.forMs === undefined
          ? BigInt(Number.MAX_SAFE_INTEGER)
          : BigInt(Math.ceil((s.epochMs + atMs + f.forMs) / 1000)) + 30n;
      out.push([from, to]);
    }
    return out;
  }

  /** The first safety violation so far (the run may stop early on one). */
  firstSafety(): Violation | null {
    return earliest(
      this.oracles.map((o) => o.violation).filter((v): v is Violation => v !== null && v.class === 'safety'),
    );
  }

  finish(f: FinalFacts): void {
    this.liveness.finish(f.endMs);
    this.floor.finish(f.endMs);
    this.bftProgress.finish(f.endMs);
    if (f.sidechains.length === 0) return;
    const best = f.sidechains.reduce((m, s) => (s.headNumber > m.headNumber ? s : m));
    this.roots.finish(f.endMs, best.node, best.headHash);
    const epochMs = this.scenario.epochMs;
    const calm = (fromEpochMs: number, toEpochMs: number) =>
      !this.faultWindows.some((w) => epochMs + w.fromMs <= toEpochMs && epochMs + w.toMs >= fromEpochMs);
    this.stateSyncLatency.finish(f.endMs, best.node, best.headHash, epochMs + f.endMs, calm);
    const alone = this.isolations.map((w) => ({
      signer: w.signer,
      from: BigInt(Math.floor((epochMs + w.fromMs) / 1000)),
      to: BigInt(Math.ceil((epochMs + (w.toMs ?? f.endMs)) / 1000)),
    }));
    const canonical = this.model
      .chainTo(best.headHash)
      .slice(1)
      .map((b) => ({
        number: b.fact.number,
        time: b.fact.time,
        producers: b.expected?.producers ?? 0,
        signer: b.fact.signer,
        succession: b.expected?.succession ?? null,
      }));
    const delayed = this.faultWindows
      .filter((w) => DELAYING_FAULTS.has(w.kind))
      .map((w): [bigint, bigint] => [
        BigInt(Math.floor((epochMs + w.fromMs) / 1000)),
        w.toMs === Infinity ? BigInt(Number.MAX_SAFE_INTEGER) : BigInt(Math.ceil((epochMs + w.toMs) / 1000)) + 30n,
      ]);
    // A producer held back (offline or slow): excused only where it is the span's single producer.
    const heldBack = this.faultWindows
      .filter((w) => w.kind === 'offlineProducer' || w.kind === 'slowProducer')
      .map((w): [bigint, bigint] => [
        BigInt(Math.floor((epochMs + w.fromMs) / 1000)),
        BigInt(Math.ceil((epochMs + Math.min(w.toMs, f.endMs)) / 1000)) + 30n,
      ]);
    this.backup.checkChain(best.node, f.endMs, canonical, f.silentWindows, alone, delayed, heldBack);
    let low = best.headNumber;
    for (const s of f.sidechains) if (s.headNumber < low) low = s.headNumber;
    const settled = low - 8n;
    // Convergence is only expected once every fault has healed and the network had time to settle.
    if (settled > 0n && this.openFaults === 0 && f.endMs - this.healedAtMs >= 60_000)
      this.convergence.check(
        f.endMs,
        f.sidechains.map((s) => {
          const head = this.model.get(s.headHash);
          const at = head ? this.model.ancestorAt(head, settled) : undefined;
          return { node: s.node, number: s.headNumber, hashAt: at ? at.fact.hash : null };
        }),
      );
  }

  /** Every violation, earliest first; on one instant, in suite order (the specific before the generic). */
  violations(): Violation[] {
    return this.oracles
      .map((o, i) => ({ v: o.violation, i }))
      .filter((x): x is { v: Violation; i: number } => x.v !== null)
      .sort((a, b) => a.v.atMs - b.v.atMs || a.i - b.i)
      .map((x) => x.v);
  }

  /** The rules some oracle judged on at least one event of this run (the union of their `exercised`), sorted. */
  exercised(): RuleId[] {
    const all = new Set<RuleId>();
    for (const o of this.oracles) for (const id of o.exercised) all.add(id);
    return [...all].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  verdict(): { verdict: Verdict; first: Violation | null } {
    const first = this.violations()[0] ?? null;
    return { verdict: first ? first.class : 'pass', first };
  }
}

function earliest(vs: Violation[]): Violation | null {
  let best: Violation | null = null;
  for (const v of vs) if (!best || v.atMs < best.atMs) best = v;
  return best;
}
