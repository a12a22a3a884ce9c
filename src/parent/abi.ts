/**
 * The parent chain's events as an ABI (ethers `Interface`): the contracts encode their logs with
 * it, and the bridge decodes them with it, so both sides agree byte for byte with what a real L1
 * node would return.
 *
 * Decoded field shapes follow src/modules/observers.ts exactly (addresses lower-case `0x`, uint256
 * as bigint, bytes as lower-case `0x` hex), so the bridge can hand a decoded log to the service as is.
 * `signerPubkey` in Staked and SignerChange is the 64-byte key without the 0x04 prefix, as on L1.
 */
import { Interface, type EventFragment } from 'ethers';
import { type Address } from '../core/address';
import { type Hex, isHex } from '../core/bytes';
import { InputError } from '../core/errors';

const EVENT_SIGNATURES = [
  'event Staked(address indexed signer, uint256 indexed validatorId, uint256 indexed activationEpoch, uint256 amount, uint256 total, bytes signerPubkey)',
  'event StakeUpdate(uint256 indexed validatorId, uint256 indexed newAmount)',
  'event UnstakeInit(address indexed user, uint256 indexed validatorId, uint256 deactivationEpoch, uint256 indexed amount)',
  'event SignerChange(uint256 indexed validatorId, address indexed oldSigner, address indexed newSigner, bytes signerPubkey)',
  'event TopUpFee(address indexed user, uint256 indexed fee)',
  'event StateSynced(uint256 indexed id, address indexed contractAddress, bytes data)',
  'event NewHeaderBlock(address indexed proposer, uint256 indexed headerBlockId, uint256 indexed reward, uint256 start, uint256 end, bytes32 root)',
] as const;

export const PARENT_ABI = new Interface(EVENT_SIGNATURES);

// --- event arguments (the fields after name and position) -----------------------------------------

export interface ParentEventArgs {
  Staked: {
    signer: Address;
    validatorId: bigint;
    activationEpoch: bigint;
    amount: bigint;
    total: bigint;
    signerPubkey: Hex;
  };
  StakeUpdate: { validatorId: bigint; newAmount: bigint };
  UnstakeInit: { user: Address; validatorId: bigint; deactivationEpoch: bigint; amount: bigint };
  SignerChange: { validatorId: bigint; oldSigner: Address; newSigner: Address; signerPubkey: Hex };
  TopUpFee: { user: Address; fee: bigint };
  StateSynced: { id: bigint; contractAddress: Address; data: Hex };
  NewHeaderBlock: { proposer: Address; headerBlockId: bigint; reward: bigint; start: bigint; end: bigint; root: Hex };
}

export type ParentLogName = keyof ParentEventArgs;

export const PARENT_LOG_NAMES: readonly ParentLogName[] = [
  'Staked',
  'StakeUpdate',
  'UnstakeInit',
  'SignerChange',
  'TopUpFee',
  'StateSynced',
  'NewHeaderBlock',
];

// --- decoded logs: written out (not mapped types) so they read like observers.ts ------------------

interface LogPosition {
  txHash: Hex;
  logIndex: bigint;
  blockNumber: bigint;
}

export interface DecodedStaked extends LogPosition {
  name: 'Staked';
  signer: Address;
  validatorId: bigint;
  activationEpoch: bigint;
  amount: bigint;
  total: bigint;
  signerPubkey: Hex;
}

export interface DecodedStakeUpdate extends LogPosition {
  name: 'StakeUpdate';
  validatorId: bigint;
  newAmount: bigint;
}

export interface DecodedUnstakeInit extends LogPosition {
  name: 'UnstakeInit';
  user: Address;
  validatorId: bigint;
  deactivationEpoch: bigint;
  amount: bigint;
}

export interface DecodedSignerChange extends LogPosition {
  name: 'SignerChange';
  validatorId: bigint;
  oldSigner: Address;
  newSigner: Address;
  signerPubkey: Hex;
}

export interface DecodedTopUpFee extends LogPosition {
  name: 'TopUpFee';
  user: Address;
  fee: bigint;
}

export interface DecodedStateSynced extends LogPosition {
  name: 'StateSynced';
  id: bigint;
  contractAddress: Address;
  data: Hex;
}

