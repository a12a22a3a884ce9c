/**
 * A devnet's methods beyond a node's, on its JSON-RPC port (served on 127.0.0.1, like the rest):
 *
 * - `lockstep_*`, the admin namespace `lockstep node pause|resume|step|status|snapshot|revert|fault`
 *   speaks: `lockstep_status`, `lockstep_pause`, `lockstep_resume`, `lockstep_step({events?, until?,
 *   blocks?, node?})`, `lockstep_snapshot(name?)`, `lockstep_revert(name)`, `lockstep_fault(fault)`;
 * - the EVM devnet methods test tools call (ganache, anvil, hardhat; viem's test client in each of
 *   its three modes), with this simulation's meaning:
 *   - `evm_snapshot` / `anvil_snapshot` (a hex id), `evm_revert(id)` / `anvil_revert(id)` (true, or
 *     false for an unknown id; the snapshot and every later one are gone after it);
 *   - `evm_mine` (`[]`, `[timestamp]` as hardhat, `[{blocks?, timestamp?}]` as ganache; "0x0"),
 *     `anvil_mine(blocks?, interval?)` (null) and `hardhat_mine(blocks?, interval?)` (true): run
 *     until the node the request speaks to has that many new blocks on top; an interval pushes each
 *     block's time to at least its parent's plus the interval;
 *   - `evm_setNextBlockTimestamp(seconds)`: the next block is sealed no earlier than that time;
 *   - `anvil_setBalance` / `hardhat_setBalance` / `evm_setAccountBalance(address, wei)`: the
 *     sidechain account's balance, carried by the next block (the call returns once it is in);
 *   - `evm_increaseTime(seconds)`: run that much virtual time as fast as it can; the total of all
 *     increases, in seconds, as a decimal string (as hardhat answers).
 *
 * The work is the control port's (the devnet runtime); this file only reads the parameters and
 * shapes the answers. A control error that is the caller's (an InputError) is `-32602` with its
 * message; any other is `-32000`.
 */
import { type Address, parseAddress } from '../../core/address';
import { InputError } from '../../core/errors';
import { parseDurationMs } from '../../core/duration';
import { type RpcResult } from './methods';
import { JSONRPC_INVALID_PARAMS, JSONRPC_SERVER_ERROR } from './rpcErrors';

export interface StepRequest {
  /** Run windows until at least this many more events were delivered. */
  events?: number;
  /** Run every window that ends at or before this virtual time (ms). */
  untilMs?: number;
  /** Run until node `node`'s sidechain head is this many blocks higher. */
  blocks?: number;
  /** The node whose blocks count (1-based; default the devnet's node). */
  node?: number;
}

export interface MineRequest {
  blocks: number;
  /** Seconds between consecutive blocks' times at least (0: the chain's own pace). */
  intervalS: number;
}

/** What the devnet runtime does for the admin methods. Results are plain JSON. */
export interface DevnetControl {
  status(): unknown;
  pause(): Promise<unknown>;
  resume(): Promise<unknown>;
  step(s: StepRequest): Promise<unknown>;
  /** Take a snapshot (a position in the journal); named, or named after its id. */
  snapshot(name: string | undefined): Promise<{ id: string; name: string; barrier: number; timeMs: number }>;
  /**
   * Revert to a snapshot; null when there is none by that name or id. `consume` drops the
   * snapshot itself too (evm_revert), as the EVM devnets do; `lockstep node revert` keeps it.
   */
  revert(ref: string, consume: boolean): Promise<unknown | null>;
  fault(spec: unknown): Promise<unknown>;
  /**
   * Run until node `node` (default: the devnet's node) has `blocks` new blocks on top (default 1),
   * each sealed at least `intervalS` after its parent when that is more than the chain's own pace.
   */
  mine(node: number | undefined, opts?: MineRequest): Promise<unknown>;
  /** The next block (on top of node `node`'s head) is sealed no earlier than `timeS` (unix seconds). */
  setNextBlockTimestamp(node: number | undefined, timeS: number): Promise<unknown>;
  /** Set a sidechain account's balance (wei); resolves once node `node`'s head carries it. */
  setBalance(node: number | undefined, address: Address, balance: bigint): Promise<unknown>;
  /** Run `seconds` of virtual time; the total of all increases, seconds. */
  increaseTime(seconds: number): Promise<number>;
}

type Handler = (params: unknown) => Promise<RpcResult>;

function args(params: unknown): unknown[] {
  if (params === undefined || params === null) return [];
  if (!Array.isArray(params)) throw new InputError('params', 'expected an array of arguments');
  return params;
}

