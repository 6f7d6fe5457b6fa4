import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint, similarity } from '../../src/search/similarity.js';
import { reportLessons } from '../../src/report/report-lessons.js';
import { renderHtml } from '../../src/report/html.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { lessonFile } from '../helpers/lessons.js';
import { git, initGitRepo, tempDir, tempLessonsRepo, writeFiles } from '../helpers/repo.js';
import { generateRepo } from '../bench/synthetic.js';
import { pick, seededRandom } from '../helpers/random.js';

const now = new Date('2026-11-21T12:00:00Z');
const body = (text: string, item = 'Check it.') => `## Situation\n\n${text}\n\n## Prevention Checklist\n\n- [ ] ${item}\n`;

function commit(root: string, message: string, date: string): void {
  git(root, 'add', '-A');
  const env = { GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date };
  Object.assign(process.env, env);
  try {
    git(root, '-c', 'core.hooksPath=/dev/null', 'commit', '-q', '--allow-empty', '-m', message);
  } finally {
    for (const key of Object.keys(env)) delete process.env[key];
  }
}

/** A session record of the agent hooks, last written at `date`. */
function session(root: string, name: string, shown: string[], date: string): void {
  const file = path.join(root, '.lessons/sessions', `${name}.json`);
  writeFiles(root, { [`.lessons/sessions/${name}.json`]: JSON.stringify({ session_id: name, shown, pending: [], captured: [] }) });
  const time = new Date(date);
  fs.utimesSync(file, time, time);
}

describe('lessons report: efficacy', () => {
  it('lists first the lessons that recurred after they were shown: an incident naming them, or occurrences bumped', async () => {
    const root = initGitRepo(
      tempLessonsRepo({
        ...lessonFile({ id: 'case-incident', title: 'Deploy skipped the migration' }, body('The deploy ran without migrating.')),
        ...lessonFile({ id: 'case-bumped', title: 'Token in a fixture', occurrences: 3, last_seen: '2026-11-10' }, body('A token was pasted.')),
        ...lessonFile({ id: 'case-early', title: 'Cron at DST', occurrences: 2, last_seen: '2026-09-01' }, body('The cron ran twice.')),
        ...lessonFile({ id: 'case-quiet', title: 'Never shown' }, body('Nothing.')),
      }),
    );
    commit(root, 'fix: an incident before the lesson was shown\n\nLesson: case-incident', '2026-10-01T10:00:00Z');
    commit(root, 'feat: work\n\nLessons-Preflight: case-incident, case-early', '2026-10-05T10:00:00Z');
    commit(root, 'fix: the deploy again\n\nLesson: case-incident', '2026-10-20T10:00:00Z');
    commit(root, 'chore: incident by trailer\n\nIncident: INC-7\nLesson: case-early', '2026-10-02T10:00:00Z');
    session(root, 'agent-1', ['case-bumped'], '2026-11-01T09:00:00Z');

    const { efficacy, usage } = await reportLessons({ cwd: root, now });
    expect(efficacy.not_working).toBe(2);
    expect(efficacy.lessons.map((item) => [item.id, item.working, item.first_shown, item.shown])).toEqual([
      ['case-bumped', false, '2026-11-01', 1],
      ['case-incident', false, '2026-10-05', 1],
      ['case-early', true, '2026-10-05', 1],
    ]);
    expect(efficacy.lessons[0]!.recurrences).toEqual([{ kind: 'occurrence', date: '2026-11-10', ref: 'occurrences 3' }]);
    expect(efficacy.lessons[1]!.recurrences).toEqual([{ kind: 'incident', date: '2026-10-20', ref: expect.stringMatching(/^[0-9a-f]{12}$/) }]);
    expect([usage.commits_with_trailer, usage.sessions]).toEqual([1, 1]);
    expect(usage.lessons.map((item) => item.id)).toEqual(['case-bumped', 'case-early', 'case-incident']);
    expect(usage.never_used).toEqual(['case-quiet']);
  });
});

