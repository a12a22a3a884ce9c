/**
 * A small sidechain for tests: four producers with real secp256k1 keys, sprints of 4, span 0 =
 * blocks 0..15 then spans of 16 blocks, and a few state-sync records, so a short chain has sprint
 * starts, span commits and state syncs. Shared by the chain, RPC, server and console tests.
 */
import { type Address, compareAddresses } from '../../core/address';
import { type Hex, toHex } from '../../core/bytes';
import { keccak256Bytes } from '../../core/hash';
import { addressOfPublicKey, publicKeyBytesFromPrivateKey } from '../../core/secp256k1';
import { sidechainConfig } from '../config';
import { type CommittedSpan, type SpanProducer, type StateSyncRecord } from '../systemState';
import { type GenesisAlloc } from '../accounts';
import { type SignedTx, type TxType, TRANSFER_GAS, signTransfer } from '../transaction';
import { realScheme } from '../../core/signatureScheme';

export interface FixtureKey {
  sk: Hex;
  address: Address;
}

/** Four keys derived from `label`, in address order (the producer order of a span). */
export function fixtureKeys(label: string): FixtureKey[] {
  return [1, 2, 3, 4]
    .map((i) => {
      const sk = toHex(keccak256Bytes(new TextEncoder().encode(`${label}-${i}`)));
      return { sk, address: addressOfPublicKey(publicKeyBytesFromPrivateKey(sk)) };
    })
    .sort((a, b) => compareAddresses(a.address, b.address));
}

export const FIXTURE_CONFIG = sidechainConfig({
  sprint: 4,
  firstSpanEnd: 15n,
  producerDelayS: 4,
  periodS: 2,
  backupMultiplierS: 2,
  stateSyncDelayS: 10,
});

export function fixtureProducers(keys: readonly FixtureKey[]): SpanProducer[] {
  return keys.map((k, i) => ({ id: BigInt(i + 1), address: k.address, power: 1n }));
}

/** Spans 1..8 of 16 blocks; with `rotate`, spans from 2 on drop the first producer (to see a change take effect). */
export function fixtureSpans(
  producers: readonly SpanProducer[],
  opts: { rotate: boolean },
): Map<bigint, CommittedSpan> {
  const m = new Map<bigint, CommittedSpan>();
  for (let id = 1n; id <= 8n; id++) {
    const start = 16n * id;
    const ps = opts.rotate && id >= 2n ? producers.slice(1) : [...producers];
    m.set(id, { id, startBlock: start, endBlock: start + 15n, producers: ps });
  }
  return m;
}

/** `count` state-sync records, 7 s apart from `fromTimeS`. */
export function fixtureRecords(count: number, fromTimeS: bigint): StateSyncRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    id: BigInt(i + 1),
    contract: '0x0000000000000000000000000000000000001001' as Address,
    data: '0x' as Hex,
    txHash: toHex(keccak256Bytes(new Uint8Array([i]))),
    logIndex: 0n,
    chainId: '15001',
    timeS: fromTimeS + BigInt(i) * 7n,
  }));
}

/** What each fixture key holds at genesis: 1,000 tokens (wei). */
export const FIXTURE_BALANCE = 1000n * 10n ** 18n;

export function fixtureAlloc(keys: readonly FixtureKey[]): GenesisAlloc[] {
  return keys.map((k) => ({ address: k.address, balance: FIXTURE_BALANCE }));
}

/**
 * A transfer signed by a fixture key for the fixture chain: 21,000 gas, a fee cap of 10 gwei (the
 * base fee starts at 1 gwei and falls), a 1 gwei tip; legacy (type 0) or EIP-1559 (type 2).
 */
export function fixtureTransfer(
  from: FixtureKey,
  to: Address,
  nonce: bigint,
  opts: { value?: bigint; type?: TxType; chainId?: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint } = {},
): SignedTx {
  return signTransfer(
    {
      type: opts.type ?? 2,
      chainId: opts.chainId ?? FIXTURE_CONFIG.chainId,
      nonce,
      to,
      value: opts.value ?? 1n,
      gasLimit: TRANSFER_GAS,
      maxFeePerGas: opts.maxFeePerGas ?? 10n ** 10n,
      maxPriorityFeePerGas: opts.maxPriorityFeePerGas ?? 10n ** 9n,
    },
    from.sk,
    realScheme,
  );
}