function atMost(list: unknown[], n: number, method: string): void {
  if (list.length > n)
    throw new InputError('params', `${method} takes at most ${n} argument${n === 1 ? '' : 's'}, got ${list.length}`);
}

function count(v: unknown, field: string): number {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return v;
  if (typeof v === 'string' && /^0x[0-9a-fA-F]+$/.test(v) && Number(v) > 0 && Number.isSafeInteger(Number(v)))
    return Number(v);
  throw new InputError(field, `expected a positive integer, got ${JSON.stringify(v)}`);
}

/** A step request: `{events}`, `{until}` (a duration such as "90s", or ms), `{blocks, node?}`. */
export function parseStepRequest(v: unknown): StepRequest {
  if (v === undefined || v === null) return { events: 1 };
  if (typeof v !== 'object' || Array.isArray(v))
    throw new InputError('step', 'expected an object: {"events":N}, {"until":"90s"} or {"blocks":N}');
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!['events', 'until', 'blocks', 'node'].includes(k))
      throw new InputError(`step.${k}`, 'unknown field (allowed: events, until, blocks, node)');
  const given = ['events', 'until', 'blocks'].filter((k) => o[k] !== undefined);
  if (given.length !== 1) throw new InputError('step', 'give exactly one of events, until, blocks');
  const out: StepRequest = {};
  if (o.events !== undefined) out.events = count(o.events, 'step.events');
  if (o.blocks !== undefined) out.blocks = count(o.blocks, 'step.blocks');
  if (o.until !== undefined)
    out.untilMs =
      typeof o.until === 'number' && Number.isSafeInteger(o.until) && o.until >= 0
        ? o.until
        : parseDurationMs(o.until, 'step.until');
  if (o.node !== undefined) out.node = count(o.node, 'step.node');
  return out;
}

function seconds(v: unknown): number {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^0x[0-9a-fA-F]+$/.test(v) && Number.isSafeInteger(Number(v))) return Number(v);
  if (typeof v === 'string' && /^\d+$/.test(v) && Number.isSafeInteger(Number(v))) return Number(v);
  throw new InputError('seconds', `expected a non-negative number of seconds, got ${JSON.stringify(v)}`);
}

/** A non-negative count: a JSON number, or a hex quantity (viem's `numberToHex`). */
function quantity(v: unknown, field: string): number {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^0x[0-9a-fA-F]+$/.test(v) && Number.isSafeInteger(Number(v))) return Number(v);
  throw new InputError(field, `expected a non-negative number (JSON or 0x hex), got ${JSON.stringify(v)}`);
}

/** `anvil_mine` / `hardhat_mine`: (blocks = 1, interval = 0); at least one block. */
function mineRequest(blocksArg: unknown, intervalArg: unknown): MineRequest {
  const blocks = blocksArg === undefined || blocksArg === null ? 1 : quantity(blocksArg, 'blocks');
  if (blocks < 1) throw new InputError('blocks', 'mine at least one block');
  const intervalS = intervalArg === undefined || intervalArg === null ? 0 : quantity(intervalArg, 'interval');
  return { blocks, intervalS };
}

/** A balance in wei: a hex quantity, or a decimal string or number. */
function wei(v: unknown): bigint {
  if (typeof v === 'string' && /^0x[0-9a-fA-F]+$/.test(v)) return BigInt(v);
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  throw new InputError('balance', `expected a balance in wei (0x hex), got ${JSON.stringify(v)}`);
}

function refOf(v: unknown, field: string): string {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return `0x${v.toString(16)}`;
  throw new InputError(field, `expected a snapshot name or id, got ${JSON.stringify(v)}`);
}

const ok = (result: unknown): RpcResult => ({ ok: true, result });

