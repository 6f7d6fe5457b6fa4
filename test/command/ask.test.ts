import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { askQuestions, recordAnswer } from '../../src/ask/ask.js';
import { MAX_TOTAL_CHARS, answerQuestions } from '../../src/ask/search.js';
import { markdownSections } from '../../src/ask/sources.js';
import { MANIFEST_ID, hookRepo } from '../helpers/hook-repo.js';
import { runCli, writeFiles } from '../helpers/repo.js';

const NOW = new Date('2026-11-21T12:00:00Z');

const REFERENCE = `# Release flow

Intro.

## Staging database

The staging database is reset every night at 02:00 UTC from an anonymised production snapshot.

## Deploy windows

Deploys go out Tuesday to Thursday only.
`;

describe('lessons ask', () => {
  it('finds the best two sources per question with excerpts, from lessons and references/', async () => {
    const root = await hookRepo();
    writeFiles(root, { 'references/release-flow.md': REFERENCE });
    const [staging, bump] = (await askQuestions({ cwd: root, questions: ['When is the staging database reset?', 'how do we do a version bump of the manifest'] })).questions;
    expect(staging).toEqual({
      question: 'When is the staging database reset?',
      found: true,
      answer: null,
      sources: [{ path: 'references/release-flow.md', title: 'Staging database', excerpt: 'The staging database is reset every night at 02:00 UTC from an anonymised production snapshot.', score: expect.any(Number) }],
    });
    expect(bump!.sources[0]).toMatchObject({ path: `lessons/cases/${MANIFEST_ID}.md`, title: 'Version bump missed the manifest' });
  });

  it('says "not found" when the question matches nothing', async () => {
    const root = await hookRepo();
    expect(await askQuestions({ cwd: root, questions: ['what colour is the office carpet'] })).toEqual({
      method: 'words',
      reviewer_problem: null,
      questions: [{ question: 'what colour is the office carpet', found: false, answer: null, sources: [] }],
    });
  });

  it('--record stores a dated answer with its provenance once; a newer answer supersedes the older, both kept', async () => {
    const root = await hookRepo();
    const question = 'Which Postgres version runs in production?';
    const answer = 'Production runs Postgres 16.4 on the managed cluster; staging mirrors it.';
    const first = await recordAnswer({ cwd: root, question, answer, now: NOW });
    expect(first).toEqual({ path: 'references/answers/which-postgres-version-runs-in-production.md', outcome: 'written', superseded: [] });
    const firstFile = path.join(root, first.path);
    expect(fs.readFileSync(firstFile, 'utf8')).toBe(
      `# ${question}\n\n${answer}\n\nQuestion: ${question}\nAnswered: 2026-11-21\nProvenance: a person, recorded with lessons ask --record\n`,
    );
    expect(await recordAnswer({ cwd: root, question, answer, now: NOW })).toEqual({ path: first.path, outcome: 'exists', superseded: [] });
    const newer = `${answer} Upgraded to 17.0 in May.`;
    const second = await recordAnswer({ cwd: root, question, answer: newer, provenance: 'the platform team, in the weekly sync', now: NOW });
    expect(second).toEqual({ path: 'references/answers/which-postgres-version-runs-in-production-2.md', outcome: 'written', superseded: [first.path] });
    expect(fs.readFileSync(firstFile, 'utf8')).toContain(`# ${question}\n\nSuperseded: 2026-11-21 by references/answers/which-postgres-version-runs-in-production-2.md\n\n${answer}\n`);
    expect(fs.readFileSync(path.join(root, second.path), 'utf8')).toContain('Provenance: the platform team, in the weekly sync\n');
    const [found] = (await askQuestions({ cwd: root, questions: ['what postgres version is in production'] })).questions;
    expect(found!.sources.map((s) => s.path)).toEqual([second.path]);
    await expect(recordAnswer({ cwd: root, question, answer: 'Postgres 16.', now: NOW })).rejects.toMatchObject({ exitCode: 1, message: expect.stringContaining('at least 20 characters') });
  });

  it('keeps the excerpts of all questions under the total cap', () => {
    const long = 'deploy '.repeat(200);
    const docs = Array.from({ length: 30 }, (_, i) => ({ id: `d${i}`, path: `references/d${i}.md`, title: `Deploy ${i}`, text: long }));
    const answers = answerQuestions(docs, Array.from({ length: 20 }, () => 'how to deploy'));
    const total = answers.flatMap((a) => a.sources).reduce((sum, s) => sum + s.excerpt.length, 0);
    expect(total).toBeLessThanOrEqual(MAX_TOTAL_CHARS);
    expect(answers.every((a) => a.sources.length === 2)).toBe(true);
  });

  it('cuts markdown at its headings', () => {
    expect(markdownSections('references/x.md', REFERENCE).map((d) => [d.id, d.title])).toEqual([
      ['references/x.md#1', 'Release flow'],
      ['references/x.md#2', 'Staging database'],
      ['references/x.md#3', 'Deploy windows'],
    ]);
  });
});

describe('lessons ask (built binary)', () => {
  it('prints sources, a clear not-found with the command to record, and exits 0', async () => {
    const root = await hookRepo();
    writeFiles(root, { 'references/release-flow.md': REFERENCE });
    const result = runCli(['ask', 'When is the staging database reset?', 'what colour is the office carpet'], { cwd: root });
    expect(result).toEqual({
      stdout: `decided by word matching
Q: When is the staging database reset?
  found in the repository:
  1. references/release-flow.md (Staging database)
     The staging database is reset every night at 02:00 UTC from an anonymised production snapshot.
Q: what colour is the office carpet
  not found in lessons/ or references/: ask a human, then keep the answer with
  lessons ask --record --question "what colour is the office carpet" --answer "<the answer>"
`,
      stderr: '',
      exitCode: 0,
    });
    const json = JSON.parse(runCli(['ask', '--json', 'what colour is the office carpet'], { cwd: root }).stdout);
    expect(json).toEqual({ method: 'words', reviewer_problem: null, questions: [{ question: 'what colour is the office carpet', found: false, answer: null, sources: [] }] });
  });

  it('--record refuses a short answer with exit 1 and a missing --answer with exit 2', async () => {
    const root = await hookRepo();
    const short = runCli(['ask', '--record', '--question', 'Which region?', '--answer', 'eu-west-1'], { cwd: root });
    expect(short.exitCode).toBe(1);
    expect(short.stderr).toContain('at least 20 characters');
    expect(runCli(['ask', '--record', '--question', 'Which region?'], { cwd: root }).exitCode).toBe(2);
    const ok = runCli(['ask', '--record', '--question', 'Which region?', '--answer', 'Everything runs in eu-west-1 (Ireland).'], { cwd: root });
    expect(ok).toEqual({ stdout: 'recorded references/answers/which-region.md\n', stderr: '', exitCode: 0 });
  });
});
