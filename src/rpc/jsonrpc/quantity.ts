/** geth's QUANTITY encoding (sidechain.md §4.3): `0x` + minimal hex, `0x0` for zero. */
export function toQuantity(n: bigint | number): string {
  return `0x${BigInt(n).toString(16)}`;
}
