/**
 * Which finished runs a resumed sweep may keep from another commit: only when git shows no change
 * to what a run depends on between the two; unknown commits never.
 */
import { describe, expect, it } from 'vitest';
import { gitCommit } from './provenance';
import { simulatorUnchanged } from './sweepCommand';

describe('simulatorUnchanged', () => {
  it('holds for one commit, not for an unknown one or none', () => {
    const head = gitCommit();
    expect(head).not.toBeNull();
    expect(simulatorUnchanged(head, head)).toBe(true);
    expect(simulatorUnchanged('0000000000000000000000000000000000000000', head)).toBe(false);
    expect(simulatorUnchanged(null, head)).toBe(false);
  });
});
