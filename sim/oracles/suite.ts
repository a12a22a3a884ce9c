/**
 * The oracles of one run: built from the scenario, fed every observation as the run goes, and
 * given the end-of-run facts (as plain data, so it works whichever thread ran the sidechain).
 * The verdict is the class of the earliest violation, or pass.
 */
import { minBig } from '../../src/core/amount';
import { type Scenario, type Verdict } from '../scenario/scenario';
import { type Observation, type Oracle, type Violation } from './oracle';
import { ServiceSafetyOracle } from './serviceSafety';
import { SupplyOracle, TopupIdempotencyOracle } from './supply';
import { StateSyncOracle } from './stateSync';
import { SpanOracle } from './spans';
import { BackupStepInOracle, WiggleOracle } from './wiggle';
import { CheckpointOracle } from './checkpoints';
import { ConvergenceOracle, ForkChoiceOracle } from './forkChoice';
import { LivenessOracle } from './liveness';

export interface FinalFacts {
  endMs: number;
  /** Per live sidechain node: its canonical chain summary (number, time, producers in the parent snapshot). */
  sidechains: Array<{
    node: string;
    headNumber: bigint;
    hashAt: (n: bigint) => string | null;
    canonical: Array<{ number: bigint; time: bigint; producers: number; signer?: string }>;
  }>;
  /** Root (0x hex) of a range on the best sidechain, or null if it does not reach that far. */
  rootOf: (start: bigint, end: bigint) => string | null;
  /** Windows [fromS, toS] (sidechain seconds) where faults silenced every producer. */
  silentWindows: Array<[bigint, bigint]>;
}

export class OracleSuite {
  readonly oracles: Oracle[];
  private readonly checkpoint: CheckpointOracle;
  private readonly convergence = new ConvergenceOracle();
  private readonly backup: BackupStepInOracle;
  private readonly liveness: LivenessOracle;

  constructor(
    readonly scenario: Scenario,
    /** The signer address of validator `index` (1-based), to know whose blocks an isolated producer made. */
    private readonly signerOf: (index: number) => string | undefined = () => undefined,
  ) {
    const p = scenario.params;
    const delays = {
      period: p.periodS,
      producerDelay: p.producerDelayS,
      sprint: p.sprint,
      wiggle: p.backupMultiplierS,
    };
    this.checkpoint = new CheckpointOracle();
    this.backup = new BackupStepInOracle(delays);
    // Bounds: a service block within a few round timeouts; a sidechain block within the last
    // backup's delay plus slack; a checkpoint within the buffer time, an interval and the ack path.
    const intervalMs =
      (p.checkpointLength + p.sidechainConfirmations) * (p.periodS * 1000) +
      p.parentBlockTimeMs * (p.parentConfirmations + 2);
    this.liveness = new LivenessOracle({
      serviceMs: 60_000,
      sidechainMs: (p.producerDelayS + (p.producerCount - 1) * p.backupMultiplierS + 10) * 1000,
      checkpointMs: p.checkpointBufferTimeMs + intervalMs + 120_000,
    });
    this.oracles = [
      new ServiceSafetyOracle(),
      new SupplyOracle(),
      new TopupIdempotencyOracle(),
      new StateSyncOracle(),
      new SpanOracle(),
      new WiggleOracle(delays),
      this.checkpoint,
      new ForkChoiceOracle(scenario.expect.max.reorgDepth ?? null),
      this.convergence,
      this.backup,
      this.liveness,
    ];
  }

  private openFaults = 0;
  private healedAtMs = 0;
  /** When each fault (by scenario index) started: a height-triggered one has no time in the scenario. */
  private readonly faultStartMs = new Map<number, number>();

  /** Checkpoint ranges whose sidechain roots the final check needs. */
  rootRanges(): Array<{ start: bigint; end: bigint }> {
    return this.checkpoint.ackedRanges();
  }

