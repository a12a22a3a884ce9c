/**
 * Which finished runs a resumed sweep may keep from another commit: only when git shows no change
 * to what a run depends on between the two; unknown commits never.
 */
import { describe, expect, it } from 'vitest';
import { gitCommit } from './provenance';
import { simulatorUnchanged } from './sweepCommand';

describe('simulatorUnchanged', () => {
  it('holds for one commit, not for an unknown one or none', () => {
    // Outside a git checkout (a package tarball, the mutation bench's sandbox) there is no commit
    // to compare, and a resumed sweep must then keep nothing.
    const head = gitCommit();
    expect(simulatorUnchanged(head, head)).toBe(head !== null);
    expect(simulatorUnchanged('0000000000000000000000000000000000000000', head)).toBe(false);
    expect(simulatorUnchanged(null, head)).toBe(false);
  });
});
