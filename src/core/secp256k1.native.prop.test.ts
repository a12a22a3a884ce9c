/**
 * The native secp256k1 (libsecp256k1 through the `secp256k1` package) and @noble/curves give the
 * same answers: the same deterministic (RFC 6979) signatures, the same public keys, the same
 * recoveries, and the same refusals of signatures with a zero, out-of-range or off-curve part, of
 * invalid secret keys. The project signs and recovers with the native library (a hundred times
 * faster in a real-crypto run); the reference model's oracles keep noble. Any difference would
 * change a trace, or let the two disagree about a signer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import nativeSecp from 'secp256k1';
import { secp256k1 as noble } from '@noble/curves/secp256k1.js';

const N = noble.Point.CURVE().n;
const be32 = (x: bigint) => {
  const out = new Uint8Array(32);
  for (let i = 31; i >= 0; i--, x >>= 8n) out[i] = Number(x & 0xffn);
  return out;
};
const big = (b: Uint8Array) => BigInt(`0x${Buffer.from(b).toString('hex') || '0'}`);

function nobleRecover(sig64: Uint8Array, recid: number, digest: Uint8Array): Uint8Array | null {
  const rec = new Uint8Array(65);
  rec[0] = recid;
  rec.set(sig64, 1);
  try {
    const pub = noble.recoverPublicKey(rec, digest, { prehash: false });
    return pub.length === 65 ? pub : noble.Point.fromBytes(pub).toBytes(false);
  } catch {
    return null;
  }
}

function nativeRecover(sig64: Uint8Array, recid: number, digest: Uint8Array): Uint8Array | null {
  try {
    return nativeSecp.ecdsaRecover(sig64, recid, digest, false);
  } catch {
    return null;
  }
}

const key = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => noble.utils.isValidSecretKey(k));
const digest = fc.uint8Array({ minLength: 32, maxLength: 32 });

describe('the native secp256k1 agrees with noble', () => {
  it('signatures, public keys and recoveries of valid signatures', () => {
    fc.assert(
      fc.property(key, digest, (sk, d) => {
        const n = noble.sign(d, sk, { prehash: false, format: 'recovered' });
        const s = nativeSecp.ecdsaSign(d, sk);
        expect(Buffer.from(s.signature).toString('hex')).toBe(Buffer.from(n.subarray(1)).toString('hex'));
        expect(s.recid).toBe(n[0]);
        const pub = noble.getPublicKey(sk, false);
        expect(Buffer.from(nativeSecp.publicKeyCreate(sk, false))).toEqual(Buffer.from(pub));
        expect(Buffer.from(nativeRecover(s.signature, s.recid, d)!)).toEqual(Buffer.from(pub));
      }),
      { numRuns: 200 },
    );
  });

  it('the same answer for altered signatures: high s, the other recovery id, r or s zero or out of range, any bytes', () => {
    const altered = fc.record({
      sk: key,
      d: digest,
      how: fc.constantFrom('highS', 'flipRecid', 'rZero', 'sZero', 'rN', 'sN', 'rMax', 'random'),
      bytes: fc.uint8Array({ minLength: 64, maxLength: 64 }),
      recid: fc.integer({ min: 0, max: 3 }),
    });
    fc.assert(
      fc.property(altered, ({ sk, d, how, bytes, recid: anyRecid }) => {
        const s = nativeSecp.ecdsaSign(d, sk);
        const sig = Uint8Array.from(s.signature);
        let recid = s.recid;
        const r = sig.subarray(0, 32);
        const sPart = sig.subarray(32, 64);
        if (how === 'highS') sPart.set(be32(N - big(sPart)));
        if (how === 'flipRecid') recid ^= 1;
        if (how === 'rZero') r.fill(0);
        if (how === 'sZero') sPart.fill(0);
        if (how === 'rN') r.set(be32(N));
        if (how === 'sN') sPart.set(be32(N));
        if (how === 'rMax') r.fill(0xff);
        const theSig = how === 'random' ? bytes : sig;
        if (how === 'random') recid = anyRecid % 2;
        const a = nobleRecover(theSig, recid, d);
        const b = nativeRecover(theSig, recid, d);
        expect(b === null ? null : Buffer.from(b).toString('hex')).toBe(
          a === null ? null : Buffer.from(a).toString('hex'),
        );
      }),
      { numRuns: 400 },
    );
  });

  it('the same secret keys are valid', () => {
    const edges = [0n, 1n, N - 1n, N, N + 1n, 2n ** 256n - 1n].map(be32);
    for (const k of edges) expect(nativeSecp.privateKeyVerify(k)).toBe(noble.utils.isValidSecretKey(k));
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (k) => {
        expect(nativeSecp.privateKeyVerify(k)).toBe(noble.utils.isValidSecretKey(k));
      }),
    );
  });
});
