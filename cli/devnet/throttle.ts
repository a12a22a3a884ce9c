/** A function that calls `f` at most once every `everyMs` of wall time (progress lines). */
export function throttle<A extends unknown[]>(f: (...a: A) => void, everyMs: number): (...a: A) => void {
  let last = 0;
  return (...a) => {
    const now = Date.now();
    if (now - last >= everyMs) {
      last = now;
      f(...a);
    }
  };
}
