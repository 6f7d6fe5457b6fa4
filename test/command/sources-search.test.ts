import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runLessons } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { BIN, git, initGitRepo, tempDir, tempLessonsRepo, writeFiles } from '../helpers/repo.js';
import { fakeReviewer, setReview } from '../helpers/reviewer.js';

const PIN = 'pattern-pin-ci-actions';
const MOVED = 'case-2026-02-01-action-tag-moved';
const TASK = 'pin the third-party ci actions of the workflow to a commit';

/** A platform repository whose lessons a service repository takes as the source `platform`, through a local bare remote. */
function platformRemote(): string {
  const work = initGitRepo();
  writeFiles(work, {
    ...lessonFile({ id: PIN, level: 'pattern', title: 'Pin third-party CI actions to a commit', tags: ['ci', 'security'], source_case_ids: [MOVED, 'case-2026-03-01-action-tag-moved-again'] }),
    ...lessonFile({ id: MOVED, title: 'A moved CI action tag ran foreign code', tags: ['ci'] }),
    ...lessonFile({ id: 'case-2026-03-01-action-tag-moved-again', title: 'A moved CI action tag again', tags: ['ci'] }),
    ...lessonFile({ id: 'pattern-pin-ci-actions-by-tag', level: 'pattern', status: 'retired', retired_reason: 'tags move', title: 'Pin third-party CI actions to a tag', tags: ['ci'] }),
  });
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '--no-verify', '-m', 'platform lessons');
  const bare = path.join(tempDir(), 'platform.git');
  git(work, 'init', '-q', '--bare', '-b', 'main', bare);
  git(work, 'push', '-q', bare, 'HEAD:main');
  return bare;
}

interface Selected {
  id: string;
  path: string;
}

/** A service repository taking the platform's lessons as the source `platform`, indexed, its sources not fetched yet; it has a case of the same id as one of the platform's. */
function serviceRepo(files: Record<string, string> = {}): string {
  const service = tempLessonsRepo({ ...lessonFile({ id: MOVED, title: 'A moved CI action tag ran foreign code here too', tags: ['ci'] }), ...files });
  const policyFile = path.join(service, 'policy/workflow-policy.json');
  const policy = JSON.parse(fs.readFileSync(policyFile, 'utf8'));
  policy.sources = [{ name: 'platform', url: platformRemote(), ref: 'main' }];
  fs.writeFileSync(policyFile, `${JSON.stringify(policy, null, 2)}\n`);
  expect(runLessons(['index'], { cwd: service }).exitCode).toBe(0);
  return service;
}

const PIN_PATH = `.lessons/sources/platform/lessons/patterns/${PIN}.md`;

