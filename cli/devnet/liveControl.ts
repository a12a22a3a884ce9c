/**
 * The live devnet's admin namespace (adminMethods.ts shapes the JSON-RPC side): pause, resume,
 * step, snapshots and reverts, injected faults, and the EVM devnet methods with this simulation's
 * meaning. Everything that runs the network runs as a command of the devnet's loop, between
 * windows, and is journaled (a position, or an input), so a restart replays it.
 *
 * - `mine`: run until the node's head is N blocks higher; an interval holds each block back to its
 *   parent's time plus the interval (a next-block-time input per block);
 * - `setNextBlockTimestamp`: an input every sidechain node takes: the next block is sealed no
 *   earlier than that time (refused before the head's time, or before the in-turn producer could
 *   seal it at all);
 * - `setBalance`: an input every sidechain node takes: its next block carries the balance (Bor has
 *   no such call; the block carries it like a system call, so every node agrees on the state).
 *   The call runs the network until a block on the node's chain carries it.
 * Time cannot be skipped without running the network: both run every node as it would run.
 */
import { type Address } from '../../src/core/address';
import { InputError } from '../../src/core/errors';
import { rfc3339FromUnixMs } from '../../src/core/time';
import { planProduction } from '../../src/sidechain/producer';
import { type DevnetControl, type MineRequest, type StepRequest } from '../../src/rpc/jsonrpc/adminMethods';
import { type LiveNetwork } from './liveNetwork';
import { type InjectedFault, type SnapshotInfo } from './liveTypes';
import { decodeLiveFault, encodeLiveFault } from './faultInput';
import { paths } from './home';
import { backupJournal } from './journal';

/** A step by blocks, or a mine, gives up after this much virtual time without the blocks. */
const BLOCK_WAIT_BOUND_MS = 10 * 60_000;

const U256 = 1n << 256n;

export class LiveControl implements DevnetControl {
  constructor(private readonly net: LiveNetwork) {}

  status() {
    const net = this.net;
    const epochMs = net.config.scenario.epochMs;
    const at = (ms: number) => rfc3339FromUnixMs(epochMs + ms);
    const state = net.isStopped
      ? 'stopped'
      : net.replaying
        ? 'replaying'
        : net.ended
          ? 'ended'
          : net.paused
            ? 'paused'
            : 'running';
    return {
      state,
      speed: net.opts.speed ?? 1,
      ...net.position(),
      events: net.run.events(),
      catchingUp: net.replaying,
      ...(net.replaying ? { replay: net.replayProgress() } : {}),
      ...(net.ended ? { ended: net.ended } : {}),
      ...(net.config.scenario.plant ? { plant: net.config.scenario.plant } : {}),
      ...(net.opened ? { opened: { ...net.opened, note: net.config.start?.note ?? '' } } : {}),
      nodeIndex: net.config.nodeIndex,
      nodes: Array.from({ length: net.nodeCount }, (_, k) => {
        const i = k + 1;
        const s = net.serviceNode(i);
        const c = net.sidechainNode(i).chain.head().block;
        return {
          node: i,
          service: { id: `svc-${i}`, height: Number(s.height), alive: s.isAlive },
          sidechain: {
            id: `sc-${i}`,
            head: Number(c.header.number),
            hash: c.hash,
            alive: net.sidechainNode(i).isAlive,
          },
        };
      }),
      violations: net.oracles.list().map((v) => ({
        oracle: v.oracle,
        class: v.class,
        atMs: v.atMs,
        time: at(v.atMs),
        node: v.node,
        message: v.message,
      })),
      faultsInForce: [...net.activeFaults].map(([index, f]) => ({ index, ...f })),
      injectedFaults: net.injected.map((f) => ({
        index: f.index,
        kind: f.kind,
        description: f.description,
        atMs: f.atMs,
        endsAtMs: f.endsAtMs,
      })),
      snapshots: net.snapshots.map(({ line: _line, ...s }) => s),
      timeOffsetS: net.timeOffsetS,
      journal: { file: paths(net.config.home).journal, entries: net.journalLines },
    };
  }

