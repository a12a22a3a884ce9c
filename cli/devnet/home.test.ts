import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../sim/scenario/load';
import { DEFAULT_PORTS, initHome, loadHome, paths } from './home';

const root = mkdtempSync(join(tmpdir(), 'lockstep-home-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the WebSocket port in the home folder', () => {
  const { scenario } = loadScenario('devnet');
  const make = (name: string) => {
    const home = join(root, name);
    initHome({ home, scenario, seed: 1, host: '127.0.0.1', ports: { ...DEFAULT_PORTS }, overwrite: false });
    return home;
  };

  it('is written as sidechain.ws_laddr beside rpc_laddr and read back (8546 by default)', () => {
    const home = make('default');
    const toml = readFileSync(paths(home).daemonConfig, 'utf8');
    expect(toml).toMatch(/ws_laddr = "tcp:\/\/127\.0\.0\.1:8546"/);
    expect(loadHome(home).ports).toEqual({ rest: 1317, status: 26657, jsonRpc: 8545, ws: 8546 });
  });

  it('a home written before the endpoint existed (no ws_laddr) serves it on any free port', () => {
    const home = make('old');
    const f = paths(home).daemonConfig;
    writeFileSync(f, readFileSync(f, 'utf8').replace(/^ws_laddr = .*\n/m, ''));
    expect(loadHome(home).ports.ws).toBe(0);
  });

  it('a bad ws_laddr is an error naming the file and field', () => {
    const home = make('bad');
    const f = paths(home).daemonConfig;
    writeFileSync(f, readFileSync(f, 'utf8').replace(/^ws_laddr = .*$/m, 'ws_laddr = "ws://nowhere"'));
    expect(() => loadHome(home)).toThrow(/lockstep-config\.toml: sidechain\.ws_laddr.*tcp:\/\/HOST:PORT/);
  });
});
