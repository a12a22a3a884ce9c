/**
 * Import cycles: files that import each other in a loop, type imports included (a type import
 * ties two files together as much as any other: neither can be understood, moved or tested
 * alone). A loop of two files is tolerated (a type and its one helper); a loop of more is a knot
 * the tidy check refuses, naming every file in it.
 */

/** The strongly connected components of a graph (Tarjan), each sorted, in the order found. */
export function stronglyConnected(nodes: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      for (;;) {
        const w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
        if (w === v) break;
      }
      out.push(scc.sort(byName));
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return out;
}

/** The loops of more than `maxFiles` files. */
export function knots(
  nodes: readonly string[],
  edges: ReadonlyMap<string, readonly string[]>,
  maxFiles = 2,
): string[][] {
  return stronglyConnected(nodes, edges).filter((c) => c.length > maxFiles);
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
