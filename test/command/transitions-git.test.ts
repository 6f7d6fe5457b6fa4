import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptLesson } from '../../src/lifecycle/accept.js';
import { applyPattern } from '../../src/lifecycle/apply.js';
import { promoteLessons } from '../../src/lifecycle/promote.js';
import { retireLesson } from '../../src/lifecycle/retire.js';
import { runGuard } from '../../src/guard/guard.js';
import type { Stage } from '../../src/policy/policy.js';
import { storeDrafts } from '../../src/capture/store.js';
import { lessonFile } from '../helpers/lessons.js';
import { git, initGitRepo, tempLessonsRepo, writeFiles } from '../helpers/repo.js';

const now = new Date('2026-11-21T12:00:00Z');

function commitAll(root: string, message: string): string {
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', message);
  return git(root, 'rev-parse', 'HEAD').trim();
}

/** A repository whose base commit holds two validated cases and a candidate. */
function baseRepo(): { root: string; base: string } {
  const root = initGitRepo(
    tempLessonsRepo({
      ...lessonFile({ id: 'case-a', title: 'Manifest kept the old version' }),
      ...lessonFile({ id: 'case-b', title: 'Lockfile kept the old version' }),
      ...lessonFile({ id: 'case-c', title: 'Tag pushed early', status: 'candidate', last_validated_at: undefined }),
    }),
  );
  return { root, base: commitAll(root, 'base') };
}

/** The promotion gate's findings, as CI computes them (`lessons guard --stage ci`), or at another stage. */
async function findings(root: string, base: string, head?: string, stage: Stage = 'ci') {
  const report = await runGuard({ cwd: root, stage, now, env: {}, base, ...(head ? { head } : {}) });
  return report.findings.filter((finding) => finding.gate === 'promotion');
}

describe('the promotion gate between a base and a head commit (lessons guard --stage ci)', () => {
  it('finds nothing when every change was made by the lifecycle commands', async () => {
    const { root, base } = baseRepo();
    const pattern = await promoteLessons({ cwd: root, sources: ['case-a', 'case-b'], to: 'pattern', title: 'Versions live in one place', now });
    // The steward writes the Situation promote left for them (accept refuses its placeholder).
    const file = path.join(root, pattern.path);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^What the 2 cases below .*$/m, 'Every manifest carries the version.'));
    await acceptLesson({ cwd: root, id: pattern.id, canonical: false, now });
    await applyPattern({ cwd: root, id: pattern.id, context: 'web', ref: 'PR #1', now });
    await acceptLesson({ cwd: root, id: 'case-c', canonical: true, now });
    await storeDrafts({ cwd: root, drafts: [{ title: 'Emails leaked into logs', tags: [], body: '' }], now });
    const head = commitAll(root, 'curate');
    expect(await findings(root, base, head)).toEqual([]);
    await retireLesson({ cwd: root, id: 'case-c', reason: 'tags are signed now', now });
    expect(await findings(root, head, commitAll(root, 'retire'))).toEqual([]);
  });

  it('flags hand edits the commands would have refused', async () => {
    const { root, base } = baseRepo();
    writeFiles(root, {
      // candidate -> canonical by hand, without validation
      ...lessonFile({ id: 'case-c', title: 'Tag pushed early', status: 'canonical', last_validated_at: undefined }),
      // a case turned into a pattern in place
      ...lessonFile({ id: 'case-b', title: 'Lockfile kept the old version', level: 'pattern', source_case_ids: ['case-a', 'case-c'] }),
    });
    fs.rmSync(path.join(root, 'lessons/cases/case-b.md'));
    const head = commitAll(root, 'hand edits');
    expect((await findings(root, base, head)).map((finding) => `${finding.file}: [${finding.rule}] ${finding.message}`)).toEqual([
      'lessons/cases/case-c.md: [transition-status] `case-c` moved from candidate to canonical without validation (last_validated_at not advanced): run `lessons accept case-c --canonical`',
      'lessons/patterns/case-b.md: [transition-level] `case-b` changed level from case to pattern by an edit: restore it, and write the pattern as a new lesson with `lessons promote <ids> --to pattern` (the sources stay)',
    ]);
  });

  it('flags a deleted lesson that a pattern still references, and reads a lessons root below the git top', async () => {
    const top = initGitRepo();
    const root = path.join(top, 'docs');
    fs.mkdirSync(root);
    fs.cpSync(tempLessonsRepo({ ...lessonFile({ id: 'case-a' }), ...lessonFile({ id: 'case-b' }) }), root, { recursive: true });
    await promoteLessons({ cwd: root, sources: ['case-a', 'case-b'], to: 'pattern', title: 'P', id: 'pattern-p', now });
    const base = commitAll(top, 'base');
    fs.rmSync(path.join(root, 'lessons/cases/case-b.md'));
    const head = commitAll(top, 'delete');
    expect((await findings(root, base, head)).map((finding) => finding.message)).toEqual([
      '`case-b` was deleted but pattern-p still references it: retire it with `lessons retire` instead of deleting',
    ]);
  });

  it('compares a base commit with the working tree when no head is given', async () => {
    const { root, base } = baseRepo();
    writeFiles(root, lessonFile({ id: 'case-a', title: 'Manifest kept the old version', status: 'candidate' }));
    expect((await findings(root, base, undefined, 'final')).map((finding) => finding.message)).toEqual([
      '`case-a` moved back from validated to candidate: status only moves candidate -> validated -> canonical; retire it with `lessons retire` instead',
    ]);
    await expect(findings(root, 'no-such-ref')).rejects.toMatchObject({ exitCode: 2 });
  });
});
