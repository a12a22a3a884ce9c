/**
 * Colours of report.html: one per validator (a validator's blocks in the fork trees and its
 * sidechain node's line in the charts share it), by validator index.
 */
import { type Address } from '../../../src/core/address';

const COLORS = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#59a14f',
  '#b07aa1',
  '#76b7b2',
  '#edc948',
  '#9c755f',
  '#ff9da7',
  '#7f7f7f',
  '#1f3b73',
  '#8c564b',
];
export const UNKNOWN_COLOR = '#c8c8c8';

/** The colour of validator `index` (1-based). */
export function validatorColor(index: number): string {
  return COLORS[(index - 1) % COLORS.length]!;
}

/** Text colour readable on `bg` (#rrggbb). */
export function inkOn(bg: string): string {
  const v = (i: number) => parseInt(bg.slice(i, i + 2), 16) / 255;
  const lum = 0.2126 * v(1) + 0.7152 * v(3) + 0.0722 * v(5);
  return lum > 0.55 ? '#1b1b1b' : '#ffffff';
}

export interface SignerLabel {
  /** Validator index (1-based), or null for a signer no validator has (a rotated-in key). */
  index: number | null;
  label: string;
  color: string;
}

/** Signer address -> validator, from the run's keys. */
export function producerLookup(
  keys: ReadonlyArray<{ index: number; signer: Address }>,
): (signer: Address) => SignerLabel {
  const byAddress = new Map<string, number>();
  for (const k of keys) byAddress.set(k.signer.toLowerCase(), k.index);
  return (signer) => {
    const index = byAddress.get(signer.toLowerCase()) ?? null;
    return index === null
      ? { index, label: `signer ${signer}`, color: UNKNOWN_COLOR }
      : { index, label: `validator ${index}`, color: validatorColor(index) };
  };
}
