/**
 * The client's view of a home folder written by `lockstep node init`:
 *
 *   <home>/config/genesis.json   the service genesis (its `chain_id` is the default --chain-id)
 *   <home>/keys/<name>.json      {"name","address","pub_key","private_key"} (secp256k1, 0x hex)
 *
 *   <home>/config/scenario.json  the network (its `crypto` says how to sign)
 *   <home>/data/ports.json       the addresses a running devnet bound (target.ts reads them)
 *
 * Home: the --home flag, else $LOCKSTEP_HOME, else ~/.lockstep.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Address, parseAddress } from '../core/address';
import { type Hex, toHex } from '../core/bytes';
import { addressOfPublicKey, privateKeyBytes, publicKeyBytesFromPrivateKey } from '../core/secp256k1';
import { type CryptoMode } from '../core/signatureScheme';
import { UsageError } from './errors';

export interface ClientKey {
  name: string;
  address: Address;
  /** 65-byte uncompressed public key, 0x04… */
  pubKey: Hex;
  privateKey: Hex;
  file: string;
}

/** The home folder: --home, else $LOCKSTEP_HOME, else ~/.lockstep. */
export function resolveHome(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag !== undefined && flag !== '') return resolve(flag);
  const fromEnv = env.LOCKSTEP_HOME;
  if (fromEnv !== undefined && fromEnv !== '') return resolve(fromEnv);
  return join(homedir(), '.lockstep');
}

export function keysDir(home: string): string {
  return join(home, 'keys');
}

/** Key names in `<home>/keys`, sorted (validator-2 before validator-10). */
export function listKeys(home: string): string[] {
  const dir = keysDir(home);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

function availableKeysText(home: string): string {
  const names = listKeys(home);
  return names.length
    ? `available keys: ${names.join(', ')}`
    : `there are no keys in ${keysDir(home)} (create a home folder with \`lockstep node init\`, or point --home / LOCKSTEP_HOME at one)`;
}

/** Load and check a key; an unknown name is a usage error that lists the available keys. */
export function loadKey(home: string, name: string): ClientKey {
  if (!/^[A-Za-z0-9._-]+$/.test(name))
    throw new UsageError('--from', `not a key name: ${JSON.stringify(name)}; ${availableKeysText(home)}`);
  const file = join(keysDir(home), `${name}.json`);
  if (!existsSync(file))
    throw new UsageError(
      '--from',
      `no key named ${JSON.stringify(name)} in ${keysDir(home)}; ${availableKeysText(home)}`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError('--from', `key file ${file} is not JSON: ${(e as Error).message}`);
  }
  if (raw === null || typeof raw !== 'object') throw new UsageError('--from', `key file ${file} is not a JSON object`);
  const o = raw as Record<string, unknown>;
  let privateKey: Hex;
  let pubKey: Hex;
  let address: Address;
  try {
    if (typeof o.private_key !== 'string') throw new Error('private_key is missing');
    privateKey = toHex(privateKeyBytes(o.private_key, 'private_key'));
    pubKey = toHex(publicKeyBytesFromPrivateKey(privateKey));
    address = addressOfPublicKey(pubKey);
  } catch (e) {
    throw new UsageError('--from', `key file ${file}: ${(e as Error).message}`);
  }
  if (o.address !== undefined) {
    let stated: Address;
    try {
      stated = parseAddress(o.address, 'address');
    } catch (e) {
      throw new UsageError('--from', `key file ${file}: ${(e as Error).message}`);
    }
    if (stated !== address)
      throw new UsageError(
        '--from',
        `key file ${file}: address ${stated} does not belong to its private_key (which gives ${address})`,
      );
  }
  return { name, address, pubKey, privateKey, file };
}

/** The genesis chain id of the home folder, or undefined when there is no readable genesis. */
export function genesisChainId(home: string): string | undefined {
  const file = join(home, 'config', 'genesis.json');
  if (!existsSync(file)) return undefined;
  try {
    const g = JSON.parse(readFileSync(file, 'utf8')) as { chain_id?: unknown };
    return typeof g.chain_id === 'string' && g.chain_id !== '' ? g.chain_id : undefined;
  } catch {
    return undefined;
  }
}

/** --chain-id, else the home's genesis chain_id, else a usage error naming --chain-id. */
export function resolveChainId(flag: string | undefined, home: string): string {
  if (flag !== undefined && flag !== '') return flag;
  const g = genesisChainId(home);
  if (g !== undefined) return g;
  throw new UsageError(
    '--chain-id',
    `required: name the service chain id (no ${join(home, 'config', 'genesis.json')} to read it from)`,
  );
}

/** The crypto mode of the home's network (`crypto` in config/scenario.json): how its nodes check signatures. */
export function homeCrypto(home: string): CryptoMode {
  const file = join(home, 'config', 'scenario.json');
  if (!existsSync(file)) return 'real';
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { crypto?: unknown }).crypto === 'fast' ? 'fast' : 'real';
  } catch {
    return 'real';
  }
}

/** A key name of the home (`user-2`): not an address, so an address argument may name a key instead. */
export const KEY_NAME = /^[A-Za-z][A-Za-z0-9._-]*$/;

/** An address argument: 0x + 40 hex, or the name of a key in the home (its address). */
export function addressOrKeyName(value: string, home: string, flag: string): Address {
  if (KEY_NAME.test(value) && !/^0[xX]/.test(value)) {
    const file = join(keysDir(home), `${value}.json`);
    if (!existsSync(file))
      throw new UsageError(
        flag,
        `no key named ${JSON.stringify(value)} in ${keysDir(home)} (give an address, 0x + 40 hex, or a key name); ${availableKeysText(home)}`,
      );
    return loadKey(home, value).address;
  }
  try {
    return parseAddress(value, flag);
  } catch (e) {
    throw new UsageError(flag, (e as Error).message.replace(/^[^:]*: /, ''));
  }
}
