import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLessons } from '../helpers/guard.js';
import { AGENTS_BLOCK } from '../../src/init/agents-block.js';
import { initRepo } from '../../src/init/init.js';
import { PACKAGE_ROOT, git, initGitRepo, tempDir, writeFiles } from '../helpers/repo.js';

const CREATED = [
  'lessons/cases/.gitkeep',
  'lessons/patterns/.gitkeep',
  'lessons/principles/.gitkeep',
  'schemas/ask-answer.schema.json',
  'schemas/evals.schema.json',
  'schemas/index.schema.json',
  'schemas/lesson-draft.schema.json',
  'schemas/lesson-rerank.schema.json',
  'schemas/lesson.schema.json',
  'schemas/policy.schema.json',
  'schemas/semantic-review.schema.json',
  'schemas/source-applications.schema.json',
  'schemas/sources-lock.schema.json',
  'policy/workflow-policy.json',
  'references/spec-first-flow.md',
  'references/review-flow.md',
  '.github/workflows/lessons.yml',
  '.gitignore',
  '.gitattributes',
  'lessons/index.json',
  'AGENTS.md',
];

describe('lessons init', () => {
  it('creates the layout of a lessons repository, and a second run skips everything', async () => {
    const root = initGitRepo();
    const first = await initRepo({ cwd: root, force: false });
    expect(first.entries.map((entry) => [entry.path, entry.action])).toEqual(CREATED.map((file) => [file, 'created']));
    expect(fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8')).toBe('{\n  "version": 2,\n  "lessons": []\n}\n');
    expect(fs.readFileSync(path.join(root, 'policy/workflow-policy.json'), 'utf8')).toBe(fs.readFileSync(path.join(PACKAGE_ROOT, 'policy/workflow-policy.json'), 'utf8'));
    expect(fs.readFileSync(path.join(root, '.gitignore'), 'utf8')).toBe('.lessons/\n');
    expect(fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8')).toContain(AGENTS_BLOCK);
    // The reference documents the block points to come with it.
    for (const rel of ['references/spec-first-flow.md', 'references/review-flow.md']) {
      expect(AGENTS_BLOCK).toContain(rel);
      expect(fs.readFileSync(path.join(root, rel), 'utf8')).toBe(fs.readFileSync(path.join(PACKAGE_ROOT, rel), 'utf8'));
    }
    const second = await initRepo({ cwd: root, force: false });
    expect(second.entries.every((entry) => entry.action === 'skipped')).toBe(true);
    git(root, 'add', '-A');
    const guard = runLessons(['guard', '--stage', 'pre-commit'], { cwd: root });
    expect(guard.exitCode).toBe(0);
    expect(runLessons(['lint'], { cwd: root }).exitCode).toBe(0);
  });

  it('keeps the rest of an existing AGENTS.md and .gitignore, and never overwrites without --force', async () => {
    const root = initGitRepo();
    writeFiles(root, { 'AGENTS.md': '# House rules\n\nBe kind.\n', '.gitignore': 'dist', 'policy/workflow-policy.json': '{"version": 1}\n' });
    const result = await initRepo({ cwd: root, force: false });
    const byPath = Object.fromEntries(result.entries.map((entry) => [entry.path, entry]));
    expect(byPath['AGENTS.md']).toEqual({ path: 'AGENTS.md', action: 'updated', reason: 'lessons block written; the rest kept' });
    expect(fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8')).toBe(`# House rules\n\nBe kind.\n\n${AGENTS_BLOCK}`);
    expect(fs.readFileSync(path.join(root, '.gitignore'), 'utf8')).toBe('dist\n.lessons/\n');
    expect(byPath['policy/workflow-policy.json']).toEqual({
      path: 'policy/workflow-policy.json',
      action: 'skipped',
      reason: 'exists with other content: kept (use --force to replace it)',
    });
    expect(fs.readFileSync(path.join(root, 'policy/workflow-policy.json'), 'utf8')).toBe('{"version": 1}\n');
    const forced = await initRepo({ cwd: root, force: true });
    expect(forced.entries.find((entry) => entry.path === 'policy/workflow-policy.json')?.action).toBe('updated');
  });

  it('reports as JSON from the binary, and refuses outside a git repository (exit 2)', () => {
    const root = initGitRepo();
    const json = runLessons(['init', '--json'], { cwd: root });
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout).entries).toHaveLength(CREATED.length);
    const outside = tempDir();
    const refused = runLessons(['init'], { cwd: outside, env: { GIT_CEILING_DIRECTORIES: path.dirname(outside) } });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('not a git repository');
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('installs lessons from package.json in the workflow when the project depends on it', async () => {
    const root = initGitRepo();
    writeFiles(root, { 'package.json': JSON.stringify({ devDependencies: { lessons: '^0.1.0' } }) });
    await initRepo({ cwd: root, force: false });
    expect(fs.readFileSync(path.join(root, '.github/workflows/lessons.yml'), 'utf8')).toContain('run: npx --no-install lessons guard --stage ci\n');
  });
});
