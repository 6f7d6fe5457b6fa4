import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureLessons } from '../../src/capture/capture.js';
import { storeDrafts, type Draft } from '../../src/capture/store.js';
import { writeIndex } from '../../src/store/index-write.js';
import { loadLessons } from '../../src/lesson/load.js';
import { lessonFile, lessonText } from '../helpers/lessons.js';
import { BIN, GIT_ENV, tempLessonsRepo, writeFiles } from '../helpers/repo.js';

const now = new Date('2026-11-21T12:00:00Z');
const CHECKLIST = '## Prevention Checklist\n\n- [ ] Every manifest that carries the version is updated in the same commit.\n';

const draft = (title: string, extra: Partial<Draft> = {}): Draft => ({ title, tags: ['release'], body: `## Situation\n\nIt happened.\n\n${CHECKLIST}`, ...extra });

function lesson(root: string, id: string) {
  return loadLessons(root).lessons.find((item) => item.lesson.id === id)?.lesson;
}

describe('storeDrafts', () => {
  it('creates a source: auto candidate case and rewrites the index', async () => {
    const root = tempLessonsRepo();
    const outcomes = await storeDrafts({ cwd: root, drafts: [draft('Cron skipped a run at DST', { severity: 'high', tags: ['Cron Jobs', 'bad tag!'] })], now });
    expect(outcomes).toEqual([{ action: 'created', id: 'case-2026-11-21-cron-skipped-a-run-at-dst', path: 'lessons/cases/case-2026-11-21-cron-skipped-a-run-at-dst.md' }]);
    const created = lesson(root, outcomes[0]!.id)!;
    expect([created.status, created.source, created.severity, created.tags, created.occurrences, created.last_seen]).toEqual(['candidate', 'auto', 'high', ['cron-jobs', 'bad-tag'], 1, '2026-11-21']);
    expect(fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8')).toContain(outcomes[0]!.id);
  });

  it('bumps occurrences and last_seen of a lesson with the same normalised title, saying which', async () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-a', title: 'Version bump missed the manifest', occurrences: 2, last_seen: '2026-01-01' }));
    const outcomes = await storeDrafts({ cwd: root, drafts: [draft('version bump: missed the manifests')], now });
    expect(outcomes).toEqual([{ action: 'bumped', id: 'case-a', path: 'lessons/cases/case-a.md', duplicateOf: 'case-a', similarity: 1, occurrences: 3 }]);
    expect([lesson(root, 'case-a')!.occurrences, lesson(root, 'case-a')!.last_seen]).toEqual([3, '2026-11-21']);
  });

  it('bumps a lesson known from the file cache without losing its body or fields no command uses', async () => {
    const body = `## Situation\n\nThe manifest kept 1.2.0 while package.json said 1.3.0.\n\n${CHECKLIST}`;
    const root = tempLessonsRepo({ 'lessons/cases/case-a.md': lessonText({ id: 'case-a', title: 'Version bump missed the manifest', occurrences: 2 }, body).replace('severity:', 'team_note: keep me\nseverity:') });
    await writeIndex({ cwd: root });
    const before = lesson(root, 'case-a')!;
    expect((await storeDrafts({ cwd: root, drafts: [draft('version bump: missed the manifests')], now }))[0]).toMatchObject({ action: 'bumped', id: 'case-a', occurrences: 3 });
    const after = lesson(root, 'case-a')!;
    expect(after).toEqual({ ...before, occurrences: 3, last_seen: '2026-11-21' });
    expect(after.extra).toEqual({ team_note: 'keep me' });
  });

  it('bumps a lesson whose text is over the similarity threshold, and reports the similarity', async () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-a', title: 'Release bumped package.json but not the plugin manifest' }));
    const body = `## Situation\n\nA release went out.\n\n${CHECKLIST}`;
    const outcomes = await storeDrafts({ cwd: root, drafts: [draft('Release bumped package.json, not the plugin manifest again', { body })], now });
    expect(outcomes[0]!.similarity).toBe(0.892);
    expect(outcomes[0]).toMatchObject({ action: 'bumped', id: 'case-a' });
    // The same draft with another situation reads 0.768 alike: below 0.82, a new candidate.
    const other = await storeDrafts({ cwd: root, drafts: [draft('Release bumped package.json, not the plugin manifest again')], now });
    expect(other[0]!.action).toBe('created');
  });

  it('creates a new candidate below the threshold, and when the only match is retired', async () => {
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-a', title: 'Version bump missed the manifest' }),
      ...lessonFile({ id: 'case-old', title: 'Cron skipped a run at DST', status: 'retired', retired_reason: 'old scheduler' }),
    });
    const outcomes = await storeDrafts({ cwd: root, drafts: [draft('Emails leaked into error logs', { body: '## Situation\n\nPII in logs.\n' }), draft('Cron skipped a run at DST')], now });
    expect(outcomes.map((outcome) => outcome.action)).toEqual(['created', 'created']);
  });

  it('matches drafts of one run against each other: the second bumps the first', async () => {
    const root = tempLessonsRepo();
    const outcomes = await storeDrafts({ cwd: root, drafts: [draft('Version bump missed the manifest'), draft('Version bump missed the manifest')], now });
    expect(outcomes.map((outcome) => outcome.action)).toEqual(['created', 'bumped']);
    expect(lesson(root, outcomes[0]!.id)!.occurrences).toBe(2);
  });

  it('refuses, writing nothing, when new candidates would pass policy.lessons.max_auto_candidates', async () => {
    const waiting = Object.assign({}, ...[1, 2].map((n) => lessonFile({ id: `case-auto-${n}`, title: `Waiting ${n} zebra`, status: 'candidate', source: 'auto' })));
    const root = tempLessonsRepo({ ...waiting, ...lessonFile({ id: 'case-a', title: 'Version bump missed the manifest' }) });
    const policy = JSON.parse(fs.readFileSync(path.join(root, 'policy/workflow-policy.json'), 'utf8')) as { lessons: { max_auto_candidates: number } };
    policy.lessons.max_auto_candidates = 2;
    writeFiles(root, { 'policy/workflow-policy.json': JSON.stringify(policy) });
    const drafts = [draft('Version bump missed the manifest'), draft('Something entirely new happened')];
    await expect(storeDrafts({ cwd: root, drafts, now })).rejects.toMatchObject({
      code: 'REFUSED',
      exitCode: 1,
      message:
        'capture would add 1 auto-captured candidate to the 2 waiting for review, past the policy cap of 2 (policy.lessons.max_auto_candidates): review the backlog first (`lessons report` lists it; `lessons accept` or `lessons retire` each), then capture again; nothing was written',
    });
    expect(lesson(root, 'case-a')!.occurrences).toBe(1);
    // A recurrence alone is never refused: it adds no candidate.
    expect((await storeDrafts({ cwd: root, drafts: [drafts[0]!], now }))[0]!.action).toBe('bumped');
  });
});

