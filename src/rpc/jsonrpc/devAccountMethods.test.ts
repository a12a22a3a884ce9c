/**
 * The devnet's unlocked dev accounts over a real chain and pool: eth_accounts, eth_sendTransaction
 * (defaults filled as geth does, signed with the dev key), eth_sign / personal_sign /
 * eth_signTypedData_v4 verified with ethers, and impersonation (an unsigned transfer the pool takes
 * for an impersonated account only).
 */
import { Transaction, getAddress, verifyMessage, verifyTypedData } from 'ethers';
import { describe, expect, it } from 'vitest';
import { type Address } from '../../core/address';
import { SidechainTxIntake } from '../../node/sidechain/txIntake';
import { fixtureKeys } from '../../sidechain/testing/fixture';
import { type SignedTx, TX_ERRORS, type TransferFields, impersonatedTransfer } from '../../sidechain/transaction';
import { type SidechainView } from '../ports';
import { createFixtureSidechainPort } from '../testing/sidechainPort';
import { NO_SIGNER, devAccountMethods, typedDataDigest } from './devAccountMethods';
import { type RpcResult } from './methods';

const keys = fixtureKeys('rpc-fixture-producer');
const port = createFixtureSidechainPort();
const intake = new SidechainTxIntake(port.chain);
intake.impersonation = true;
const impersonated = new Set<Address>();
const view = (): SidechainView => ({
  ...port.view(),
  pool: { pendingNonce: (a) => intake.pendingNonce(a), transaction: (h) => intake.pool.get(h) },
  submit: async (raw) => {
    const c = intake.projected([]).check(raw);
    if (!c.ok) return c;
    if (c.tx.impersonated && !impersonated.has(c.tx.from))
      return { ok: false, error: TX_ERRORS.invalidSignatureValues };
    intake.submit(raw);
    return { ok: true, hash: c.tx.hash };
  },
});
const dev = { keys: new Map(keys.slice(0, 2).map((k) => [k.address, k.sk])), impersonated };
const methods = devAccountMethods(dev, view);
const call = (name: string, params: unknown[]): Promise<RpcResult> => methods(name)!(params);
async function ok(name: string, params: unknown[]): Promise<unknown> {
  const r = await call(name, params);
  if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
  return r.result;
}
const stranger = '0x00000000000000000000000000000000000000aa' as Address;
const fieldsOf = (t: SignedTx): TransferFields => ({
  type: t.type,
  chainId: t.chainId,
  nonce: t.nonce,
  to: t.to,
  value: t.value,
  gasLimit: t.gasLimit,
  maxFeePerGas: t.maxFeePerGas,
  maxPriorityFeePerGas: t.maxPriorityFeePerGas,
});

const TYPED = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string' },
    ],
    Unused: [{ name: 'x', type: 'uint8' }],
  },
  primaryType: 'Mail',
  domain: { name: 'Ether Mail', chainId: 15001 },
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: [{ name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' }],
    contents: 'Hello, Bob!',
  },
};

