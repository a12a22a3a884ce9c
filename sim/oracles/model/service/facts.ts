/**
 * The model's records in the shape a node reports its writes (StateWrite), each under a record key
 * (`account:0x…`, `validator:3`, `validatorSet`…), and a field-by-field comparison that names the
 * first field where a node's record and the model's differ.
 */
import { type DeepReadonly } from '../../../../src/core/readonly';
import { type StateWrite } from '../../../../src/node/observations';
import { type ModelState, idKey } from './state';

export type Fact = DeepReadonly<StateWrite>;

/** The record key of a reported write. */
export function keyOfWrite(w: Fact): string {
  switch (w.what) {
    case 'account':
      return `account:${w.address.toLowerCase()}`;
    case 'dividend':
      return `dividend:${w.id}`;
    case 'validator':
      return `validator:${w.id}`;
    case 'checkpoint':
      return `checkpoint:${w.number}`;
    case 'span':
      return `span:${w.id}`;
    case 'record':
      return `record:${w.id}`;
    case 'replayKey':
      return `replayKey:${w.module}/${w.txHash}/${w.logIndex}`;
    default:
      return w.what;
  }
}

/** The model's fact for a record key (null: the model holds no such record). */
export function modelFact(s: ModelState, key: string): Fact | null {
  const colon = key.indexOf(':');
  const kind = colon < 0 ? key : key.slice(0, colon);
  const arg = colon < 0 ? '' : key.slice(colon + 1);
  switch (kind) {
    case 'account': {
      const a = s.account(arg);
      if (!a) return null;
      const coins = [...a.coins.entries()]
        .sort((x, y) => (x[0] < y[0] ? -1 : 1))
        .map(([denom, amount]) => ({ denom, amount }));
      return {
        what: 'account',
        address: a.address as `0x${string}`,
        coins,
        sequence: a.sequence,
        accountNumber: a.accountNumber,
        pubKey: a.pubKey as `0x${string}` | null,
      };
    }
    case 'nextAccountNumber':
      return { what: 'nextAccountNumber', next: s.get('nextAccountNumber') };
    case 'dividend': {
      const fee = s.dividends.get(idKey(BigInt(arg)));
      return fee === undefined ? null : { what: 'dividend', id: BigInt(arg), feeAmount: fee, slashedAmount: 0n };
    }
    case 'validator': {
      const v = s.validator(BigInt(arg));
      if (!v) return null;
      return {
        what: 'validator',
        id: v.id,
        signer: v.signer as `0x${string}`,
        power: v.power,
        startEpoch: v.startEpoch,
        endEpoch: v.endEpoch,
        pubKey: v.pubKey as `0x${string}`,
        lastUpdated: v.lastUpdated,
        jailed: v.jailed,
      };
    }
    case 'validatorSet': {
      const set = s.get('validatorSet');
      return {
        what: 'validatorSet',
        validators: set.validators.map((m) => ({
          address: m.address as `0x${string}`,
          power: m.power,
          priority: m.priority,
        })),
        ...proposerFacts(set.proposerSnapshot),
      };
    }
    case 'checkpointBuffer': {
      const b = s.get('buffer');
      return { what: 'checkpointBuffer', checkpoint: b === null ? null : checkpointFields(b) };
    }
    case 'checkpoint': {
      const c = s.checkpoint(BigInt(arg));
      return c ? { what: 'checkpoint', number: BigInt(arg), ...checkpointFields(c) } : null;
    }
    case 'ackCount':
      return { what: 'ackCount', count: s.get('ackCount') };
    case 'lastNoAck':
      return { what: 'lastNoAck', seconds: s.get('lastNoAckS') };
    case 'span': {
      const sp = s.span(BigInt(arg));
      if (!sp) return null;
      return {
        what: 'span',
        id: sp.id,
        startBlock: sp.startBlock,
        endBlock: sp.endBlock,
        producers: sp.producers.map((p) => ({ id: p.id, signer: p.signer as `0x${string}`, power: p.power })),
        sidechainChainId: sp.sidechainChainId,
        validators: sp.validators.map((m) => ({
          address: m.address as `0x${string}`,
          power: m.power,
          priority: m.priority,
        })),
        ...proposerFacts(sp.proposer),
        members: sp.members.map((m) => ({
          id: m.id,
          startEpoch: m.startEpoch,
          endEpoch: m.endEpoch,
          pubKey: m.pubKey as `0x${string}`,
          signer: m.signer as `0x${string}`,
        })),
      };
    }
    case 'spanSeedBlock':
      return { what: 'spanSeedBlock', block: s.get('seedBlock') };
    case 'record': {
      const r = s.records.get(idKey(BigInt(arg)));
      if (!r) return null;
      return {
        what: 'record',
        id: r.id,
        contract: r.contract as `0x${string}`,
        data: r.data as `0x${string}`,
        txHash: r.txHash as `0x${string}`,
        logIndex: r.logIndex,
        sidechainChainId: r.sidechainChainId,
        recordTimeMs: r.recordTimeMs,
      };
    }
    case 'replayKey': {
      if (!s.replay.has(arg)) return null;
      const [module, txHash, logIndex] = arg.split('/');
      return {
        what: 'replayKey',
        module: module as 'staking' | 'topup' | 'clerk',
        txHash: txHash as `0x${string}`,
        logIndex: BigInt(logIndex!),
      };
    }
    default:
      return null;
  }
}

