import { describe, expect, it } from 'vitest';
import { formatWall, Progress, progressIntervalMs } from './progress';

/** A stand-in for stderr: records what is written; a terminal or not. */
function stream(tty: boolean) {
  const out: string[] = [];
  return { out, s: { isTTY: tty, write: (x: string) => out.push(x) > 0 } as unknown as NodeJS.WriteStream };
}

describe('progress', () => {
  it('not on a terminal: a plain status line at each interval, and standalone lines', async () => {
    const { out, s } = stream(false);
    const p = new Progress('seeds', { enabled: true, intervalMs: 20, stream: s });
    p.update({ done: 3, total: 10, detail: '1 failing, 0.50 seeds/s', etaMs: 14_000 });
    await new Promise((r) => setTimeout(r, 70));
    p.line('FAIL seed 7: safety');
    p.stop();
    const n = out.length;
    await new Promise((r) => setTimeout(r, 50));
    expect(out.length).toBe(n);
    const status = out.filter((l) => l.startsWith('progress'));
    expect(status.length).toBeGreaterThanOrEqual(2);
    expect(status[0]).toMatch(/^progress {2}3\/10 seeds \(30%\), 1 failing, 0\.50 seeds\/s, elapsed 0s, ETA 14s\n$/);
    expect(out).toContain('FAIL seed 7: safety\n');
    expect(out.join('')).not.toContain('\r');
  });

  it('on a terminal: a bar redrawn in place with elapsed time and ETA; no status lines', async () => {
    const { out, s } = stream(true);
    const p = new Progress('s simulated', { enabled: true, intervalMs: 10, stream: s });
    p.update({ done: 90, total: 360, detail: '200x', etaMs: 65_000 });
    await new Promise((r) => setTimeout(r, 40));
    p.stop();
    const clearLine = '\r\u001b[K';
    expect(out[0]!.startsWith(clearLine)).toBe(true);
    expect(out[0]!.slice(clearLine.length)).toMatch(
      /^\[=======\s+\] 90\/360 s simulated {2}200x {2}elapsed 0s, ETA 1m05s$/,
    );
    expect(out.some((l) => l.startsWith('progress'))).toBe(false);
    expect(out.at(-1)).toBe('\n');
  });

  it('disabled (--json): silent', () => {
    const { out, s } = stream(false);
    const p = new Progress('seeds', { enabled: false, intervalMs: 10, stream: s });
    p.update({ done: 1, total: 2, detail: '', etaMs: null });
    p.line('x');
    p.stop();
    expect(out).toEqual([]);
  });

  it('the interval comes from the flag, else the environment, else 10 s; it needs a unit', () => {
    const saved = process.env.LOCKSTEP_PROGRESS_INTERVAL;
    try {
      delete process.env.LOCKSTEP_PROGRESS_INTERVAL;
      expect(progressIntervalMs(undefined)).toBe(10_000);
      process.env.LOCKSTEP_PROGRESS_INTERVAL = '2s';
      expect(progressIntervalMs(undefined)).toBe(2000);
      expect(progressIntervalMs('500ms')).toBe(500);
      expect(() => progressIntervalMs('5')).toThrow(/^--progress-interval: a bare number is ambiguous/);
      process.env.LOCKSTEP_PROGRESS_INTERVAL = '10ms';
      expect(() => progressIntervalMs(undefined)).toThrow(/^LOCKSTEP_PROGRESS_INTERVAL: must be at least 100ms/);
    } finally {
      if (saved === undefined) delete process.env.LOCKSTEP_PROGRESS_INTERVAL;
      else process.env.LOCKSTEP_PROGRESS_INTERVAL = saved;
    }
    expect(formatWall(65_000)).toBe('1m05s');
    expect(formatWall(3_723_000)).toBe('1h02m');
  });
});
