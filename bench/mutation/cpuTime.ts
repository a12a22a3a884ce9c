/**
 * CPU time of this process and of its finished child processes (Stryker's test runners and
 * checkers), from /proc/self/stat on Linux: on a shared machine the wall time says more about the
 * neighbours than about the bench. Null where /proc is not there.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux everywhere in practice). */
const TICKS_PER_S = 100;

export interface CpuTime {
  selfMs: number;
  childrenMs: number;
}

export function cpuTime(): CpuTime | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces, hence the last ')').
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = (i: number) => Number(f[i - 3]);
    // utime 14, stime 15, cutime 16, cstime 17 (1-based fields of proc(5)).
    return {
      selfMs: ((ticks(14) + ticks(15)) * 1000) / TICKS_PER_S,
      childrenMs: ((ticks(16) + ticks(17)) * 1000) / TICKS_PER_S,
    };
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system, ms) of the calling thread alone, from /proc/thread-self/stat: what one
 * run on a worker thread costs, whatever else the process's other threads do. Null where /proc is
 * not there. Clock ticks: 10 ms steps.
 */
export function threadCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[14 - 3]) + Number(f[15 - 3])) * 1000) / TICKS_PER_S;
  } catch {
    return null;
  }
}
