import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SigningKey, Wallet, computeAddress, recoverAddress, Signature } from 'ethers';
import { addressFromPublicKey, publicKeyFromPrivateKey, recoverPublicKey, signDigest } from '../index';
import { recoverSignerCached, signatureCacheStats } from './secp256k1';
import { fromHex } from './bytes';

// A valid secp256k1 scalar: 1 <= k < n.
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const privateKey = fc.bigInt({ min: 1n, max: N - 1n }).map((k) => '0x' + k.toString(16).padStart(64, '0'));
const digest = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => '0x' + Buffer.from(b).toString('hex'));

describe('secp256k1 agrees with ethers', () => {
  it('keys, addresses, signatures and recovery (200 random keys and digests)', () => {
    fc.assert(
      fc.property(privateKey, digest, (sk, d) => {
        const pub = publicKeyFromPrivateKey(sk);
        const ethersKey = new SigningKey(sk);
        expect(pub).toBe(ethersKey.publicKey.toLowerCase());
        const address = addressFromPublicKey(pub);
        expect(address).toBe(computeAddress(pub).toLowerCase());
        expect(address).toBe(new Wallet(sk).address.toLowerCase());

        const sig = signDigest(d, sk);
        expect(sig).toMatch(/^0x[0-9a-f]{130}$/);
        const v = fromHex(sig)[64]!;
        expect(v === 0 || v === 1).toBe(true);
        // RFC 6979 deterministic nonces: ethers produces the very same r, s and parity.
        const es = ethersKey.sign(d);
        expect(sig.slice(0, 130)).toBe((es.r + es.s.slice(2)).toLowerCase());
        expect(v).toBe(es.yParity);

        expect(recoverPublicKey(d, sig)).toBe(pub);
        expect(recoverAddress(d, Signature.from({ r: es.r, s: es.s, v: 27 + v })).toLowerCase()).toBe(address);
        expect(recoverSignerCached(fromHex(d), fromHex(sig))).toBe(address);
      }),
      { numRuns: 200 },
    );
  });
});

describe('recovery rejects bad signatures', () => {
  const sk = '0x' + '11'.repeat(32);
  const d = '0x' + '22'.repeat(32);
  it('v = 27 is not accepted (Ethereum format is v ∈ {0,1})', () => {
    const sig = fromHex(signDigest(d, sk));
    sig[64] = 27;
    expect(() => recoverPublicKey(d, sig)).toThrow(/recovery id/);
    expect(recoverSignerCached(fromHex(d), sig)).toBeNull();
  });
  it('wrong length names the field', () => {
    expect(() => recoverPublicKey(d, '0x1234')).toThrow(/signature: expected 65 bytes/);
  });
  it('a different digest recovers a different signer', () => {
    const sig = signDigest(d, sk);
    const other = recoverPublicKey('0x' + '23'.repeat(32), sig);
    expect(other).not.toBe(publicKeyFromPrivateKey(sk));
  });
  it('the cache answers the second time', () => {
    const sig = fromHex(signDigest(d, sk));
    recoverSignerCached(fromHex(d), sig);
    const before = signatureCacheStats().hits;
    recoverSignerCached(fromHex(d), sig);
    expect(signatureCacheStats().hits).toBe(before + 1);
  });
  it('an invalid private key is refused', () => {
    expect(() => publicKeyFromPrivateKey('0x' + '00'.repeat(32))).toThrow(/privateKey/);
  });
});
