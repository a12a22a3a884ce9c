/**
 * Planted bugs for test builds: each bends real code in a way an oracle must catch, so a test can
 * show that a campaign finds it and the shrinker reduces it. Never on in a normal run.
 */
import { SidechainChain } from '../../src/sidechain/chain';

type Uninstall = () => void;

const PLANTS: Record<string, () => Uninstall> = {
  /**
   * A sidechain node keeps its own head instead of reorging onto a heavier branch: after a
   * partition heals, nodes stay on different chains (the fork-choice oracle fires).
   */
  'sticky-head': () => {
    interface Stored {
      block: { hash: string; header: { parentHash: string; number: bigint } };
    }
    const proto = SidechainChain.prototype as unknown as {
      setHead: (this: { head(): Stored }, next: Stored, nowMs: number) => unknown;
    };
    const original = proto.setHead;
    proto.setHead = function (this: { head(): Stored }, next: Stored, nowMs: number) {
      const head = this.head();
      const extendsHead = next.block.header.parentHash === head.block.hash;
      if (!extendsHead && head.block.header.number > 0n) {
        // Refuse the reorg: keep the current head (the planted bug).
        return null;
      }
      return original.call(this, next, nowMs);
    };
    return () => {
      proto.setHead = original;
    };
  },
};

export const PLANT_NAMES = Object.keys(PLANTS);

export function installPlant(name: string | undefined): Uninstall {
  if (name === undefined) return () => {};
  const install = PLANTS[name];
  if (!install) throw new Error(`unknown planted bug ${JSON.stringify(name)}; known: ${PLANT_NAMES.join(', ')}`);
  return install();
}
