/**
 * The state of the source tree a sweep run was made from: the git commit, and a hash of the
 * uncommitted changes to what a run executes (null when there are none). Recorded with every run
 * and in the journal's header; a resumed sweep keeps a run only on an exact match (the same
 * commit, or a commit git shows the simulation unchanged from, and the same uncommitted changes),
 * and says why it runs the others again. Computed at the command line (cli/sourceState.ts):
 * the simulation's deterministic core never asks git.
 */
export interface SourceState {
  /** The git commit of the checkout; null outside one. */
  commit: string | null;
  /** sha256 of the uncommitted changes to the run's sources (src/, sim/, scenarios/, sweeps/, cli/, the package files); null: none. */
  dirty: string | null;
}

/** The source state as a table's stamp: `commit 8c49fb9d25cb` or `commit 8c49fb9d25cb + uncommitted changes 1a2b3c4d`. */
export function sourceText(s: SourceState): string {
  const commit = s.commit ? `commit ${s.commit.slice(0, 12)}` : 'an unknown commit';
  return s.dirty ? `${commit} + uncommitted changes ${s.dirty.slice(0, 8)}` : commit;
}

export const sameSource = (a: SourceState, b: SourceState): boolean => a.commit === b.commit && a.dirty === b.dirty;
