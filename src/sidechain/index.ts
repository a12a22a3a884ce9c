/**
 * The sidechain core's library contract (names stay stable; src/index.ts re-exports them):
 *   calcProducerDelay(number, succession, { period, producerDelay, sprint, wiggle }) → seconds
 *   sidechainDifficulty(producers, proposer, signer) → bigint
 *   stateSyncTxHash(number, blockHash) → 0x hash
 *   sidechainRootHash(headers) → hex without 0x
 * Everything else is imported from its own module (config, header, snapshot, forkChoice, readPort…).
 */
export { calcProducerDelay } from './config';
export { sidechainDifficulty } from './difficulty';
export { stateSyncTxHash } from './stateSync';
export { sidechainRootHash } from './rootHash';