  pause() {
    return this.net.command(() => {
      const net = this.net;
      if (!net.paused) {
        net.paused = true;
        net.append([{ k: 'pause', b: net.run.barriers(), t: net.run.ranToMs() }]);
        net.logDaemon('devnet.pause', net.position());
      }
      return { paused: true, ...net.position() };
    });
  }

  resume() {
    return this.net.command(() => {
      const net = this.net;
      if (net.paused) {
        net.paused = false;
        net.append([{ k: 'resume', b: net.run.barriers(), t: net.run.ranToMs() }]);
        net.logDaemon('devnet.resume', net.position());
      }
      return { paused: false, ...net.position() };
    });
  }

  step(s: StepRequest) {
    return this.net.command(() => this.doStep(s));
  }

  snapshot(name: string | undefined) {
    return this.net.command(() => this.doSnapshot(name));
  }

  revert(ref: string, consume: boolean) {
    return this.net.command(() => this.doRevert(ref, consume));
  }

  async fault(spec: unknown): Promise<InjectedFault> {
    const net = this.net;
    const f = decodeLiveFault(spec, net.config.scenario);
    if (net.isStopped) throw new Error('the devnet is stopping');
    const encoded = encodeLiveFault(f, net.config.scenario);
    return new Promise((resolve, reject) => {
      net.enqueue({
        input: { k: 'fault', f: encoded },
        journaled: (done) => resolve(done.fault!),
        refused: (message) => reject(new Error(message)),
      });
    });
  }

  mine(node: number | undefined, req: MineRequest = { blocks: 1, intervalS: 0 }) {
    return this.net.command(() => this.doMine(node ?? this.net.config.nodeIndex, req));
  }

  increaseTime(seconds: number): Promise<number> {
    return this.net.command(() => this.doIncreaseTime(seconds));
  }

  setNextBlockTimestamp(node: number | undefined, timeS: number) {
    return this.net.command(() => this.doSetNextBlockTimestamp(node ?? this.net.config.nodeIndex, BigInt(timeS)));
  }

  setBalance(node: number | undefined, address: Address, balance: bigint) {
    return this.net.command(() => this.doSetBalance(node ?? this.net.config.nodeIndex, address, balance));
  }

  // --- the commands (in the devnet's loop, between windows) ------------------------------------

  private checkNode(n: number | undefined, field: string): number {
    const i = n ?? this.net.config.nodeIndex;
    if (!Number.isInteger(i) || i < 1 || i > this.net.nodeCount)
      throw new InputError(field, `no node ${i}: this devnet's nodes are 1-${this.net.nodeCount}`);
    return i;
  }

  private headOf(i: number) {
    return this.net.sidechainNode(i).chain.head();
  }

  private async doStep(s: StepRequest) {
    const net = this.net;
    const run = net.run;
    const node = this.checkNode(s.node, 'step.node');
    const from = { ...net.position(), events: run.events() };
    const head0 = this.headOf(node).block.header.number;
    let stoppedBecause = '';
    if (s.events !== undefined) {
      const goal = from.events + s.events;
      await net.runWhile(() => net.run.events() < goal);
      stoppedBecause = `${net.run.events() - from.events} events delivered (steps end at window barriers)`;
    } else if (s.untilMs !== undefined) {
      const until = s.untilMs;
      if (until < from.timeMs)
        throw new InputError('step.until', `the run is already at ${from.timeMs} ms, past ${until} ms`);
      const windows = await net.runWhile(() => {
        const next = net.run.peekRanToMs();
        return next !== null && next <= until;
      });
      const next = net.run.peekRanToMs();
      stoppedBecause =
        windows === 0 && net.run.ranToMs() < until
          ? `already at the last window barrier at or before ${until} ms (the next one is at ${next} ms)`
          : `the last window barrier at or before ${until} ms`;
    } else if (s.blocks !== undefined) {
      const goal = head0 + BigInt(s.blocks);
      const bound = from.timeMs + BLOCK_WAIT_BOUND_MS;
      await net.runWhile(() => this.headOf(node).block.header.number < goal && net.run.ranToMs() < bound);
      const head = this.headOf(node).block.header.number;
      stoppedBecause =
        head >= goal
          ? `sc-${node} reached block ${head}`
          : `sc-${node} made no ${s.blocks} blocks within ${BLOCK_WAIT_BOUND_MS / 60_000} min of virtual time (head ${head})`;
    }
    net.paused = true;
    const to = net.position();
    net.append([
      { k: 'advance', b: to.barrier, t: to.timeMs, by: 'step' },
      { k: 'pause', b: to.barrier, t: to.timeMs },
    ]);
    net.logDaemon('devnet.step', { from: from.timeMs, to: to.timeMs, stoppedBecause });
    return {
      ...to,
      paused: true,
      ranMs: to.timeMs - from.timeMs,
      events: net.run.events() - from.events,
      head: { node: `sc-${node}`, number: Number(this.headOf(node).block.header.number) },
      stoppedBecause,
      ...(net.ended ? { ended: net.ended } : {}),
    };
  }

