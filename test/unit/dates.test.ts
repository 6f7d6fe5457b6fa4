import { describe, expect, it } from 'vitest';
import { daysBetween, isIsoDate, isoTimestamp, toIsoDate } from '../../src/util/dates.js';
import { seededRandom } from '../helpers/random.js';

describe('calendar dates', () => {
  it('accepts real YYYY-MM-DD dates only, the same on every call (the answers are remembered)', () => {
    for (let round = 0; round < 2; round++) {
      expect(['2026-02-28', '2024-02-29', '2026-12-31'].map(isIsoDate)).toEqual([true, true, true]);
      expect(['2026-02-30', '2025-02-29', '2026-13-01', '2026-1-01', '26-01-01', '2026-01-01T00:00:00Z', ''].map(isIsoDate)).toEqual([false, false, false, false, false, false, false]);
    }
    expect(daysBetween('2026-02-28', '2026-03-01')).toBe(1);
  });

  it('writes a time as toISOString does, for times across four centuries and the edges of a day', () => {
    const random = seededRandom(11);
    const times = [0, -1, 951_782_400_000, Date.UTC(2026, 10, 26, 23, 59, 59, 999), Date.UTC(9999, 11, 31, 23, 59, 59, 999), Date.UTC(-1, 0, 1), Date.UTC(10000, 0, 1)];
    for (let i = 0; i < 2000; i++) times.push(Math.floor((random() - 0.3) * 1e13));
    for (const time of times) {
      const now = new Date(time);
      expect(isoTimestamp(now)).toBe(now.toISOString());
      expect(toIsoDate(now)).toBe(now.toISOString().slice(0, 10));
    }
  });
});
