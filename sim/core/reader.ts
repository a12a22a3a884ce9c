/**
 * Reading a scenario file's JSON: each read names the field it reads (`faults[2].node`), so an
 * error says where the file is wrong. Shared by the scenario decoder and the fault kinds
 * (sim/faults/), which decode their own fields.
 */
import { InputError } from '../../src/core/errors';
import { durationText, parseDurationMs } from '../../src/core/duration';
import { parseUint } from '../../src/core/amount';
import { type LinkModel } from './linkModel';

export type Obj = Record<string, unknown>;

export class Reader {
  constructor(readonly path: string) {}
  /** The path of field `k` under this one. */
  at(k: string | number): string {
    return typeof k === 'number' ? `${this.path}[${k}]` : this.path ? `${this.path}.${k}` : k;
  }
  obj(v: unknown): Obj {
    if (v === null || typeof v !== 'object' || Array.isArray(v))
      throw new InputError(this.path || 'scenario', `expected an object, got ${describeValue(v)}`);
    return v as Obj;
  }
  child(k: string | number): Reader {
    return new Reader(this.at(k));
  }
  noExtra(o: Obj, allowed: readonly string[]): void {
    for (const k of Object.keys(o))
      if (!allowed.includes(k)) throw new InputError(this.at(k), `unknown field (allowed: ${allowed.join(', ')})`);
  }
  str(o: Obj, k: string, d?: string): string {
    const v = o[k];
    if (v === undefined && d !== undefined) return d;
    if (typeof v !== 'string')
      throw new InputError(this.at(k), v === undefined ? 'is required' : `expected a string, got ${describeValue(v)}`);
    return v;
  }
  int(o: Obj, k: string, d: number | undefined, min = 0, max = Number.MAX_SAFE_INTEGER): number {
    const v = o[k];
    if (v === undefined) {
      if (d === undefined) throw new InputError(this.at(k), 'is required');
      return d;
    }
    if (typeof v !== 'number' || !Number.isSafeInteger(v))
      throw new InputError(this.at(k), `expected an integer, got ${describeValue(v)}`);
    if (v < min || v > max) throw new InputError(this.at(k), `must be between ${min} and ${max}, got ${v}`);
    return v;
  }
  prob(o: Obj, k: string, d: number): number {
    const v = o[k];
    if (v === undefined) return d;
    if (typeof v !== 'number' || !(v >= 0 && v <= 1))
      throw new InputError(this.at(k), `expected a probability in [0, 1], got ${describeValue(v)}`);
    return v;
  }
  bool(o: Obj, k: string, d: boolean): boolean {
    const v = o[k];
    if (v === undefined) return d;
    if (typeof v !== 'boolean') throw new InputError(this.at(k), `expected true or false, got ${describeValue(v)}`);
    return v;
  }
  duration(o: Obj, k: string, d?: number): number {
    const v = o[k];
    if (v === undefined) {
      if (d === undefined) throw new InputError(this.at(k), 'is required');
      return d;
    }
    return parseDurationMs(v, this.at(k));
  }
  big(o: Obj, k: string, d?: bigint): bigint {
    const v = o[k];
    if (v === undefined) {
      if (d === undefined) throw new InputError(this.at(k), 'is required');
      return d;
    }
    return parseUint(v, this.at(k));
  }
  arr(o: Obj, k: string): unknown[] {
    const v = o[k];
    if (v === undefined) return [];
    if (!Array.isArray(v)) throw new InputError(this.at(k), `expected an array, got ${describeValue(v)}`);
    return v;
  }
}

export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);
  return typeof v === 'object' ? 'an object' : String(v);
}

/** A link model (`network`, or a `link` fault's `link`): what is given, over `base`. */
export function decodeLink(r: Reader, value: unknown, base: Partial<LinkModel> | null): Partial<LinkModel> {
  if (value === undefined) return base ?? {};
  const o = r.obj(value);
  r.noExtra(o, ['latency', 'loss', 'duplicate', 'reorder', 'reorderMax']);
  const out: Partial<LinkModel> = { ...(base ?? {}) };
  if (o.latency !== undefined) {
    const lat = o.latency;
    if (!Array.isArray(lat) || lat.length !== 2)
      throw new InputError(`${r.path}.latency`, 'expected [min, max] durations, e.g. ["20ms", "80ms"]');
    out.latencyMinMs = parseDurationMs(lat[0], `${r.path}.latency[0]`);
    out.latencyMaxMs = parseDurationMs(lat[1], `${r.path}.latency[1]`);
    if (out.latencyMinMs > out.latencyMaxMs) throw new InputError(`${r.path}.latency`, 'min must not exceed max');
  }
  if (o.loss !== undefined) out.loss = r.prob(o, 'loss', 0);
  if (o.duplicate !== undefined) out.duplicate = r.prob(o, 'duplicate', 0);
  if (o.reorder !== undefined) out.reorder = r.prob(o, 'reorder', 0);
  if (o.reorderMax !== undefined) out.reorderMaxMs = r.duration(o, 'reorderMax');
  return out;
}

/** The inverse of decodeLink: durations with units. */
export function encodeLink(l: Partial<LinkModel>): Record<string, unknown> {
  return {
    ...(l.latencyMinMs !== undefined && l.latencyMaxMs !== undefined
      ? { latency: [durationText(l.latencyMinMs), durationText(l.latencyMaxMs)] }
      : {}),
    ...(l.loss !== undefined ? { loss: l.loss } : {}),
    ...(l.duplicate !== undefined ? { duplicate: l.duplicate } : {}),
    ...(l.reorder !== undefined ? { reorder: l.reorder } : {}),
    ...(l.reorderMaxMs !== undefined ? { reorderMax: durationText(l.reorderMaxMs) } : {}),
  };
}
