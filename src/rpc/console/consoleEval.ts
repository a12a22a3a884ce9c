/**
 * The operator console's read expressions (service-spec "Operator console"), answered with the
 * values geth's JavaScript console prints, over a `SidechainView`. An expression is matched by its
 * tokens (consoleLexer.ts) against the supported set; anything else is a clear error listing it.
 * `debug.setHead` changes the chain: the console server sends it to the node itself
 * (setHeadExpression.ts), so it is not answered here.
 */
import { fromHex, toBareHex } from '../../core/bytes';
import { keccak256Bytes } from '../../core/hash';
import { syncingJson } from '../jsonrpc/syncingJson';
import { type SidechainView } from '../ports';
import { lexConsole } from './consoleLexer';

export type ConsoleResult = { ok: true; value: unknown } | { ok: false; error: string };

const ENODE_HOST = '127.0.0.1';
const ENODE_PORT = 30303;

class ConsoleFailure extends Error {}

/** The 64-byte public key (without the 0x04 prefix) of `nodeKey`, zeros when absent. */
function nodePublicKey(view: SidechainView): Uint8Array {
  if (view.nodeKey === undefined) return new Uint8Array(64);
  if (typeof view.nodeKey !== 'string' || !/^0x04[0-9a-fA-F]{128}$/.test(view.nodeKey)) {
    throw new ConsoleFailure('nodeKey is not a 65-byte uncompressed public key (0x04…)');
  }
  return fromHex(`0x${view.nodeKey.slice(4)}`);
}

function nodeInfo(view: SidechainView): Record<string, unknown> {
  const pub = nodePublicKey(view);
  const head = view.chain.head();
  return {
    id: toBareHex(keccak256Bytes(pub)),
    name: 'sidechain/v0.1.0-lockstep',
    enode: `enode://${toBareHex(pub)}@${ENODE_HOST}:${ENODE_PORT}`,
    ip: ENODE_HOST,
    listenAddr: `[::]:${ENODE_PORT}`,
    ports: { discovery: ENODE_PORT, listener: ENODE_PORT },
    protocols: {
      eth: {
        network: Number(view.chainId),
        difficulty: Number(head.td),
        genesis: view.chain.genesis().block.hash.toLowerCase(),
        head: head.block.hash.toLowerCase(),
      },
    },
  };
}

/** web3.js's `eth.syncing`: false, or geth's object with the three block numbers as numbers. */
function consoleSyncing(view: SidechainView): false | Record<string, unknown> {
  if (!view.syncing) return false;
  return {
    ...syncingJson(view.syncing),
    startingBlock: Number(view.syncing.startingBlock),
    currentBlock: Number(view.syncing.currentBlock),
    highestBlock: Number(view.syncing.highestBlock),
  };
}

/** JS property access on `eth.syncing` (false.highestBlock is undefined, and arithmetic gives NaN). */
function syncingField(view: SidechainView, key: 'currentBlock' | 'highestBlock'): number {
  const s = consoleSyncing(view);
  return s === false ? NaN : (s[key] as number);
}

const CONSOLE: ReadonlyMap<string, (view: SidechainView) => unknown> = new Map<
  string,
  (view: SidechainView) => unknown
>([
  ['admin . peers . length', (v) => v.peerCount],
  ['admin . nodeInfo', (v) => nodeInfo(v)],
  ['admin . nodeInfo . enode', (v) => nodeInfo(v).enode],
  ['eth . syncing', (v) => consoleSyncing(v)],
  [
    'eth . syncing . highestBlock - eth . syncing . currentBlock',
    (v) => syncingField(v, 'highestBlock') - syncingField(v, 'currentBlock'),
  ],
  [
    'eth . syncing . currentBlock * 100 / eth . syncing . highestBlock',
    (v) => (syncingField(v, 'currentBlock') * 100) / syncingField(v, 'highestBlock'),
  ],
  ['eth . blockNumber', (v) => Number(v.chain.head().block.header.number)],
  ["eth . getBlock ( 'latest' ) . number", (v) => Number(v.chain.head().block.header.number)],
]);

const SUPPORTED_CONSOLE = [
  'admin.peers.length',
  'admin.nodeInfo',
  'admin.nodeInfo.enode',
  'eth.syncing',
  'eth.syncing.highestBlock - eth.syncing.currentBlock',
  'eth.syncing.currentBlock * 100 / eth.syncing.highestBlock',
  'eth.blockNumber',
  "eth.getBlock('latest').number",
];

/** Evaluate one read expression. Never throws. */
export function evalConsole(view: SidechainView, expr: string): ConsoleResult {
  try {
    if (typeof expr !== 'string') return { ok: false, error: 'expected an expression string' };
    const lexed = lexConsole(expr);
    const shown = JSON.stringify(expr.trim().slice(0, 200));
    if (!lexed.ok) return { ok: false, error: `${lexed.error} in ${shown}` };
    const key = lexed.tokens.join(' ');
    const f = CONSOLE.get(key);
    if (f) return { ok: true, value: f(view) };
    if (key.startsWith('debug . setHead ('))
      return {
        ok: false,
        error: 'debug.setHead rewinds the chain and needs the node itself; this read-only console view does not run it',
      };
    if (key === '') return { ok: false, error: 'empty expression' };
    return { ok: false, error: `unsupported console expression ${shown}; supported: ${SUPPORTED_CONSOLE.join(', ')}` };
  } catch (e) {
    return { ok: false, error: e instanceof ConsoleFailure ? e.message : 'console evaluation failed' };
  }
}
