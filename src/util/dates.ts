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
  return now.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to`, both YYYY-MM-DD. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
