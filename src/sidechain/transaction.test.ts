/**
 * Signed sidechain transactions against the clients that make them: what ethers' Wallet signs is
 * byte for byte what `signTransfer` signs (both RFC 6979), ethers and viem decode it, re-derive
 * its hash and recover its sender; and what a transfer-only chain refuses, with geth's words.
 */
import { Transaction, Wallet, keccak256 } from 'ethers';
import { parseTransaction, recoverTransactionAddress } from 'viem';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clearCaches } from '../core/memo';
import { type Hex } from '../core/bytes';
import { type Address } from '../core/address';
import { fastScheme, realScheme, registerFastKey } from '../core/signatureScheme';
import { TRANSFER_GAS, decodeSignedTx, effectiveGasPrice, maxCost, signTransfer, TX_ERRORS } from './transaction';
import { fixtureKeys } from './testing/fixture';

const [alice, bob] = fixtureKeys('transaction-test');
const CHAIN = 15001n;
const base = {
  chainId: CHAIN,
  nonce: 3n,
  to: bob!.address,
  value: 10n ** 18n,
  gasLimit: TRANSFER_GAS,
  maxFeePerGas: 30n * 10n ** 9n,
  maxPriorityFeePerGas: 2n * 10n ** 9n,
};

describe('signed transfers', () => {
  it.each([0, 2] as const)(
    'type %i: the same bytes as an ethers Wallet signs; ethers and viem agree on hash and sender',
    async (type) => {
      const tx = signTransfer({ ...base, type }, alice!.sk, realScheme);
      const wallet = new Wallet(alice!.sk);
      const byEthers = await wallet.signTransaction({
        type,
        chainId: CHAIN,
        nonce: 3,
        to: bob!.address,
        value: base.value,
        gasLimit: TRANSFER_GAS,
        ...(type === 2
          ? { maxFeePerGas: base.maxFeePerGas, maxPriorityFeePerGas: base.maxPriorityFeePerGas }
          : { gasPrice: base.maxFeePerGas }),
      });
      expect(tx.raw).toBe(byEthers);
      expect(tx.hash).toBe(keccak256(tx.raw));
      const parsed = Transaction.from(tx.raw);
      expect(parsed.hash).toBe(tx.hash);
      expect(parsed.from?.toLowerCase()).toBe(alice!.address);
      expect(tx.from).toBe(alice!.address);
      expect(await recoverTransactionAddress({ serializedTransaction: tx.raw as never })).toBe(wallet.address);
      const v = parseTransaction(tx.raw as never);
      expect([v.nonce, v.to?.toLowerCase(), v.value, v.chainId]).toEqual([3, bob!.address, base.value, 15001]);
      // The fields the RPC shows.
      expect(tx).toMatchObject({
        type,
        chainId: CHAIN,
        nonce: 3n,
        gasLimit: TRANSFER_GAS,
        maxFeePerGas: base.maxFeePerGas,
      });
      expect(tx.maxPriorityFeePerGas).toBe(type === 2 ? base.maxPriorityFeePerGas : base.maxFeePerGas);
      expect(tx.v).toBe(type === 2 ? BigInt(tx.yParity) : CHAIN * 2n + 35n + BigInt(tx.yParity));
    },
  );

  it('what the signer remembers as the decode of its bytes is what decoding them gives', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0 as const, 2 as const),
        fc.constantFrom('real' as const, 'fast' as const),
        fc.bigInt({ min: 1n, max: 2n ** 64n }),
        fc.bigInt({ min: 0n, max: 2n ** 40n }),
        fc.bigInt({ min: 0n, max: 2n ** 80n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.constantFrom(bob!.address, bob!.address.toUpperCase().replace('0X', '0x')),
        (type, mode, chainId, nonce, value, fee, tip, to) => {
          const scheme = mode === 'fast' ? fastScheme : realScheme;
          const fields = {
            type,
            chainId,
            nonce,
            to: to as Address,
            value,
            gasLimit: TRANSFER_GAS,
            maxFeePerGas: fee + tip,
            maxPriorityFeePerGas: tip,
          };
          clearCaches();
          const signed = signTransfer(fields, alice!.sk, scheme);
          clearCaches();
          const cold = decodeSignedTx(signed.raw, scheme);
          expect(cold).toEqual({ ok: true, tx: signed });
          expect(Object.keys(signed)).toEqual(Object.keys(cold.ok ? cold.tx : {}));
          // And the node that receives the bytes decodes them to the same transaction.
          clearCaches();
          const again = signTransfer(fields, alice!.sk, scheme);
          expect(decodeSignedTx(again.raw.toUpperCase().replace('0X', '0x') as Hex, scheme)).toEqual({
            ok: true,
            tx: again,
          });
          expect(decodeSignedTx(again.raw, scheme)).toMatchObject({ ok: true, tx: again });
        },
      ),
      { numRuns: 60 },
    );
  });

  it('the fast scheme signs and recovers in a fast network; a real signature is still accepted there', () => {
    registerFastKey(alice!.sk);
    const fast = signTransfer({ ...base, type: 2 }, alice!.sk, fastScheme);
    expect(decodeSignedTx(fast.raw, fastScheme)).toMatchObject({ ok: true, tx: { from: alice!.address } });
    // ethers still parses the envelope and its hash is keccak of the bytes.
    expect(Transaction.from(fast.raw).hash).toBe(fast.hash);
    const real = signTransfer({ ...base, type: 0 }, alice!.sk, realScheme);
    expect(decodeSignedTx(real.raw, fastScheme)).toMatchObject({ ok: true, tx: { from: alice!.address } });
    // A real network does not take the fast scheme's signature for the signer's.
    const onReal = decodeSignedTx(fast.raw, realScheme);
    expect(onReal.ok && onReal.tx.from === alice!.address).toBe(false);
  });

  it('refuses what a transfer-only chain cannot run, with geth’s words where geth has them', async () => {
    const wallet = new Wallet(alice!.sk);
    const sign = (t: Record<string, unknown>) =>
      wallet.signTransaction({ type: 0, chainId: CHAIN, gasLimit: 50_000n, gasPrice: 1n, ...t });
    expect(decodeSignedTx((await sign({ to: bob!.address, chainId: undefined, type: 0 })) as Hex)).toEqual({
      ok: false,
      error: TX_ERRORS.unprotected,
    });
    expect(decodeSignedTx((await sign({ to: null, data: '0x6000' })) as Hex)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^contract creation is not supported/),
    });
    expect(decodeSignedTx((await sign({ to: bob!.address, data: '0xa9059cbb' })) as Hex)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^contract calls are not supported.*4 bytes of data/),
    });
    expect(
      decodeSignedTx(
        (await sign({
          to: bob!.address,
          type: 2,
          gasPrice: undefined,
          maxFeePerGas: 2n,
          maxPriorityFeePerGas: 1n,
          accessList: [{ address: bob!.address, storageKeys: [] }],
        })) as Hex,
      ),
    ).toMatchObject({ ok: false, error: expect.stringMatching(/^access lists are not supported/) });
    expect(decodeSignedTx((await sign({ to: bob!.address, type: 1 })) as Hex)).toEqual({
      ok: false,
      error: TX_ERRORS.typeNotSupported,
    });
    expect(decodeSignedTx('0x1234')).toEqual({ ok: false, error: TX_ERRORS.typeNotSupported });
    expect(decodeSignedTx('0xc0')).toMatchObject({ ok: false, error: expect.stringMatching(/^rlp: /) });
    expect(decodeSignedTx('not hex' as Hex)).toMatchObject({ ok: false });
    // A signature over other bytes recovers someone else: not the signer's transaction.
    const good = signTransfer({ ...base, type: 2 }, alice!.sk, realScheme);
    const t = Transaction.from(good.raw);
    t.value = 1n;
    const tampered = decodeSignedTx(t.serialized as Hex);
    expect(tampered.ok && tampered.tx.from === alice!.address).toBe(false);
  });

  it('effective gas price and the most a transaction can cost', () => {
    const t2 = signTransfer({ ...base, type: 2 }, alice!.sk, realScheme);
    expect(effectiveGasPrice(t2, 10n ** 9n)).toBe(3n * 10n ** 9n);
    expect(effectiveGasPrice(t2, 29n * 10n ** 9n)).toBe(30n * 10n ** 9n);
    expect(effectiveGasPrice(t2, 31n * 10n ** 9n)).toBeNull();
    const t0 = signTransfer({ ...base, type: 0 }, alice!.sk, realScheme);
    expect(effectiveGasPrice(t0, 10n ** 9n)).toBe(base.maxFeePerGas);
    expect(maxCost(t0)).toBe(TRANSFER_GAS * base.maxFeePerGas + base.value);
  });
});
