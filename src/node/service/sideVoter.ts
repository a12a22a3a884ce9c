/**
 * The side voter: after each commit, this validator's votes on the side txs of the block just
 * committed (carried by its next precommit), with its signature over the root chain's checkpoint
 * digest where it votes yes on a checkpoint; and, from a commit's precommits, the side votes they
 * carry grouped by tx (what the app tallies two blocks later).
 */
import { type Hex, toHex } from '../../core/bytes';
import { weakMemo } from '../../core/memo';
import { type SideTxVotes } from '../../app/sideTx';
import { decodeTxHex } from '../../app/decodedTx';
import { type SideVote } from '../../modules/framework/msgDef';
import { type MsgCheckpoint } from '../../modules/checkpoint/msgs';
import { type MsgProposeSpan } from '../../modules/span/msgs';
import { type SideVoteEntry, type Vote } from '../../consensus/types';
import { checkpointSignDigest } from '../../parent/contracts/checkpointSignDigest';

/** A vote on a span proposal (reported: the span oracle checks the proposal window). */
export interface SpanVote {
  txHash: Hex;
  spanId: bigint;
  vote: SideVote['result'];
}

/**
 * A vote with what the message it is on points at (reported with the views' reads: the bridge
 * confirmation oracle judges the depths): a parent-chain event by tx hash and log index, or a
 * checkpoint range's end.
 */
export interface VoteTarget {
  txHash: Hex;
  msgType: string;
  vote: SideVote['result'];
  parentEvent: { txHash: Hex; logIndex: bigint } | null;
  checkpointEnd: bigint | null;
}

export interface SideVoting {
  entries: SideVoteEntry[];
  spanVotes: SpanVote[];
  targets: VoteTarget[];
}

/** The parent-chain event a message names, if it names one (tx hash and log index fields). */
function parentEventOf(msg: unknown): VoteTarget['parentEvent'] {
  if (typeof msg !== 'object' || msg === null) return null;
  const m = msg as { txHash?: unknown; logIndex?: unknown };
  return typeof m.txHash === 'string' && typeof m.logIndex === 'bigint'
    ? { txHash: m.txHash as Hex, logIndex: m.logIndex }
    : null;
}

/**
 * This validator's side-vote entries for `votes` (the app's, on the last block's side txs). The
 * messages voted on are read from that block's txs, each decoded once.
 */
export function castSideVotes(
  votes: ReadonlyArray<{ txHash: Hex; vote: SideVote }>,
  lastBlockTxs: readonly Hex[],
  sign: { sidechainChainId: string; signDigest: (digest: Uint8Array) => Uint8Array },
): SideVoting {
  const msgs = new Map<Hex, { type: string; msg: unknown }>();
  if (votes.length)
    for (const t of lastBlockTxs) {
      const d = decodeTxHex(t);
      if (d.tx) msgs.set(d.hash, { type: d.tx.def.type, msg: d.tx.msg });
    }
  const msgOf = <M>(txHash: Hex, type: string): M | null => {
    const m = msgs.get(txHash);
    return m && m.type === type ? (m.msg as M) : null;
  };
  const spanVotes: SpanVote[] = [];
  const targets: VoteTarget[] = [];
  const entries = votes.map(({ txHash, vote }) => {
    const m = msgs.get(txHash);
    if (m)
      targets.push({
        txHash,
        msgType: m.type,
        vote: vote.result,
        parentEvent: parentEventOf(m.msg),
        checkpointEnd: m.type === 'checkpoint/MsgCheckpoint' ? (m.msg as MsgCheckpoint).endBlock : null,
      });
    const entry: SideVoteEntry = { txHash, vote };
    const span = msgOf<MsgProposeSpan>(txHash, 'sidechain/MsgProposeSpan');
    if (span) spanVotes.push({ txHash, spanId: span.spanId, vote: vote.result });
    const cp = msgOf<MsgCheckpoint>(txHash, 'checkpoint/MsgCheckpoint');
    if (vote.result === 'yes' && cp)
      entry.signature = toHex(
        sign.signDigest(checkpointSignDigest({ ...cp, sidechainChainId: sign.sidechainChainId })),
      );
    return entry;
  });
  return { entries, spanVotes, targets };
}

/**
 * The side votes of a commit, grouped, once per commit list: every node applies the same block,
 * whose last commit is one list shared by all of them. Read only.
 */
const groupedSideVotes = weakMemo<readonly Vote[], readonly SideTxVotes[]>('sideVoter.groupedSideVotes');

/** Group the side-tx votes carried by a commit's precommits by tx. */
export function sideVotesOf(commit: readonly Vote[]): readonly SideTxVotes[] {
  let grouped = groupedSideVotes.get(commit);
  if (grouped === undefined) {
    grouped = groupSideVotes(commit);
    groupedSideVotes.set(commit, grouped);
  }
  return grouped;
}

function groupSideVotes(commit: readonly Vote[]): SideTxVotes[] {
  const byTx = new Map<Hex, SideTxVotes['votes']>();
  for (const v of commit) {
    for (const e of v.sideTxVotes ?? []) {
      const list = byTx.get(e.txHash) ?? [];
      list.push({
        validator: v.validator,
        vote: e.vote as SideVote,
        ...(e.signature ? { signature: e.signature } : {}),
      } as SideTxVotes['votes'][number]);
      byTx.set(e.txHash, list);
    }
  }
  return [...byTx.entries()].map(([txHash, votes]) => ({ txHash, votes }));
}

/** The checkpoint signatures of the yes votes on `txHash` (the bridge submits them to the root chain). */
export function checkpointSignatures(votes: readonly SideTxVotes[], txHash: Hex): Hex[] {
  return (votes.find((v) => v.txHash === txHash)?.votes ?? [])
    .filter((v) => v.vote.result === 'yes')
    .map((v) => (v as { signature?: Hex }).signature)
    .filter((s): s is Hex => typeof s === 'string');
}
