/**
 * The devnet's journal: every input from outside the simulation and every action that changes the
 * run, one JSON line each, written and fsynced before the input enters the simulation (and so
 * before any client hears back). A restart replays genesis + seed + journal: each input enters
 * again at the same window barrier, so the network reaches the same state, block for block.
 *
 * Lines (`b` is the window barrier the line belongs to, `t` the virtual ms the run had reached):
 *   {"k":"tx","b":B,"node":"svc-1","tx":"0x…"}            a transaction from a client
 *   {"k":"scTx","b":B,"node":"sc-1","tx":"0x…"}           a signed sidechain transaction (eth_sendRawTransaction)
 *   {"k":"scBalance","b":B,"address":"0x…","balance":"<dec>"}  anvil_setBalance: carried by the next block
 *   {"k":"scTime","b":B,"timeS":"<dec>"}                  evm_setNextBlockTimestamp: the next block's earliest time
 *   {"k":"setHead","b":B,"node":"sc-1","n":"<dec>"}        the console's debug.setHead
 *   {"k":"fault","b":B,"f":{…}}                            a fault injected (the scenario's fault format)
 *   {"k":"snapshot","b":B,"t":T,"id":"0x1","name":"x"}     a snapshot: this position in the journal
 *   {"k":"pause","b":B,"t":T} / {"k":"resume","b":B,"t":T} the run was paused / resumed here
 *   {"k":"advance","b":B,"t":T,"by":"evm_mine","s":N}      a fast-forward (step, evm_mine, evm_increaseTime; s: seconds asked)
 *   {"k":"reached","b":B,"t":T}                            how far the network had run
 *
 * Inputs (tx, scTx, scBalance, scTime, setHead, fault) change the run; the others record positions: a restart runs
 * (unpaced) to the furthest barrier any line names, and comes back paused when the last pause or
 * resume line is a pause. A snapshot is a position in the journal (the lines before it and its
 * barrier); a revert truncates the journal after it (the dropped tail is kept in a backup file)
 * and replays. A torn last line (the process died mid-write) is dropped: it was never
 * acknowledged.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { InputError } from '../../src/core/errors';

export type JournalEntry =
  | { k: 'tx'; b: number; node: string; tx: string }
  | { k: 'scTx'; b: number; node: string; tx: string }
  | { k: 'scBalance'; b: number; address: string; balance: string }
  | { k: 'scTime'; b: number; timeS: string }
  | { k: 'setHead'; b: number; node: string; n: string }
  | { k: 'fault'; b: number; f: Record<string, unknown> }
  | { k: 'snapshot'; b: number; t: number; id: string; name: string }
  | { k: 'pause'; b: number; t: number }
  | { k: 'resume'; b: number; t: number }
  | { k: 'advance'; b: number; t: number; by: string; s?: number }
  | { k: 'reached'; b: number; t: number };

const INPUT_KINDS = ['tx', 'scTx', 'scBalance', 'scTime', 'setHead', 'fault'] as const;

export type JournalInput = Extract<JournalEntry, { k: (typeof INPUT_KINDS)[number] }>;

/** An input before it has a barrier (the one it is journaled at). */
export type JournalInputBody = JournalInput extends infer E ? (E extends JournalInput ? Omit<E, 'b'> : never) : never;

const KINDS: ReadonlySet<string> = new Set([...INPUT_KINDS, 'snapshot', 'pause', 'resume', 'advance', 'reached']);

const INPUTS: ReadonlySet<string> = new Set(INPUT_KINDS);

export function isInput(e: JournalEntry): e is JournalInput {
  return INPUTS.has(e.k);
}

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
    if (!e || typeof e !== 'object' || !KINDS.has(e.k) || !Number.isSafeInteger(e.b) || e.b < lastBarrier) {
      throw new InputError(`${file}:${i + 1}`, 'not a journal entry (or out of order); the journal is damaged');
    }
    lastBarrier = e.b;
    entries.push(e);
  }
  return { entries, tornTail };
}

/** Write a whole journal (after a torn tail or a revert), synced. */
export function writeJournal(file: string, entries: readonly JournalEntry[]): void {
  writeFileSync(file, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
  const fd = openSync(file, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export class Journal {
  private fd: number;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'a');
  }

  /** Append entries and sync them to disk before returning. */
  append(entries: readonly JournalEntry[], sync = true): void {
    if (entries.length === 0) return;
    writeSync(this.fd, `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
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

/**
 * Keep a dropped tail of a journal (a revert's, or a run opened at a time) in the next free backup
 * file `nth(1)`, `nth(2)`, …; the file's name.
 */
export function backupJournal(nth: (n: number) => string, dropped: readonly JournalEntry[]): string {
  let n = 1;
  while (existsSync(nth(n))) n++;
  writeFileSync(nth(n), dropped.map((e) => `${JSON.stringify(e)}\n`).join(''));
  return nth(n);
}
