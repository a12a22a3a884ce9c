/**
 * Executing transfers on the accounts: each check with geth's words (and nothing changes when a
 * block's transaction fails), and for a transfer that runs, where every wei goes: the sender pays
 * the value and 21,000 gas at the effective price, the recipient gets the value, the block's author
 * the tip, the base fee is burnt; Bor's LogTransfer says the balances before and after.
 */
import { AbiCoder, zeroPadValue } from 'ethers';
import { describe, expect, it } from 'vitest';
import { type Address } from '../core/address';
import { genesisAccounts } from './accounts';
import { TRANSFER_GAS, signTransfer } from './transaction';
import { type BlockEnv, LOG_TRANSFER_TOPIC, MATIC_TOKEN, executeTransfers, selectTransfers } from './transfers';
import { fixtureKeys } from './testing/fixture';
import { realScheme } from '../core/signatureScheme';

const [alice, bob, carol] = fixtureKeys('transfers-test');
const author = carol!.address;
const env: BlockEnv = { chainId: 15001n, baseFee: 1_000n, gasLimit: 30_000_000n, author };
const start = genesisAccounts([
  { address: alice!.address, balance: 10n ** 18n },
  { address: bob!.address, balance: 5n },
]);
const send = (
  nonce: bigint,
  o: { to?: Address; value?: bigint; fee?: bigint; tip?: bigint; type?: 0 | 2; gas?: bigint; chainId?: bigint } = {},
) =>
  signTransfer(
    {
      type: o.type ?? 2,
      chainId: o.chainId ?? 15001n,
      nonce,
      to: o.to ?? bob!.address,
      value: o.value ?? 100n,
      gasLimit: o.gas ?? TRANSFER_GAS,
      maxFeePerGas: o.fee ?? 5_000n,
      maxPriorityFeePerGas: o.tip ?? 200n,
    },
    alice!.sk,
    realScheme,
  );

describe('executeTransfers', () => {
  it('moves the value, buys gas at the effective price, pays the tip to the author, burns the base fee, logs both balances', () => {
    const tx = send(0n, { gas: 30_000n });
    const r = executeTransfers(start, [tx], env);
    if (!r.ok) throw new Error(r.reason);
    const price = env.baseFee + 200n;
    expect(r.outcomes).toEqual([{ gasUsed: TRANSFER_GAS, effectiveGasPrice: price, logs: [expect.anything()] }]);
    expect(r.gasUsed).toBe(TRANSFER_GAS);
    expect(r.accounts.get(alice!.address)).toEqual({ nonce: 1n, balance: 10n ** 18n - 100n - TRANSFER_GAS * price });
    expect(r.accounts.get(bob!.address)).toEqual({ nonce: 0n, balance: 105n });
    expect(r.accounts.get(author)).toEqual({ nonce: 0n, balance: TRANSFER_GAS * 200n });
    // Bor logs the sender's balance after it bought all 30,000 gas, before the refund.
    const in1 = 10n ** 18n - 30_000n * price;
    const log = r.outcomes[0]!.logs[0]!;
    expect(log).toEqual({
      address: MATIC_TOKEN,
      topics: [
        LOG_TRANSFER_TOPIC,
        zeroPadValue(MATIC_TOKEN, 32),
        zeroPadValue(alice!.address, 32),
        zeroPadValue(bob!.address, 32),
      ],
      data: AbiCoder.defaultAbiCoder().encode(Array(5).fill('uint256'), [100n, in1, 5n, in1 - 100n, 105n]),
    });
    // The parent's state is untouched (a new state object).
    expect(start.get(alice!.address)!.nonce).toBe(0n);
  });

  it('a transfer of nothing logs nothing; a legacy one pays its whole gas price', () => {
    const r = executeTransfers(start, [send(0n, { value: 0n, type: 0, fee: 3_000n })], env);
    if (!r.ok) throw new Error(r.reason);
    expect(r.outcomes[0]).toEqual({ gasUsed: TRANSFER_GAS, effectiveGasPrice: 3_000n, logs: [] });
    expect(r.accounts.get(author)!.balance).toBe(TRANSFER_GAS * 2_000n);
  });

  it.each([
    [
      'the wrong chain',
      send(0n, { chainId: 1n }),
      /^transaction 0 \(0x[0-9a-f]+\): invalid chain id for signer: have 1 want 15001$/,
    ],
    ['a used nonce', send(0n), /nonce too low: address 0x[0-9a-f]+, tx: 0 state: 1$/, true],
    ['a nonce ahead', send(2n), /nonce too high: address 0x[0-9a-f]+, tx: 2 state: 0$/],
    ['too little gas', send(0n, { gas: 20_000n }), /intrinsic gas too low: gas 20000, minimum needed 21000$/],
    [
      'a fee cap under the base fee',
      send(0n, { fee: 999n, tip: 1n }),
      /max fee per gas less than block base fee: .*maxFeePerGas: 999, baseFee: 1000$/,
    ],
    [
      'more than the balance',
      send(0n, { value: 10n ** 18n }),
      /insufficient funds for gas \* price \+ value: address 0x[0-9a-f]+ have 1000000000000000000 want 1000000000105000000$/,
    ],
  ])('refuses %s, and the block with it', (_what, tx, why, afterFirst = false) => {
    const txs = afterFirst ? [send(0n), tx] : [tx];
    const r = executeTransfers(start, txs, env);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason.replace(/^transaction 1 /, 'transaction 0 ')).toMatch(why);
  });

  it('the block gas limit: a transaction that does not fit is refused', () => {
    const r = executeTransfers(start, [send(0n), send(1n)], { ...env, gasLimit: 30_000n });
    expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(/gas limit reached/) });
  });
});

describe('selectTransfers', () => {
  it('keeps what runs on what the ones before left, in order, up to the limit', () => {
    const picked = selectTransfers(start, [send(1n), send(0n), send(1n, { value: 7n }), send(2n), send(3n)], env, 3);
    expect(picked.txs.map((t) => [t.nonce, t.value])).toEqual([
      [0n, 100n],
      [1n, 7n],
      [2n, 100n],
    ]);
    expect(picked.gasUsed).toBe(3n * TRANSFER_GAS);
    expect(picked.accounts.get(alice!.address)!.nonce).toBe(3n);
    expect(selectTransfers(start, [], env, 50).accounts).toBe(start);
  });
});
