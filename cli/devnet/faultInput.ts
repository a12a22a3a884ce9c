/**
 * Faults injected into a running devnet speak the scenario's fault vocabulary: the same JSON object
 * as an entry of a scenario's `faults` (`{"kind":"crash","node":"svc-3","for":"30s"}`), decoded by
 * the scenario decoder itself (so the checks, defaults and error messages are the scenario's),
 * without `at` / `atHeight` / `atRound`: an injected fault starts at the next window barrier.
 *
 * `faultFromArgs` builds that object from `lockstep node fault KIND [TARGET] --for … --groups …`.
 */
import { InputError } from '../../src/core/errors';
import { type FaultSpec, type Scenario, FAULT_KINDS } from '../../sim/scenario/scenario';
import { decodeScenario } from '../../sim/scenario/decodeScenario';
import { encodeScenario } from '../../sim/scenario/encodeScenario';
import { faultDef } from '../../sim/faults/registry';

/** Decode one fault for `scenario`'s network; errors name `fault.<field>`. */
export function decodeLiveFault(value: unknown, scenario: Scenario): FaultSpec {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new InputError('fault', 'expected a fault object, e.g. {"kind":"crash","node":"svc-3","for":"30s"}');
  for (const k of ['at', 'atHeight', 'atRound'])
    if (k in value)
      throw new InputError(
        `fault.${k}`,
        'a fault injected into a running devnet starts at the next window barrier: leave out at, atHeight and atRound',
      );
  let decoded: Scenario;
  try {
    decoded = decodeScenario({ ...encodeScenario(scenario), faults: [value] });
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    const field = e.field.replace(/^faults\[0\]/, 'fault');
    throw new InputError(field, e.message.slice(e.field.length + 2));
  }
  const { atMs: _at, ...fault } = decoded.faults[0]!;
  return fault;
}

/** The fault as the scenario format writes it (for the journal and the report), without `at`. */
export function encodeLiveFault(f: FaultSpec, scenario: Scenario): Record<string, unknown> {
  const encoded = encodeScenario({ ...scenario, faults: [{ ...f, atMs: 0 }] }).faults as Array<Record<string, unknown>>;
  const { at: _at, ...rest } = encoded[0]!;
  return rest;
}

export interface FaultArgs {
  kind: string;
  /** A node id (crash, pause, clockSkew) or a validator (`3`, `inTurn`: producer and validator faults). */
  target?: string;
  for?: string;
  groups?: string[];
  from?: string;
  to?: string;
  validator?: string;
  validators?: string;
  skew?: string;
  delayS?: number;
  link?: string;
}

/** The kinds whose target is a node, and those whose target is a validator (from the fault registry). */
const NODE_KINDS: ReadonlySet<string> = new Set<string>(FAULT_KINDS.filter((k) => faultDef(k).fields.includes('node')));
const VALIDATOR_KINDS: ReadonlySet<string> = new Set<string>(
  FAULT_KINDS.filter((k) => faultDef(k).fields.includes('validator')),
);

const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');

const validatorValue = (v: string): number | string => (/^\d+$/.test(v) ? Number(v) : v);

/** The fault object of `lockstep node fault KIND [TARGET] [flags]` (checked later by decodeLiveFault). */
export function faultFromArgs(a: FaultArgs): Record<string, unknown> {
  if (!(FAULT_KINDS as readonly string[]).includes(a.kind))
    throw new InputError('<kind>', `unknown fault kind ${JSON.stringify(a.kind)}; kinds: ${FAULT_KINDS.join(', ')}`);
  const o: Record<string, unknown> = { kind: a.kind };
  if (a.for !== undefined) o.for = a.for;
  if (a.target !== undefined) {
    if (NODE_KINDS.has(a.kind)) o.node = a.target;
    else if (VALIDATOR_KINDS.has(a.kind)) o.validator = validatorValue(a.target);
    else throw new InputError('<target>', `a ${a.kind} fault takes no target argument; see --help for its flags`);
  }
  if (a.validator !== undefined) o.validator = validatorValue(a.validator);
  if (a.validators !== undefined) o.validators = list(a.validators).map(validatorValue);
  if (a.groups !== undefined) o.groups = a.groups.map(list);
  if (a.from !== undefined) o.from = list(a.from);
  if (a.to !== undefined) o.to = list(a.to);
  if (a.skew !== undefined) o.skew = a.skew;
  if (a.delayS !== undefined) o.delayS = a.delayS;
  if (a.link !== undefined) {
    try {
      o.link = JSON.parse(a.link);
    } catch (e) {
      throw new InputError('--link', `not JSON: ${(e as Error).message} (e.g. '{"loss":0.5}')`);
    }
  }
  return o;
}

/** One line for people: `crash svc-3 for 30s`. */
export function describeFault(f: Record<string, unknown>): string {
  const { kind, for: forText, ...rest } = f;
  const parts = Object.entries(rest).map(([k, v]) => `${k} ${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return `${String(kind)}${parts.length ? ` (${parts.join(', ')})` : ''}${forText !== undefined ? ` for ${String(forText)}` : ' (until the end)'}`;
}
