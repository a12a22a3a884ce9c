/** Comparators for the documented canonical orders (never `.sort()` without one). */
export function compareBig(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareNumbers(a: number, b: number): number {
  return a - b;
}

/** Plain code-unit order; for lower-case hex and ASCII ids this is byte order. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
