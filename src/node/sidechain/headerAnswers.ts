/**
 * A sidechain node's answer to its service node's header poll (`sc.getHeaders`): the canonical
 * headers from a number, as summaries, with the block before them as the anchor the service
 * node's view checks continuity against.
 */
import { weakMemo } from '../../core/memo';
import { type SidechainBlock } from '../../sidechain/block';
import { type SidechainChain } from '../../sidechain/chain';
import { type HeaderSummary } from '../../bridge/sidechainView';
import { type NodeMessage } from '../messages';

/**
 * A block's header summary: immutable, so made once per block and shared by every answer that
 * includes it (each poll re-sends the last headers).
 */
const summaries = weakMemo<SidechainBlock, HeaderSummary>('sidechainNode.headerSummaries');

function summaryOf(block: SidechainBlock): HeaderSummary {
  // Each answer looks up some thirty summaries: a hit allocates nothing (no closure for getOrCompute).
  let s = summaries.get(block);
  if (s === undefined) {
    const h = block.header;
    s = { number: h.number, hash: block.hash, time: h.time, txHash: h.txHash, receiptHash: h.receiptHash };
    summaries.set(block, s);
  }
  return s;
}

/**
 * Answers by the head they were made at: the canonical chain below a head is the head's ancestry,
 * the same on every node, so an answer depends only on the head block and the arguments. The
 * service nodes of a network poll their sidechain nodes around the same heads from the same
 * numbers: one answer object serves them all (receivers only read it). A few arguments per head.
 */
const answers = weakMemo<SidechainBlock, Map<string, NodeMessage>>('sidechainNode.headerAnswers');
const ANSWERS_PER_HEAD = 16;

export function headersAnswer(chain: SidechainChain, from: bigint, maxHeaders: number): NodeMessage {
  const headBlock = chain.head().block;
  const key = `${from}/${maxHeaders}`;
  let byArgs = answers.get(headBlock);
  const hit = byArgs?.get(key);
  if (hit !== undefined) return hit;
  const answer = buildAnswer(chain, from, maxHeaders);
  if (byArgs === undefined) {
    byArgs = new Map();
    answers.set(headBlock, byArgs);
  } else if (byArgs.size >= ANSWERS_PER_HEAD) byArgs.clear();
  byArgs.set(key, answer);
  return answer;
}

function buildAnswer(chain: SidechainChain, from: bigint, maxHeaders: number): NodeMessage {
  const head = chain.head().block.header.number;
  const start = from > head ? head : from;
  const headers: HeaderSummary[] = [];
  for (let n = start; n <= head && headers.length < maxHeaders; n++) headers.push(summaryOf(chain.byNumber(n)!.block));
  const anchorBlock = start > 0n ? chain.byNumber(start - 1n) : undefined;
  const reported = headers.length ? headers[headers.length - 1]!.number : head;
  return {
    kind: 'sc.headers',
    anchor: anchorBlock ? { number: start - 1n, hash: anchorBlock.block.hash } : null,
    headers,
    head: reported,
  };
}
