/**
 * The devnet's journal: every input from outside the simulation, one JSON line each, written and
 * fsynced before the input enters the simulation (and so before any client hears back). A restart
 * replays genesis + seed + journal: each input enters again at the same window barrier, so the
 * network reaches the same state, block for block.
 *
 * Lines:
 *   {"k":"tx","b":<barrier>,"node":"svc-1","tx":"0x…"}        a transaction from a client
 *   {"k":"setHead","b":<barrier>,"node":"sc-1","n":"<dec>"}    the console's debug.setHead
 *   {"k":"reached","b":<barrier>,"t":<virtual ms>}             how far the network had run
 *
 * `reached` lines let a restart run (unpaced) back to where the devnet stopped. A torn last line
 * (the process died mid-write) is dropped: its input was never acknowledged.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { InputError } from '../../core/errors';

export type JournalEntry =
  | { k: 'tx'; b: number; node: string; tx: string }
  | { k: 'setHead'; b: number; node: string; n: string }
  | { k: 'reached'; b: number; t: number };

export function readJournal(file: string): { entries: JournalEntry[]; tornTail: boolean } {
  if (!existsSync(file)) return { entries: [], tornTail: false };
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const entries: JournalEntry[] = [];
  let tornTail = false;
  let lastBarrier = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    let e: JournalEntry;
    try {
      e = JSON.parse(line) as JournalEntry;
    } catch {
      // Only the very last line may be torn; anything else means the file was edited or damaged.
      if (i === lines.length - 1) {
        tornTail = true;
        break;
      }
      throw new InputError(
        `${file}:${i + 1}`,
        'not a JSON line; the journal is damaged (`lockstep node unsafe-reset-all` starts over)',
      );
    }
    if (
      !e ||
      typeof e !== 'object' ||
      !['tx', 'setHead', 'reached'].includes(e.k) ||
      !Number.isSafeInteger(e.b) ||
      e.b < lastBarrier
    ) {
      throw new InputError(`${file}:${i + 1}`, 'not a journal entry (or out of order); the journal is damaged');
    }
    lastBarrier = e.b;
    entries.push(e);
  }
  return { entries, tornTail };
}

export class Journal {
  private fd: number;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'a');
  }

  /** Append entries and sync them to disk before returning. */
  append(entries: readonly JournalEntry[], sync = true): void {
    if (entries.length === 0) return;
    writeSync(this.fd, entries.map((e) => JSON.stringify(e)).join('\n') + '\n');
    if (sync) fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd >= 0) {
      fsyncSync(this.fd);
      closeSync(this.fd);
      this.fd = -1;
    }
  }
}
