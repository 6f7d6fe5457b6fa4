import { describe, expect, it } from 'vitest';
import { idsForPrefix, shortHandle } from '../../src/lesson/handle.js';

describe('short handles of lesson ids', () => {
  it('cuts a long id at the first word end past 20 characters that no neighbour starts with', () => {
    const id = 'case-2026-09-30-rider-phone-numbers-in-logs';
    expect(shortHandle(id, ['case-2026-09-12-create-index-locked', 'case-2026-10-02-payout'])).toBe('case-2026-09-30-rider');
    // A neighbour sharing the first words pushes the cut further along.
    expect(shortHandle(id, ['case-2026-09-30-rider-app-crash'])).toBe('case-2026-09-30-rider-phone');
  });

  it('keeps an id that is short, has no word end past 20 characters, or belongs to a source', () => {
    expect(shortHandle('case-helm-rollback', [])).toBe('case-helm-rollback');
    expect(shortHandle('pattern-everythingisonewordhere', [])).toBe('pattern-everythingisonewordhere');
    expect(shortHandle('team-a:case-2026-09-30-rider-phone-numbers', [])).toBe('team-a:case-2026-09-30-rider-phone-numbers');
  });

  it('keeps the whole id when another id is a prefix of every shorter cut', () => {
    expect(shortHandle('case-deploy-window-friday-x', ['case-deploy-window-friday'])).toBe('case-deploy-window-friday-x');
  });

  it('opens the id a handle was made from, and only that one', () => {
    const ids = ['case-2026-09-12-create-index-locked', 'case-2026-09-30-rider-app-crash', 'case-2026-09-30-rider-phone-numbers-in-logs', 'case-2026-10-02-payout'];
    ids.forEach((id, i) => {
      const handle = shortHandle(id, [ids[i - 1], ids[i + 1]].filter((other): other is string => other !== undefined));
      expect(idsForPrefix(handle, ids)).toEqual([id]);
    });
    expect(idsForPrefix('case-2026-09-30', ids)).toHaveLength(2);
    expect(idsForPrefix('', ids)).toEqual([]);
  });
});
