/**
 * `outsiderBlocks`: a signer outside the span's producers seals blocks and broadcasts them to
 * every sidechain node. Whenever the network's head first reaches a multiple of `everyBlocks`,
 * the outsider seals a child of that block as if it were in turn (difficulty N, the in-turn
 * delay) and sends it to every sidechain node. The signer is the first validator that is not a
 * producer of that block's snapshot (from its own node), or else a stranger's key. Honest nodes
 * must refuse these blocks; the producer-schedule and fork-choice oracles see if one was taken.
 */
import { type Address } from '../../src/core/address';
import { type Hex } from '../../src/core/bytes';
import { calcProducerDelay, producerDelayParams } from '../../src/sidechain/config';
import { buildBlock } from '../../src/sidechain/producer';
import { type FaultDef, type FaultTiming, SIDECHAIN_SIDE, sidechainOf } from './fault';

export type OutsiderBlocksFault = FaultTiming & {
  kind: 'outsiderBlocks';
  /** The outsider seals on every head numbered a multiple of this. */
  everyBlocks: number;
};

export const outsiderBlocks: FaultDef<OutsiderBlocksFault> = {
  kind: 'outsiderBlocks',
  summary: 'a signer outside the producers seals blocks and broadcasts them (nodes must refuse them)',
  fields: ['everyBlocks'],
  schema: { properties: { everyBlocks: { type: 'integer', minimum: 1, maximum: 1000, default: 4 } } },
  decode: (r, o) => ({ everyBlocks: r.int(o, 'everyBlocks', 4, 1, 1000) }),
  encode: (f) => ({ everyBlocks: f.everyBlocks }),
  sides: () => SIDECHAIN_SIDE,
  fixedSide: 'sidechain',
  apply(f, site, { start, index }) {
    const d = sidechainOf(site);
    const key = `fault:${index}`;
    if (!start) {
      d.setImportListener(key, null);
      return 'outsider';
    }
    let top = 0n;
    d.setImportListener(key, (node, block, result) => {
      const n = block.header.number;
      if (result.status !== 'imported' || n <= top) return;
      top = n;
      if (n % BigInt(f.everyBlocks) !== 0n) return;
      const parent = node.chain.get(block.hash)!;
      const set = parent.snapshot.validatorSet;
      const outsider = d.setup.keys.find((k) => !set.hasAddress(k.signer));
      const signer: { key: Hex; address: Address; from: string } = outsider
        ? { key: outsider.signerKey, address: outsider.signer, from: `sc-${outsider.index}` }
        : { key: d.setup.users[0]!.key, address: d.setup.users[0]!.address, from: node.id };
      const cfg = node.chain.cfg;
      const plan = {
        parentHash: block.hash,
        number: n + 1n,
        succession: 0,
        difficulty: BigInt(set.size),
        timeS: block.header.time + BigInt(calcProducerDelay(n + 1n, 0, producerDelayParams(cfg))),
      };
      const sealed = buildBlock(
        node.chain,
        plan,
        signer.key,
        signer.address,
        { span: () => null, stateSyncs: () => [], txs: [] },
        plan.timeS,
      );
      for (const peer of d.sidechainNodes) d.network.send(signer.from, peer.id, { kind: 'sc.newBlock', block: sealed });
    });
    return 'outsider';
  },
  swarm: { draw: (rng) => ({ everyBlocks: rng.int(2, 12) }) },
};
