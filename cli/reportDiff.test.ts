/**
 * `report diff` refuses what it cannot compare with an error naming the side, and its JSON says
 * whether two runs are identical (in-process: the runs are made here, no CLI process).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { scratchDir } from './cliHarness';
import { parseRunSpec, reportDiffCommand } from './reportDiff';

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function json(sides: string[]): Promise<Record<string, unknown>> {
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
    out.push(String(s));
    return true;
  });
  try {
    expect(await reportDiffCommand({ sides, json: true })).toBe(0);
  } finally {
    spy.mockRestore();
  }
  return JSON.parse(out.join('')) as Record<string, unknown>;
}

describe('report diff', () => {
  it('reads SCENARIO@SEED[@COMMIT]', () => {
    expect(parseRunSpec('smoke@7')).toEqual({ scenario: 'smoke', seed: 7, commit: null });
    expect(parseRunSpec('a/b.json@1@ABCDEF1')).toEqual({ scenario: 'a/b.json', seed: 1, commit: 'abcdef1' });
    expect(parseRunSpec('smoke')).toBeNull();
  });

  it('refuses a third side, something that is not a run, a folder of another kind, and another commit', async () => {
    await expect(reportDiffCommand({ sides: ['a', 'b', 'c'], json: true })).rejects.toThrow(
      /report diff compares two runs/,
    );
    await expect(reportDiffCommand({ sides: ['no/such/thing', 'x'], json: true })).rejects.toThrow(
      /^A: "no\/such\/thing" is neither a report folder nor a run given as SCENARIO@SEED/,
    );
    const fuzz = join(dir, 'fuzz');
    mkdirSync(fuzz);
    writeFileSync(join(fuzz, 'summary.json'), JSON.stringify({ kind: 'lockstep-fuzz-shard' }));
    await expect(reportDiffCommand({ sides: [fuzz, fuzz], json: true })).rejects.toThrow(
      /is not the report of one run/,
    );
    await expect(reportDiffCommand({ sides: ['smoke@1', 'smoke@1@0000000'], json: true })).rejects.toThrow(
      /^B: this build is commit \S+, not 0000000/,
    );
  });

  it('two runs of one seed are identical; of two seeds not, with the first differing record on both sides', async () => {
    const file = join(dir, 'short.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'short',
        crypto: 'fast',
        duration: '20s',
        validators: [{ stake: 1 }, { stake: 1 }, { stake: 1 }, { stake: 1 }],
      }),
    );
    expect(await json([`${file}@3`, `${file}@3`])).toMatchObject({ identical: true });
    const d = (await json([`${file}@3`, `${file}@4`])) as {
      identical: boolean;
      trace: { first: { a: { index: number }; b: { index: number } } };
    };
    expect(d.identical).toBe(false);
    expect(d.trace.first.a.index).toBe(d.trace.first.b.index);
  }, 60_000);
});