describe('dev accounts', () => {
  it('eth_accounts lists the dev accounts, checksummed, then the impersonated ones', async () => {
    expect(await ok('eth_accounts', [])).toEqual(keys.slice(0, 2).map((k) => getAddress(k.address)));
    expect(methods('eth_chainId')).toBeUndefined();
  });

  it('eth_sendTransaction fills nonce, gas and fees, signs with the dev key, and the pool takes it', async () => {
    const from = keys[0]!.address;
    const nonce = intake.pendingNonce(from);
    const hash = (await ok('eth_sendTransaction', [{ from, to: keys[3]!.address, value: '0x5' }])) as `0x${string}`;
    const tx = intake.pool.get(hash)!;
    expect(tx).toMatchObject({ from, nonce, type: 2, gasLimit: 21_000n, value: 5n, maxPriorityFeePerGas: 10n ** 9n });
    const base = port.chain.head().block.header.baseFee!;
    expect(tx.maxFeePerGas).toBe(10n ** 9n + 2n * base);
    expect(Transaction.from(tx.raw).from?.toLowerCase()).toBe(from);
    // The next one takes the next nonce; gasPrice makes it legacy; no from: the first dev account.
    const h2 = (await ok('eth_sendTransaction', [{ to: keys[3]!.address, gasPrice: '0x77359400' }])) as `0x${string}`;
    expect(intake.pool.get(h2)).toMatchObject({ from, nonce: nonce + 1n, type: 0, maxFeePerGas: 2_000_000_000n });
  });

  it('what the pool or the call refuses comes back as the error; an account without a key has no signer', async () => {
    const from = keys[1]!.address;
    expect(await call('eth_sendTransaction', [{ from, to: keys[3]!.address, nonce: '0x0', gas: '0x4e20' }])).toEqual({
      ok: false,
      error: { code: -32000, message: 'intrinsic gas too low: gas 20000, minimum needed 21000' },
    });
    expect(await call('eth_sendTransaction', [{ from, to: keys[3]!.address, chainId: '0x1' }])).toMatchObject({
      ok: false,
      error: { code: -32000, message: "chainId does not match node's (have=1, want=15001)" },
    });
    expect(await call('eth_sendTransaction', [{ from, data: '0x' }])).toMatchObject({
      ok: false,
      error: { code: -32000 },
    });
    expect(await call('eth_sendTransaction', [{ from: stranger, to: from }])).toEqual({
      ok: false,
      error: { code: -32602, message: NO_SIGNER },
    });
    expect(await call('eth_sign', [stranger, '0x01'])).toEqual({
      ok: false,
      error: { code: -32602, message: NO_SIGNER },
    });
    expect(await call('eth_sendTransaction', [])).toMatchObject({ ok: false, error: { code: -32602 } });
  });

  it('eth_sign and personal_sign: EIP-191 over the bytes; eth_signTypedData_v4: EIP-712', async () => {
    const who = getAddress(keys[0]!.address);
    const sig = (await ok('eth_sign', [who, '0xdeadbeef'])) as string;
    expect(sig).toMatch(/^0x[0-9a-f]{130}$/);
    expect(['1b', '1c']).toContain(sig.slice(-2));
    expect(verifyMessage(new Uint8Array([0xde, 0xad, 0xbe, 0xef]), sig)).toBe(who);
    expect(await ok('personal_sign', ['0xdeadbeef', who])).toBe(sig);
    const typed = (await ok('eth_signTypedData_v4', [who, TYPED])) as string;
    const { EIP712Domain: _d, Unused: _u, ...types } = TYPED.types;
    expect(verifyTypedData(TYPED.domain, types, TYPED.message, typed)).toBe(who);
    // As JSON text (what MetaMask-style clients send): the same signature.
    expect(await ok('eth_signTypedData_v4', [who, JSON.stringify(TYPED)])).toBe(typed);
    expect(typedDataDigest(TYPED)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await call('eth_signTypedData_v4', [who, '{not json'])).toMatchObject({
      ok: false,
      error: { code: -32602 },
    });
    expect(await call('eth_sign', [who, 'hello'])).toMatchObject({ ok: false, error: { code: -32602 } });
  });

  it('impersonation: an unsigned transfer for the account, taken only while it is impersonated', async () => {
    const whale = keys[2]!.address;
    expect(await call('eth_sendTransaction', [{ from: whale, to: stranger, value: '0x1' }])).toMatchObject({
      ok: false,
      error: { message: NO_SIGNER },
    });
    expect(await ok('anvil_impersonateAccount', [whale])).toBeNull();
    expect(await ok('eth_accounts', [])).toContain(getAddress(whale));
    const hash = (await ok('eth_sendTransaction', [{ from: whale, to: stranger, value: '0x1' }])) as `0x${string}`;
    const tx = intake.pool.get(hash)!;
    expect(tx).toMatchObject({ from: whale, impersonated: true, r: `0x${'00'.repeat(32)}` });
    // It cannot sign messages.
    expect(await call('eth_sign', [whale, '0x01'])).toMatchObject({ ok: false, error: { message: NO_SIGNER } });
    expect(await ok('hardhat_stopImpersonatingAccount', [whale])).toBe(true);
    expect(await call('eth_sendTransaction', [{ from: whale, to: stranger, value: '0x2' }])).toMatchObject({
      ok: false,
      error: { message: NO_SIGNER },
    });
    // Unsigned bytes naming it, sent as raw bytes by anyone once it is not impersonated: refused.
    const forged = impersonatedTransfer({ ...fieldsOf(tx), nonce: tx.nonce + 1n }, whale);
    expect(await view().submit!(forged.raw)).toEqual({ ok: false, error: TX_ERRORS.invalidSignatureValues });
    expect(await ok('hardhat_impersonateAccount', [whale])).toBe(true);
    expect(await ok('anvil_stopImpersonatingAccount', [whale])).toBeNull();
  });

  it('a node that does not take impersonated transfers refuses one as an invalid signature', async () => {
    const plain = new SidechainTxIntake(port.chain);
    const hashTx = intake.pool.content(port.chain.head().accounts).pending.find((t) => t.impersonated)!;
    expect(plain.submit(hashTx.raw).verdict).toMatchObject({ ok: false, error: TX_ERRORS.invalidSignatureValues });
  });
});
