/**
 * `byzantineBlocks`: a producer of the span seals sidechain blocks that each break one rule of a
 * header's validity, and sends them to every sidechain node. Honest nodes must refuse every one
 * (a block from the future they must hold until its time); `sidechain-refused` judges that.
 *
 * Each craft starts from the block the producer would seal honestly on the network's new head (its
 * own succession, difficulty and delay, no transactions) and changes one thing, then seals again
 * with the producer's key, so the seal is good and only the rule the craft names is broken (the
 * kinds, and Bor's error for each: BLOCK_CRAFTS below). The producer is the fault's validator when
 * its signer is in the parent's snapshot, else the first validator whose signer is.
 *
 * Whenever the network's head first reaches `everyBlocks` blocks past the last craft (and the next
 * block is not a sprint start, where an honest block would also commit a span the craft does not
 * build), the next kind in turn is sealed on it and sent. A kind that needs a sprint end (a wrong
 * producer list) or no sprint end (a list where none belongs) waits for a block where it fits.
 */
import { type Address } from '../../src/core/address';
import { type Hex, concatBytes, fromHex, toHex } from '../../src/core/bytes';
import { type SignatureScheme } from '../../src/core/signatureScheme';
import { type SidechainBlock } from '../../src/sidechain/block';
import {
  EXTRA_SEAL_LENGTH,
  EXTRA_VANITY_LENGTH,
  type SidechainHeader,
  headerHash,
  sealHashBytes,
  sealHeader,
} from '../../src/sidechain/header';
import { buildBlock, planProduction } from '../../src/sidechain/producer';
import { type StoredBlock } from '../../src/sidechain/chain';
import { isSprintEnd, isSprintStart } from '../../src/sidechain/sprint';
import { type SidechainNode } from '../../src/node/sidechain/sidechainNode';
import { VALIDATOR_INDEX, int } from '../core/schemaParts';
import { type Rng } from '../env/rng';
import {
  type FaultDef,
  type FaultTiming,
  SIDECHAIN_SIDE,
  kindListSchema,
  readKindList,
  readValidator,
  sidechainOf,
} from './fault';
import { type SidechainTarget } from './targets';

/** How far ahead of its parent a `fromFuture` block is stamped (its importers must hold it that long). */
export const FUTURE_AHEAD_S = 600n;

/** The vanity of every crafted block (honest producers leave theirs zero). */
const CRAFT_VANITY = new Uint8Array(32).fill(0xbb);

/** What a craft starts from: the honest block, its parent, the producer and the chain's rules. */
interface CraftBase {
  block: SidechainBlock;
  parent: SidechainBlock;
  key: Hex;
  scheme: SignatureScheme;
  /** Another producer of the snapshot (for a block that claims the wrong signer), or null. */
  other: Address | null;
  periodS: bigint;
  delayS: bigint;
  sprint: number;
  fresh(): Hex;
}

type Expect = 'refused' | 'held';
type Crafted = { block: SidechainBlock; expect: Expect } | null;

/** A header changed and sealed again with the producer's key: only the change breaks a rule. */
function resealed(b: CraftBase, change: Partial<SidechainHeader>): SidechainBlock {
  const header = sealHeader({ ...b.block.header, ...change }, b.key, b.scheme);
  return { ...b.block, header, hash: headerHash(header) };
}

/** The same, for an extra too short for `sealHeader`: the seal written over its last 65 bytes by hand. */
function sealedWithExtra(b: CraftBase, extra: Uint8Array): SidechainBlock {
  const unsealed: SidechainHeader = { ...b.block.header, extraData: toHex(extra) };
  const sealed = Uint8Array.from(extra);
  sealed.set(b.scheme.sign(sealHashBytes(unsealed), fromHex(b.key)), extra.length - EXTRA_SEAL_LENGTH);
  const header: SidechainHeader = { ...unsealed, extraData: toHex(sealed) };
  return { ...b.block, header, hash: headerHash(header) };
}

const refused = (block: SidechainBlock): Crafted => ({ block, expect: 'refused' });

/**
 * The kinds, in the order a producer takes them in turn, each with the rule it breaks (Bor's error
 * where Bor names one).
 */
