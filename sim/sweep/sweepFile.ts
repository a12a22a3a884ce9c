/**
 * A sweep file: a base scenario, the fields to vary in it (a grid of values and/or cells listed by
 * hand), values drawn afresh for every seed (the same draw in every cell, so cells differ only in
 * what they set), the seeds, the metrics and the comparisons. `decodeSweep` checks the file with
 * its JSON Schema (sweepSchema.ts) and then what a schema cannot: labels, comparisons, draw bounds;
 * `cellScenario` builds one cell's scenario for one seed and lets the scenario decoder check it,
 * naming the cell and the seed in its error. Format: docs/SWEEPS.md.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import seedrandom from 'seedrandom';
import { InputError } from '../../src/core/errors';
import { durationText, parseDurationMs } from '../../src/core/duration';
import { METRIC_NAMES } from '../core/metricNames';
import { resolveScenarioPath } from '../scenario/load';
import { type Scenario } from '../scenario/scenario';
import { decodeScenario } from '../scenario/decodeScenario';
import { DEFAULT_RESAMPLES } from '../stats/bootstrap';
import { parsePath, setAtPath } from './fieldPath';
import { checkSweepSchema } from './sweepSchema';

export interface Setting {
  path: string;
  value: unknown;
  /** Where the sweep file says it (for errors). */
  field: string;
}

export interface SweepCell {
  label: string;
  settings: Setting[];
  /** A grid cell's value on each axis, by the axis's path (cells listed by hand have none). */
  axisValues?: Record<string, unknown>;
}

/** A grid axis: a scenario path, the short name its labels use, its values. */
export interface SweepAxis {
  path: string;
  name: string;
  values: unknown[];
}

export type Draw =
  | { path: string; field: string; kind: 'duration'; lowMs: number; highMs: number; stepMs: number }
  | { path: string; field: string; kind: 'number'; low: number; high: number; integer: boolean }
  | { path: string; field: string; kind: 'choice'; values: unknown[] };

export interface Sweep {
  name: string;
  description: string;
  /** The base scenario file (absolute) and its JSON as written. */
  baseFile: string;
  baseJson: Record<string, unknown>;
  set: Setting[];
  cells: SweepCell[];
  axes: SweepAxis[];
  draws: Draw[];
  seeds: number[];
  metrics: string[];
  compare: Array<[string, string]>;
  bootstrap: { resamples: number; seed: string };
}

type Obj = Record<string, unknown>;

const settings = (o: Obj | undefined, field: string): Setting[] =>
  Object.entries(o ?? {}).map(([path, value]) => {
    const f = `${field}[${JSON.stringify(path)}]`;
    parsePath(path, f);
    return { path, value, field: f };
  });

/** The short name of a path for a grid label: its last field name (`faults[0].for` → `for`). */
const shortName = (path: string): string => {
  const names = parsePath(path, 'grid').filter((s): s is string => typeof s === 'string');
  return names[names.length - 1]!;
};

const labelValue = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

function gridAxes(grid: Record<string, unknown[]>): SweepAxis[] {
  const axes = Object.entries(grid);
  const shorts = axes.map(([p]) => shortName(p));
  return axes.map(([path, values], i) => ({
    path,
    name: shorts.filter((s) => s === shorts[i]).length > 1 ? path : shorts[i]!,
    values,
  }));
}