  /** The earliest time the next block on node `i`'s head can be sealed (its in-turn producer's). */
  private earliestNext(i: number): bigint | null {
    const chain = this.net.sidechainNode(i).chain;
    const head = chain.head();
    return planProduction(chain.cfg, head, head.snapshot.validatorSet.proposer.address)?.timeS ?? null;
  }

  /** Virtual time to wait for node `i`'s next block: 10 min, past an operator's next-block time. */
  private blockBoundMs(i: number): number {
    const net = this.net;
    const t = net.sidechainNode(i).txs.nextBlockTime;
    const heldUntil = t ? Number(t.timeS) * 1000 - net.config.scenario.epochMs : 0;
    return Math.max(net.run.ranToMs(), heldUntil) + BLOCK_WAIT_BOUND_MS;
  }

  private async doMine(node: number, req: MineRequest) {
    const net = this.net;
    const i = this.checkNode(node, 'node');
    // A new block on top: the head number grows (a reorg at the same height is not one).
    const number = () => this.headOf(i).block.header.number;
    for (let k = 0; k < req.blocks; k++) {
      const start = number();
      if (req.intervalS > 0) {
        const t = this.headOf(i).block.header.time + BigInt(req.intervalS);
        const earliest = this.earliestNext(i);
        if (earliest !== null && t > earliest) net.acceptNow({ k: 'scTime', timeS: t.toString() });
      }
      const bound = this.blockBoundMs(i);
      await net.runWhile(() => number() <= start && net.run.ranToMs() < bound);
      if (number() <= start)
        throw new Error(
          `sc-${i} made no new block within ${BLOCK_WAIT_BOUND_MS / 60_000} min of virtual time (is it crashed or cut off? lockstep_status shows the faults in force)`,
        );
    }
    const to = net.position();
    net.append([{ k: 'advance', b: to.barrier, t: to.timeMs, by: 'evm_mine' }]);
    return { ...to, block: Number(number()) };
  }

  private async doIncreaseTime(seconds: number): Promise<number> {
    const net = this.net;
    const goal = net.run.ranToMs() + seconds * 1000;
    await net.runWhile(() => net.run.ranToMs() < goal);
    net.timeOffsetS += seconds;
    const to = net.position();
    net.append([{ k: 'advance', b: to.barrier, t: to.timeMs, by: 'evm_increaseTime', s: seconds }]);
    return net.timeOffsetS;
  }

