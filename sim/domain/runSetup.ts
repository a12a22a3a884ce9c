/**
 * What every domain of a run derives from the scenario and the seed alone: the validators' keys,
 * the client's users, the service genesis, the sidechain's genesis producers and config, the node
 * ids and which domain holds each node. Each domain computes it for itself (in its own thread in
 * the worker placement), so nothing here is shared by reference between domains.
 */
import { type Address, compareAddresses } from '../../src/core/address';
import { type Hex, toHex } from '../../src/core/bytes';
import { addressOfPublicKey, publicKeyBytesFromPrivateKey } from '../../src/core/secp256k1';
import { type SignatureScheme, registerFastKey, schemeFor } from '../../src/core/signatureScheme';
import { ONE_TOKEN } from '../../src/core/amount';
import { type SidechainConfig, sidechainConfig } from '../../src/sidechain/config';
import { type SpanProducer } from '../../src/sidechain/systemState';
import { type GenesisAlloc } from '../../src/sidechain/accounts';
import { Rng } from '../env/rng';
import { type Scenario } from '../scenario/scenario';
import { type RotationKey, type UserKey, type ValidatorKeys } from '../core/runKeys';

export type DomainName = 'main' | 'sidechain';

/** Sidechain nodes (`sc-*`) live in the sidechain domain; everything else (svc-*, parent, client) in main. */
export function domainOf(node: string): DomainName {
  return node.startsWith('sc-') ? 'sidechain' : 'main';
}

/**
 * L, the minimum cross-domain message latency: the scenario's minimum link latency, but at least
 * 1 ms (a window must have a width). A cross-domain draw below L (a zero-latency network, or a
 * `link` fault that speeds a cross-domain link up) is raised to L.
 */
export function crossDomainLatencyMs(s: Scenario): number {
  return Math.max(1, s.network.latencyMinMs);
}

/** What each user holds on the sidechain at genesis: 10,000 tokens (wei), as anvil funds its dev accounts. */
export const SIDECHAIN_USER_BALANCE = 10_000n * ONE_TOKEN;

export interface RunSetup {
  rng: Rng;
  scheme: SignatureScheme;
  keys: ValidatorKeys[];
  /**
   * The signer keys each validator rotates to, in order (index 0 = validator 1): one per signer
   * change the workload schedules for it. Both domains derive them, so a validator's service node
   * and sidechain node can take up the new key when the service applies the change, as an
   * operator installs the key it registered.
   */
  rotationKeys: RotationKey[][];
  /** The validator (1-based index) of a signer address, genesis or rotated; undefined for others (joined validators). */
  validatorOfSigner: ReadonlyMap<Address, number>;
  users: UserKey[];
  /** Sidechain accounts besides the users that no workload signs with (`params.sidechainDevAccounts`). */
  devAccounts: UserKey[];
  genesis: unknown;
  /** The sidechain's genesis accounts: every user funded, then the dev accounts (a devnet's dev accounts, all of them). */
  sidechainAlloc: GenesisAlloc[];
  sidechainChainId: string;
  svcIds: string[];
  scIds: string[];
  /** Span 0's producers: the first producerCount validators by signer address, full power. */
  producers: SpanProducer[];
  scCfg: SidechainConfig;
  crossLatencyMs: number;
}

