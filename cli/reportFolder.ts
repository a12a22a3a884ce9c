/**
 * A report folder written whole or not at all. Files go to a temporary sibling
 * (`<dir>.tmp-<pid>`); `commit` renames it into place only once everything is written, so an
 * earlier complete report is replaced only by a complete one. An interrupted run's partial report
 * goes to `<dir>.interrupted/` (replacing the previous interrupted one), never over `<dir>`.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export class ReportFolder {
  /** Where the files are written until `commit` / `keepInterrupted`. */
  readonly dir: string;
  private settled = false;

  constructor(readonly finalDir: string) {
    this.dir = join(dirname(finalDir), `${basename(finalDir)}.tmp-${process.pid}`);
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true });
  }

  static interruptedDir(finalDir: string): string {
    return `${finalDir}.interrupted`;
  }

  file(name: string): string {
    return join(this.dir, name);
  }

  write(name: string, data: string | Uint8Array): void {
    writeFileSync(this.file(name), data);
  }

  /** Put the complete report in place of the earlier one. */
  commit(): string {
    this.settle(this.finalDir);
    return this.finalDir;
  }

  /** Keep a partial report beside the complete one, never over it. */
  keepInterrupted(): string {
    const dir = ReportFolder.interruptedDir(this.finalDir);
    this.settle(dir);
    return dir;
  }

  /** Drop what was written (the run failed before it had a report). */
  discard(): void {
    if (this.settled) return;
    this.settled = true;
    rmSync(this.dir, { recursive: true, force: true });
  }

  private settle(target: string): void {
    if (this.settled) throw new Error('the report folder was already settled');
    this.settled = true;
    // A folder cannot be renamed over a non-empty one: move the old one aside first, then drop it.
    const old = `${target}.old-${process.pid}`;
    const hadOld = existsSync(target);
    if (hadOld) renameSync(target, old);
    renameSync(this.dir, target);
    if (hadOld) rmSync(old, { recursive: true, force: true });
  }
}
