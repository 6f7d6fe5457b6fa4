const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Dates already judged: a tree of 100,000 lessons holds a few thousand distinct ones, each checked three times a lesson. */
const judged = new Map<string, boolean>();
const JUDGED_MAX = 100_000;

/** True for a real calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isIsoDate(value: string): boolean {
  const known = judged.get(value);
  if (known !== undefined) return known;
  const match = ISO_DATE.exec(value);
  let real = false;
  if (match) {
    const [, y, m, d] = match;
    real = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d))).toISOString().slice(0, 10) === value;
  }
  if (judged.size >= JUDGED_MAX) judged.clear();
  judged.set(value, real);
  return real;
}

/** The UTC calendar date of `now` as YYYY-MM-DD. */
export function toIsoDate(now: Date): string {
  return isoTimestamp(now).slice(0, 10);
}

/**
 * `now` as Date.toISOString() writes it (2026-11-26T19:46:02.000Z), from its UTC fields: on
 * Node 20 toISOString() sets up V8's time zone cache the first time, most of a megabyte of
 * memory, in the few milliseconds a hook has.
 */
export function isoTimestamp(now: Date): string {
  const year = now.getUTCFullYear();
  if (year < 0 || year > 9999 || Number.isNaN(year)) return now.toISOString();
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${String(year).padStart(4, '0')}-${two(now.getUTCMonth() + 1)}-${two(now.getUTCDate())}T${two(now.getUTCHours())}:${two(now.getUTCMinutes())}:${two(now.getUTCSeconds())}.${String(now.getUTCMilliseconds()).padStart(3, '0')}Z`;
}

/** Whole days from `from` to `to`, both YYYY-MM-DD. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
