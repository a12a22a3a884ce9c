import { type BenchResult } from './harness';
import { type Address, compareAddresses } from '../src/core/address';
import { type Hex, toHex } from '../src/core/bytes';
import { keccak256Bytes } from '../src/core/hash';
import { addressOfPublicKey, publicKeyBytesFromPrivateKey, clearSignatureCache } from '../src/core/secp256k1';
import { sidechainConfig } from '../src/sidechain/config';
import { SidechainChain } from '../src/sidechain/chain';
import { buildBlock, planProduction } from '../src/sidechain/producer';

/**
 * Sealed-and-imported sidechain blocks per second with real secp256k1: a producer builds and seals
 * each block, and a second node (a fresh chain, cold signature cache) imports it — seal recovery,
 * difficulty, delay, system calls and validator bytes all checked.
 */
export function sidechainBenches(): BenchResult[] {
  const keys = [1, 2, 3, 4]
    .map((i) => {
      const sk = toHex(keccak256Bytes(new TextEncoder().encode(`bench-producer-${i}`))) as Hex;
      return { sk, address: addressOfPublicKey(publicKeyBytesFromPrivateKey(sk)) as Address };
    })
    .sort((a, b) => compareAddresses(a.address, b.address));
  const cfg = sidechainConfig({});
  const producers = keys.map((k, i) => ({ id: BigInt(i + 1), address: k.address, power: 1n }));
  const FAR = 10n ** 12n;
  const producerChain = new SidechainChain(cfg, { timeS: 1000n, producers });
  const importer = new SidechainChain(cfg, { timeS: 1000n, producers });
  const blocks = 1500;
  clearSignatureCache();
  const start = performance.now();
  for (let i = 0; i < blocks; i++) {
    const head = producerChain.head();
    const me = head.snapshot.validatorSet.proposer.address;
    const plan = planProduction(cfg, head, me)!;
    const block = buildBlock(
      producerChain,
      plan,
      keys.find((k) => k.address === me)!.sk,
      me,
      { span: () => null, stateSyncs: () => [], txs: [] },
      plan.timeS,
    );
    producerChain.import(block, FAR, 0);
    // The importer gets a structured copy (its own objects), as a node in another process would.
    const copy = structuredClone(block);
    const r = importer.import(copy, FAR, 0);
    if (r.status !== 'imported') throw new Error(`bench block ${i} not imported: ${JSON.stringify(r)}`);
  }
  const ms = performance.now() - start;
  return [
    {
      name: 'sidechain: blocks sealed and imported by a second node, real secp256k1',
      value: (blocks * 1000) / ms,
      unit: 'blocks/s',
    },
  ];
}
