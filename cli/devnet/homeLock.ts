/** The home folder's lock: one running devnet per home (a stale lock of a killed process is taken over). */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { InputError } from '../../src/core/errors';
import { paths } from './home';

export function takeLock(home: string): void {
  assertNotRunning(home);
  writeFileSync(paths(home).lock, `${process.pid}\n`);
}

export function releaseLock(home: string): void {
  const f = paths(home).lock;
  if (existsSync(f) && readFileSync(f, 'utf8').trim() === String(process.pid)) rmSync(f);
}

export function isRunning(home: string): boolean {
  const f = paths(home).lock;
  if (!existsSync(f)) return false;
  const pid = Number(readFileSync(f, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 && isAlive(pid);
}

export function assertNotRunning(home: string): void {
  const f = paths(home).lock;
  if (!existsSync(f)) return;
  const pid = Number(readFileSync(f, 'utf8').trim());
  if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid))
    throw new InputError('--home', `a devnet is already running on ${home} (pid ${pid}); stop it first`);
  // A stale lock: its process was killed.
  rmSync(f);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
