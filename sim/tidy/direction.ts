/**
 * The import direction of the project, by layer: at the top level src/ <- sim/ <- cli/ (each may
 * import only what lies below it); inside src/ its folders have a direction of their own (ALLOWED);
 * inside sim/ its folders stand on floors (SIM_FLOORS), each importing only lower floors.
 */

/** Allowed imports per src folder (besides itself). */
const ALLOWED: Record<string, string[]> = {
  core: [],
  store: ['core'],
  modules: ['core', 'store'],
  app: ['core', 'store', 'modules'],
  consensus: ['core', 'store', 'modules', 'app'],
  bridge: ['core', 'store', 'modules', 'app', 'parent', 'sidechain'],
  parent: ['core', 'store'],
  sidechain: ['core', 'store'],
  node: ['core', 'store', 'modules', 'app', 'consensus', 'bridge', 'parent', 'sidechain'],
  rpc: ['core', 'store', 'modules', 'app', 'consensus', 'bridge', 'parent', 'sidechain', 'node'],
  client: ['core', 'store', 'modules', 'app', 'consensus', 'bridge', 'parent', 'sidechain', 'node', 'rpc'],
  // src/index.ts: the library surface may re-export any part of src, never sim.
  '.': ['core', 'store', 'modules', 'app', 'consensus', 'bridge', 'parent', 'sidechain', 'node', 'rpc'],
};

const SRC_DIRECTION =
  'core <- store <- modules <- app <- {consensus, bridge} <- node <- {rpc, client}; parent and sidechain use core and store only';

/**
 * The floors of sim/, from the ground up: a folder (or a file at the top of sim/) may import only
 * folders on lower floors. Folders on one floor do not know each other. docs/ARCHITECTURE.md
 * draws the same picture.
 */
export const SIM_FLOORS: ReadonlyArray<readonly string[]> = [
  // The ground: the run record and its vocabulary, the rule inventory, statistics, this check.
  ['core', 'rules', 'stats', 'tidy'],
  ['trace'],
  ['engine'],
  ['env'],
  // What a fault does, against the narrow targets the domains offer.
  ['faults'],
  ['scenario'],
  // The clients a run plays, and the oracles that judge the record.
  ['workload', 'oracles'],
  ['domain'],
  ['workers'],
  ['run'],
  ['metrics'],
  ['report'],
  ['campaign'],
  ['sweep', 'testing'],
  ['index.ts'],
];

/**
 * Imports from a sim/ floor to a higher one that are allowed, each with its reason. Keep this list
 * short (docs/ARCHITECTURE.md names every entry): an arrow back up is a knot to untie.
 */
export const SIM_ARROWS_UP: Readonly<Record<string, string>> = {};

/** The floor of a part of sim/ (its folder, or a file at its top), or null when it has none. */
function simFloor(part: string): number | null {
  const i = SIM_FLOORS.findIndex((f) => f.includes(part));
  return i < 0 ? null : i;
}

/** Why an import from layer `from` to layer `to` runs against the direction, or null when it may. */
export function directionBreach(from: string, to: string, spec: string): string | null {
  const area = (l: string): 'src' | 'sim' | 'cli' => (l.startsWith('@sim') ? 'sim' : l === '@cli' ? 'cli' : 'src');
  const rank = { src: 0, sim: 1, cli: 2 } as const;
  const name = (l: string) =>
    l.startsWith('@sim') ? 'sim/' : l === '@cli' ? 'cli/' : l === '.' ? 'src/index.ts' : `src/${l}`;
  const [a, b] = [area(from), area(to)];
  if (a !== b)
    return rank[b] > rank[a]
      ? `${name(from)} must not import ${name(to)} (${spec}); the top level runs src/ <- sim/ <- cli/: the library never knows who runs it`
      : null;
  if (a === 'cli') return null;
  if (a === 'sim') return simBreach(from.slice('@sim/'.length), to.slice('@sim/'.length), spec);
  return (ALLOWED[from] ?? []).includes(to)
    ? null
    : `${name(from)} must not import ${name(to)} (${spec}); direction: ${SRC_DIRECTION}`;
}

function simBreach(from: string, to: string, spec: string): string | null {
  const [a, b] = [simFloor(from), simFloor(to)];
  const where = (p: string) => `sim/${p}${p.endsWith('.ts') ? '' : '/'}`;
  if (a === null) return `${where(from)} stands on no floor of sim/: add it to SIM_FLOORS (sim/tidy/direction.ts)`;
  if (b === null) return null; // reported where it is imported from, once it has files
  if (b < a || SIM_ARROWS_UP[`${from} -> ${to}`] !== undefined) return null;
  return `${where(from)} (floor ${a + 1}) must not import ${where(to)} (floor ${b + 1}) (${spec}); sim/ imports only lower floors: ${SIM_FLOORS.map((f) => f.join(', ')).join(' <- ')}`;
}

/**
 * The layer of a file: 'core', 'store', … for src files, '.' for src/index.ts, '@sim/<part>' for
 * sim/ (its folder, or the file at its top), '@cli' for cli/, null otherwise.
 */
export function layerOf(rel: string): string | null {
  const parts = rel.split('/');
  if (parts[0] === 'sim') {
    if (parts.length < 2) return null;
    // A file at the top of sim/ (index.ts) is a part of its own; the import names it without extension.
    return parts.length === 2 ? `@sim/${parts[1]!.replace(/\.(ts|mts|mjs|js)$/, '')}.ts` : `@sim/${parts[1]}`;
  }
  if (parts[0] === 'cli') return '@cli';
  if (parts[0] !== 'src') return null;
  if (parts.length === 2) return '.';
  return parts[1] ?? null;
}
