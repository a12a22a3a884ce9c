/**
 * Per-node oracle state that the nodes share while it is equal. The nodes of a network start from
 * the same genesis and commit the same blocks, and an oracle that keeps its own model of each node
 * (its ledger, its priority set) would take the same step once per node: at a hundred validators,
 * a hundred times per block. Here a state object is held by every node whose state it is; a step
 * (a commit) is taken once per state and inputs, and the other holders take its result; a node
 * whose step differs (another block, a lag that puts it behind the others) gets a copy of its own
 * first. Inputs are compared by identity (a block's facts are one shared object per block run, so
 * equal steps have the same inputs; equal inputs in different objects only cost a step).
 *
 * A step's result must depend only on the state and the inputs (and on lookups that every node
 * sees the same when it takes that step): that is what makes another node's result this node's.
 * A step that fails part way leaves its state as it left it, for every holder: the oracle reports
 * only its first violation, and that is the first node's.
 */
/**
 * A holder that is no node: an oracle gives it the state it made of the genesis, so that the nodes'
 * first steps copy that state and nodes that report an equal genesis start from it unchanged. The
 * oracle lets it go (`set(GENESIS_HOLDER, null)`) at the first commit: every node reports its
 * genesis at its start, and a state held to the end would keep every later one alive too.
 */
export const GENESIS_HOLDER = '(genesis)';

export class NodeStates<S extends object> {
  private readonly byNode = new Map<string, S>();
  /** Who holds each state: nodes, and the steps that led to it (see `advance`). */
  private readonly holders = new Map<S, number>();
  /** Steps taken from states some node still holds: their inputs and the state each led to. */
  private readonly steps = new Map<S, Array<{ inputs: readonly unknown[]; to: S }>>();

  constructor(private readonly copy: (s: S) => S) {}

  get(node: string): S | undefined {
    return this.byNode.get(node);
  }

  has(node: string): boolean {
    return this.byNode.has(node);
  }

  /** `node` holds `s` from now on (with every other node that holds it); null: nothing. */
  set(node: string, s: S | null): void {
    const old = this.byNode.get(node);
    if (old === s) return;
    if (s === null) this.byNode.delete(node);
    else {
      this.byNode.set(node, s);
      this.hold(s);
    }
    if (old !== undefined) this.release(old);
  }

  private hold(s: S): void {
    this.holders.set(s, (this.holders.get(s) ?? 0) + 1);
  }

  private release(s: S): void {
    const n = (this.holders.get(s) ?? 0) - 1;
    if (n > 0) this.holders.set(s, n);
    else {
      this.holders.delete(s);
      this.dropSteps(s);
    }
  }

  /** Forget the steps taken from `s`, and let go of the states they led to. */
  private dropSteps(s: S): void {
    const list = this.steps.get(s);
    if (list === undefined) return;
    this.steps.delete(s);
    for (const t of list) this.release(t.to);
  }

  /**
   * Take one step of `node`'s state (the node must hold one). `step` runs on a state that only
   * this node holds, and changes it. Returns false when the node took another node's result of
   * the same step from the same state instead (nothing ran).
   *
   * A recorded step holds the state it led to: a node that took it and steps again must copy
   * that state, not change it in place, while a node still behind may take the recorded step.
   */
  advance(node: string, inputs: readonly unknown[], step: (s: S) => void): boolean {
    const from = this.byNode.get(node)!;
    const known = this.steps.get(from)?.find((t) => sameInputs(t.inputs, inputs));
    if (known !== undefined) {
      this.set(node, known.to);
      return false;
    }
    if ((this.holders.get(from) ?? 0) > 1) {
      const to = this.copy(from);
      this.set(node, to);
      step(to);
      // Recorded while another holder of `from` may take the same step (release drops it).
      if (this.holders.has(from)) {
        let list = this.steps.get(from);
        if (list === undefined) {
          list = [];
          this.steps.set(from, list);
        }
        list.push({ inputs, to });
        this.hold(to);
      }
      return true;
    }
    // Held by this node alone: changed in place, and the steps taken from it no longer apply.
    this.dropSteps(from);
    step(from);
    return true;
  }
}

function sameInputs(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether two plain facts (primitives, arrays, plain objects) are equal, exactly (no case folding). */
export function equalFacts(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!equalFacts(a[i], bb[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i] || !equalFacts((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}