const BLOCK_CRAFTS = {
  /** A number that does not follow the parent's. */
  wrongNumber: (b: CraftBase) => refused(resealed(b, { number: b.block.header.number + 1n })),
  /** A block hash that is not the header's (the header itself is good). */
  wrongHash: (b: CraftBase) => refused({ ...b.block, hash: b.fresh() }),
  /** A claimed signer that is not the one the seal recovers to. */
  wrongSigner: (b: CraftBase) => (b.other === null ? null : refused({ ...b.block, signer: b.other })),
  /** errWrongDifficulty: a difficulty one above N − succession. */
  wrongDifficulty: (b: CraftBase) => refused(resealed(b, { difficulty: b.block.header.difficulty + 1n })),
  /** errInvalidTimestamp: a time less than the period after the parent's. */
  beforePeriod: (b: CraftBase) =>
    b.periodS === 0n ? null : refused(resealed(b, { time: b.parent.header.time + b.periodS - 1n })),
  /** BlockTooSoonError: after the period, but before the producer's own delay (a backup's turn). */
  tooSoon: (b: CraftBase) =>
    b.delayS - 1n < b.periodS ? null : refused(resealed(b, { time: b.parent.header.time + b.delayS - 1n })),
  /** consensus.ErrFutureBlock: a time far ahead of every clock (held, never imported before its time). */
  fromFuture: (b: CraftBase): Crafted => ({
    block: resealed(b, { time: b.parent.header.time + b.delayS + FUTURE_AHEAD_S }),
    expect: 'held',
  }),
  /** A base fee other than EIP-1559's from the parent. */
  wrongBaseFee: (b: CraftBase) =>
    b.block.header.baseFee === undefined || b.block.header.baseFee === null
      ? null
      : refused(resealed(b, { baseFee: b.block.header.baseFee + 1n })),
  /** A gas limit that differs from the parent's. */
  wrongGasLimit: (b: CraftBase) => refused(resealed(b, { gasLimit: b.block.header.gasLimit + 1n })),
  /** Gas used that the body does not use. */
  wrongGasUsed: (b: CraftBase) => refused(resealed(b, { gasUsed: b.block.header.gasUsed + 21_000n })),
  /** A transaction root that is not the body's. */
  wrongTxRoot: (b: CraftBase) => refused(resealed(b, { txHash: b.fresh() })),
  /** A receipt root that is not the body's run's. */
  wrongReceiptRoot: (b: CraftBase) => refused(resealed(b, { receiptHash: b.fresh() })),
  /** A logs bloom with a bit the body's logs do not set. */
  wrongBloom: (b: CraftBase) => {
    const bloom = fromHex(b.block.header.bloom);
    bloom[bloom.length - 1] = bloom[bloom.length - 1]! ^ 1;
    return refused(resealed(b, { bloom: toHex(bloom) }));
  },
  /** A state root that is not the state the block leaves. */
  wrongStateRoot: (b: CraftBase) => refused(resealed(b, { stateRoot: b.fresh() })),
  /** errExtraValidators: a producer list in a header that is not a sprint end's. */
  extraValidators: (b: CraftBase) => {
    if (isSprintEnd(b.block.header.number, b.sprint)) return null;
    const extra = fromHex(b.block.header.extraData);
    const middle = fromHex(b.fresh()).subarray(0, 20);
    const listed = concatBytes(middle, new Uint8Array(19), Uint8Array.of(1));
    const grown = concatBytes(extra.subarray(0, EXTRA_VANITY_LENGTH), listed, extra.subarray(EXTRA_VANITY_LENGTH));
    return refused(resealed(b, { extraData: toHex(grown) }));
  },
  /** errInvalidSpanValidators: a sprint end's producer list with one power changed. */
  wrongSpanValidators: (b: CraftBase) => {
    if (!isSprintEnd(b.block.header.number, b.sprint)) return null;
    const extra = Uint8Array.from(fromHex(b.block.header.extraData));
    // The last byte of the first entry's 20-byte power.
    const at = EXTRA_VANITY_LENGTH + 39;
    if (extra.length < at + 1 + EXTRA_SEAL_LENGTH) return null;
    extra[at] = extra[at]! ^ 1;
    return refused(resealed(b, { extraData: toHex(extra) }));
  },
  /** errMissingSignature: an extra that holds a seal and no vanity (too short for both). */
  shortExtra: (b: CraftBase) => refused(sealedWithExtra(b, new Uint8Array(EXTRA_SEAL_LENGTH))),
  /** A field no reader can decode (an extra that is not hex): refused as malformed, never a stop. */
  unreadableExtra: (b: CraftBase) =>
    refused({ ...b.block, header: { ...b.block.header, extraData: '0xzz' as Hex }, hash: b.fresh() }),
};

export type ByzantineBlock = keyof typeof BLOCK_CRAFTS;
export const BYZANTINE_BLOCKS = Object.keys(BLOCK_CRAFTS) as ByzantineBlock[];

export type ByzantineBlocksFault = FaultTiming & {
  kind: 'byzantineBlocks';
  /** The producer that seals them (1-based validator index; another producer while it is not one). */
  validator: number;
  /** What it seals, in turn. */
  blocks: ByzantineBlock[];
  /** It seals one every this many blocks of the network's head. */
  everyBlocks: number;
};

