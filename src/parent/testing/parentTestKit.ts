/**
 * Keys, owners and signed checkpoints for the parent-chain tests: pure functions of an index, so
 * every test (and every property-test run) sees the same keys.
 */
import { boundedMemo } from '../../core/memo';
import { type Address } from '../../core/address';
import { type Bytes, type Hex, toHex, utf8 } from '../../core/bytes';
import { ONE_TOKEN } from '../../core/amount';
import { keccak256Bytes } from '../../core/hash';
import { addressOfPublicKey, publicKeyBytesFromPrivateKey, signDigestBytes } from '../../core/secp256k1';
import { type CheckpointSignData, checkpointSignDigest } from '../contracts/checkpointSignDigest';

export interface TestSigner {
  privateKey: Bytes;
  /** 65 bytes, 0x04-prefixed. */
  pubkey: Hex;
  address: Address;
}

const signerCache = boundedMemo<number, TestSigner>('parentTestKit.signers', 1024);

/** Signer key number `i` (keccak of a label, so the keys look random and never collide). */
export function testSigner(i: number): TestSigner {
  return signerCache.getOrCompute(i, () => {
    const privateKey = keccak256Bytes(utf8(`lockstep/parent-test-signer/${i}`));
    const pubkey = toHex(publicKeyBytesFromPrivateKey(privateKey));
    return { privateKey, pubkey, address: addressOfPublicKey(pubkey) };
  });
}

/** Owner address number `i` (owners never sign anything in these tests). */
export function testOwner(i: number): Address {
  return `0x${'0a'.repeat(18)}${i.toString(16).padStart(4, '0')}`;
}

export function tokens(n: bigint | number): bigint {
  return BigInt(n) * ONE_TOKEN;
}

export function hash32(label: string): Hex {
  return toHex(keccak256Bytes(utf8(label)));
}

export function testCheckpoint(
  startBlock: bigint,
  endBlock: bigint,
  proposer: Address = testSigner(0).address,
  label = '',
): CheckpointSignData {
  return {
    proposer,
    startBlock,
    endBlock,
    rootHash: hash32(`root/${startBlock}/${endBlock}/${label}`),
    accountRootHash: hash32(`account-root/${label}`),
    sidechainChainId: '15001',
  };
}

export function signCheckpoint(c: CheckpointSignData, signers: readonly TestSigner[]): Hex[] {
  const digest = checkpointSignDigest(c);
  return signers.map((s) => toHex(signDigestBytes(digest, s.privateKey)));
}
