import { describe, expect, it } from 'vitest';
import { receiptRelation, type LessonFacts } from '../../src/githooks/receipt-relation.js';

const lessons: Record<string, LessonFacts> = {
  'case-open-redirect': { title: 'Login redirect followed an unchecked next URL', tags: ['redirect', 'security'], triggers: { paths: ['src/auth/**'], keywords: ['open redirect'] } },
  'case-redirect-loop': { title: 'Redirect loop after session expiry', tags: ['redirect'], triggers: { paths: [], keywords: [] } },
  'case-status-code': { title: 'Handler sent 200 for an error', tags: ['http', 'status'], triggers: { paths: ['src/api/**'], keywords: [] } },
};
const receipt = { task: 'add a redirect after login', paths: [], selected: ['case-open-redirect', 'case-redirect-loop', 'case-status-code'] };
const lessonOf = (id: string): LessonFacts | undefined => lessons[id];

describe('receiptRelation', () => {
  it('a commit of the task the preflight was for names all its lessons', () => {
    expect(receiptRelation({ receipt, lessonOf, stagedPaths: ['src/auth/login.ts'], message: 'feat: redirect to the next page after login' })).toEqual({
      ids: receipt.selected,
      leftOut: [],
      why: 'the change shares "redirect" with the receipt\'s task',
      used: true,
    });
    expect(receiptRelation({ receipt: { ...receipt, paths: ['src/auth/**'] }, lessonOf, stagedPaths: ['src/auth/login.ts'], message: 'wip' }).why).toBe("src/auth/login.ts is among the receipt's paths");
  });

  it('an unrelated commit soon after (a hotfix of res.send) names only the lessons its change relates to', () => {
    expect(receiptRelation({ receipt, lessonOf, stagedPaths: ['src/api/send.ts'], message: 'hotfix: res.send sent the wrong status' })).toEqual({
      ids: ['case-status-code'],
      leftOut: ['case-open-redirect', 'case-redirect-loop'],
      why: 'case-status-code relates to the staged change',
      used: true,
    });
  });

  it('and none, saying why, when nothing relates: common words do not count', () => {
    const relation = receiptRelation({ receipt, lessonOf, stagedPaths: ['docs/notes.md'], message: 'fix: update the notes' });
    expect(relation).toEqual({
      ids: [],
      leftOut: receipt.selected,
      why: 'it was for "add a redirect after login": the staged paths and the message do not relate to that task, and none of its lessons (case-open-redirect, case-redirect-loop, case-status-code) does',
      used: false,
    });
  });
});
