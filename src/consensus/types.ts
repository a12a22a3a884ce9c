/**
 * Messages and block format of the service's BFT consensus (Tendermint-style: heights, rounds,
 * propose / prevote / precommit, +2/3-of-power quorums). Side-tx votes ride on precommits, as in
 * Heimdall's fork of Tendermint.
 */
import { type DeepReadonly } from '../core/readonly';
import { boundedMemo, weakMemo } from '../core/memo';
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { canonicalJson, quote } from '../core/canonicalJson';
import { keccak256Bytes } from '../core/hash';
import { toHex, utf8 } from '../core/bytes';
import { type SideVote } from '../modules/framework/msgDef';

export type Step = 'propose' | 'prevote' | 'precommit' | 'commit';

export interface SideVoteEntry {
  txHash: Hex;
  vote: SideVote;
  /** For a yes on MsgCheckpoint: the validator's signature over the root chain's checkpoint digest. */
  signature?: Hex;
}

export interface Vote {
  type: 'prevote' | 'precommit';
  height: bigint;
  round: number;
  /** null = nil. */
  blockHash: Hex | null;
  validator: Address;
  /** Side-tx votes on the txs of height - 1 (precommits only). */
  sideTxVotes?: SideVoteEntry[];
  signature: Hex;
}

export interface ServiceBlock {
  height: bigint;
  timeMs: number;
  proposer: Address;
  /** Hash of the previous block (zero for height 1). */
  lastBlockHash: Hex;
  /** The app hash after the previous block. */
  lastAppHash: Hex;
  /** The precommits that committed the previous block (they carry the side-tx votes). */
  lastCommit: Vote[];
  /** Raw transactions, hex. */
  txs: Hex[];
}

export interface Proposal {
  height: bigint;
  round: number;
  block: ServiceBlock;
  blockHash: Hex;
  /** Tendermint's validRound (POL round), -1 for none. */
  polRound: number;
  proposer: Address;
  signature: Hex;
}

export interface CommittedBlock {
  block: ServiceBlock;
  blockHash: Hex;
  /** +2/3 precommits for it. */
  commit: Vote[];
}

// Blocks and votes are immutable values shared by every node of a simulation: their hashes are
// cached by object identity. A vote's digest is asked for around its own height (signing, then
// every node verifying it), so the cache is bounded, not weak: the votes every block keeps in its
// last commit for the whole run would otherwise keep their digests too (some 36 MB an hour at 105
// validators). A digest asked for again after it fell out (a commit checked in a late sync) is
// computed again.
const blockHashCache = weakMemo<ServiceBlock, Hex>('consensus.blockHashes');
const voteDigestCache = boundedMemo<object, DeepReadonly<{ chainId: string; digest: Uint8Array }>>(
  'consensus.voteDigests',
  16_384,
);

export function blockHash(b: ServiceBlock): Hex {
  return blockHashCache.getOrCompute(b, () => computeBlockHash(b));
}

function computeBlockHash(b: ServiceBlock): Hex {
  // The commit of the previous block is hashed by its votes' signatures, which bind their content.
  return toHex(
    keccak256Bytes(
      utf8(
        canonicalJson({
          height: b.height,
          timeMs: b.timeMs,
          proposer: b.proposer,
          lastBlockHash: b.lastBlockHash,
          lastAppHash: b.lastAppHash,
          lastCommit: b.lastCommit.map((v) => v.signature),
          txs: b.txs.map((t) => toHex(keccak256Bytes(t))),
        }),
      ),
    ),
  );
}

/** What a vote's signature covers. */
export function voteDigest(v: Omit<Vote, 'signature'>, chainId: string): Uint8Array {
  const hit = voteDigestCache.get(v);
  if (hit && hit.chainId === chainId) return hit.digest;
  const digest = computeVoteDigest(v, chainId);
  voteDigestCache.set(v, { chainId, digest });
  return digest;
}

/**
 * Sign a vote; its digest is remembered for the signed vote too, since every node that receives
 * the vote asks for it again to verify the signature.
 */
export function signedVote(v: Omit<Vote, 'signature'>, chainId: string, sign: (digest: Uint8Array) => Hex): Vote {
  // Not cached for the unsigned object: it is made to be signed, then dropped.
  const digest = computeVoteDigest(v, chainId);
  const vote: Vote = { ...v, signature: sign(digest) };
  voteDigestCache.set(vote, { chainId, digest });
  return vote;
}

function computeVoteDigest(v: Omit<Vote, 'signature'>, chainId: string): Uint8Array {
  return keccak256Bytes(utf8(voteSignBytesJson(v, chainId)));
}

/**
 * The canonical JSON a vote's signature covers: canonicalJson({chainId, type, height, round,
 * blockHash, validator, sideTxVotes}), written out field by field in canonical (sorted) order.
 * Every node signs two votes per height; the generic writer sorted seven keys and quoted every
 * string for each. Anything the generic writer would treat specially (a round that is not an
 * integer) goes through it.
 */
export function voteSignBytesJson(v: Omit<Vote, 'signature'>, chainId: string): string {
  const side = v.sideTxVotes ?? [];
  if (!Number.isInteger(v.round) || typeof v.height !== 'bigint')
    return canonicalJson({
      chainId,
      type: v.type,
      height: v.height,
      round: v.round,
      blockHash: v.blockHash,
      validator: v.validator,
      sideTxVotes: side,
    });
  const blockHash = v.blockHash === null ? 'null' : quote(v.blockHash);
  const sideJson = side.length === 0 ? '[]' : canonicalJson(side);
  return `{"blockHash":${blockHash},"chainId":${quote(chainId)},"height":"${v.height}","round":"${v.round}","sideTxVotes":${sideJson},"type":${quote(v.type)},"validator":${quote(v.validator)}}`;
}

export function proposalDigest(p: Omit<Proposal, 'signature' | 'block'>, chainId: string): Uint8Array {
  return keccak256Bytes(
    utf8(
      canonicalJson({
        chainId,
        kind: 'proposal',
        height: p.height,
        round: p.round,
        blockHash: p.blockHash,
        polRound: p.polRound,
        proposer: p.proposer,
      }),
    ),
  );
}
