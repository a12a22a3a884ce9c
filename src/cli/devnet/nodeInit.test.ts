/**
 * `lockstep node init`'s choices: the genesis time written into genesis (so replays stay
 * deterministic and block times start at that date), a start that pauses at a time, and the flag
 * combinations it refuses, each error naming the flag.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type InitCliOptions, nodeInit, parseGenesisTime } from './nodeCommand';
import { loadHome, paths } from './home';

const root = mkdtempSync(join(tmpdir(), 'lockstep-init-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const base = (name: string): InitCliOptions => ({
  home: join(root, name),
  host: '127.0.0.1',
  restPort: 0,
  rpcPort: 0,
  jsonRpcPort: 0,
  wsPort: 0,
  overwrite: false,
});

describe('node init', () => {
  it('--genesis-time writes a fixed genesis time into both genesis files and the scenario', async () => {
    const o = { ...base('dated'), genesisTime: '2024-05-01T12:00:00Z' };
    const out = await nodeInit(o);
    const ms = Date.parse('2024-05-01T12:00:00Z');
    expect(out).toContain('genesis time 2024-05-01T12:00:00Z');
    const p = paths(o.home);
    expect(JSON.parse(readFileSync(p.genesis, 'utf8')).genesis_time_ms).toBe(ms);
    expect(JSON.parse(readFileSync(p.sidechainGenesis, 'utf8')).timestamp).toBe(ms / 1000);
    expect(loadHome(o.home).scenario.epochMs).toBe(ms);
  });

  it('parseGenesisTime: now is taken to the second; a bad value names the flag', () => {
    expect(parseGenesisTime('now', 1_715_000_123_456)).toBe(1_715_000_123_000);
    expect(() => parseGenesisTime('yesterday', 0)).toThrow(/--genesis-time: expected "now" or a date/);
  });

  it('--at makes the first start pause at that time', async () => {
    const o = { ...base('at'), scenario: 'devnet', seed: 2, at: '90s' };
    expect(await nodeInit(o)).toContain('pauses at the last window barrier before 90.001 s (--at 1m30s)');
    expect(loadHome(o.home).start).toEqual({ pauseBeforeMs: 90_001, note: '--at 1m30s' });
  });

  it('refuses what does not go together, naming the flag', async () => {
    await expect(nodeInit({ ...base('x1'), beforeViolation: true })).rejects.toThrow(
      /--before-violation: needs --from-report/,
    );
    await expect(nodeInit({ ...base('x2'), fromReport: root, genesisTime: 'now' })).rejects.toThrow(/--genesis-time/);
    await expect(nodeInit({ ...base('x3'), fromReport: root, scenario: 'devnet' })).rejects.toThrow(/--scenario/);
    await expect(nodeInit({ ...base('x4'), at: '10s', beforeViolation: true, fromReport: root })).rejects.toThrow(
      /--at/,
    );
    await expect(nodeInit({ ...base('x5'), fromReport: join(root, 'nothing') })).rejects.toThrow(
      /--from-report: no summary\.json/,
    );
    await expect(nodeInit({ ...base('dated') })).rejects.toThrow(/already holds a devnet/);
  });
});
