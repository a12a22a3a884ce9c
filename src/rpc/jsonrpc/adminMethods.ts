/**
 * A devnet's methods beyond a node's, on its JSON-RPC port (served on 127.0.0.1, like the rest):
 *
 * - `lockstep_*`, the admin namespace `lockstep node pause|resume|step|status|snapshot|revert|fault`
 *   speaks: `lockstep_status`, `lockstep_pause`, `lockstep_resume`, `lockstep_step({events?, until?,
 *   blocks?, node?})`, `lockstep_snapshot(name?)`, `lockstep_revert(name)`, `lockstep_fault(fault)`;
 * - the EVM devnet methods test tools call (ganache, anvil, hardhat), with this simulation's
 *   meaning: `evm_snapshot` (a hex id), `evm_revert(id)` (true, or false for an unknown id; the
 *   snapshot and every later one are gone after it), `evm_mine` (run until the node this request
 *   speaks to has a new block on top; "0x0"), `evm_increaseTime(seconds)` (run that much virtual time as
 *   fast as it can; the total of all increases, in seconds, as a decimal string as hardhat answers).
 *
 * The work is the control port's (the devnet runtime); this file only reads the parameters and
 * shapes the answers. A control error that is the caller's (an InputError) is `-32602` with its
 * message; any other is `-32000`.
 */
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
  /** Run until node `node` (default: the devnet's node) has a new head. */
  mine(node: number | undefined): Promise<unknown>;
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

function refOf(v: unknown, field: string): string {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return `0x${v.toString(16)}`;
  throw new InputError(field, `expected a snapshot name or id, got ${JSON.stringify(v)}`);
}

const ok = (result: unknown): RpcResult => ({ ok: true, result });

/** The admin and evm methods for requests that speak to `node` (undefined: the default node). */
export function adminMethods(control: DevnetControl, node: number | undefined): (name: string) => Handler | undefined {
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
    evm_revert: { max: 1, run: async (a) => (await control.revert(refOf(a[0], 'id'), true)) !== null },
    evm_mine: {
      max: Number.POSITIVE_INFINITY,
      run: async (a) => {
        if (a.length > 0)
          throw new InputError(
            'params',
            'evm_mine takes no timestamp here: block times follow the simulated clock (use evm_increaseTime to run ahead)',
          );
        await control.mine(node);
        return '0x0';
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