describe('a tree that cannot be indexed', () => {
  it('stops every lifecycle write before anything is written, naming the broken lesson', async () => {
    const root = tempLessonsRepo({ ...lessonFile({ id: 'case-a', title: 'Version bump missed the manifest' }), 'lessons/cases/case-b.md': lessonText({ id: 'case-b', level: 'incident' }) });
    await expect(storeDrafts({ cwd: root, drafts: [draft('Version bump missed the manifest')], now })).rejects.toMatchObject({
      exitCode: 1,
      message: 'cannot build lessons/index.json: 1 problem in the lessons:\n  lessons/cases/case-b.md: level must be one of: case, pattern, principle\nrun `lessons lint` and fix them first',
    });
    expect(lesson(root, 'case-a')!.occurrences).toBe(1);
  });
});

describe('captureLessons', () => {
  it('reads a file relative to the working directory, and stdin for -', async () => {
    const root = tempLessonsRepo({ 'notes/pr.md': '[LESSON]\ntitle: Tag pushed before CI was green\n[/LESSON]' });
    const fromFile = await captureLessons({ cwd: root, source: 'notes/pr.md', now, stdin: async () => '' });
    expect(fromFile).toMatchObject({ source: 'notes/pr.md', blocks: 1, outcomes: [{ action: 'created' }] });
    const fromStdin = await captureLessons({ cwd: root, source: '-', now, stdin: async () => '[LESSON]\ntitle: Tag pushed before CI was green\n[/LESSON]' });
    expect(fromStdin.outcomes[0]).toMatchObject({ action: 'bumped', similarity: 1 });
    await expect(captureLessons({ cwd: root, source: 'missing.md', now, stdin: async () => '' })).rejects.toMatchObject({
      exitCode: 2,
      message: 'cannot read missing.md: no such file (pass a transcript file, or - to read standard input)',
    });
  });
});

function runCapture(root: string, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'capture', file], { cwd: root, env: { ...process.env, ...GIT_ENV, NO_COLOR: '1' }, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? -1));
  });
}

describe('concurrent captures', () => {
  it('lose no occurrence: parallel processes bumping one lesson all count', async () => {
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-a', title: 'Version bump missed the manifest' }),
      'transcript.md': '[LESSON]\ntitle: Version bump missed the manifest\n[/LESSON]',
    });
    const codes = await Promise.all(Array.from({ length: 6 }, () => runCapture(root, 'transcript.md')));
    expect(codes).toEqual([0, 0, 0, 0, 0, 0]);
    expect(lesson(root, 'case-a')!.occurrences).toBe(7);
    expect(fs.readdirSync(path.join(root, '.lessons/locks'))).toEqual([]);
  });

  it('break a lock left by a dead process once, and still lose nothing', async () => {
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-a', title: 'Version bump missed the manifest' }),
      'transcript.md': '[LESSON]\ntitle: Version bump missed the manifest\n[/LESSON]',
    });
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFiles(root, { '.lessons/locks/lessons.lock': JSON.stringify({ pid: Number(dead.stdout), host: os.hostname(), token: 'dead' }) });
    const codes = await Promise.all(Array.from({ length: 4 }, () => runCapture(root, 'transcript.md')));
    expect(codes).toEqual([0, 0, 0, 0]);
    expect(lesson(root, 'case-a')!.occurrences).toBe(5);
    expect(fs.readdirSync(path.join(root, '.lessons/locks'))).toEqual([]);
  });

  it('write one lesson for one new block captured twice at once: one creates, the other bumps', async () => {
    const root = tempLessonsRepo({ 'transcript.md': '[LESSON]\ntitle: Queue redelivery charged twice\n[/LESSON]' });
    const codes = await Promise.all([runCapture(root, 'transcript.md'), runCapture(root, 'transcript.md')]);
    expect(codes).toEqual([0, 0]);
    const lessons = loadLessons(root).lessons;
    expect(lessons.map((item) => [item.lesson.id, item.lesson.occurrences])).toEqual([['case-2026-11-21-queue-redelivery-charged-twice'.replace('2026-11-21', new Date().toISOString().slice(0, 10)), 2]]);
  });
});
