export const DEMO_REFERENCE_NOW = Date.UTC(2026, 10, 20, 12, 0, 0); // the demo's "now": 2026-11-20T12:00:00Z
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
let isoDay = Number.NaN;
let isoDayPrefix = "";
/** Same text as `new Date(ms).toISOString()`, several times faster for whole-millisecond instants in years 1970–9999 (db:generate formats tens of millions). */
export const iso = (ms: number): string => {
  if (!Number.isInteger(ms) || ms < 0 || ms >= 253_402_300_800_000) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY);
  if (day !== isoDay) {
    isoDay = day;
    isoDayPrefix = new Date(day * DAY).toISOString().slice(0, 11);
  }
  let rest = ms - day * DAY;
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const sec = rest % 60;
  rest = (rest - sec) / 60;
  const min = rest % 60;
  const hour = (rest - min) / 60;
  return `${isoDayPrefix}${pad2(hour)}:${pad2(min)}:${pad2(sec)}.${milli < 10 ? `00${milli}` : milli < 100 ? `0${milli}` : milli}Z`;
};
