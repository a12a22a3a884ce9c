/**
 * `lockstep node init`'s choices: the genesis time written into genesis (so replays stay
 * deterministic and block times start at that date), a start that pauses at a time, and the flag
 * combinations it refuses, each error naming the flag.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeAddress } from 'ethers';
import { type InitCliOptions, nodeInit, parseGenesisTime, showAccount, unsafeResetAll } from './nodeInit';
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

describe('daemon commands', () => {
  it('node init lays out the operator files: genesis, the two config files, the seeds list, the sidechain genesis', async () => {
    const o = base('files');
    await nodeInit(o);
    const p = paths(o.home);
    expect(p.genesis).toBe(join(o.home, 'config', 'genesis.json'));
    expect(p.sidechainGenesis).toBe(join(o.home, 'sidechain', 'genesis.json'));
    for (const f of [p.genesis, p.daemonConfig, p.nodeConfig, p.seeds, p.sidechainGenesis])
      expect(readFileSync(f, 'utf8').length, f).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(p.genesis, 'utf8')).chain_id).toBe(loadHome(o.home).chainId);
  });

  it('show-account prints the address and pub_key of the node key', async () => {
    const o = base('account');
    await nodeInit(o);
    const shown = JSON.parse(showAccount(o.home)) as Record<string, string>;
    expect(Object.keys(shown)).toEqual(['address', 'pub_key']);
    expect(shown.pub_key).toMatch(/^0x04[0-9a-f]{128}$/);
    // The address is the key's own (keccak of the public key), in lower case.
    expect(shown.address).toBe(computeAddress(shown.pub_key!).toLowerCase());
  });

  it('unsafe-reset-all removes the chain data and keeps config and keys', async () => {
    const o = base('reset');
    await nodeInit(o);
    const p = paths(o.home);
    const keys = readdirSync(p.keys).sort();
    const genesis = readFileSync(p.genesis, 'utf8');
    writeFileSync(p.journal, '{}\n');
    writeFileSync(p.revertedJournal(1), '{}\n');
    const out = unsafeResetAll(o.home);
    expect(out).toContain(`removed ${p.journal}`);
    expect(out).toMatch(/chain data reset; config and keys kept/);
    expect(existsSync(p.journal)).toBe(false);
    expect(existsSync(p.revertedJournal(1))).toBe(false);
    expect(readdirSync(p.keys).sort()).toEqual(keys);
    expect(readFileSync(p.genesis, 'utf8')).toBe(genesis);
    expect(unsafeResetAll(o.home)).toBe('nothing to reset (no chain data); config and keys kept\n');
  });
});
