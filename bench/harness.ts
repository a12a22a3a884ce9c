/**
 * A tiny benchmark harness: run a body repeatedly for at least `minMs` of wall time (after a
 * warm-up) and report operations per second. Benchmarks print figures; they never assert timings.
 */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

/** `body` performs `opsPerCall` operations per call. */
export function measure(
  name: string,
  body: () => void,
  opts: { opsPerCall?: number; minMs?: number; unit?: string; note?: string } = {},
): BenchResult {
  const opsPerCall = opts.opsPerCall ?? 1;
  const minMs = opts.minMs ?? 1000;
  const warmEnd = performance.now() + Math.min(300, minMs / 3);
  while (performance.now() < warmEnd) body();
  let calls = 0;
  const start = performance.now();
  let now = start;
  while (now - start < minMs) {
    body();
    calls++;
    now = performance.now();
  }
  return { name, value: (calls * opsPerCall * 1000) / (now - start), unit: opts.unit ?? 'ops/s', note: opts.note };
}

export function formatResult(r: BenchResult): string {
  const v = r.value >= 100 ? Math.round(r.value).toLocaleString('en-US') : r.value.toFixed(2);
  return `${r.name.padEnd(58)} ${v.padStart(14)} ${r.unit}${r.note ? `  (${r.note})` : ''}`;
}