function gridCells(axes: readonly SweepAxis[]): SweepCell[] {
  if (axes.length === 0) return [];
  let cells: SweepCell[] = [{ label: '', settings: [], axisValues: {} }];
  for (const { path, name, values } of axes) {
    const next: SweepCell[] = [];
    for (const c of cells)
      values.forEach((value, k) => {
        next.push({
          label: `${c.label}${c.label ? ' ' : ''}${name}=${labelValue(value)}`,
          settings: [...c.settings, { path, value, field: `grid[${JSON.stringify(path)}][${k}]` }],
          axisValues: { ...c.axisValues, [path]: value },
        });
      });
    cells = next;
  }
  return cells;
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * `{"axis": PATH, "against": V}`: along one axis of the grid, every cell against the cell with the
 * same values on the other axes and V on this one (B − A with A at V).
 */
function axisPairs(
  cells: readonly SweepCell[],
  axes: readonly SweepAxis[],
  spec: { axis: string; against: unknown },
  field: string,
): Array<[string, string]> {
  const axis = axes.find((a) => a.path === spec.axis || a.name === spec.axis);
  if (!axis)
    throw new InputError(
      `${field}.axis`,
      `${JSON.stringify(spec.axis)} is not an axis of the grid; axes: ${axes.map((a) => a.path).join(', ') || 'none'}`,
    );
  if (!axis.values.some((v) => sameValue(v, spec.against)))
    throw new InputError(
      `${field}.against`,
      `${JSON.stringify(spec.against)} is not a value of ${axis.path}; values: ${axis.values.map((v) => JSON.stringify(v)).join(', ')}`,
    );
  const grid = cells.filter((c) => c.axisValues !== undefined);
  const others = (c: SweepCell) => axes.filter((a) => a !== axis).map((a) => JSON.stringify(c.axisValues![a.path]));
  const pairs: Array<[string, string]> = [];
  for (const b of grid) {
    if (sameValue(b.axisValues![axis.path], spec.against)) continue;
    const a = grid.find(
      (c) => sameValue(c.axisValues![axis.path], spec.against) && others(c).join('|') === others(b).join('|'),
    )!;
    pairs.push([a.label, b.label]);
  }
  return pairs;
}

function decodeDraw(path: string, spec: Obj, field: string): Draw {
  if (spec.choice !== undefined) return { path, field, kind: 'choice', values: spec.choice as unknown[] };
  const [lo, hi] = spec.uniform as [unknown, unknown];
  const uf = `${field}.uniform`;
  if (typeof lo === 'number' && typeof hi === 'number') {
    if (!(lo <= hi)) throw new InputError(uf, `low must not exceed high, got [${lo}, ${hi}]`);
    return { path, field, kind: 'number', low: lo, high: hi, integer: Number.isInteger(lo) && Number.isInteger(hi) };
  }
  if (typeof lo !== 'string' || typeof hi !== 'string')
    throw new InputError(uf, 'expected two durations ("30s", "5m") or two numbers');
  const lowMs = parseDurationMs(lo, `${uf}[0]`);
  const highMs = parseDurationMs(hi, `${uf}[1]`);
  if (lowMs > highMs) throw new InputError(uf, `low must not exceed high, got [${lo}, ${hi}]`);
  // Whole seconds when both bounds are: drawn values then read like the bounds.
  const stepMs = lowMs % 1000 === 0 && highMs % 1000 === 0 ? 1000 : 1;
  return { path, field, kind: 'duration', lowMs, highMs, stepMs };
}

function seedList(v: unknown): number[] {
  if (typeof v === 'number') return Array.from({ length: v }, (_, i) => i + 1);
  if (Array.isArray(v)) return (v as number[]).slice();
  const o = v as { first?: number; count: number };
  const first = o.first ?? 1;
  return Array.from({ length: o.count }, (_, i) => first + i);
}

/**
 * A sweep from its file's JSON; `file` is where it was read (the base scenario is found relative
 * to it, or by name under scenarios/).
 */
export function decodeSweep(value: unknown, file: string): Sweep {
  checkSweepSchema(value);
  const o = value as Obj;
  const name = o.name as string;
  const baseRef = o.base as string;
  const relative = resolve(dirname(file), baseRef);
  const baseFile = baseRef.endsWith('.json') && existsSync(relative) ? relative : resolveScenarioPath(baseRef);
  if (!existsSync(baseFile))
    throw new InputError('base', `no scenario ${JSON.stringify(baseRef)} (looked for ${relative} and ${baseFile})`);
  let baseJson: Obj;
  try {
    baseJson = JSON.parse(readFileSync(baseFile, 'utf8')) as Obj;
  } catch (e) {
    throw new InputError('base', `${baseFile} is not valid JSON: ${(e as Error).message}`);
  }
  if (baseJson === null || typeof baseJson !== 'object' || Array.isArray(baseJson))
    throw new InputError('base', `${baseFile} is not a scenario file (not a JSON object)`);
  try {
    decodeScenario(baseJson);
  } catch (e) {
    if (e instanceof InputError) throw new InputError('base', `${baseFile}: ${e.message}`);
    throw e;
  }

  const axes = gridAxes((o.grid ?? {}) as Record<string, unknown[]>);
  const cells = [
    ...gridCells(axes),
    ...((o.cells ?? []) as Array<{ label: string; set?: Obj }>).map((c, i) => ({
      label: c.label,
      settings: settings(c.set, `cells[${i}].set`),
    })),
  ];
  if (cells.length === 0) cells.push({ label: 'base', settings: [] });
  const labels = new Set<string>();
  cells.forEach((c, i) => {
    if (labels.has(c.label))
      throw new InputError(
        i < cells.length - ((o.cells as unknown[]) ?? []).length ? 'grid' : 'cells',
        `two cells are labelled ${JSON.stringify(c.label)}`,
      );
    labels.add(c.label);
  });
  const draws = Object.entries((o.draw ?? {}) as Record<string, Obj>).map(([path, spec]) =>
    decodeDraw(path, spec, `draw[${JSON.stringify(path)}]`),
  );
  const compare: Array<[string, string]> = [];
  if (o.compare === undefined) for (const c of cells.slice(1)) compare.push([cells[0]!.label, c.label]);
  else
    (o.compare as Array<[string, string] | { axis: string; against: unknown }>).forEach((item, i) => {
      if (!Array.isArray(item)) {
        compare.push(...axisPairs(cells, axes, item, `compare[${i}]`));
        return;
      }
      const [a, b] = item;
      for (const [k, l] of [
        [0, a],
        [1, b],
      ] as const)
        if (!labels.has(l))
          throw new InputError(
            `compare[${i}][${k}]`,
            `no cell is labelled ${JSON.stringify(l)}; cells: ${[...labels].join(' | ')}`,
          );
      compare.push([a, b]);
    });
  const seen = new Set<string>();
  compare.forEach(([a, b], i) => {
    const key = JSON.stringify([a, b]);
    if (seen.has(key))
      throw new InputError(
        'compare',
        `${a} against ${b} is compared twice (item ${i}): it would count twice in the correction`,
      );
    seen.add(key);
  });
  const bootstrap = (o.bootstrap ?? {}) as { resamples?: number; seed?: string | number };
  return {
    name,
    description: (o.description as string | undefined) ?? '',
    baseFile,
    baseJson,
    set: settings(o.set as Obj | undefined, 'set'),
    cells,
    axes,
    draws,
    seeds: seedList(o.seeds),
    metrics: (o.metrics as string[] | undefined) ?? [...METRIC_NAMES],
    compare,
    bootstrap: { resamples: bootstrap.resamples ?? DEFAULT_RESAMPLES, seed: String(bootstrap.seed ?? name) },
  };
}

export function loadSweep(file: string): { sweep: Sweep; file: string; bytes: Buffer } {
  const path = resolve(file);
  if (!existsSync(path)) throw new InputError('sweep', `no sweep file ${JSON.stringify(file)} (looked for ${path})`);
  const bytes = readFileSync(path);
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new InputError(file, `not valid JSON: ${(e as Error).message}`);
  }
  try {
    return { sweep: decodeSweep(json, path), file: path, bytes };
  } catch (e) {
    if (e instanceof InputError) throw new InputError(`${file}: ${e.field}`, e.message.slice(e.field.length + 2));
    throw e;
  }
}

