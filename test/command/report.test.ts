import { describe, expect, it } from 'vitest';
import { reportLessons } from '../../src/report/report-lessons.js';
import { lessonFile } from '../helpers/lessons.js';
import { git, initGitRepo, tempLessonsRepo } from '../helpers/repo.js';

const now = new Date('2026-11-21T12:00:00Z');
const body = (situation: string, item: string) => `## Situation\n\n${situation}\n\n## Prevention Checklist\n\n- [ ] ${item}\n`;

function fixture(): string {
  return tempLessonsRepo({
    ...lessonFile({ id: 'case-manifest', title: 'Version bump missed the plugin manifest' }, body('The release bumped package.json only.', 'Bump every manifest that carries the version.')),
    ...lessonFile({ id: 'case-lockfile', title: 'Version bump missed the lockfile manifest' }, body('The release bumped package.json only.', 'Bump every manifest that carries the version, the lockfile too.')),
    ...lessonFile({ id: 'case-cron', title: 'Cron skipped a run at DST', last_validated_at: '2025-01-01' }, body('The scheduler ran on local time.', 'Schedule in UTC.')),
    ...lessonFile({ id: 'case-auto', title: 'Emails in error logs', status: 'candidate', source: 'auto', created_at: '2026-11-02', last_validated_at: undefined }),
    ...lessonFile({ id: 'case-new', title: 'Queue redelivery charged twice', status: 'candidate', created_at: '2026-10-01', last_validated_at: undefined }),
    ...lessonFile({ id: 'case-gone', title: 'Old lesson', status: 'retired', retired_reason: 'obsolete' }),
    ...lessonFile({
      id: 'pattern-retries',
      level: 'pattern',
      title: 'Bounded retries',
      status: 'canonical',
      source_case_ids: ['case-cron', 'case-new'],
      applications: [
        { context: 'web', ref: 'PR #1', validated_at: '2026-10-01' },
        { context: 'api', ref: 'PR #2', validated_at: '2026-10-02' },
        { context: 'mobile', ref: 'PR #3', validated_at: '2026-10-03' },
      ],
    }),
  });
}

describe('lessons report', () => {
  it('counts by level and status, lists stale lessons and the candidate backlog', async () => {
    const report = await reportLessons({ cwd: fixture(), now });
    expect(report.total).toBe(7);
    expect(report.counts.case).toEqual({ candidate: 2, validated: 3, canonical: 0, retired: 1 });
    expect(report.counts.pattern).toEqual({ candidate: 0, validated: 0, canonical: 1, retired: 0 });
    expect(report.stale).toEqual([{ id: 'case-cron', path: 'lessons/cases/case-cron.md', status: 'validated', last_validated_at: '2025-01-01', days: 689, command: 'lessons accept case-cron' }]);
    expect(report.candidates.map((candidate) => [candidate.id, candidate.source])).toEqual([['case-new', 'curated'], ['case-auto', 'auto']]);
    expect([report.auto_candidates, report.max_auto_candidates]).toEqual([1, 25]);
  });

  it('suggests similar cases no pattern covers yet, and patterns applied in 3 contexts', async () => {
    const report = await reportLessons({ cwd: fixture(), now });
    expect(report.ready_to_promote).toEqual([
      {
        to: 'pattern',
        ids: ['case-lockfile', 'case-manifest'],
        similarity: expect.any(Number),
        contexts: [],
        command: 'lessons promote case-lockfile case-manifest --to pattern --title "<what they have in common>"',
      },
      {
        to: 'principle',
        ids: ['pattern-retries'],
        similarity: null,
        contexts: ['api', 'mobile', 'web'],
        command: 'lessons promote pattern-retries --to principle --title "<the rule that holds everywhere>"',
      },
    ]);
    expect(report.ready_to_promote[0]!.similarity).toBeGreaterThanOrEqual(0.35);
  });

  it('reports usage as unavailable outside git', async () => {
    const { usage } = await reportLessons({ cwd: fixture(), now });
    expect({ ...usage, by_week: undefined }).toEqual({ available: false, commits_with_trailer: 0, sessions: 0, lessons: [], never_used: [], by_week: undefined });
    expect(usage.by_week).toHaveLength(26);
    expect(usage.by_week.every((week) => week.count === 0)).toBe(true);
  });

  it('counts selections from Lessons-Preflight trailers in git history', async () => {
    const root = initGitRepo(fixture());
    const commit = (message: string, date: string) => {
      git(root, 'add', '-A');
      git(root, '-c', `core.hooksPath=/dev/null`, 'commit', '-q', '--allow-empty', '-m', message, '--date', date);
    };
    process.env.GIT_COMMITTER_DATE = '2026-11-01T10:00:00Z';
    commit('first\n\nLessons-Preflight: case-cron, pattern-retries', '2026-11-01T10:00:00Z');
    process.env.GIT_COMMITTER_DATE = '2026-11-05T10:00:00Z';
    commit('second\n\nLessons-Preflight: none', '2026-11-05T10:00:00Z');
    process.env.GIT_COMMITTER_DATE = '2026-11-09T10:00:00Z';
    commit('third\n\nLessons-Preflight: pattern-retries', '2026-11-09T10:00:00Z');
    commit('no trailer', '2026-11-10T10:00:00Z');
    delete process.env.GIT_COMMITTER_DATE;
    const { usage } = await reportLessons({ cwd: root, now });
    expect(usage.by_week.slice(-3)).toEqual([
      { week: '2026-11-02', count: 0 },
      { week: '2026-11-09', count: 1 },
      { week: '2026-11-16', count: 0 },
    ]);
    expect(usage.by_week.find((week) => week.week === '2026-10-26')).toEqual({ week: '2026-10-26', count: 2 });
    expect({ ...usage, by_week: undefined }).toEqual({
      available: true,
      commits_with_trailer: 3,
      sessions: 0,
      by_week: undefined,
      lessons: [
        { id: 'pattern-retries', selected: 2, last_selected: '2026-11-09' },
        { id: 'case-cron', selected: 1, last_selected: '2026-11-01' },
      ],
      never_used: ['case-auto', 'case-lockfile', 'case-manifest', 'case-new'],
    });
  });
});
