import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkIndex } from '../../src/store/index-write.js';
import { lint } from '../../src/lint/lint-repository.js';
import { newLesson, slugify } from '../../src/lifecycle/new.js';
import { listLessons, showLesson } from '../../src/store/query.js';
import { lessonFile } from '../helpers/lessons.js';
import { runCli, tempLessonsRepo } from '../helpers/repo.js';

const NOW = new Date('2026-11-21T09:30:00Z');

describe('lessons new', () => {
  it('writes a candidate from the template with a dated id and prints its path', async () => {
    const root = tempLessonsRepo();
    const result = await newLesson({ cwd: root, title: 'Version bump missed the manifest!', level: 'case', tags: ['release', 'ci'], severity: 'high', now: NOW });
    expect(result).toEqual({ id: 'case-2026-11-21-version-bump-missed-the-manifest', path: 'lessons/cases/case-2026-11-21-version-bump-missed-the-manifest.md', index: 'lessons/index.json' });
    const text = fs.readFileSync(path.join(root, result.path), 'utf8');
    expect(text.startsWith(`---
id: case-2026-11-21-version-bump-missed-the-manifest
title: Version bump missed the manifest!
level: case
status: candidate
severity: high
tags: [release, ci]
confidence: 3
transferability: 2
source: curated
occurrences: 1
created_at: 2026-11-21
last_seen: 2026-11-21
---

## Situation
`)).toBe(true);
    const linted = await lint({ cwd: root, now: NOW });
    expect(linted.errors).toBe(0);
    expect(linted.findings.map((f) => f.rule)).toEqual(['checklist', 'placeholder', 'placeholder', 'placeholder', 'placeholder']);
    // The index was rebuilt with it, so the next commit is not blocked by a stale index.
    expect((await checkIndex({ cwd: root })).fresh).toBe(true);
  });

  it('from the binary: the path on stdout, what to fill in on stderr, and a fresh index', () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-2026-01-01-old' }));
    const result = runCli(['new', 'Deploy skipped the migration'], { cwd: root });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^lessons\/cases\/case-\d{4}-\d{2}-\d{2}-deploy-skipped-the-migration\.md\n$/);
    expect(result.stderr).toContain('and updated lessons/index.json');
    expect(result.stderr).toContain('next: fill in Situation, Mistake, Root Cause and Fix, and at least one `- [ ]` item under Prevention Checklist');
    expect(runCli(['index', '--check'], { cwd: root }).exitCode).toBe(0);
  });

  it('never overwrites: the same title twice, forced past the duplicate check, gets a fresh id', async () => {
    const root = tempLessonsRepo();
    const options = { cwd: root, title: 'Same title', level: 'pattern' as const, tags: [], severity: 'medium' as const, now: NOW };
    const first = await newLesson(options);
    const before = fs.readFileSync(path.join(root, first.path), 'utf8');
    await expect(newLesson(options)).rejects.toMatchObject({ code: 'REFUSED', exitCode: 1 });
    const second = await newLesson({ ...options, force: true });
    expect([first.id, second.id]).toEqual(['pattern-same-title', 'pattern-same-title-2']);
    expect(fs.readFileSync(path.join(root, first.path), 'utf8')).toBe(before);
  });

  it('takes an id already used at another level as taken', async () => {
    const root = tempLessonsRepo(lessonFile({ id: 'principle-x', level: 'case' }));
    const result = await newLesson({ cwd: root, title: 'X', level: 'principle', tags: [], severity: 'low', now: NOW });
    expect(result.id).toBe('principle-x-2');
  });

  it('slugs titles in any script into a valid id', () => {
    expect(slugify('Ça marche — déjà vu?')).toBe('ca-marche-deja-vu');
    expect(slugify('한국어 제목')).toBe('lesson');
    expect(slugify('a'.repeat(80))).toBe('a'.repeat(60));
  });

  it('refuses bad arguments with exit 2 and writes nothing', () => {
    const root = tempLessonsRepo();
    const bad = runCli(['new', 'Title', '--tags', 'Not A Tag'], { cwd: root });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('tag `Not A Tag` is not valid');
    expect(runCli(['new'], { cwd: root }).exitCode).toBe(2);
    expect(runCli(['new', 'x', '--severity', 'huge'], { cwd: root }).exitCode).toBe(2);
    expect(fs.readdirSync(path.join(root, 'lessons/cases'))).toEqual([]);
  });

  it('prints the path through the binary and honours -C', () => {
    const root = tempLessonsRepo();
    const result = runCli(['-C', root, 'new', 'Hook ran twice', '--level', 'pattern']);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'lessons/patterns/pattern-hook-ran-twice.md\n' });
  });
});

describe('lessons show and list', () => {
  const files = {
    ...lessonFile({ id: 'case-a', title: 'A', tags: ['ci'], status: 'candidate' }),
    ...lessonFile({ id: 'case-b', title: 'B', tags: ['release'] }),
    ...lessonFile({ id: 'pattern-p', title: 'P', level: 'pattern', source_case_ids: ['case-a', 'case-b'] }),
  };

  it('lists principles and patterns first, filtered by level, status and tag', async () => {
    const root = tempLessonsRepo(files);
    const ids = async (filter: Record<string, string> = {}) => (await listLessons({ cwd: root, ...filter })).map((e) => e.id);
    expect(await ids()).toEqual(['pattern-p', 'case-a', 'case-b']);
    expect(await ids({ level: 'case' })).toEqual(['case-a', 'case-b']);
    expect(await ids({ status: 'candidate' })).toEqual(['case-a']);
    expect(await ids({ tag: 'release' })).toEqual(['pattern-p', 'case-b']);
  });

  it('shows a lesson, and says what to do about an unknown id', async () => {
    const root = tempLessonsRepo(files);
    const shown = await showLesson({ cwd: root, id: 'case-b' });
    expect(shown.entry.path).toBe('lessons/cases/case-b.md');
    expect(shown.text).toBe(fs.readFileSync(path.join(root, 'lessons/cases/case-b.md'), 'utf8'));
    const missing = runCli(['show', 'ase'], { cwd: root });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toBe('lessons: no lesson with id `ase`; did you mean: case-a, case-b (`lessons list` shows them all)\n');
  });

  it('opens a lesson by a prefix of its id that no other id starts with, as git opens a commit by an abbreviated hash', async () => {
    const root = tempLessonsRepo(files);
    expect((await showLesson({ cwd: root, id: 'pattern' })).entry.id).toBe('pattern-p');
    const ambiguous = runCli(['show', 'case'], { cwd: root });
    expect(ambiguous.exitCode).toBe(1);
    expect(ambiguous.stdout).toBe('');
    expect(ambiguous.stderr).toBe('lessons: `case` begins 2 lesson ids: case-a, case-b (give more of the id)\n');
  });

  it('prints JSON with --json', () => {
    const root = tempLessonsRepo(files);
    const result = runCli(['list', '--json', '--level', 'pattern'], { cwd: root });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).map((e: { id: string }) => e.id)).toEqual(['pattern-p']);
  });
});
