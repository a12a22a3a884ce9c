/**
 * A sweep's journal, `runs.jsonl` in its results folder: a header line (the plan, the build, the
 * shard) and one line per finished run, appended as each run ends, so Ctrl-C (or a crash of the
 * machine) loses only the runs under way. Run the sweep again and it reads the journal, keeps the
 * runs that still match (same cell, seed and scenario file, same source tree: reuse.ts) and runs
 * the rest.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type SweepRunRecord } from '../campaign/sweepTask';
import { type SweepPlan } from './plan';
import { type SourceState } from '../core/sourceState';

export const JOURNAL_FILE = 'runs.jsonl';
export const JOURNAL_KIND = 'lockstep-sweep-journal';

export interface JournalHeader {
  kind: typeof JOURNAL_KIND;
  plan: SweepPlan;
  version: string;
  /** The source tree the runs are made from (every run also records its own). */
  source: SourceState;
  /** The files with uncommitted changes the source's hash covers. */
  sourceFiles: string[];
  shard: { index: number; count: number };
}

export interface Journal {
  header: JournalHeader;
  records: SweepRunRecord[];
}

/** A folder's journal; null when there is none. A last line cut short by an interruption is dropped. */
export function readJournal(dir: string): Journal | null {
  const file = join(dir, JOURNAL_FILE);
  if (!existsSync(file)) return null;
  const lines = readFileSync(file, 'utf8').split('\n');
  let header: JournalHeader | null = null;
  const records: SweepRunRecord[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // Only the last line can be partial (appends are whole lines); anything else is damage.
      if (i >= lines.length - 2) return;
      throw new Error(`${file}:${i + 1}: not a JSON line`);
    }
    if (header === null) {
      if ((value as { kind?: unknown }).kind !== JOURNAL_KIND)
        throw new Error(`${file}: not a sweep journal (no "${JOURNAL_KIND}" header)`);
      header = value as JournalHeader;
    } else records.push(value as SweepRunRecord);
  });
  if (header === null) return null;
  return { header, records };
}

/** Start a journal: the header and the runs kept from before; then `append` one run at a time. */
export class JournalWriter {
  private readonly file: string;

  constructor(dir: string, header: JournalHeader, kept: readonly SweepRunRecord[]) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, JOURNAL_FILE);
    const tmp = `${this.file}.tmp-${process.pid}`;
    writeFileSync(tmp, [header, ...kept].map((x) => `${JSON.stringify(x)}\n`).join(''));
    renameSync(tmp, this.file);
  }

  append(r: SweepRunRecord): void {
    appendFileSync(this.file, `${JSON.stringify(r)}\n`);
  }
}