  private doSetNextBlockTimestamp(node: number, timeS: bigint) {
    const i = this.checkNode(node, 'node');
    const head = this.headOf(i).block.header;
    if (timeS <= head.time)
      throw new InputError(
        'timestamp',
        `${timeS} is not after the time of sc-${i}'s head (block ${head.number} at ${head.time}): a block's time only grows`,
      );
    const earliest = this.earliestNext(i);
    if (earliest !== null && timeS < earliest)
      throw new InputError(
        'timestamp',
        `block ${head.number + 1n} cannot be sealed before ${earliest} (its parent's time ${head.time} plus the producer delay); give ${earliest} or later`,
      );
    this.net.acceptNow({ k: 'scTime', timeS: timeS.toString() });
    this.net.logDaemon('devnet.nextBlockTime', { block: (head.number + 1n).toString(), timeS: timeS.toString() });
    return { block: Number(head.number + 1n), timestamp: Number(timeS) };
  }

  private async doSetBalance(node: number, address: Address, balance: bigint) {
    const net = this.net;
    const i = this.checkNode(node, 'node');
    if (balance < 0n || balance >= U256)
      throw new InputError('balance', 'a balance is a 256-bit unsigned number of wei');
    const chain = net.sidechainNode(i).chain;
    const start = chain.head().block.header.number;
    net.acceptNow({ k: 'scBalance', address, balance: balance.toString() });
    const carried = () =>
      chain
        .canonicalRange(start + 1n)
        .some((b) => b.block.body.balances.some((o) => o.address === address && o.balance === balance));
    const bound = this.blockBoundMs(i);
    await net.runWhile(() => !carried() && net.run.ranToMs() < bound);
    if (!carried())
      throw new Error(
        `no block on sc-${i} carried the balance within ${BLOCK_WAIT_BOUND_MS / 60_000} min of virtual time (is it crashed or cut off?)`,
      );
    const to = net.position();
    net.append([{ k: 'advance', b: to.barrier, t: to.timeMs, by: 'anvil_setBalance' }]);
    return { ...to, block: Number(chain.head().block.header.number) };
  }

  private doSnapshot(name: string | undefined): SnapshotInfo {
    const net = this.net;
    const id = `0x${(net.nextSnapshotId++).toString(16)}`;
    const nm = name ?? id;
    const { barrier, timeMs } = net.position();
    net.append([{ k: 'snapshot', b: barrier, t: timeMs, id, name: nm }]);
    const info: SnapshotInfo = { id, name: nm, barrier, timeMs, line: net.journalLines - 1 };
    net.snapshots = net.snapshots.filter((s) => s.name !== nm);
    net.snapshots.push(info);
    net.logDaemon('devnet.snapshot', { id, name: nm, barrier, timeMs });
    return info;
  }

  /**
   * Truncate the journal at a snapshot (after it; before it when `consume`), keep the dropped tail
   * in a backup file, and rebuild the network by replaying what is left. The served mark goes back
   * to the snapshot: reading a lower block after a revert is what was asked for.
   */
  private async doRevert(ref: string, consume: boolean) {
    const net = this.net;
    const s = [...net.snapshots].reverse().find((x) => x.name === ref || x.id === ref);
    if (!s) return null;
    const entries = net.journalEntries();
    const keep = consume ? s.line : s.line + 1;
    const dropped = entries.slice(keep);
    const backup = backupJournal(paths(net.config.home).revertedJournal, dropped);
    net.rewriteJournal(entries.slice(0, keep));
    const wasPaused = net.paused;
    // Waiters of txs the revert dropped: those txs are not applied (they are in the backup).
    net.serviceTxs.reverted(s.name);
    net.sidechainTxs.clear();
    net.served.resetTo(s.barrier, s.timeMs);
    net.logDaemon('devnet.revert', {
      snapshot: s.name,
      id: s.id,
      barrier: s.barrier,
      dropped: dropped.length,
      backup,
    });
    net.load(entries.slice(0, keep), s.barrier, false);
    await net.catchUp();
    if (net.paused !== wasPaused) {
      net.paused = wasPaused;
      const at = net.position();
      net.append([
        wasPaused ? { k: 'pause', b: at.barrier, t: at.timeMs } : { k: 'resume', b: at.barrier, t: at.timeMs },
      ]);
    }
    return {
      reverted: s.name,
      id: s.id,
      ...net.position(),
      droppedEntries: dropped.length,
      backup,
      kept: !consume,
    };
  }
}
