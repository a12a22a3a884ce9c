/**
 * The pure core of the sidechain: headers and seals, producer snapshots, difficulty, producer delay,
 * fork choice, the state-sync receipt hash and the checkpoint root, and the read port a server reads
 * a node's chain through (no wire format here). No I/O, no clock, no randomness.
 *
 * Library contract (names stay stable; src/index.ts re-exports them):
 *   calcProducerDelay(number, succession, { period, producerDelay, sprint, wiggle }) → seconds
 *   sidechainDifficulty(producers, proposer, signer) → bigint
 *   stateSyncTxHash(number, blockHash) → 0x hash
 *   sidechainRootHash(headers) → hex without 0x
 */
export {
  type SidechainConfig,
  type ProducerDelayParams,
  DEFAULT_SIDECHAIN_CONFIG,
  sidechainConfig,
  producerDelayParams,
  calcProducerDelay,
} from './config';
export { isSprintStart, isSprintEnd, sprintIndex } from './sprint';
export {
  type SidechainHeader,
  type HeaderValidator,
  EXTRA_VANITY_LENGTH,
  EXTRA_SEAL_LENGTH,
  VALIDATOR_HEADER_BYTES_LENGTH,
  ZERO_HASH,
  UNCLE_HASH,
  EMPTY_TRIE_ROOT,
  EMPTY_BLOOM,
  ZERO_NONCE,
  makeHeader,
  sealHash,
  sealHashBytes,
  headerHash,
  headerHashBytes,
  sealHeader,
  recoverSigner,
  encodeValidatorBytes,
  decodeValidatorBytes,
  buildExtra,
  headerValidatorBytes,
} from './header';
export { succession, successionFromIndices, sidechainDifficulty } from './difficulty';
export {
  type Snapshot,
  type SnapshotJSON,
  genesisSnapshot,
  applyHeader,
  snapshotProducers,
  snapshotProposer,
  snapshotSuccession,
  snapshotDifficulty,
  snapshotToJSON,
  snapshotFromJSON,
} from './snapshot';
export { borReceiptKey, stateSyncTxHash, stateSyncTxHashBytes } from './stateSync';
export {
  type RootHashChainView,
  MAX_CHECKPOINT_LENGTH,
  ROOT_HASH_ERROR_CODE,
  sidechainRootHash,
  rootHashOf,
} from './rootHash';
export {
  type HeadRef,
  type FinalityFloor,
  compareHeads,
  reorgNeeded,
  preferredHead,
  reorgAllowed,
  isValidReorg,
} from './forkChoice';
export {
  type SidechainReadPort,
  type BlockActivity,
  type SidechainLog,
  type SidechainReceipt,
  type SidechainTxEntry,
  chainReadPort,
} from './readPort';
