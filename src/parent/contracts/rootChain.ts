/**
 * RootChain: where checkpoints land (the spec's "submitted to parent-chain contracts").
 *
 * Modelled on Polygon's RootChain + StakeManager.checkSignatures: a checkpoint is accepted when it
 * continues the previous one (the first starts at sidechain block 0) and validators holding more
 * than 2/3 of the current power signed its vote digest (checkpointSignDigest.ts). The n-th accepted
 * checkpoint is stored as header block n under id n × childBlockInterval, NewHeaderBlock is
 * emitted, and the StakeManager's epoch advances.
 *
 * Signature counting: each signature is recovered; only distinct current validators count, so
 * duplicates, non-validators, malformed signatures and signatures over another digest add nothing
 * and cannot make the call fail on their own: one bad vote does not sink a checkpoint that has
 * enough good ones. The order of the signatures does not matter.
 */
import { type Address } from '../../core/address';
import { type Hex, toBytes } from '../../core/bytes';
import { SIGNATURE_LENGTH } from '../../core/secp256k1';
import { type SignatureScheme, realScheme } from '../../core/signatureScheme';
import { InputError } from '../../core/errors';
import { canonicalJson } from '../../core/canonicalJson';
import { encodeLog } from '../abi';
import { PARENT_CONTRACTS } from './addresses';
import { type CallResult, argAddress, argHex, argUint, execute, require_ } from './callResult';
import { type CheckpointSignData, checkpointSignDigest } from './checkpointSignDigest';
import { type StakeManager } from './stakeManager';

export { type CheckpointSignData, checkpointSignDigest, checkpointSideSignBytes } from './checkpointSignDigest';

/** The root chain's record of checkpoint `number` (what a validator reads as the service's HeaderBlockRecord). */
export interface RootChainHeaderBlock {
  number: bigint;
  proposer: Address;
  startBlock: bigint;
  endBlock: bigint;
  rootHash: Hex;
  accountRootHash: Hex;
}

export interface SignatureTally {
  /** Distinct current validators whose signature over the digest was found, in signer order. */
  signers: Address[];
  signedPower: bigint;
  totalPower: bigint;
}

export interface RootChainOptions {
  stakeManager: StakeManager;
  /** Header block ids step by this (Heimdall's ChildBlockInterval). */
  childBlockInterval?: bigint;
  /** When set, a checkpoint for another sidechain is rejected (Polygon's CHAINID check). */
  sidechainChainId?: string;
  address?: Address;
  /** How validator signatures are checked (the run's crypto mode; secp256k1 by default). */
  scheme?: SignatureScheme;
}

export const DEFAULT_CHILD_BLOCK_INTERVAL = 10_000n;

export class RootChain {
  readonly address: Address;
  readonly childBlockInterval: bigint;
  readonly sidechainChainId: string | undefined;
  private readonly stakeManager: StakeManager;
  private readonly scheme: SignatureScheme;
  /** Index i holds header block i + 1. */
  private readonly records: RootChainHeaderBlock[] = [];

  constructor(options: RootChainOptions) {
    this.stakeManager = options.stakeManager;
    this.scheme = options.scheme ?? realScheme;
    this.childBlockInterval = options.childBlockInterval ?? DEFAULT_CHILD_BLOCK_INTERVAL;
    if (typeof this.childBlockInterval !== 'bigint' || this.childBlockInterval <= 0n) {
      throw new InputError('childBlockInterval', `expected a positive bigint, got ${String(this.childBlockInterval)}`);
    }
    if (options.sidechainChainId !== undefined && !/^(0|[1-9][0-9]*)$/.test(options.sidechainChainId)) {
      throw new InputError('sidechainChainId', `not a decimal integer: ${JSON.stringify(options.sidechainChainId)}`);
    }
    this.sidechainChainId = options.sidechainChainId;
    this.address = options.address ?? PARENT_CONTRACTS.rootChain;
  }

  // --- views --------------------------------------------------------------------------------

  /** Header block `n` (1, 2, 3, …), or null if not submitted. */
  headerBlock(n: bigint): RootChainHeaderBlock | null {
    if (typeof n !== 'bigint' || n < 1n || n > BigInt(this.records.length)) return null;
    const r = this.records[Number(n) - 1];
    return r ? { ...r } : null;
  }