/** The producer: the fault's validator when its signer is in the snapshot, else the first that is. */
function producerOf(d: SidechainTarget, parent: StoredBlock, validator: number) {
  const set = parent.snapshot.validatorSet;
  const inSet = d.setup.keys.filter((k) => set.hasAddress(k.signer));
  const me = inSet.find((k) => k.index === validator) ?? inSet[0];
  if (me === undefined) return null;
  const other = inSet.find((k) => k.signer !== me.signer)?.signer ?? null;
  return { key: me.signerKey, signer: me.signer, from: `sc-${me.index}`, other };
}

class Sealer {
  private turn = 0;
  /** Kinds whose turn came on a block where they could not be made, in the order they came. */
  private readonly owed = new Set<ByzantineBlock>();
  /** The head number from which it seals next. */
  private nextAt = 0n;
  private readonly fresh: Rng;

  constructor(
    private readonly d: SidechainTarget,
    private readonly f: ByzantineBlocksFault,
    index: number,
  ) {
    this.fresh = d.rng.fork(`byzantineBlocks:${index}`);
  }

  /** A node imported `head`: the first time the network's head reaches the next mark, seal on it. */
  onImport(node: SidechainNode, head: SidechainBlock): void {
    const n = head.header.number;
    if (n < this.nextAt) return;
    const cfg = node.chain.cfg;
    // A sprint start commits a span the craft would not build: wait for the next block.
    if (isSprintStart(n + 1n, BigInt(cfg.sprint))) return;
    const parent = node.chain.get(head.hash)!;
    const p = producerOf(this.d, parent, this.f.validator);
    if (p === null) return;
    this.nextAt = n + BigInt(this.f.everyBlocks);
    // The producer's own turn on this parent: its succession, difficulty and delay.
    const plan = planProduction(cfg, parent, p.signer)!;
    // Its own vanity: a craft that keeps the header (a wrong claimed signer) is then never the
    // block the producer's node seals honestly at that height, which nodes rightly import.
    const honest = buildBlock(
      node.chain,
      plan,
      p.key,
      p.signer,
      { span: () => null, stateSyncs: () => [], txs: [], vanity: CRAFT_VANITY },
      plan.timeS,
    );
    const base: CraftBase = {
      block: honest,
      parent: head,
      key: p.key,
      scheme: node.chain.scheme,
      other: p.other,
      periodS: BigInt(cfg.periodS),
      delayS: plan.timeS - head.header.time,
      sprint: cfg.sprint,
      fresh: () => toHex(this.fresh.bytes(32)),
    };
    // Kinds whose turn came where they could not be made go first, as soon as they can be.
    const list = this.f.blocks;
    const owedCount = this.owed.size;
    const candidates = [...this.owed, ...list.map((_, k) => list[(this.turn + k) % list.length]!)];
    for (const [k, kind] of candidates.entries()) {
      if (k >= owedCount) this.turn++;
      const made = BLOCK_CRAFTS[kind](base);
      if (made === null) {
        this.owed.add(kind);
        continue;
      }
      this.owed.delete(kind);
      this.d.record(p.from, {
        kind: 'byzantine.block',
        craft: kind,
        hash: made.block.hash,
        number: made.block.header.number,
        timeS: made.block.header.time,
        expect: made.expect,
      });
      for (const peer of this.d.sidechainNodes)
        this.d.network.send(p.from, peer.id, { kind: 'sc.newBlock', block: made.block });
      return;
    }
  }
}

export const byzantineBlocks: FaultDef<ByzantineBlocksFault> = {
  kind: 'byzantineBlocks',
  summary:
    'a producer seals sidechain blocks that each break one rule of a header and sends them to every node (nodes must refuse them, and hold a block from the future)',
  fields: ['validator', 'blocks', 'everyBlocks'],
  schema: {
    properties: {
      validator: VALIDATOR_INDEX,
      blocks: kindListSchema(BYZANTINE_BLOCKS, 'block'),
      everyBlocks: { ...int(1, 1000), default: 4 },
    },
    required: ['validator'],
  },
  decode(r, o, ctx) {
    const validator = readValidator(r, o, ctx, false);
    const blocks = readKindList(r, o, 'blocks', BYZANTINE_BLOCKS, 'block');
    return { validator, blocks, everyBlocks: r.int(o, 'everyBlocks', 4, 1, 1000) };
  },
  encode: (f) => ({ validator: f.validator, blocks: f.blocks, everyBlocks: f.everyBlocks }),
  sides: () => SIDECHAIN_SIDE,
  fixedSide: 'sidechain',
  apply(f, site, { start, index }) {
    const d = sidechainOf(site);
    const key = `fault:${index}`;
    if (!start) {
      d.setImportListener(key, null);
      return `validator ${f.validator}`;
    }
    const sealer = new Sealer(d, f, index);
    d.setImportListener(key, (node, block, result) => {
      if (result.status === 'imported' && result.newHead) sealer.onImport(node, block);
    });
    const kinds = f.blocks.length === BYZANTINE_BLOCKS.length ? 'every kind' : f.blocks.join(', ');
    return `validator ${f.validator}: ${kinds}`;
  },
};
