/**
 * Output of the client commands: a readable YAML rendering (the default, as the Cosmos CLI's text
 * output) or one JSON line (--json). Both carry the same keys and values.
 */
import { type BroadcastResult } from '../rpc/ports';

const PLAIN_UNSAFE =
  /^$|^\s|\s$|^[-?:,[\]{}#&*!|>'"%@`]|: |\s#|[\n\r\t]|^(true|false|yes|no|on|off|y|n|null|~)$|^[-+]?(\.\d+|\d[\d_]*(\.\d*)?)([eE][-+]?\d+)?$|^\.(inf|nan)$/i;

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return PLAIN_UNSAFE.test(v) ? JSON.stringify(v) : v;
  return JSON.stringify(v);
}

function isContainer(v: unknown): v is Record<string, unknown> | unknown[] {
  return v !== null && typeof v === 'object';
}

function isEmpty(v: Record<string, unknown> | unknown[]): boolean {
  return Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0;
}

function lines(v: unknown, pad: string): string[] {
  if (!isContainer(v)) return [pad + scalar(v)];
  if (isEmpty(v)) return [pad + (Array.isArray(v) ? '[]' : '{}')];
  const out: string[] = [];
  if (Array.isArray(v)) {
    for (const item of v) {
      if (isContainer(item) && !isEmpty(item)) {
        const inner = lines(item, pad + '  ');
        out.push(`${pad}- ${inner[0]!.slice(pad.length + 2)}`, ...inner.slice(1));
      } else out.push(`${pad}- ${lines(item, '')[0]}`);
    }
    return out;
  }
  for (const [k, val] of Object.entries(v)) {
    if (val === undefined) continue;
    const key = scalar(k);
    if (isContainer(val) && !isEmpty(val)) {
      out.push(`${pad}${key}:`);
      // Sequences under a key are written at the key's indent (as Go's yaml.v2 does).
      out.push(...lines(val, Array.isArray(val) ? pad : pad + '  '));
    } else out.push(`${pad}${key}: ${lines(val, '')[0]}`);
  }
  return out;
}

/** A block-style YAML document of a JSON-like value (no trailing newline). */
export function toYaml(value: unknown): string {
  return lines(value, '').join('\n');
}

export function render(value: unknown, json: boolean): string {
  return (json ? JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)) : toYaml(value)) + '\n';
}

/** Integers the node sends as decimal strings (amino's int64) print as YAML integers. */
function intOf(v: unknown): unknown {
  return typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : v;
}

/**
 * The readable tx result, as the Cosmos CLI prints a TxResponse: txhash first, then height, code,
 * codespace (when set), raw_log, gas_wanted, gas_used and logs (when present).
 */
export function txResultView(r: BroadcastResult): Record<string, unknown> {
  const out: Record<string, unknown> = { txhash: r.txhash, height: intOf(r.height), code: r.code };
  if (r.codespace) out.codespace = r.codespace;
  out.raw_log = r.raw_log;
  if (r.gas_wanted !== undefined) out.gas_wanted = intOf(r.gas_wanted);
  if (r.gas_used !== undefined) out.gas_used = intOf(r.gas_used);
  if (r.logs !== undefined && (!Array.isArray(r.logs) || r.logs.length > 0)) out.logs = r.logs;
  for (const [k, v] of Object.entries(r))
    if (!(k in out) && v !== undefined && !['codespace', 'logs'].includes(k)) out[k] = v;
  return out;
}