function proposerFacts(p: { address: string; power: bigint; priority: bigint } | null) {
  return {
    proposer: (p?.address ?? null) as `0x${string}` | null,
    proposerPower: p?.power ?? null,
    proposerPriority: p?.priority ?? null,
  };
}

function checkpointFields(c: {
  proposer: string;
  startBlock: bigint;
  endBlock: bigint;
  rootHash: string;
  accountRootHash: string;
  timestampS: bigint;
}) {
  return {
    proposer: c.proposer as `0x${string}`,
    startBlock: c.startBlock,
    endBlock: c.endBlock,
    rootHash: c.rootHash as `0x${string}`,
    accountRootHash: c.accountRootHash as `0x${string}`,
    timestampS: c.timestampS,
  };
}

/** The record keys a block layer of the model wrote (each table's own key space). */
export function writtenKeys(block: ModelState): string[] {
  const out: string[] = [];
  for (const a of block.accounts.written()) out.push(`account:${a}`);
  for (const k of block.validators.written()) out.push(`validator:${BigInt(k)}`);
  for (const k of block.dividends.written()) out.push(`dividend:${BigInt(k)}`);
  for (const k of block.checkpoints.written()) out.push(`checkpoint:${BigInt(k)}`);
  for (const k of block.spans.written()) out.push(`span:${BigInt(k)}`);
  for (const k of block.records.written()) out.push(`record:${BigInt(k)}`);
  for (const k of block.replay.written()) out.push(`replayKey:${k}`);
  for (const k of block.scalarsWritten()) {
    const name = SCALAR_FACTS[k];
    if (name) out.push(name);
  }
  return out;
}

const SCALAR_FACTS: Record<string, string | null> = {
  validatorSet: 'validatorSet',
  buffer: 'checkpointBuffer',
  ackCount: 'ackCount',
  lastNoAckS: 'lastNoAck',
  seedBlock: 'spanSeedBlock',
  nextAccountNumber: 'nextAccountNumber',
  lastSpanId: null,
};

/**
 * The first field where two facts differ (a dotted path with the two values), or null. Compares
 * plain data: bigints, strings (addresses and hex compared in lower case), numbers, booleans,
 * arrays and objects, in the field order of `model`.
 */
export function firstDifference(model: unknown, node: unknown, path = ''): string | null {
  const d = differenceIn(model, node);
  if (d === null) return null;
  // The path is built only for the difference found (segments were pushed on the way back up).
  let at = path;
  for (let i = d.segments.length - 1; i >= 0; i--) {
    const s = d.segments[i]!;
    at = typeof s === 'number' ? `${at}[${s}]` : at ? `${at}.${s}` : s;
  }
  return d.say(at);
}

interface Difference {
  /** From the difference up to the root: an array index (a number) or an object key. */
  segments: Array<string | number>;
  /** The message, given the difference's path. */
  say(path: string): string;
}

function differenceIn(model: unknown, node: unknown): Difference | null {
  // The same value (most of what a node reports equals the model's exactly; facts hold no NaN): nothing to walk.
  if (model === node) return null;
  if (typeof model === 'string' && typeof node === 'string')
    return model.toLowerCase() === node.toLowerCase()
      ? null
      : { segments: [], say: (path) => `${path || 'value'}: model ${model}, node ${node}` };
  if (model === null || node === null || typeof model !== 'object' || typeof node !== 'object')
    return { segments: [], say: (path) => `${path || 'value'}: model ${show(model)}, node ${show(node)}` };
  if (Array.isArray(model) || Array.isArray(node)) {
    if (!Array.isArray(model) || !Array.isArray(node))
      return { segments: [], say: (path) => `${path}: model ${show(model)}, node ${show(node)}` };
    for (let i = 0; i < Math.max(model.length, node.length); i++) {
      if (i >= model.length)
        return { segments: [], say: (path) => `${path}[${i}]: the model has no entry, node ${show(node[i])}` };
      if (i >= node.length)
        return { segments: [], say: (path) => `${path}[${i}]: model ${show(model[i])}, the node has no entry` };
      const d = differenceIn(model[i], node[i]);
      if (d) {
        d.segments.push(i);
        return d;
      }
    }
    return null;
  }
  const m = model as Record<string, unknown>;
  const n = node as Record<string, unknown>;
  // The model's keys in order, then the node's that the model lacks (no set of both per object).
  for (const k of Object.keys(m)) {
    const d = differenceIn(m[k], n[k]);
    if (d) {
      d.segments.push(k);
      return d;
    }
  }
  for (const k of Object.keys(n)) {
    if (Object.prototype.propertyIsEnumerable.call(m, k)) continue;
    const d = differenceIn(m[k], n[k]);
    if (d) {
      d.segments.push(k);
      return d;
    }
  }
  return null;
}

function show(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}` : x)) ?? 'undefined';
}
