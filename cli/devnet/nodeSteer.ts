import { resolve } from 'node:path';
import { InputError } from '../../src/core/errors';
import { parseStepRequest } from '../../src/rpc/jsonrpc/adminMethods';
import { loadHome, paths } from './home';
import { LiveNetwork } from './liveNetwork';
import { readJournal } from './journal';
import { readServedMark } from './servedMark';
import { defaultReportDir, writeDevnetReport } from './devnetReport';
import { adminCall, boundPorts } from './adminClient';
import { decodeLiveFault, describeFault, faultFromArgs, type FaultArgs } from './faultInput';
import { isRunning } from './homeLock';
import { throttle } from './throttle';

interface StatusJson {
  state: string;
  timeMs: number;
  time: string;
  barrier: number;
  events: number;
  speed: number;
  nodeIndex: number;
  plant?: string;
  ended?: string;
  nodes: Array<{
    node: number;
    service: { id: string; height: number; alive: boolean };
    sidechain: { id: string; head: number; hash: string; alive: boolean };
  }>;
  violations: Array<{ oracle: string; class: string; atMs: number; node: string; message: string }>;
  faultsInForce: Array<{ index: number; kind: string; detail: string }>;
  injectedFaults: Array<{ index: number; description: string; atMs: number; endsAtMs: number | null }>;
  snapshots: Array<{ id: string; name: string; barrier: number; timeMs: number }>;
  timeOffsetS: number;
}

const sec = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

