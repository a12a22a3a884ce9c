/**
 * A JSON number whose text is not a plain integer (a fraction, an exponent, or `-0`), kept with its
 * text. Go's decoder refuses to read such a number into an integer type even when its value is
 * whole (`1.0`, `1e0`, `-0` into a uint64), and its error names the text; a JSON-RPC server that
 * answers as geth does needs both. `toJSON` gives the value, so it writes back as a number.
 */
export class JsonNumber {
  constructor(
    readonly text: string,
    readonly value: number,
  ) {}

  toJSON(): number {
    return this.value;
  }
}
