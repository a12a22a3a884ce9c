/**
 * Every message nodes exchange. Service nodes gossip consensus messages and transactions among
 * themselves, call their parent-chain RPC and their local sidechain node's RPC; sidechain nodes
 * gossip blocks and call their service node's REST API (spans, state syncs, checkpoints).
 */
import { type Address } from '../core/address';
import { type Hex } from '../core/bytes';
import { type CommittedBlock, type Proposal, type Vote } from '../consensus/types';
import { type ParentCall } from '../parent/parentChain';
import { type ParentSyncResult } from '../bridge/parentView';
import { type HeaderSummary } from '../bridge/sidechainView';
import { type SidechainBlock } from '../sidechain/block';
import { type CommittedSpan, type StateSyncRecord } from '../sidechain/systemState';
import { type SignedTx } from '../sidechain/transaction';

export type NodeMessage =
  // service <-> service
  | { kind: 'c.proposal'; proposal: Proposal }
  | { kind: 'c.vote'; vote: Vote }
  | { kind: 'c.tx'; tx: Hex }
  | { kind: 'c.syncReq'; fromHeight: bigint }
  | { kind: 'c.syncRes'; blocks: CommittedBlock[] }
  // anyone -> service: a client submitting a signed transaction
  | { kind: 'client.tx'; tx: Hex }
  // service -> parent chain RPC, and answers
  | { kind: 'p.sync'; fromBlock: bigint; fromHeaderBlock: bigint }
  | { kind: 'p.syncRes'; result: ParentSyncResult }
  | { kind: 'p.submit'; call: ParentCall }
  // service -> its sidechain node RPC, and answers
  | { kind: 'sc.getHeaders'; from: bigint }
  | { kind: 'sc.headers'; anchor: { number: bigint; hash: Hex } | null; headers: HeaderSummary[]; head: bigint }
  // sidechain <-> sidechain: the eth protocol's block gossip (sidechain/blockGossip.ts)
  /** A new block pushed in full (eth `NewBlock`). */
  | { kind: 'sc.newBlock'; block: SidechainBlock }
  /** A new block's hash and number (eth `NewBlockHashes`, one entry). */
  | { kind: 'sc.newBlockHashes'; hash: Hex; number: bigint }
  /** Ask a peer for one block (eth `GetBlockHeaders` and `GetBlockBodies` in one). */
  | { kind: 'sc.getBlock'; hash: Hex }
  /** The answer to `sc.getBlock`. */
  | { kind: 'sc.block'; block: SidechainBlock }
  /** The handshake's status (eth `Status`): sent when a connection opens, and answered. */
  | { kind: 'sc.status'; head: Hex; number: bigint; td: bigint; answer: boolean }
  /** Pending transactions passed on to peers (eth `Transactions`). */
  | { kind: 'sc.txs'; txs: readonly SignedTx[] }
  // a client -> sidechain node: a signed transaction (eth_sendRawTransaction, the workload)
  | { kind: 'sc.submit'; raw: Hex }
  // sidechain -> service REST, and answers
  | { kind: 'svc.getSpan'; id: bigint }
  | { kind: 'svc.span'; id: bigint; span: CommittedSpan | null }
  | { kind: 'svc.getStateSyncs'; fromId: bigint }
  | { kind: 'svc.stateSyncs'; records: StateSyncRecord[] }
  | { kind: 'svc.getCheckpoint' }
  | { kind: 'svc.checkpoint'; checkpoint: { start: bigint; end: bigint; rootHash: Hex } | null }
  // operator -> sidechain node (the console's debug.setHead; a devnet's anvil_setBalance and
  // evm_setNextBlockTimestamp)
  | { kind: 'op.setHead'; number: bigint }
  | { kind: 'op.setBalance'; address: Address; balance: bigint }
  | { kind: 'op.nextBlockTime'; timeS: bigint };

/** A short, deterministic description of a message for the trace (never whole blocks). */
export function describeMessage(m: NodeMessage): string {
  switch (m.kind) {
    case 'c.proposal':
      return `{"k":"c.proposal","h":${m.proposal.height},"r":${m.proposal.round},"b":"${m.proposal.blockHash.slice(0, 10)}"}`;
    case 'c.vote':
      return `{"k":"c.vote","t":"${m.vote.type}","h":${m.vote.height},"r":${m.vote.round},"v":"${m.vote.validator.slice(0, 8)}","b":${m.vote.blockHash ? `"${m.vote.blockHash.slice(0, 10)}"` : 'null'}}`;
    case 'c.tx':
    case 'client.tx':
      return `{"k":"${m.kind}","len":${(m.tx.length - 2) / 2}}`;
    case 'c.syncReq':
      return `{"k":"c.syncReq","from":${m.fromHeight}}`;
    case 'c.syncRes':
      return `{"k":"c.syncRes","n":${m.blocks.length}}`;
    case 'p.sync':
      return `{"k":"p.sync","from":${m.fromBlock}}`;
    case 'p.syncRes':
      return `{"k":"p.syncRes","n":${m.result.blocks.length},"head":${m.result.head}}`;
    case 'p.submit':
      return `{"k":"p.submit","m":"${m.call.method}"}`;
    case 'sc.getHeaders':
      return `{"k":"sc.getHeaders","from":${m.from}}`;
    case 'sc.headers':
      return `{"k":"sc.headers","n":${m.headers.length},"head":${m.head}}`;
    case 'sc.newBlock':
    case 'sc.block':
      return `{"k":"${m.kind}","n":${m.block.header.number},"h":"${m.block.hash.slice(0, 10)}"}`;
    case 'sc.newBlockHashes':
      return `{"k":"sc.newBlockHashes","n":${m.number},"h":"${m.hash.slice(0, 10)}"}`;
    case 'sc.getBlock':
      return `{"k":"sc.getBlock","h":"${m.hash.slice(0, 10)}"}`;
    case 'sc.status':
      return `{"k":"sc.status","n":${m.number},"td":${m.td},"answer":${m.answer}}`;
    case 'sc.txs':
      return `{"k":"sc.txs","n":${m.txs.length},"h":"${m.txs[0]?.hash.slice(0, 10) ?? ''}"}`;
    case 'sc.submit':
      return `{"k":"sc.submit","len":${(m.raw.length - 2) / 2}}`;
    case 'svc.getSpan':
      return `{"k":"svc.getSpan","id":${m.id}}`;
    case 'svc.span':
      return `{"k":"svc.span","id":${m.id},"found":${m.span !== null}}`;
    case 'svc.getStateSyncs':
      return `{"k":"svc.getStateSyncs","from":${m.fromId}}`;
    case 'svc.stateSyncs':
      return `{"k":"svc.stateSyncs","n":${m.records.length}}`;
    case 'svc.getCheckpoint':
      return `{"k":"svc.getCheckpoint"}`;
    case 'svc.checkpoint':
      return `{"k":"svc.checkpoint","end":${m.checkpoint?.end ?? 'null'}}`;
    case 'op.setHead':
      return `{"k":"op.setHead","n":${m.number}}`;
    case 'op.setBalance':
      return `{"k":"op.setBalance","a":"${m.address}","b":${m.balance}}`;
    case 'op.nextBlockTime':
      return `{"k":"op.nextBlockTime","t":${m.timeS}}`;
  }
}
