/**
 * Succession by its definition (sidechain.md §2.4, Bor `GetSignerSuccessionNumber`): how many steps
 * `signer` stands after `proposer` walking forward cyclically through `sorted`, a producer list
 * already in address order. The reference the difficulty tests hold `sidechainDifficulty` to;
 * nodes compute succession from snapshot indices (`successionFromIndices`).
 */
export function successionInSorted(sorted: readonly string[], proposer: string, signer: string): number {
  const at = (a: string) => sorted.findIndex((x) => x.toLowerCase() === a.toLowerCase());
  const p = at(proposer);
  const i = at(signer);
  if (p < 0 || i < 0) throw new Error(`successionInSorted: ${p < 0 ? proposer : signer} is not a producer`);
  return (i - p + sorted.length) % sorted.length;
}
