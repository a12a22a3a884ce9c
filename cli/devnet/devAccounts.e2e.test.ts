/**
 * anvil's unlocked dev accounts on a devnet (issue 31, items 3 and 6), tried as scripts written for
 * anvil and hardhat use them, over HTTP against a running devnet whose scenario's workload sends
 * sidechain transfers from the users:
 *
 * - the banner says which dev accounts the workload signs with and offers accounts of the
 *   devnet's own, first; eth_accounts lists them in the same order (hardhat-ethers' getSigners());
 * - ethers' JsonRpcSigner and viem's JSON-RPC account send with eth_sendTransaction and sign with
 *   personal_sign and eth_signTypedData_v4 (checked with ethers' and viem's verifiers); eth_sign;
 * - viem's test client impersonates an account (anvil and hardhat names): eth_sendTransaction
 *   sends for it without its key, until impersonation stops ("No Signer available").
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonRpcProvider, getAddress, verifyMessage, verifyTypedData } from 'ethers';
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  parseEther,
  verifyMessage as viemVerifyMessage,
  verifyTypedData as viemVerifyTypedData,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeInit } from './nodeInit';
import { type RunningDevnet, startDevnet } from './nodeStart';
import { paths } from './home';
import { rpc } from './devnetTestKit';

const dir = mkdtempSync(join(tmpdir(), 'lockstep-dev-accounts-'));
const home = join(dir, 'home');
const CHAIN_ID = 15001;
let d: RunningDevnet;
let url: string;
const banner: string[] = [];

const chain = () =>
  defineChain({
    id: CHAIN_ID,
    name: 'lockstep sidechain',
    nativeCurrency: { name: 'MATIC', symbol: 'MATIC', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
const pub = () => createPublicClient({ chain: chain(), transport: http(url), pollingInterval: 100 });
/** eth_accounts, as viem reads it. */
const accountsOf = () => createWalletClient({ chain: chain(), transport: http(url) }).getAddresses();
/** ethers takes mutable type lists. */
const mailTypes = () => JSON.parse(JSON.stringify(MAIL.types)) as Record<string, Array<{ name: string; type: string }>>;

const MAIL = {
  domain: {
    name: 'Ether Mail',
    version: '1',
    chainId: CHAIN_ID,
    verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
  },
  types: {
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'string' },
    ],
  },
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
} as const;

beforeAll(async () => {
  // The devnet scenario with the workload's sidechain transfers (from the users).
  const scenario = JSON.parse(readFileSync(join(import.meta.dirname, '../../scenarios/devnet.json'), 'utf8')) as Record<
    string,
    Record<string, unknown>
  >;
  scenario.workload = { ...scenario.workload, sidechainTxs: { every: '2s' } };
  delete scenario.$schema;
  const file = join(dir, 'busy-devnet.json');
  writeFileSync(file, JSON.stringify(scenario));
  await nodeInit({
    home,
    scenario: file,
    seed: 31,
    host: '127.0.0.1',
    restPort: 0,
    rpcPort: 0,
    jsonRpcPort: 0,
    wsPort: 0,
    overwrite: false,
  });
  d = await startDevnet({ home, speed: 5, out: (line) => banner.push(line) });
  await d.caughtUp;
  url = `http://127.0.0.1:${d.ports.jsonRpc}`;
}, 60_000);

