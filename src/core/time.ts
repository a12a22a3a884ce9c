/**
 * Calendar formatting of virtual time, without the wall clock: unix seconds to RFC 3339 UTC
 * (`1970-01-01T00:00:00Z`), as Go's time.Time marshals. Howard Hinnant's civil-from-days.
 */
export function rfc3339FromUnixMs(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const frac = ms - seconds * 1000;
  const base = rfc3339FromUnixSeconds(seconds);
  // RFC3339Nano: the fraction without trailing zeros, left out when zero (`…:15Z`, `…:15.5Z`).
  return frac === 0 ? base : `${base.slice(0, -1)}.${String(frac).padStart(3, '0').replace(/0+$/, '')}Z`;
}

export function rfc3339FromUnixSeconds(seconds: bigint | number): string {
  const s = BigInt(seconds);
  const days = s >= 0n ? s / 86400n : -((-s + 86399n) / 86400n);
  const secOfDay = Number(s - days * 86400n);
  const z = Number(days) + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const p2 = (n: number) => String(n).padStart(2, '0');
  const hh = Math.floor(secOfDay / 3600);
  const mm = Math.floor((secOfDay % 3600) / 60);
  const ss = secOfDay % 60;
  return `${String(year).padStart(4, '0')}-${p2(month)}-${p2(day)}T${p2(hh)}:${p2(mm)}:${p2(ss)}Z`;
}
