import { describe, expect, it } from 'vitest';
import { daysBetween, isIsoDate } from '../../src/util/dates.js';

describe('calendar dates', () => {
  it('accepts real YYYY-MM-DD dates only, the same on every call (the answers are remembered)', () => {
    for (let round = 0; round < 2; round++) {
      expect(['2026-02-28', '2024-02-29', '2026-12-31'].map(isIsoDate)).toEqual([true, true, true]);
      expect(['2026-02-30', '2025-02-29', '2026-13-01', '2026-1-01', '26-01-01', '2026-01-01T00:00:00Z', ''].map(isIsoDate)).toEqual([false, false, false, false, false, false, false]);
    }
    expect(daysBetween('2026-02-28', '2026-03-01')).toBe(1);
  });
});
