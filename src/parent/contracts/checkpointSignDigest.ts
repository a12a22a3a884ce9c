/**
 * What the service's validators sign for a checkpoint, and what the RootChain verifies.
 *
 * sideSignBytes = pad32(proposer) ‖ pad32(startBlock) ‖ pad32(endBlock) ‖ rootHash ‖ accountRootHash
 *                 ‖ pad32(sidechainChainId)                       (6 × 32 bytes, heimdall.md §3.7)
 * digest        = keccak256(0x01 ‖ sideSignBytes)
 *
 * sideSignBytes is exactly `abi.encode(address, uint256, uint256, bytes32, bytes32, uint256)`, and the
 * 0x01 prefix is the one Polygon's RootChain puts in front of the vote data before hashing it.
 */
import { type Address, addressToBytes } from '../../core/address';
import { type Bytes, type Hex, concatBytes, toBytes } from '../../core/bytes';
import { pad32, padBytes32, parseUint } from '../../core/amount';
import { keccak256Bytes } from '../../core/hash';

/** A checkpoint as the validators sign it and the root chain receives it (the service keeps its own record, modules/checkpoint). */
export interface CheckpointSignData {
  proposer: Address;
  startBlock: bigint;
  endBlock: bigint;
  rootHash: Hex;
  accountRootHash: Hex;
  /** The sidechain's chain id as a decimal string (the service's `sidechain_chain_id`). */
  sidechainChainId: string;
}

/** The 192 side-sign bytes; throws an InputError naming the bad field. */
export function checkpointSideSignBytes(c: CheckpointSignData): Bytes {
  return concatBytes(
    padBytes32(addressToBytes(c.proposer)),
    pad32(parseUint(c.startBlock, 'startBlock')),
    pad32(parseUint(c.endBlock, 'endBlock')),
    toBytes(c.rootHash, 'rootHash', 32),
    toBytes(c.accountRootHash, 'accountRootHash', 32),
    pad32(parseUint(c.sidechainChainId, 'sidechainChainId')),
  );
}

const VOTE_PREFIX = Uint8Array.of(0x01);

/** The 32-byte digest each validator signs (secp256k1, r ‖ s ‖ v with v ∈ {0,1}). */
export function checkpointSignDigest(c: CheckpointSignData): Bytes {
  return keccak256Bytes(concatBytes(VOTE_PREFIX, checkpointSideSignBytes(c)));
}