export function formatStatus(s: StatusJson): string {
  const lines = [
    `state       ${s.state}${s.state === 'running' ? ` (${s.speed}x)` : ''} at ${sec(s.timeMs)} (${s.time}), window barrier ${s.barrier}, ${s.events} events`,
  ];
  if (s.ended) lines.push(`ended       ${s.ended}`);
  if (s.plant) lines.push(`plant       ${s.plant} (planted bug on)`);
  for (const n of s.nodes)
    lines.push(
      `node ${String(n.node).padEnd(7)}service ${n.service.height}${n.service.alive ? '' : ' (down)'}, sidechain ${n.sidechain.head} ${n.sidechain.hash.slice(0, 10)}…${n.sidechain.alive ? '' : ' (down)'}${n.node === s.nodeIndex ? '  (default)' : ''}`,
    );
  lines.push(
    s.violations.length
      ? `violations  ${s.violations.length}`
      : 'violations  none (the oracles check as the network runs; end-of-run checks run in the report)',
  );
  for (const v of s.violations)
    lines.push(`  ${v.oracle} (${v.class}) at ${sec(v.atMs)} on ${v.node || 'the network'}: ${v.message}`);
  if (s.faultsInForce.length)
    lines.push(`faults      in force: ${s.faultsInForce.map((f) => `#${f.index} ${f.kind} (${f.detail})`).join('; ')}`);
  for (const f of s.injectedFaults)
    lines.push(
      `  injected #${f.index}: ${f.description}, from ${sec(f.atMs)}${f.endsAtMs !== null ? ` to ${sec(f.endsAtMs)}` : ''}`,
    );
  if (s.snapshots.length)
    lines.push(`snapshots   ${s.snapshots.map((x) => `${x.name} (${x.id}, ${sec(x.timeMs)})`).join(', ')}`);
  if (s.timeOffsetS) lines.push(`time offset ${s.timeOffsetS} s (evm_increaseTime)`);
  return `${lines.join('\n')}\n`;
}

export async function nodeStatus(home: string, json: boolean): Promise<string> {
  const s = (await adminCall(home, 'lockstep_status')) as StatusJson;
  return json ? `${JSON.stringify(s)}\n` : formatStatus(s);
}

const position = (r: { timeMs: number; barrier: number }) => `${sec(r.timeMs)} (window barrier ${r.barrier})`;

export async function nodePause(home: string, json: boolean): Promise<string> {
  const r = (await adminCall(home, 'lockstep_pause')) as { timeMs: number; barrier: number };
  return json ? `${JSON.stringify(r)}\n` : `paused at ${position(r)}\n`;
}

export async function nodeResume(home: string, json: boolean): Promise<string> {
  const r = (await adminCall(home, 'lockstep_resume')) as { timeMs: number; barrier: number };
  return json ? `${JSON.stringify(r)}\n` : `running from ${position(r)}\n`;
}

export async function nodeStep(
  home: string,
  a: { events?: number; until?: string; blocks?: number; node?: number },
  json: boolean,
): Promise<string> {
  const req: Record<string, unknown> = {};
  if (a.events !== undefined) req.events = a.events;
  if (a.until !== undefined) req.until = a.until;
  if (a.blocks !== undefined) req.blocks = a.blocks;
  if (a.node !== undefined) req.node = a.node;
  // Checked here too, so a bad flag names the flag before anything is sent.
  try {
    parseStepRequest(Object.keys(req).length ? req : undefined);
  } catch (e) {
    if (e instanceof InputError)
      throw new InputError(`--${e.field.replace(/^step\.?/, '') || 'events'}`, e.message.slice(e.field.length + 2));
    throw e;
  }
  const r = (await adminCall(home, 'lockstep_step', Object.keys(req).length ? [req] : [])) as {
    timeMs: number;
    barrier: number;
    ranMs: number;
    events: number;
    stoppedBecause: string;
    head: { node: string; number: number };
  };
  return json
    ? `${JSON.stringify(r)}\n`
    : `paused at ${position(r)}: ran ${r.ranMs} ms, ${r.events} events; ${r.stoppedBecause}; ${r.head.node} head ${r.head.number}\n`;
}

export async function nodeSnapshot(home: string, name: string, json: boolean): Promise<string> {
  const r = (await adminCall(home, 'lockstep_snapshot', [name])) as {
    id: string;
    name: string;
    timeMs: number;
    barrier: number;
  };
  return json ? `${JSON.stringify(r)}\n` : `snapshot ${r.name} (${r.id}) at ${position(r)}\n`;
}

export async function nodeRevert(home: string, name: string, json: boolean): Promise<string> {
  const r = (await adminCall(home, 'lockstep_revert', [name])) as {
    reverted: string;
    timeMs: number;
    barrier: number;
    droppedEntries: number;
    backup: string;
  };
  return json
    ? `${JSON.stringify(r)}\n`
    : `reverted to ${r.reverted} at ${position(r)}; ${r.droppedEntries} journal entries dropped (kept in ${r.backup})\n`;
}

export async function nodeFault(home: string, a: FaultArgs & { json?: string }, asJson: boolean): Promise<string> {
  let spec: unknown;
  if (a.json !== undefined) {
    try {
      spec = JSON.parse(a.json);
    } catch (e) {
      throw new InputError('--json', `not JSON: ${(e as Error).message}`);
    }
  } else spec = faultFromArgs(a);
  // Checked here, against the home's network, before anything is sent: a bad fault names its field.
  decodeLiveFault(spec, loadHome(home).scenario);
  const r = (await adminCall(home, 'lockstep_fault', [spec])) as {
    index: number;
    fault: Record<string, unknown>;
    atMs: number;
    endsAtMs: number | null;
    barrier: number;
  };
  return asJson
    ? `${JSON.stringify(r)}\n`
    : `fault #${r.index} ${describeFault(r.fault)}: starts at ${sec(r.atMs)} (window barrier ${r.barrier})${r.endsAtMs !== null ? `, ends at ${sec(r.endsAtMs)}` : ''}\n`;
}

/**
 * `lockstep node report`: replay the journal here (not in the running devnet) up to where the
 * devnet is, or was when it stopped, and write the report folder.
 */
export async function nodeReport(
  home: string,
  outDir: string | undefined,
  progress: (line: string) => void,
): Promise<string> {
  const config = loadHome(home);
  const p = paths(home);
  let untilBarrier: number;
  if (boundPorts(home) && isRunning(home)) {
    const s = (await adminCall(home, 'lockstep_status')) as { barrier: number; state: string };
    if (s.state === 'replaying')
      throw new InputError('--home', 'the devnet is still replaying its journal: ask again once it has caught up');
    untilBarrier = s.barrier;
  } else {
    const { entries } = readJournal(p.journal);
    untilBarrier = Math.max(readServedMark(p.served).b, ...entries.map((e) => e.b), 0);
  }
  const net = new LiveNetwork(config, {
    readOnly: { untilBarrier },
    onReplayProgress: throttle(
      (done, total) => progress(`replaying: ${(done / 1000).toFixed(0)} of ${(total / 1000).toFixed(0)} s simulated`),
      2_000,
    ),
  });
  await net.start();
  const result = net.run.finish();
  const injected = net.injectedFaults();
  await net.stop();
  const dir = writeDevnetReport({
    config,
    result,
    injected,
    journal: readJournal(p.journal).entries.filter((e) => e.b <= untilBarrier),
    outDir: resolve(outDir ?? defaultReportDir(home)),
  });
  return `report of ${(result.simulatedMs / 1000).toFixed(1)} s (window barrier ${untilBarrier}): verdict ${result.verdict}${result.violation ? ` (${result.violation.oracle}: ${result.violation.message})` : ''}, ${injected.length} fault${injected.length === 1 ? '' : 's'} injected\n${dir}\n`;
}
