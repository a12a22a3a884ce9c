/**
 * Drive one run step by step on the real event loop: progress between steps, and a stop at the
 * next step once an interrupt was asked for (the result then says `interrupted`).
 */
import { prepareRunAsync, type Placement, type RunOptions, type RunResult } from '../sim/run/run';
import { type Scenario } from '../sim/scenario/scenario';
import { type Progress } from './progress';

const STEP_MS = 1_000;

export interface DriveOptions {
  progress: Progress | null;
  shouldStop: () => boolean;
}

export async function driveRun(
  scenario: Scenario,
  opts: RunOptions & { placement: Placement },
  drive: DriveOptions,
): Promise<RunResult> {
  const untilMs = opts.untilMs ?? scenario.durationMs;
  const progress = drive.progress;
  const report = (simMs: number) => {
    if (!progress) return;
    const wallS = Math.max(0.001, progress.elapsedMs() / 1000);
    const speed = simMs / 1000 / wallS;
    progress.update({
      done: Math.floor(simMs / 1000),
      total: Math.floor(untilMs / 1000),
      detail: `${speed.toFixed(0)}x`,
      etaMs: simMs > 0 ? ((untilMs - simMs) / 1000 / speed) * 1000 : null,
    });
  };
  report(0);
  const run = await prepareRunAsync(scenario, {
    // Short steps (1 s of simulated time, a few ms of wall time) keep the event loop responsive:
    // a signal is handled within milliseconds (a `tsx` parent kills a child that does not
    // acknowledge a relayed Ctrl-C within 30 ms). Step lengths never change a run's results.
    stepMs: STEP_MS,
    ...opts,
    onProgress: (simMs) => {
      report(simMs);
      return drive.shouldStop() ? 'stop' : undefined;
    },
  });
  try {
    // Yield to the event loop between steps so signals, timers and output get through.
    while ((await run.step()) === 'more') await new Promise((r) => setImmediate(r));
    return await run.finish();
  } finally {
    await run.close();
  }
}
