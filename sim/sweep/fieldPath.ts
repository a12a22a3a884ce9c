/**
 * Scenario field paths (`params.sprint`, `faults[0].at`, `network.latency[1]`), the way the
 * scenario decoder names fields in its errors, and setting a value at one in a scenario file's
 * JSON. An object on the way is made when missing; a list index must exist (a sweep changes a
 * fault of the base scenario, it does not invent one).
 */
import { InputError } from '../../src/core/errors';

export type PathStep = string | number;

export function parsePath(path: string, field: string): PathStep[] {
  const steps: PathStep[] = [];
  const re = /([A-Za-z][A-Za-z0-9]*)|\[(\d+)\]|\./g;
  let at = 0;
  let expectName = true;
  for (let m = re.exec(path); m !== null; m = re.exec(path)) {
    if (m.index !== at) break;
    at = re.lastIndex;
    if (m[1] !== undefined) {
      if (!expectName) break;
      steps.push(m[1]);
      expectName = false;
    } else if (m[2] !== undefined) {
      if (expectName) break;
      steps.push(Number(m[2]));
    } else {
      if (expectName) break;
      expectName = true;
    }
  }
  if (at !== path.length || expectName || steps.length === 0)
    throw new InputError(
      field,
      `${JSON.stringify(path)} is not a scenario field path (write it as params.sprint or faults[0].at)`,
    );
  return steps;
}

/** Set `value` at `path` in `root` (changed in place). `field` names the sweep's field in errors. */
export function setAtPath(root: Record<string, unknown>, path: string, value: unknown, field: string): void {
  const steps = parsePath(path, field);
  let node: unknown = root;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const last = i === steps.length - 1;
    const here = steps
      .slice(0, i)
      .reduce<string>((s, x) => (typeof x === 'number' ? `${s}[${x}]` : s ? `${s}.${x}` : x), '');
    if (typeof step === 'number') {
      if (!Array.isArray(node))
        throw new InputError(field, `${here} is not a list in the base scenario, so ${path} cannot be set`);
      if (step >= node.length)
        throw new InputError(
          field,
          `${here}[${step}] does not exist in the base scenario (${here} has ${node.length} entr${node.length === 1 ? 'y' : 'ies'})`,
        );
      if (last) node[step] = value;
      else node = node[step];
    } else {
      if (node === null || typeof node !== 'object' || Array.isArray(node))
        throw new InputError(field, `${here} is not an object in the base scenario, so ${path} cannot be set`);
      const o = node as Record<string, unknown>;
      if (last) o[step] = value;
      else {
        o[step] ??= typeof steps[i + 1] === 'number' ? [] : {};
        node = o[step];
      }
    }
  }
}
