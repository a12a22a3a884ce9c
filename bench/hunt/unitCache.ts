/**
 * Stryker's unit-test verdicts, kept between hunts: a verdict is reused when the mutant's identity,
 * the content of its file and the content of the unit tests (every test file, every test fixture
 * folder `testing/`, the vitest configs) are all what they were. Another change of the code (a
 * module a test calls besides the mutated one) is not in the key: a verdict then stands until
 * the tests or the file change; `--fresh-unit` runs them all again.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { globSync } from 'tinyglobby';
import { type MutantInfo } from '../mutation/population';
import { type UnitResult } from '../mutation/unitStage';

export const UNIT_CACHE_KIND = 'lockstep-hunt-unit-cache';

interface Entry extends UnitResult {
  fileHash: string;
  testsHash: string;
}

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** The hash of everything the unit project runs as tests. */
export function unitTestsHash(root: string): string {
  const files = globSync(
    [
      '{src,sim,scenarios,bench}/**/*.test.ts',
      '{src,sim,bench}/**/testing/**',
      'vitest.config.ts',
      'bench/mutation/vitest.unit.config.ts',
      'sim/testing/**',
    ],
    { cwd: root, ignore: ['**/node_modules/**'] },
  ).sort();
  const h = createHash('sha256');
  for (const f of files)
    h.update(`${f}\n`)
      .update(readFileSync(join(root, f)))
      .update('\n');
  return h.digest('hex');
}

export class UnitCache {
  private readonly entries: Record<string, Entry>;
  private readonly testsHash: string;
  private readonly fileHashes = new Map<string, string>();

  constructor(
    private readonly root: string,
    private readonly file: string,
    fresh = false,
  ) {
    this.testsHash = unitTestsHash(root);
    let entries: Record<string, Entry> = {};
    if (!fresh && existsSync(file)) {
      try {
        const o = JSON.parse(readFileSync(file, 'utf8')) as { kind?: string; entries?: Record<string, Entry> };
        if (o.kind === UNIT_CACHE_KIND && o.entries) entries = o.entries;
      } catch {
        // A broken cache is an empty one: the verdicts are measured again.
      }
    }
    this.entries = entries;
  }

  private fileHash(file: string): string {
    let h = this.fileHashes.get(file);
    if (h === undefined) {
      h = sha(readFileSync(join(this.root, file)));
      this.fileHashes.set(file, h);
    }
    return h;
  }

  get(m: MutantInfo): UnitResult | undefined {
    const e = this.entries[m.key];
    if (!e || e.testsHash !== this.testsHash || e.fileHash !== this.fileHash(m.file)) return undefined;
    return { status: e.status, strykerStatus: e.strykerStatus, detail: e.detail };
  }

  set(m: MutantInfo, r: UnitResult): void {
    this.entries[m.key] = { ...r, fileHash: this.fileHash(m.file), testsHash: this.testsHash };
  }

  save(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    writeFileSync(`${this.file}.tmp`, `${JSON.stringify({ kind: UNIT_CACHE_KIND, entries: this.entries }, null, 1)}\n`);
    renameSync(`${this.file}.tmp`, this.file);
  }
}