afterAll(async () => {
  await d?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** The banner's sidechain accounts: index, address, key, name, whether the workload signs with it. */
function bannerAccounts() {
  return banner
    .map((l) =>
      /^ {2}\((\d+)\) (0x[0-9a-f]{40}) .* private key (0x[0-9a-f]{64}) {2}([a-z]+-\d+)(, the workload signs with it)?$/.exec(
        l,
      ),
    )
    .filter((m) => m !== null)
    .map((m) => ({ index: Number(m[1]), address: m[2]!, key: m[3]!, name: m[4]!, workload: m[5] !== undefined }));
}

describe('dev accounts as anvil’s', () => {
  it('the banner says which accounts the workload signs with and offers the devnet’s own first; eth_accounts agrees', async () => {
    const accounts = bannerAccounts();
    expect(accounts.map((a) => [a.name, a.workload])).toEqual([
      ['dev-1', false],
      ['dev-2', false],
      ['dev-3', false],
      ['dev-4', false],
      ['user-1', true],
      ['user-2', true],
      ['user-3', true],
      ['user-4', true],
    ]);
    expect(banner.join('\n')).toContain(
      "the scenario's workload sends sidechain transfers from user-1, user-2, user-3, user-4: their nonces move on their own; use dev-1, dev-2, dev-3, dev-4",
    );
    // The home's scenario says so, and the sidechain genesis funds them.
    expect(JSON.parse(readFileSync(paths(home).scenario, 'utf8')).params.sidechainDevAccounts).toBe(4);
    const alloc = JSON.parse(readFileSync(paths(home).sidechainGenesis, 'utf8')).alloc as Record<string, unknown>;
    for (const a of accounts) expect(alloc).toHaveProperty(a.address);
    // eth_accounts: the same accounts in the same order (hardhat-ethers' getSigners()[0] is dev-1).
    const provider = new JsonRpcProvider(url, CHAIN_ID, { staticNetwork: true });
    expect((await provider.listAccounts()).map((s) => s.address)).toEqual(accounts.map((a) => getAddress(a.address)));
    expect(await accountsOf()).toEqual(accounts.map((a) => getAddress(a.address)));
    // Nothing but the test moves a dev account's nonce.
    expect(await pub().getTransactionCount({ address: accounts[0]!.address as Address })).toBe(0);
    provider.destroy();
  }, 60_000);

  it('ethers JsonRpcSigner (hardhat-ethers’ signers): eth_sendTransaction, personal_sign, eth_signTypedData_v4, eth_sign', async () => {
    const provider = new JsonRpcProvider(url, CHAIN_ID, { staticNetwork: true, pollingInterval: 100 });
    try {
      const [first, second] = await provider.listAccounts();
      const to = second!.address;
      const before = await provider.getBalance(to);
      const sent = await first!.sendTransaction({ to, value: 12345n });
      expect(sent.from).toBe(first!.address);
      const receipt = await sent.wait();
      expect(receipt?.status).toBe(1);
      expect(await provider.getBalance(to)).toBe(before + 12345n);
      const sig = await first!.signMessage('hello lockstep');
      expect(verifyMessage('hello lockstep', sig)).toBe(first!.address);
      const typed = await first!.signTypedData(MAIL.domain, mailTypes(), MAIL.message);
      expect(verifyTypedData(MAIL.domain, mailTypes(), MAIL.message, typed)).toBe(first!.address);
      const raw = (await rpc(url, 'eth_sign', [first!.address, '0x68656c6c6f206c6f636b73746570'])) as string;
      expect(raw).toBe(sig);
    } finally {
      provider.destroy();
    }
  }, 120_000);

  it('viem JSON-RPC account: sendTransaction, signMessage, signTypedData', async () => {
    const [account] = await accountsOf();
    const wallet = createWalletClient({ chain: chain(), transport: http(url), account: account! });
    const to = bannerAccounts()[2]!.address as Address;
    const hash = await wallet.sendTransaction({ to, value: parseEther('0.5') });
    const receipt = await pub().waitForTransactionReceipt({ hash });
    expect(receipt).toMatchObject({ status: 'success', from: account!.toLowerCase(), type: 'eip1559' });
    const legacy = await wallet.sendTransaction({ to, value: 1n, type: 'legacy' });
    expect(await pub().waitForTransactionReceipt({ hash: legacy })).toMatchObject({
      status: 'success',
      type: 'legacy',
    });
    const signature = await wallet.signMessage({ message: 'hello viem' });
    expect(await viemVerifyMessage({ address: account!, message: 'hello viem', signature })).toBe(true);
    const typed = await wallet.signTypedData({ ...MAIL, primaryType: 'Mail' });
    expect(await viemVerifyTypedData({ address: account!, ...MAIL, primaryType: 'Mail', signature: typed })).toBe(true);
  }, 120_000);

  it.each<['anvil' | 'hardhat']>([['anvil'], ['hardhat']])(
    'viem test client (%s): impersonates an account, sends for it without its key, stops',
    async (mode) => {
      const test = createTestClient({ mode, chain: chain(), transport: http(url) });
      const whale = (
        mode === 'anvil' ? '0x00000000000000000000000000000000000a771e' : '0x0000000000000000000000000000000000b0b0b0'
      ) as Address;
      await test.setBalance({ address: whale, value: parseEther('3') });
      const wallet = createWalletClient({ chain: chain(), transport: http(url), account: whale });
      const to = bannerAccounts()[3]!.address as Address;
      await expect(wallet.sendTransaction({ to, value: 1n })).rejects.toThrow(/No Signer available/);
      await test.impersonateAccount({ address: whale });
      expect(await accountsOf()).toContain(getAddress(whale));
      const before = await pub().getBalance({ address: to });
      const hash = await wallet.sendTransaction({ to, value: parseEther('1') });
      const receipt = await pub().waitForTransactionReceipt({ hash });
      expect(receipt).toMatchObject({ status: 'success', from: whale });
      expect(await pub().getBalance({ address: to })).toBeGreaterThanOrEqual(before + parseEther('1'));
      // hardhat-ethers' getImpersonatedSigner: an ethers JsonRpcSigner for it, which reads the sent transfer back.
      const provider = new JsonRpcProvider(url, CHAIN_ID, { staticNetwork: true, pollingInterval: 100 });
      try {
        const signer = await provider.getSigner(whale);
        const sent = await signer.sendTransaction({ to, value: 2n });
        expect(sent.from).toBe(getAddress(whale));
        expect((await sent.wait())?.status).toBe(1);
      } finally {
        provider.destroy();
      }
      // It cannot sign a message: the devnet has no key for it.
      await expect(wallet.signMessage({ message: 'x' })).rejects.toThrow(/No Signer available/);
      await test.stopImpersonatingAccount({ address: whale });
      await expect(wallet.sendTransaction({ to, value: 1n })).rejects.toThrow(/No Signer available/);
    },
    120_000,
  );
});
