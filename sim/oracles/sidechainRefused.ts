/**
 * A Byzantine producer's crafted sidechain blocks are refused (spec: What the service does 4;
 * reference: sidechain.md §1.4, §2.4-§2.6: Bor's header checks). The `byzantineBlocks` fault seals
 * blocks that each break one rule of a header (a number that does not follow, a hash or signer that
 * is not the header's, a wrong difficulty, a time too soon, a base fee, gas limit, gas used, root or
 * bloom that is not the block's, a producer list where none belongs or a wrong one, an extra without
 * vanity) and records each with what must become of it: `refused`, no honest node may import it;
 * `held`, a block stamped far in the future, no node may import it before its time.
 *
 * Its own model is the record's: it does not re-check a header, it only holds every node's
 * `sidechain.imported` against the crafts it was told of. A node's clock may be skewed, so a
 * held block is judged with a slack of HELD_SLACK_MS (the craft is ten minutes ahead). A header's
 * time is in seconds since 1970 and a record's in milliseconds since the run began: the genesis
 * (`sidechain.started`, stamped at the run's start) gives the one in terms of the other.
 */
import { type Hex } from '../../src/core/bytes';
import { type RunObservation } from '../core/record';
import { Oracle, type RunRecord } from './oracle';

type Crafted = Extract<RunObservation, { kind: 'byzantine.block' }>;

/** How early a node may import a held block (a clock skewed ahead): far less than the craft's lead. */
export const HELD_SLACK_MS = 300_000;

export class SidechainRefusedOracle extends Oracle {
  readonly name = 'sidechain-refused';
  readonly class = 'safety' as const;
  readonly reads = ['sidechain.started', 'byzantine.block', 'sidechain.imported'] as const;
  private readonly crafted = new Map<Hex, Crafted>();
  /** The genesis time (ms since 1970): the run's time 0 on the headers' clock. */
  private genesisMs: number | null = null;

  override observe(r: RunRecord): void {
    const o = r.obs;
    if (o.kind === 'sidechain.started') {
      this.genesisMs ??= Number(o.genesis.time) * 1000;
      return;
    }
    if (o.kind === 'byzantine.block') {
      this.crafted.set(o.hash, o);
      return;
    }
    if (o.kind !== 'sidechain.imported' || this.crafted.size === 0) return;
    const c = this.crafted.get(o.block.hash);
    if (c === undefined) return;
    this.saw('sidechain.header.validity');
    if (c.expect === 'refused') {
      this.fail(r.t, r.node, `${c.craft} block ${c.number} (${c.hash}) was imported; a node must refuse it`, {
        craft: c.craft,
        number: c.number,
        hash: c.hash,
      });
      return;
    }
    // In the run's time (a node imports a block only after its chain started).
    const dueMs = Number(c.timeS) * 1000 - (this.genesisMs ?? 0);
    if (r.t + HELD_SLACK_MS < dueMs)
      this.fail(
        r.t,
        r.node,
        `${c.craft} block ${c.number} (${c.hash}) stamped ${c.timeS} s was imported at ${r.t} ms, before its time`,
        { craft: c.craft, number: c.number, hash: c.hash, timeS: c.timeS, importedAtMs: r.t },
      );
  }
}
