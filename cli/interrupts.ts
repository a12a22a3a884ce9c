/**
 * Ctrl-C (SIGINT) and SIGTERM: the first asks the work to stop at its next step (the command then
 * reports verdict `interrupted`, exit 130). For work whose step can be long (a fuzz seed), a
 * second signal aborts at once (exit 130) — but only one that comes a while after the first:
 * under `npx`, a Ctrl-C reaches this process twice (from the terminal, and forwarded by npm).
 */
export type InterruptSignal = 'SIGINT' | 'SIGTERM';

const SIGNALS: InterruptSignal[] = ['SIGINT', 'SIGTERM'];
/** Signals closer than this to the first count as the same Ctrl-C. */
const SAME_PRESS_MS = 1_000;

export interface InterruptWatch {
  readonly requested: boolean;
  readonly signal: InterruptSignal | null;
  dispose(): void;
}

export function watchInterrupts(opts: {
  onFirst?: (signal: InterruptSignal) => void;
  /** Called on a later signal; without it, later signals are absorbed (the work is stopping). */
  onAbort?: (signal: InterruptSignal) => void;
  now?: () => number;
}): InterruptWatch {
  const now = opts.now ?? Date.now;
  let firstAt = 0;
  const state = { requested: false, signal: null as InterruptSignal | null };
  const handler = (signal: InterruptSignal) => {
    if (!state.requested) {
      state.requested = true;
      state.signal = signal;
      firstAt = now();
      opts.onFirst?.(signal);
    } else if (opts.onAbort && now() - firstAt > SAME_PRESS_MS) {
      opts.onAbort(signal);
    }
  };
  for (const s of SIGNALS) process.on(s, handler);
  return {
    get requested() {
      return state.requested;
    },
    get signal() {
      return state.signal;
    },
    dispose() {
      for (const s of SIGNALS) process.removeListener(s, handler);
    },
  };
}
