/**
 * Succession and difficulty (sidechain.md §2.4, reference README item 26).
 *
 * Succession is how many steps a signer stands after the sprint's in-turn proposer, walking forward
 * cyclically through the producers sorted by address; difficulty is `N - succession`. So the in-turn
 * block weighs N, the first backup N-1, …, the last 1, and a chain built in turn always outweighs
 * one built by backups at the same height: the spec's "in-turn has higher difficulty" without
 * Clique's flat 2/1, which lets two backups tie.
 */
import { type Address, ZERO_ADDRESS, compareAddresses, parseAddress } from '../core/address';
import { InputError, assert } from '../core/errors';
import { isPlanted } from '../core/plants';

/** `(i - p) mod n` for indices already known to be in range. */
export function successionFromIndices(signerIndex: number, proposerIndex: number, n: number): number {
  assert(
    n > 0 && signerIndex >= 0 && signerIndex < n && proposerIndex >= 0 && proposerIndex < n,
    'succession indices out of range',
    {
      signerIndex,
      proposerIndex,
      n,
    },
  );
  if (isPlanted('succession'))
    return proposerIndex >= signerIndex ? proposerIndex - signerIndex : proposerIndex + n - signerIndex;
  return signerIndex >= proposerIndex ? signerIndex - proposerIndex : signerIndex + n - proposerIndex;
}

/**
 * Bor `Difficulty(valset, signer)`: `N - succession`, or 1 for the zero address (Bor's special
 * case for an empty signer). Producers may come in any order (or as `{ address }` records); they
 * are sorted by address here because succession is defined in that order.
 */
export function sidechainDifficulty(
  producers: ReadonlyArray<string | { readonly address: string }>,
  proposer: string,
  signer: string,
): bigint {
  const sorted = producers
    .map((p, i) =>
      parseAddress(typeof p === 'string' ? p : (p as { address?: unknown } | null)?.address, `producers[${i}]`),
    )
    .sort(compareAddresses);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i - 1] === sorted[i]) throw new InputError('producers', `duplicate producer ${sorted[i]}`);
  }
  const s = parseAddress(signer, 'signer');
  if (s === ZERO_ADDRESS) return 1n;
  return BigInt(sorted.length - successionIn(sorted, parseAddress(proposer, 'proposer'), s));
}

function successionIn(sorted: readonly Address[], proposer: Address, signer: Address): number {
  const p = sorted.indexOf(proposer);
  if (p < 0) throw new InputError('proposer', `${proposer} is not a producer`);
  const i = sorted.indexOf(signer);
  if (i < 0) throw new InputError('signer', `${signer} is not a producer`);
  return successionFromIndices(i, p, sorted.length);
}
