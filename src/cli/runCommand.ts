/** `lockstep run`: run a scenario, print progress and a summary (or one JSON object). */
import { runGossipDemo } from '../../sim/demo/gossipDemo';
import { parseDurationMs } from '../core/duration';
import { InputError } from '../core/errors';
import { EXIT } from './exitCodes';

export interface RunOptions {
  scenario: string;
  seed: number;
  until?: string;
  json: boolean;
}

export async function runCommand(opts: RunOptions): Promise<number> {
  if (!Number.isSafeInteger(opts.seed) || opts.seed < 0) throw new InputError('--seed', `expected a non-negative integer, got ${opts.seed}`);
  const untilMs = opts.until === undefined ? 60_000 : parseDurationMs(opts.until, '--until');
  if (opts.scenario !== 'demo') throw new InputError('--scenario', `unknown scenario ${JSON.stringify(opts.scenario)}; available: demo`);

  const wallStart = Date.now();
  const r = runGossipDemo({ seed: opts.seed, untilMs });
  const wallMs = Date.now() - wallStart;
  const verdict = r.verdict.runaway ? 'crash' : 'pass';
  if (opts.json) {
    process.stdout.write(
      JSON.stringify({ scenario: opts.scenario, seed: opts.seed, simulatedMs: r.verdict.nowMs, wallMs, traceHash: r.traceHash, verdict, events: r.verdict.events }) + '\n',
    );
  } else {
    const lines = [
      `scenario   ${opts.scenario} (engine demo: tokens gossiped between 5 nodes)`,
      `seed       ${opts.seed}`,
      `simulated  ${r.verdict.nowMs} ms in ${wallMs} ms of wall time`,
      `events     ${r.verdict.events} (${r.verdict.message})`,
      `per node   ${r.delivered.join(' ')}`,
      `trace      ${r.traceHash}`,
      `verdict    ${verdict}`,
    ];
    process.stdout.write(lines.join('\n') + '\n');
  }
  return verdict === 'pass' ? EXIT.pass : EXIT.crash;
}
