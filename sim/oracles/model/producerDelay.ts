/**
 * The oracles' own producer delay (sidechain.md §2.5, reference README item 25), in seconds:
 * `period`, or `producerDelay` on a sprint's first block, plus `succession × backupMultiplier`.
 */
export interface DelayParams {
  periodS: number;
  producerDelayS: number;
  sprint: number;
  backupMultiplierS: number;
}

export function producerDelayS(number: bigint, succession: number, p: DelayParams): bigint {
  const base = number % BigInt(p.sprint) === 0n ? p.producerDelayS : p.periodS;
  return BigInt(base) + BigInt(succession) * BigInt(p.backupMultiplierS);
}
