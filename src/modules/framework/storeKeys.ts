/** Store key helpers shared by the modules' keepers. */

/** Fixed-width decimal ids keep store keys in numeric order. */
export function idKey(id: bigint): string {
  return id.toString().padStart(20, '0');
}
