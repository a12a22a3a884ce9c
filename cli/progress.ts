/**
 * Progress on stderr for long work. On a terminal: a bar redrawn in place with elapsed time and
 * ETA. Elsewhere (a CI log, a pipe): one plain status line at a steady wall-clock interval
 * (default 10 s; `--progress-interval` or LOCKSTEP_PROGRESS_INTERVAL), so a long job shows it is
 * alive. Lines that must stand on their own (a failing seed) go through `line`.
 */
import { parseDurationMs } from '../src/core/duration';
import { InputError } from '../src/core/errors';

export const DEFAULT_PROGRESS_INTERVAL_MS = 10_000;

export interface ProgressState {
  /** Work done and the total (null: open-ended, e.g. a campaign bounded by wall time). */
  done: number;
  total: number | null;
  /** What the bar and status line say after the counts (rate, failures, …). */
  detail: string;
  /** Estimated wall milliseconds to go (null: unknown). */
  etaMs: number | null;
}

export interface ProgressOptions {
  /** Show anything at all (false with --json). */
  enabled: boolean;
  /** The interval of status lines when stderr is not a terminal. */
  intervalMs: number;
  stream?: NodeJS.WriteStream;
  now?: () => number;
}

/** The status interval: the flag, else LOCKSTEP_PROGRESS_INTERVAL, else 10 s. */
export function progressIntervalMs(flag: string | undefined): number {
  const env = process.env.LOCKSTEP_PROGRESS_INTERVAL;
  const [value, field] =
    flag !== undefined ? [flag, '--progress-interval'] : env ? [env, 'LOCKSTEP_PROGRESS_INTERVAL'] : [null, ''];
  if (value === null) return DEFAULT_PROGRESS_INTERVAL_MS;
  const ms = parseDurationMs(value, field);
  if (ms < 100) throw new InputError(field, `must be at least 100ms, got ${value}`);
  return ms;
}

/** `1m05s`-style wall time for status lines. */
export function formatWall(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export class Progress {
  private readonly stream: NodeJS.WriteStream;
  private readonly now: () => number;
  private readonly tty: boolean;
  private readonly start: number;
  private state: ProgressState | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly label: string,
    private readonly opts: ProgressOptions,
  ) {
    this.stream = opts.stream ?? process.stderr;
    this.now = opts.now ?? Date.now;
    this.tty = this.stream.isTTY === true;
    this.start = this.now();
    if (opts.enabled && !this.tty) {
      this.timer = setInterval(() => this.statusLine(), opts.intervalMs);
      this.timer.unref();
    }
  }

  elapsedMs(): number {
    return this.now() - this.start;
  }

  update(state: ProgressState): void {
    this.state = state;
    if (!this.opts.enabled || !this.tty) return;
    const t = this.now();
    if (t - this.lastDraw < 100 && state.done !== state.total) return;
    this.lastDraw = t;
    this.draw();
  }

  /** A line of its own (e.g. a failing seed), in any mode. */
  line(text: string): void {
    if (!this.opts.enabled) return;
    if (this.tty && this.drawn) this.stream.write('\r\x1b[K');
    this.stream.write(`${text}\n`);
    if (this.tty && this.state) this.draw();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.opts.enabled && this.tty && this.drawn) this.stream.write('\n');
    this.drawn = false;
  }

  private counts(s: ProgressState): string {
    return s.total === null ? `${s.done}` : `${s.done}/${s.total}`;
  }

  private timing(s: ProgressState): string {
    return `elapsed ${formatWall(this.elapsedMs())}, ETA ${s.etaMs === null ? '?' : formatWall(s.etaMs)}`;
  }

  private draw(): void {
    const s = this.state!;
    const frac = s.total ? Math.min(1, s.done / s.total) : null;
    const bar = frac === null ? '' : `[${'='.repeat(Math.floor(frac * 30)).padEnd(30)}] `;
    this.stream.write(`\r\x1b[K${bar}${this.counts(s)} ${this.label}  ${s.detail}  ${this.timing(s)}`);
    this.drawn = true;
  }

  private statusLine(): void {
    const s = this.state;
    if (!s) {
      this.stream.write(`progress  starting (${formatWall(this.elapsedMs())})\n`);
      return;
    }
    const pct = s.total ? ` (${Math.floor((100 * s.done) / s.total)}%)` : '';
    this.stream.write(`progress  ${this.counts(s)} ${this.label}${pct}, ${s.detail}, ${this.timing(s)}\n`);
  }
}