  /** isolateProducer faults: the signer cut off, from when, until when (null while in force). */
  private readonly isolations: Array<{ index: number; signer: string; fromMs: number; toMs: number | null }> = [];

  observe(o: Observation): void {
    if (o.kind === 'fault.start') {
      this.openFaults++;
      if (!this.faultStartMs.has(o.data.index as number)) this.faultStartMs.set(o.data.index as number, o.t);
      // The record names the validator the fault resolved to (an `inTurn` target is resolved when it fires).
      const v = o.data.kind === 'isolateProducer' ? /^validator (\d+)$/.exec(String(o.data.detail)) : null;
      const signer = v ? this.signerOf(Number(v[1])) : undefined;
      if (signer) this.isolations.push({ index: o.data.index as number, signer, fromMs: o.t, toMs: null });
    }
    if (o.kind === 'fault.end') {
      const open = this.isolations.find((w) => w.index === o.data.index && w.toMs === null);
      if (open) open.toMs = o.t;
    }
    if (o.kind === 'fault.end' && --this.openFaults === 0) this.healedAtMs = o.t;
    for (const oracle of this.oracles) oracle.observe(o);
  }

  /**
   * Windows (sidechain seconds) where faults could silence every producer — node crashes and
   * pauses, partitions and link faults touching sidechain nodes. Producer faults are not excused:
   * when one producer is offline, slow or cut off, a backup must step in.
   */
  silentWindows(): Array<[bigint, bigint]> {
    const s = this.scenario;
    const touchesSidechain = (ids: string[] | undefined) => (ids ?? []).some((id) => id.startsWith('sc-'));
    const out: Array<[bigint, bigint]> = [];
    for (const [i, f] of s.faults.entries()) {
      const atMs = f.atMs ?? this.faultStartMs.get(i);
      if (atMs === undefined) continue;
      const relevant =
        ((f.kind === 'crash' || f.kind === 'pause' || f.kind === 'clockSkew') && f.node?.startsWith('sc-')) ||
        (f.kind === 'partition' && touchesSidechain(f.groups?.flat())) ||
        ((f.kind === 'oneWayPartition' || f.kind === 'link') && (touchesSidechain(f.from) || touchesSidechain(f.to)));
      if (!relevant) continue;
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
    if (f.sidechains.length) {
      const best = f.sidechains.reduce((m, s) => (s.headNumber > m.headNumber ? s : m));
      this.checkpoint.checkRoots(f.endMs, best.node, f.rootOf);
      const epochMs = this.scenario.epochMs;
      const alone = this.isolations.map((w) => ({
        signer: w.signer,
        from: BigInt(Math.floor((epochMs + w.fromMs) / 1000)),
        to: BigInt(Math.ceil((epochMs + (w.toMs ?? f.endMs)) / 1000)),
      }));
      this.backup.checkChain(best.node, f.endMs, best.canonical, f.silentWindows, alone);
      const settled = f.sidechains.reduce((m, s) => minBig(s.headNumber, m), best.headNumber) - 8n;
      // Convergence is only expected once every fault has healed and the network had time to settle.
      if (settled > 0n && this.openFaults === 0 && f.endMs - this.healedAtMs >= 60_000)
        this.convergence.check(
          f.endMs,
          f.sidechains.map((s) => ({ node: s.node, number: s.headNumber, hashAt: s.hashAt(settled) })),
        );
    }
  }

  violations(): Violation[] {
    return this.oracles
      .map((o) => o.violation)
      .filter((v): v is Violation => v !== null)
      .sort((a, b) => a.atMs - b.atMs || (a.oracle < b.oracle ? -1 : 1));
  }

  verdict(): { verdict: Verdict; first: Violation | null } {
    const first = earliest(this.violations());
    return { verdict: first ? first.class : 'pass', first };
  }
}

function earliest(vs: Violation[]): Violation | null {
  let best: Violation | null = null;
  for (const v of vs) if (!best || v.atMs < best.atMs || (v.atMs === best.atMs && v.oracle < best.oracle)) best = v;
  return best;
}