/** The admin and evm methods for requests that speak to `node` (undefined: the default node). */
export function adminMethods(control: DevnetControl, node: number | undefined): (name: string) => Handler | undefined {
  const setBalance = (a: unknown[]) => {
    if (a.length < 2) throw new InputError('params', 'give the address and the balance in wei');
    return control.setBalance(node, parseAddress(a[0], 'address'), wei(a[1]));
  };
  /** Each method: how many arguments it takes at most, and what it answers. */
  const table: Record<string, { max: number; run: (a: unknown[]) => Promise<unknown> }> = {
    lockstep_status: { max: 0, run: async () => control.status() },
    lockstep_pause: { max: 0, run: () => control.pause() },
    lockstep_resume: { max: 0, run: () => control.resume() },
    lockstep_step: {
      max: 1,
      run: (a) => {
        const req = parseStepRequest(a[0]);
        return control.step(req.blocks !== undefined && req.node === undefined && node ? { ...req, node } : req);
      },
    },
    lockstep_snapshot: {
      max: 1,
      run: (a) => {
        const name = a[0];
        if (name !== undefined && name !== null && (typeof name !== 'string' || !/^[A-Za-z0-9._-]{1,64}$/.test(name)))
          throw new InputError('name', 'a snapshot name is 1-64 letters, digits, dots, dashes or underscores');
        return control.snapshot(typeof name === 'string' ? name : undefined);
      },
    },
    lockstep_revert: {
      max: 1,
      run: async (a) => {
        const ref = refOf(a[0], 'name');
        const r = await control.revert(ref, false);
        if (r === null) throw new InputError('name', `no snapshot ${JSON.stringify(ref)} (lockstep_status lists them)`);
        return r;
      },
    },
    lockstep_fault: {
      max: 1,
      run: (a) => {
        if (a.length === 0)
          throw new InputError('fault', 'give the fault, e.g. {"kind":"crash","node":"svc-3","for":"30s"}');
        return control.fault(a[0]);
      },
    },
    evm_snapshot: { max: 0, run: async () => (await control.snapshot(undefined)).id },
    anvil_snapshot: { max: 0, run: async () => (await control.snapshot(undefined)).id },
    evm_revert: { max: 1, run: async (a) => (await control.revert(refOf(a[0], 'id'), true)) !== null },
    anvil_revert: { max: 1, run: async (a) => (await control.revert(refOf(a[0], 'id'), true)) !== null },
    evm_mine: {
      max: 1,
      run: async (a) => {
        // hardhat: evm_mine(timestamp); ganache: evm_mine({blocks, timestamp}); anvil: either.
        const arg = a[0];
        let blocks = 1;
        let timestamp: number | undefined;
        if (arg !== undefined && arg !== null) {
          if (typeof arg === 'object' && !Array.isArray(arg)) {
            const o = arg as Record<string, unknown>;
            for (const k of Object.keys(o))
              if (k !== 'blocks' && k !== 'timestamp')
                throw new InputError(`params.${k}`, 'unknown field (evm_mine takes {blocks, timestamp})');
            if (o.blocks !== undefined && o.blocks !== null) blocks = mineRequest(o.blocks, 0).blocks;
            if (o.timestamp !== undefined && o.timestamp !== null) timestamp = quantity(o.timestamp, 'timestamp');
          } else timestamp = quantity(arg, 'timestamp');
        }
        if (timestamp !== undefined) await control.setNextBlockTimestamp(node, timestamp);
        await control.mine(node, { blocks, intervalS: 0 });
        return '0x0';
      },
    },
    anvil_mine: {
      max: 2,
      run: async (a) => {
        await control.mine(node, mineRequest(a[0], a[1]));
        return null;
      },
    },
    hardhat_mine: {
      max: 2,
      run: async (a) => {
        await control.mine(node, mineRequest(a[0], a[1]));
        return true;
      },
    },
    evm_setNextBlockTimestamp: {
      max: 1,
      run: async (a) => {
        if (a.length === 0) throw new InputError('timestamp', 'give the next block’s time (unix seconds)');
        await control.setNextBlockTimestamp(node, quantity(a[0], 'timestamp'));
        return null;
      },
    },
    anvil_setBalance: {
      max: 2,
      run: async (a) => {
        await setBalance(a);
        return null;
      },
    },
    hardhat_setBalance: {
      max: 2,
      run: async (a) => {
        await setBalance(a);
        return true;
      },
    },
    evm_setAccountBalance: {
      max: 2,
      run: async (a) => {
        await setBalance(a);
        return true;
      },
    },
    evm_increaseTime: {
      max: 1,
      run: async (a) => {
        if (a.length === 0) throw new InputError('seconds', 'give the number of seconds');
        return String(await control.increaseTime(seconds(a[0])));
      },
    },
  };
  return (name) => {
    const m = Object.hasOwn(table, name) ? table[name] : undefined;
    if (!m) return undefined;
    return async (params) => {
      try {
        const a = args(params);
        atMost(a, m.max, name);
        return ok(await m.run(a));
      } catch (e) {
        if (e instanceof InputError) return { ok: false, error: { code: JSONRPC_INVALID_PARAMS, message: e.message } };
        return {
          ok: false,
          error: { code: JSONRPC_SERVER_ERROR, message: e instanceof Error ? e.message : String(e) },
        };
      }
    };
  };
}