describe('lessons report: drift', () => {
  it('finds trigger paths that match no file, files and npm scripts a body names that are gone, and lessons quiet for a year', async () => {
    const root = initGitRepo(
      tempLessonsRepo({
        'package.json': JSON.stringify({ scripts: { build: 'tsc', test: 'vitest' } }),
        'src/billing/invoice.ts': 'export {};\n',
        ...lessonFile(
          { id: 'case-billing', title: 'Invoice rounding', tags: ['billing'], triggers: { paths: ['src/billing/**', 'legacy/**'] } },
          body('See `src/billing/invoice.ts`, `src/billing/` and `src/old/rounding.ts`; run `npm run build` then `npm run release:bump`.', 'Call `process.env` once.'),
        ),
        ...lessonFile({ id: 'case-k8s', title: 'Probe missing', tags: ['kubernetes'], triggers: { paths: ['k8s/**'] } }, body('```\nnpm run deploy\n```')),
        ...lessonFile({ id: 'case-gone', title: 'Retired', status: 'retired', retired_reason: 'obsolete', triggers: { paths: ['nowhere/**'] } }),
      }),
    );
    commit(root, 'chore: old k8s work', '2025-01-01T10:00:00Z');
    commit(root, 'feat: billing totals', '2026-11-01T10:00:00Z');

    const { drift } = await reportLessons({ cwd: root, now });
    expect(drift.dead_paths).toEqual([
      { id: 'case-billing', glob: 'legacy/**' },
      { id: 'case-k8s', glob: 'k8s/**' },
    ]);
    expect(drift.missing_references).toEqual([
      { id: 'case-billing', kind: 'command', reference: 'npm run release:bump' },
      { id: 'case-billing', kind: 'file', reference: 'src/old/rounding.ts' },
      { id: 'case-k8s', kind: 'command', reference: 'npm run deploy' },
    ]);
    expect(drift.history_available).toBe(true);
    expect(drift.quiet).toEqual([{ id: 'case-k8s', tags: ['kubernetes'], paths: ['k8s/**'], keywords: [] }]);
  });

  it('says there is no history outside git, and still checks trigger paths against the files on disk', async () => {
    const root = tempLessonsRepo({
      'src/app.ts': '',
      ...lessonFile({ id: 'case-a', title: 'A', triggers: { paths: ['src/**', 'lib/**'] } }),
    });
    const { drift } = await reportLessons({ cwd: root, now });
    expect(drift.dead_paths).toEqual([{ id: 'case-a', glob: 'lib/**' }]);
    expect([drift.history_available, drift.quiet]).toEqual([false, []]);
  });
});