export function runSetup(scenario: Scenario, seed: number): RunSetup {
  // Every random stream of the run derives from this (the scenario's name unless it names other streams).
  const rng = Rng.forSeed(`${scenario.streams ?? scenario.name}/${seed}`);
  const scheme = schemeFor(scenario.crypto);
  const p = scenario.params;

  // Keys: drawn from the run seed, so seeds also vary who is in turn when.
  const keyRng = rng.fork('keys');
  const newKey = (): Hex => {
    for (;;) {
      const k = toHex(keyRng.bytes(32));
      if (validPrivateKey(k)) return k;
    }
  };
  const keys: ValidatorKeys[] = [];
  scenario.validators.forEach((_, i) => {
    const signerKey = newKey();
    const ownerKey = newKey();
    const pubKey = toHex(publicKeyBytesFromPrivateKey(signerKey));
    keys.push({
      index: i + 1,
      signerKey,
      signer: addressOfPublicKey(pubKey),
      pubKey,
      ownerKey,
      owner: addressOfPublicKey(publicKeyBytesFromPrivateKey(ownerKey)),
    });
  });
  // Rotation keys: each validator's from its own stream, so a key depends only on (validator, rotation).
  const rotationKeys: RotationKey[][] = keys.map((k) => {
    const count = signerChangesOf(scenario, k.index);
    const stream = rng.fork('signer-rotations').fork(String(k.index));
    const out: RotationKey[] = [];
    while (out.length < count) {
      const key = toHex(stream.bytes(32));
      if (!validPrivateKey(key)) continue;
      const pubKey = toHex(publicKeyBytesFromPrivateKey(key));
      out.push({ key, signer: addressOfPublicKey(pubKey), pubKey });
    }
    return out;
  });
  const validatorOfSigner = new Map<Address, number>();
  for (const k of keys) validatorOfSigner.set(k.signer, k.index);
  rotationKeys.forEach((ring, i) => {
    for (const r of ring) validatorOfSigner.set(r.signer, i + 1);
  });
  const users: Array<{ key: Hex; address: Address }> = [];
  for (let j = 0; j < 4; j++) {
    const key = newKey();
    users.push({ key, address: addressOfPublicKey(publicKeyBytesFromPrivateKey(key)) });
  }
  // From their own stream, so a scenario with them draws every other key as one without.
  const devRng = rng.fork('dev-accounts');
  const devAccounts: UserKey[] = [];
  while (devAccounts.length < (p.sidechainDevAccounts ?? 0)) {
    const key = toHex(devRng.bytes(32));
    if (validPrivateKey(key)) devAccounts.push({ key, address: addressOfPublicKey(publicKeyBytesFromPrivateKey(key)) });
  }
  // The fast scheme verifies against a per-thread registry: every domain registers the keys it may see.
  if (scenario.crypto === 'fast') {
    for (const k of keys) {
      registerFastKey(k.signerKey);
      registerFastKey(k.ownerKey);
    }
    for (const u of users) registerFastKey(u.key);
    for (const ring of rotationKeys) for (const r of ring) registerFastKey(r.key);
  }

  const sidechainChainId = '15001';
  const genesis = {
    chain_id: 'lockstep-1',
    genesis_time_ms: scenario.epochMs,
    app_state: {
      chain: {
        parent_chain_tx_confirmations: p.parentConfirmations,
        sidechain_tx_confirmations: p.sidechainConfirmations,
        sidechain_chain_id: sidechainChainId,
      },
      auth: {
        accounts: [
          ...keys.map((k, i) => ({
            address: k.signer,
            coins: [{ denom: 'matic', amount: { i: (scenario.validators[i]!.balanceTokens * ONE_TOKEN).toString() } }],
          })),
          ...users.map((u) => ({
            address: u.address,
            coins: [{ denom: 'matic', amount: { i: (1000n * ONE_TOKEN).toString() } }],
          })),
        ],
      },
      staking: {
        validators: keys.map((k, i) => ({
          id: i + 1,
          pub_key: k.pubKey,
          power: Number(scenario.validators[i]!.stakeTokens),
        })),
      },
      sidechain: {
        params: { sprint_duration: p.sprint, span_duration: p.spanDuration, producer_count: p.producerCount },
        first_span_duration: p.firstSpanDuration,
      },
      checkpoint: { params: { checkpoint_buffer_time_ms: p.checkpointBufferTimeMs } },
      ...(p.sendEnabled === false ? { bank: { send_enabled: false } } : {}),
    },
  };

  const byAddress = [...keys].sort((a, b) => compareAddresses(a.signer, b.signer));
  const producers = byAddress
    .slice(0, p.producerCount)
    .map((k) => ({ id: BigInt(k.index), address: k.signer, power: scenario.validators[k.index - 1]!.stakeTokens }));
  const scCfg = sidechainConfig({
    chainId: BigInt(sidechainChainId),
    periodS: p.periodS,
    producerDelayS: p.producerDelayS,
    sprint: p.sprint,
    backupMultiplierS: p.backupMultiplierS,
    stateSyncDelayS: p.stateSyncDelayS,
    firstSpanEnd: BigInt(p.firstSpanDuration - 1),
  });

  return {
    rng,
    scheme,
    keys,
    rotationKeys,
    validatorOfSigner,
    users,
    devAccounts,
    genesis,
    sidechainAlloc: [...users, ...devAccounts].map((u) => ({ address: u.address, balance: SIDECHAIN_USER_BALANCE })),
    sidechainChainId,
    svcIds: keys.map((k) => `svc-${k.index}`),
    scIds: keys.map((k) => `sc-${k.index}`),
    producers,
    scCfg,
    crossLatencyMs: crossDomainLatencyMs(scenario),
  };
}

/** A secp256k1 private key: in (0, n). */
function validPrivateKey(k: Hex): boolean {
  return BigInt(k) > 0n && BigInt(k) < 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
}

/** How many signer changes the workload schedules for a validator (each `repeat` counts). */
export function signerChangesOf(scenario: Scenario, validator: number): number {
  let n = 0;
  for (const c of scenario.workload.signerChanges) if (c.validator === validator) n += c.repeat ?? 1;
  return n;
}

/** A funded sidechain account the devnet holds the key of (its dev accounts). */
export interface SidechainDevAccount {
  /** `user-N` (a user, also a service account) or `dev-N` (a sidechain account of its own). */
  name: string;
  address: Address;
  key: Hex;
  balance: bigint;
  /** Whether the scenario's sidechain workload signs transfers with it (its nonces move on their own). */
  workload: boolean;
}

/**
 * The sidechain's dev accounts in the order a devnet offers them (eth_accounts, the banner): those
 * no workload signs with first, so that a script's first signer never races the workload's nonces.
 */
export function sidechainDevAccounts(setup: RunSetup, scenario: Scenario): SidechainDevAccount[] {
  const balanceOf = new Map(setup.sidechainAlloc.map((a) => [a.address, a.balance]));
  const busy = scenario.workload.sidechainTxs !== null;
  const users = setup.users.map((u, i) => ({ ...u, name: `user-${i + 1}`, workload: busy }));
  const own = setup.devAccounts.map((u, i) => ({ ...u, name: `dev-${i + 1}`, workload: false }));
  return [...users, ...own]
    .filter((a) => balanceOf.has(a.address))
    .sort((a, b) => Number(a.workload) - Number(b.workload))
    .map((a) => ({
      name: a.name,
      address: a.address,
      key: a.key,
      balance: balanceOf.get(a.address)!,
      workload: a.workload,
    }));
}