  lastHeaderBlock(): RootChainHeaderBlock | null {
    return this.headerBlock(BigInt(this.records.length));
  }

  /** How many checkpoints were accepted. */
  headerBlockCount(): bigint {
    return BigInt(this.records.length);
  }

  /** Everything the contract stores, as canonical JSON (for state digests and tests). */
  stateJson(): string {
    return canonicalJson({ headerBlocks: this.records.map((r) => ({ ...r })) });
  }

  /** The sidechain block the next checkpoint must start at. */
  nextStartBlock(): bigint {
    const last = this.records[this.records.length - 1];
    return last ? last.endBlock + 1n : 0n;
  }

  /** Who of the current validators signed `checkpoint` (a view: the bridge can check before sending). */
  tallySignatures(checkpoint: CheckpointSignData, signatures: readonly Hex[]): SignatureTally {
    const validators = this.stakeManager.currentValidators();
    const powerOf = new Map<Address, bigint>();
    let totalPower = 0n;
    for (const v of validators) {
      powerOf.set(v.signer, v.power);
      totalPower += v.power;
    }
    const digest = checkpointSignDigest(checkpoint);
    const seen = new Set<Address>();
    for (const sig of Array.isArray(signatures) ? signatures : []) {
      let bytes: Uint8Array;
      try {
        bytes = toBytes(sig, 'signature', SIGNATURE_LENGTH);
      } catch {
        continue;
      }
      const signer = this.scheme.recover(digest, bytes)?.address;
      if (signer !== undefined && powerOf.has(signer)) seen.add(signer);
    }
    let signedPower = 0n;
    const signers = validators.map((v) => v.signer).filter((s) => seen.has(s));
    for (const s of signers) signedPower += powerOf.get(s) ?? 0n;
    return { signers, signedPower, totalPower };
  }

  // --- calls --------------------------------------------------------------------------------

  submitCheckpoint(from: Address, checkpoint: CheckpointSignData, signatures: readonly Hex[]): CallResult {
    return execute(() => {
      argAddress(from, 'sender');
      const c = readCheckpoint(checkpoint);
      require_(Array.isArray(signatures), 'invalid signatures');
      if (this.sidechainChainId !== undefined)
        require_(c.sidechainChainId === this.sidechainChainId, 'invalid sidechain chain id');
      require_(c.endBlock >= c.startBlock, 'end block before start block');
      const expectedStart = this.nextStartBlock();
      require_(
        c.startBlock === expectedStart,
        this.records.length === 0
          ? 'first checkpoint must start at block 0'
          : `checkpoint not in continuity: expected start block ${expectedStart}`,
      );
      const tally = this.tallySignatures(c, signatures);
      require_(tally.signedPower * 3n > tally.totalPower * 2n, 'not enough signatures');

      const number = BigInt(this.records.length + 1);
      this.records.push({
        number,
        proposer: c.proposer,
        startBlock: c.startBlock,
        endBlock: c.endBlock,
        rootHash: c.rootHash,
        accountRootHash: c.accountRootHash,
      });
      this.stakeManager.advanceEpoch();
      const headerBlockId = number * this.childBlockInterval;
      return [
        {
          address: this.address,
          ...encodeLog('NewHeaderBlock', {
            proposer: c.proposer,
            headerBlockId,
            reward: 0n,
            start: c.startBlock,
            end: c.endBlock,
            root: c.rootHash,
          }),
        },
      ];
    });
  }
}

/** Check every field; addresses and hashes come back lower-case. */
function readCheckpoint(value: unknown): CheckpointSignData {
  require_(typeof value === 'object' && value !== null, 'invalid checkpoint');
  const c = value as Record<string, unknown>;
  const chainId = c.sidechainChainId;
  require_(typeof chainId === 'string' && /^(0|[1-9][0-9]*)$/.test(chainId), 'invalid checkpoint sidechain chain id');
  argUint(BigInt(chainId), 'checkpoint sidechain chain id');
  return {
    proposer: argAddress(c.proposer, 'checkpoint proposer'),
    startBlock: argUint(c.startBlock, 'checkpoint start block'),
    endBlock: argUint(c.endBlock, 'checkpoint end block'),
    rootHash: argHex(c.rootHash, 'checkpoint root hash', 32),
    accountRootHash: argHex(c.accountRootHash, 'checkpoint account root hash', 32),
    sidechainChainId: chainId,
  };
}