describe('selection across sources', { timeout: 120_000 }, () => {
  it('preflight ranks local and source lessons together, with provenance; retired and shadowed source lessons are never selected', () => {
    const service = serviceRepo();

    // Before the sources are fetched: the local lessons, and a warning saying what to run.
    const before = runLessons(['preflight', TASK, '--json'], { cwd: service });
    expect(before.exitCode).toBe(0);
    expect(before.stderr).toContain('lessons sources update');

    expect(runLessons(['sources', 'update'], { cwd: service }).exitCode).toBe(0);
    expect(fs.existsSync(path.join(service, '.lessons/cache/sources.bin'))).toBe(true);
    const result = runLessons(['preflight', TASK, '--json'], { cwd: service });
    expect(result.stderr).toBe('');
    const selected = (JSON.parse(result.stdout) as { selected: Selected[] }).selected;
    const ids = selected.map((lesson) => lesson.id);
    expect(ids).toContain(`platform:${PIN}`);
    expect(selected.find((lesson) => lesson.id === `platform:${PIN}`)!.path).toBe(PIN_PATH);
    expect(ids).not.toContain('platform:pattern-pin-ci-actions-by-tag');
    expect(ids).not.toContain(`platform:${MOVED}`);
    expect(runLessons(['preflight', TASK], { cwd: service }).stdout).toContain(`platform:${PIN}`);

    // A sources segment that cannot be read: said by name, and the local run goes on.
    fs.writeFileSync(path.join(service, '.lessons/cache/sources.bin'), 'not a segment');
    const damaged = runLessons(['preflight', TASK, '--json'], { cwd: service });
    expect(damaged.exitCode).toBe(0);
    expect(damaged.stderr).toContain('.lessons/cache/sources.bin cannot be read');
    expect((JSON.parse(damaged.stdout) as { selected: Selected[] }).selected.every((lesson) => !lesson.id.startsWith('platform:'))).toBe(true);
  });

  it('export renders the local and the source lessons with provenance, only from the locked commits; retired and shadowed ones never', () => {
    const service = serviceRepo();
    // Not fetched: an export would leave the platform's lessons out, and CI would find it stale.
    const refused = runLessons(['export', '--to', 'claude'], { cwd: service });
    expect(refused).toMatchObject({
      exitCode: 2,
      stdout: '',
      stderr: 'lessons: source `platform` is not checked out at its locked commit: run `lessons sources update --locked` (or `lessons sources update` to take newer lessons), then run this again\n',
    });
    expect(fs.existsSync(path.join(service, 'CLAUDE.md'))).toBe(false);
    expect(runLessons(['sources', 'update'], { cwd: service }).exitCode).toBe(0);
    expect(runLessons(['export', '--to', 'claude'], { cwd: service }).exitCode).toBe(0);
    const section = fs.readFileSync(path.join(service, 'CLAUDE.md'), 'utf8');
    expect(section).toContain('## Lessons from this repository and its sources (`<source>:<id>`, at the commits of lessons/sources.lock.json)');
    expect(section).toContain(`### Pin third-party CI actions to a commit\n\n\`platform:${PIN}\` · pattern · medium · ${PIN_PATH}\n`);
    expect(section).toContain(`\`${MOVED}\` · case · medium · lessons/cases/${MOVED}.md`);
    expect(section).not.toContain(`platform:${MOVED}`);
    expect(section).not.toContain('pattern-pin-ci-actions-by-tag');
    expect(runLessons(['export', '--to', 'cursor'], { cwd: service }).exitCode).toBe(0);
    expect(fs.readdirSync(path.join(service, '.cursor/rules')).sort()).toEqual([
      `lessons-${MOVED}.mdc`,
      'lessons-platform--case-2026-03-01-action-tag-moved-again.mdc',
      `lessons-platform--${PIN}.mdc`,
    ]);
    expect(runLessons(['export', '--to', 'claude', '--check'], { cwd: service }).exitCode).toBe(0);
    // The checkout away from the lock: refused, and the committed export is left as it was.
    const checkout = path.join(service, '.lessons/sources/platform');
    fs.writeFileSync(path.join(checkout, '.git/HEAD'), `${'0'.repeat(40)}\n`);
    expect(runLessons(['export', '--to', 'claude'], { cwd: service }).exitCode).toBe(2);
    expect(fs.readFileSync(path.join(service, 'CLAUDE.md'), 'utf8')).toBe(section);
  });

  it('ask finds a source lesson and names it `<source>:<id>`, in text and JSON', () => {
    const service = serviceRepo();
    expect(runLessons(['sources', 'update'], { cwd: service }).exitCode).toBe(0);
    const question = 'should third-party CI actions be pinned to a commit?';
    const answer = JSON.parse(runLessons(['ask', '--json', '--no-reviewer', question], { cwd: service }).stdout) as { questions: [{ found: boolean; sources: { lesson?: string; path: string }[] }] };
    expect(answer.questions[0].found).toBe(true);
    expect(answer.questions[0].sources[0]).toMatchObject({ lesson: `platform:${PIN}`, path: PIN_PATH });
    const text = runLessons(['ask', '--no-reviewer', question], { cwd: service });
    expect(text.stdout).toContain(`\n  1. platform:${PIN} in ${PIN_PATH} (Pin third-party CI actions to a commit)\n`);
    const all = runLessons(['ask', '--json', '--no-reviewer', 'a moved CI action tag'], { cwd: service }).stdout;
    expect(all).not.toContain(`platform:${MOVED}`);
    expect(all).not.toContain('pattern-pin-ci-actions-by-tag');
  });

  it('review and the MCP server select a source lesson with its provenance', async () => {
    const service = initGitRepo(serviceRepo());
    writeFiles(service, { '.gitignore': '.lessons/\n', 'notes.md': 'notes\n' });
    const prompt = path.join(tempDir(), 'prompt.txt');
    setReview(service, { command: fakeReviewer('good', { extra: ['--prompt-copy', prompt] }) });
    expect(runLessons(['sources', 'update'], { cwd: service }).exitCode).toBe(0);
    git(service, 'add', '-A');
    git(service, 'commit', '-qm', 'initial');
    writeFiles(service, { 'notes.md': `${TASK}\n` });
    const review = runLessons(['review'], { cwd: service, env: { GITHUB_BASE_REF: '' } });
    expect(review.exitCode).toBe(0);
    expect(review.stdout.split('\n')[0]).toMatch(new RegExp(`^reviewed 1 file \\(uncommitted changes\\) against lessons: (.*, )?platform:${PIN}(,|$)`));
    expect(fs.readFileSync(prompt, 'utf8')).toContain(`platform:${PIN}`);

    const client = new Client({ name: 'lessons-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '-C', service], stderr: 'pipe' }));
    try {
      const preflight = await client.callTool({ name: 'preflight', arguments: { task: TASK } });
      const body = (preflight.content as { text: string }[]).map((part) => part.text).join('\n');
      const selected = (JSON.parse(body.slice(body.indexOf('\n\n{') + 2)) as { selected: Selected[] }).selected;
      expect(selected.find((lesson) => lesson.id === `platform:${PIN}`)?.path).toBe(PIN_PATH);
      expect(selected.map((lesson) => lesson.id)).not.toContain(`platform:${MOVED}`);
      const search = await client.callTool({ name: 'search', arguments: { query: 'pin third-party CI actions to a commit' } });
      expect((search.content as { text: string }[])[0]!.text).toContain(`1. platform:${PIN} in ${PIN_PATH} (Pin third-party CI actions to a commit)`);
    } finally {
      await client.close();
    }
  });
});