export interface DecodedNewHeaderBlock extends LogPosition {
  name: 'NewHeaderBlock';
  proposer: Address;
  headerBlockId: bigint;
  reward: bigint;
  start: bigint;
  end: bigint;
  root: Hex;
}

export type DecodedParentLog =
  | DecodedStaked
  | DecodedStakeUpdate
  | DecodedUnstakeInit
  | DecodedSignerChange
  | DecodedTopUpFee
  | DecodedStateSynced
  | DecodedNewHeaderBlock;

/** The parts of a log that decoding reads (a ParentLog has them all). */
export interface DecodableLog {
  readonly topics: readonly string[];
  readonly data: string;
  readonly txHash: string;
  readonly logIndex: bigint;
  readonly blockNumber: bigint;
}

// --- encode -----------------------------------------------------------------------------------

function fragmentOf(name: string): EventFragment {
  const f = (PARENT_LOG_NAMES as readonly string[]).includes(name) ? PARENT_ABI.getEvent(name) : null;
  if (f === null) throw new InputError('event', `not a parent-chain event: ${JSON.stringify(name)}`);
  return f;
}

/** topic0 (the keccak of the event's canonical signature). */
export function eventTopic(name: ParentLogName): Hex {
  return fragmentOf(name).topicHash as Hex;
}

/** ABI-encode one event: topics (topic0 and the indexed fields) and data (the rest). */
export function encodeLog<N extends ParentLogName>(name: N, args: ParentEventArgs[N]): { topics: Hex[]; data: Hex } {
  const fragment = fragmentOf(name);
  const record = args as unknown as Record<string, unknown>;
  const values = fragment.inputs.map((input) => record[input.name]);
  let encoded: { data: string; topics: string[] };
  try {
    encoded = PARENT_ABI.encodeEventLog(fragment, values);
  } catch (e) {
    throw new InputError(`${name} args`, (e as Error).message);
  }
  return { topics: encoded.topics.map((t) => t.toLowerCase() as Hex), data: encoded.data.toLowerCase() as Hex };
}

// --- decode -----------------------------------------------------------------------------------

const HASH_RE = /^0x[0-9a-fA-F]{64}$/;

function normalize(type: string, value: unknown): unknown {
  switch (type) {
    case 'address':
    case 'bytes':
    case 'bytes32':
      return (value as string).toLowerCase();
    case 'uint256':
      return value as bigint;
    default:
      throw new InputError('type', `unexpected ABI type ${type}`);
  }
}

/**
 * Decode a parent-chain log, or null if it is not one of the events above or is not the exact
 * encoding of one. ethers alone is lenient (extra topics, trailing data, dirty padding all decode),
 * so a log counts only if re-encoding its decoded fields gives back the same topics and data.
 * Never throws.
 */
export function decodeLog(log: DecodableLog): DecodedParentLog | null {
  try {
    if (typeof log !== 'object' || log === null) return null;
    const { topics, data, txHash, logIndex, blockNumber } = log;
    if (typeof txHash !== 'string' || !HASH_RE.test(txHash)) return null;
    if (typeof logIndex !== 'bigint' || logIndex < 0n) return null;
    if (typeof blockNumber !== 'bigint' || blockNumber < 0n) return null;
    if (!Array.isArray(topics) || topics.length === 0 || !topics.every((t) => typeof t === 'string' && HASH_RE.test(t)))
      return null;
    if (!isHex(data)) return null;

    const lowerTopics = topics.map((t: string) => t.toLowerCase());
    const lowerData = data.toLowerCase();
    const parsed = PARENT_ABI.parseLog({ topics: lowerTopics, data: lowerData });
    if (parsed === null) return null;

    const fields: Record<string, unknown> = {};
    parsed.fragment.inputs.forEach((input, i) => {
      fields[input.name] = normalize(input.type, parsed.args[i]);
    });
    const name = parsed.name as ParentLogName;
    const again = encodeLog(name, fields as never);
    if (again.data !== lowerData) return null;
    if (again.topics.length !== lowerTopics.length || again.topics.some((t, i) => t !== lowerTopics[i])) return null;

    return { name, txHash: txHash.toLowerCase() as Hex, logIndex, blockNumber, ...fields } as DecodedParentLog;
  } catch {
    return null;
  }
}