/** The values drawn for one seed, by path (the same in every cell). */
export function drawnValues(sweep: Sweep, seed: number): Array<{ path: string; value: unknown; field: string }> {
  return sweep.draws.map((d) => {
    const random = seedrandom.alea(`sweep/${sweep.name}/${seed}/${d.path}`);
    const u = random.double();
    let value: unknown;
    if (d.kind === 'choice') value = d.values[Math.floor(u * d.values.length)];
    else if (d.kind === 'duration') {
      const steps = Math.floor((d.highMs - d.lowMs) / d.stepMs);
      value = durationText(d.lowMs + Math.floor(u * (steps + 1)) * d.stepMs);
    } else if (d.integer) value = d.low + Math.floor(u * (d.high - d.low + 1));
    else value = Math.round((d.low + u * (d.high - d.low)) * 1e6) / 1e6;
    return { path: d.path, value, field: d.field };
  });
}

export interface CellRun {
  scenario: Scenario;
  /** The scenario file this cell and seed ran (base, sweep settings, draws, cell settings). */
  json: Obj;
  drawn: Record<string, unknown>;
}

/**
 * One cell's scenario for one seed: the base file, then the sweep's `set`, the values drawn for
 * the seed, then the cell's own settings, decoded as a scenario file. The error of a bad
 * combination names the cell, the seed and the scenario field.
 */
export function cellScenario(sweep: Sweep, cell: SweepCell, seed: number): CellRun {
  const json = structuredClone(sweep.baseJson);
  const drawn = drawnValues(sweep, seed);
  for (const s of [...sweep.set, ...drawn, ...cell.settings]) setAtPath(json, s.path, s.value, s.field);
  try {
    return { scenario: decodeScenario(json), json, drawn: Object.fromEntries(drawn.map((d) => [d.path, d.value])) };
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    const why = drawn.length ? ` (drawn: ${drawn.map((d) => `${d.path} = ${labelValue(d.value)}`).join(', ')})` : '';
    throw new InputError(
      `cell ${JSON.stringify(cell.label)}, seed ${seed}${why}: ${e.field}`,
      e.message.slice(e.field.length + 2),
    );
  }
}