describe('lessons report: backlog and retrieval health', () => {
  it('clusters live lessons of one level that read as one', async () => {
    const text = body('The release bumped package.json only and the plugin manifest kept the old version.', 'Bump every manifest that carries the version.');
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-one', title: 'Version bump missed the plugin manifest' }, text),
      ...lessonFile({ id: 'case-two', title: 'Version bump missed the plugin manifest again' }, text),
      ...lessonFile({ id: 'case-other', title: 'Cron skipped a run at DST' }, body('The scheduler ran on local time.')),
      ...lessonFile({ id: 'pattern-one', level: 'pattern', title: 'Version bump missed the plugin manifest', source_case_ids: ['case-one', 'case-two'] }, text),
    });
    const { duplicates, candidate_ages } = await reportLessons({ cwd: root, now });
    expect(duplicates).toEqual([{ ids: ['case-one', 'case-two'], similarity: expect.any(Number) }]);
    expect(duplicates[0]!.similarity).toBeGreaterThanOrEqual(0.82);
    expect(candidate_ages.buckets.map((bucket) => bucket.count)).toEqual([0, 0, 0, 0, 0]);
  });

  it('clusters a paraphrase: near-duplicates are judged in preflight\'s text model, with its thesaurus', async () => {
    const large = { title: 'Large upload halted the worker', summary: 'An error in the upload handler.' };
    const big = { title: 'Big upload stopped the worker', summary: 'A mistake in the upload handler.' };
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-large', ...large }, body('The worker ran out of memory.')),
      ...lessonFile({ id: 'case-big', ...big }, body('The worker ran out of memory.')),
      ...lessonFile({ id: 'case-other', title: 'Cron skipped a run at DST' }, body('The scheduler ran on local time.')),
    });
    const { duplicates } = await reportLessons({ cwd: root, now });
    expect(duplicates.map((cluster) => cluster.ids)).toEqual([['case-big', 'case-large']]);
    // Word for word they share too little: large/big, halted/stopped, error/mistake are the thesaurus's.
    expect(similarity(fingerprint({ ...large, checklist: [] }), fingerprint({ ...big, checklist: [] }))).toBeLessThan(0.82);
  });

  it('keeps the likeness of the lessons\' text: a change of status, dates or occurrences reuses it, a change of what it compares computes it again, and every report equals one made without it', async () => {
    const root = tempDir();
    const ids = await generateRepo(root, 160, 41);
    const file = path.join(root, '.lessons/cache/files/report-likeness.json');
    const written = (): bigint => fs.statSync(file, { bigint: true }).mtimeNs;
    const random = seededRandom(5);
    const edit = (id: string, change: (text: string) => string): void => {
      const folder = id.startsWith('case-') ? 'cases' : id.startsWith('pattern-') ? 'patterns' : 'principles';
      const lesson = path.join(root, 'lessons', folder, `${id}.md`);
      if (fs.existsSync(lesson)) fs.writeFileSync(lesson, change(fs.readFileSync(lesson, 'utf8')));
    };
    await reportLessons({ cwd: root, now });
    let reused = 0;
    let computed = 0;
    for (let round = 0; round < 8; round++) {
      const id = pick(random, ids);
      const textChange = round % 2 === 1;
      if (!textChange) edit(id, (text) => text.replace(/^occurrences: (\d+)$/m, (_, n: string) => `occurrences: ${Number(n) + 1}`).replace(/^last_validated_at: .*$/m, `last_validated_at: 2026-0${1 + (round % 9)}-15`));
      else if (round % 4 === 1) edit(id, (text) => text.replace(/^title: .*$/m, `title: "${pick(random, ['Bundle', 'Webhook', 'Cron'])} in the api failed again"`));
      else edit(id, (text) => text.replace(/^status: .*$/m, 'status: retired\nretired_reason: merged'));
      const before = written();
      const warm = await reportLessons({ cwd: root, now });
      if (written() === before) reused++;
      else computed++;
      expect(written() === before).toBe(!textChange);
      fs.rmSync(file);
      expect(await reportLessons({ cwd: root, now })).toEqual(warm);
    }
    expect([reused, computed]).toEqual([4, 4]);
  });

  it('shows the eval run it is given, and says when there is no evals.json', async () => {
    const root = tempLessonsRepo({ ...lessonFile({ id: 'case-a', title: 'A' }) });
    const without = await reportLessons({ cwd: root, now });
    expect(without.retrieval).toEqual({ evals_file: false, result: null, passing: null });
    expect(renderHtml(without)).toContain('no lessons/evals.json');
    expect(renderMarkdown(without)).toContain('No lessons/evals.json.');

    writeFiles(root, { 'lessons/evals.json': '{"cases": []}\n' });
    const retrieval = { cases: 40, recall: 0.8, false_positive_rate: 0.125, thresholds: { min_recall: 0.85, max_false_positive_rate: 0.1 }, misses: [{ id: 'task-b', missing: ['case-a'] }, { id: 'task-a', missing: ['case-x', 'case-y'] }] };
    const report = await reportLessons({ cwd: root, now, retrieval });
    expect(report.retrieval.passing).toBe(false);
    expect(report.retrieval.result!.misses.map((miss) => miss.id)).toEqual(['task-a', 'task-b']);
    const html = renderHtml(report);
    expect(html).toContain('<dd data-figure="recall">80%</dd>');
    expect(html).toContain('<dd data-figure="false-positive-rate">12.5%</dd>');
    expect(html).toContain('<dd data-figure="verdict">failing</dd>');
    expect(html).toContain('<code>case-x</code> <code>case-y</code>');
    expect(renderMarkdown(report)).toContain('Recall 80% (min 85%), false positives 12.5% (max 10%) over 40 tasks: **failing**.');
  });
});
