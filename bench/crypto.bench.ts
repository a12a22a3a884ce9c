import { measure, type BenchResult } from './harness';
import { keccak256Bytes } from '../src/core/hash';
import {
  recoverPublicKeyBytes,
  signDigestBytes,
  recoverSignerCached,
  clearSignatureCache,
} from '../src/core/secp256k1';
import { Rng } from '../sim/env/rng';

export function cryptoBenches(): BenchResult[] {
  const rng = Rng.forSeed('bench').fork('crypto');
  const keys = Array.from({ length: 64 }, () => {
    const k = rng.bytes(32);
    k[0] = (k[0]! % 0x7f) + 1; // keep the scalar below n and non-zero
    return k;
  });
  const digests = Array.from({ length: 64 }, () => rng.bytes(32));
  const sigs = digests.map((d, i) => signDigestBytes(d, keys[i]!));
  let i = 0;
  const msg = rng.bytes(64);
  const out: BenchResult[] = [];
  out.push(measure('keccak256: 64-byte inputs', () => void keccak256Bytes(msg), { opsPerCall: 1, unit: 'hashes/s' }));
  out.push(
    measure('secp256k1: sign a 32-byte digest', () => void signDigestBytes(digests[i & 63]!, keys[i++ & 63]!), {
      unit: 'sign/s',
    }),
  );
  out.push(
    measure('secp256k1: recover the public key', () => void recoverPublicKeyBytes(digests[i & 63]!, sigs[i++ & 63]!), {
      unit: 'recover/s',
    }),
  );
  clearSignatureCache();
  for (let k = 0; k < 64; k++) recoverSignerCached(digests[k]!, sigs[k]!);
  out.push(
    measure(
      'secp256k1: recover through the warm verified-signature cache',
      () => void recoverSignerCached(digests[i & 63]!, sigs[i++ & 63]!),
      { unit: 'recover/s' },
    ),
  );
  return out;
}
