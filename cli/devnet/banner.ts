/** What `lockstep node start` prints when the servers listen and when the devnet has caught up. */
import { readFileSync } from 'node:fs';
import { formatUnits } from 'ethers';
import { rfc3339FromUnixMs } from '../../src/core/time';
import { type DevnetConfig, listKeys, loadKey, paths } from './home';
import { type LiveNetwork } from './liveNetwork';
import { type ServerPorts } from './liveTypes';
import { sidechainDevAccounts } from '../../sim/domain/runSetup';

/**
 * The start-up banner: chain ids, URLs per node, the admin namespace, funded accounts and their
 * keys, and the sidechain's funded dev accounts with their private keys (as anvil prints them).
 */
export function banner(config: DevnetConfig, host: string, ports: ServerPorts, net: LiveNetwork): string[] {
  const s = config.scenario;
  const sidechainChainId = net.run.main.setup.sidechainChainId;
  const lines = [
    `lockstep devnet       ${config.home}`,
    `chain ids             service ${config.chainId}, sidechain ${sidechainChainId} (0x${BigInt(sidechainChainId).toString(16)})`,
    `network               scenario ${s.name}, seed ${config.seed}, ${s.crypto} crypto, ${s.validators.length} validators, genesis ${rfc3339FromUnixMs(s.epochMs)}`,
  ];
  if (s.plant) lines.push(`planted bug           ${s.plant} is on (a test build's bug, kept from the run)`);
  if (!['127.0.0.1', 'localhost', '::1'].includes(host))
    lines.push(
      `warning               the servers listen on ${host}: anyone who reaches it can pause, rewind and fault this devnet (the admin namespace is on the JSON-RPC port)`,
    );
  if (config.start?.fromReport) lines.push(`opened from           ${config.start.fromReport}`);
  const rest = `http://${host}:${ports.rest}`;
  const status = `http://${host}:${ports.status}`;
  const rpc = `http://${host}:${ports.jsonRpc}`;
  const ws = `ws://${host}:${ports.ws}`;
  lines.push(
    `node ${config.nodeIndex} (default)      REST ${rest}  status ${status}  JSON-RPC ${rpc}  WebSocket ${ws}`,
    `every node N          the same URLs with /node/N: ${rest}/node/N/…, ${status}/node/N/status, ${rpc}/node/N, ${ws}/node/N (N = 1-${s.validators.length})`,
    `consoles              lockstep console --home ${config.home} [--node N]  (${paths(config.home)
      .consoleSocketOf(1)
      .replace(/-1\.ipc$/, '-N.ipc')})`,
    `admin                 lockstep_* and evm_* on ${rpc}: lockstep node status|pause|resume|step|snapshot|revert|fault|report --home ${config.home}`,
    `funded accounts       (keys in ${paths(config.home).keys}/NAME.json)`,
  );
  const genesis = JSON.parse(readFileSync(paths(config.home).genesis, 'utf8')) as {
    app_state?: {
      auth?: { accounts?: Array<{ address: string; coins: Array<{ denom: string; amount: { i: string } | string }> }> };
    };
  };
  const balances = new Map(
    (genesis.app_state?.auth?.accounts ?? []).map((a) => [
      a.address.toLowerCase(),
      a.coins.map((c) => `${typeof c.amount === 'string' ? c.amount : c.amount.i}${c.denom}`).join(','),
    ]),
  );
  for (const name of listKeys(config.home)) {
    const k = loadKey(config.home, name);
    lines.push(`  ${name.padEnd(14)} ${k.address}  ${balances.get(k.address.toLowerCase()) ?? '0matic'} at genesis`);
  }
  // As anvil prints its dev accounts: what a wallet needs to send on the sidechain (eth_accounts' order).
  const accounts = sidechainDevAccounts(net.run.main.setup, s);
  lines.push(
    `sidechain accounts    funded at sidechain genesis, for wallets on chain ${sidechainChainId}, unlocked (eth_accounts, eth_sendTransaction) or with the key (ethers, viem)`,
  );
  for (const [i, a] of accounts.entries())
    lines.push(
      `  (${i}) ${a.address}  ${formatUnits(a.balance, 18)} MATIC  private key ${a.key}  ${a.name}${a.workload ? ', the workload signs with it' : ''}`,
    );
  const shared = accounts.filter((a) => a.workload);
  if (shared.length)
    lines.push(
      `                      the scenario's workload sends sidechain transfers from ${shared.map((a) => a.name).join(', ')}: their nonces move on their own; ${
        accounts.length > shared.length
          ? `use ${accounts
              .filter((a) => !a.workload)
              .map((a) => a.name)
              .join(', ')}`
          : 'no funded account is free of it (a devnet opened at a time or from a report keeps its run exact): fund a new key with anvil_setBalance'
      }`,
    );
  lines.push(
    `logs                  ${paths(config.home).logs} (daemon, bridge, sidechain; rest-server, status, jsonrpc as JSON)`,
  );
  return lines;
}

export function caughtUpLines(config: DevnetConfig, net: LiveNetwork): string[] {
  const t = net.run.ranToMs();
  const lines: string[] = [];
  const opened = net.opened;
  if (opened && config.start) {
    const gap = opened.pauseBeforeMs - opened.timeMs;
    const v = config.start.violation;
    lines.push(
      `paused at             ${(opened.timeMs / 1000).toFixed(3)} s (window barrier ${opened.barrier}), ${v ? `${gap} ms before ${config.start.note}` : `${config.start.note}; the last barrier before it`}`,
    );
    if (v) lines.push(`                      ${v.message}`);
    lines.push('continue with          lockstep node step|resume --home …, or evm_mine / evm_increaseTime');
  } else if (net.isPaused)
    lines.push(`paused at             ${(t / 1000).toFixed(3)} s (lockstep node resume to continue)`);
  else lines.push(`running               from ${(t / 1000).toFixed(1)} s simulated`);
  return lines;
}
