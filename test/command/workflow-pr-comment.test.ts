import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { NO_LESSONS_MARKER, PR_SECTION_MARKER } from '../../src/render/github.js';
import { COMMENT_STEP_NAME, PR_COMMENT_FILE, workflowYaml } from '../../src/init/workflow.js';
import { commitAll, committedLessonsRepo, runLessons } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { PACKAGE_ROOT, git, writeFiles } from '../helpers/repo.js';

/**
 * The workflow `lessons init --pr-comment` writes: its comment step's script run as
 * actions/github-script runs it (the body of an async function given `require`, `github` and
 * `context`), against a stand-in for the REST client that records the calls, with the context
 * of the recorded `pull_request` payload.
 */

interface Step {
  name?: string;
  if?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
}

interface Workflow {
  permissions: Record<string, string>;
  jobs: { lessons: { steps: Step[] } };
}

const INSTALL = { how: 'npm-ci', lockfile: 'package-lock.json' } as const;
const EVENT = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'test/fixtures/github/pull-request-event.json'), 'utf8'));

interface Comment {
  id: number;
  body: string;
  user: { login: string; type: string };
}

/** The comment step's script, run in `dir` (where the guard wrote the body) against these comments; the REST calls it made. */
async function runCommentStep(dir: string, comments: Comment[]): Promise<{ call: string; params: Record<string, unknown> }[]> {
  const workflow = yaml.load(workflowYaml(INSTALL, { prComment: true })) as Workflow;
  const script = workflow.jobs.lessons.steps.find((step) => step.name === COMMENT_STEP_NAME)!.with!.script!;
  const calls: { call: string; params: Record<string, unknown> }[] = [];
  const record = (call: string) => async (params: Record<string, unknown>) => {
    calls.push({ call, params });
    return { data: {} };
  };
  const listComments = record('listComments');
  const github = {
    paginate: async (method: unknown, params: Record<string, unknown>) => {
      expect(method).toBe(listComments);
      calls.push({ call: 'paginate listComments', params });
      return comments;
    },
    rest: { issues: { listComments, createComment: record('createComment'), updateComment: record('updateComment') } },
  };
  // @actions/github's Context: repo from GITHUB_REPOSITORY, issue.number from the payload.
  const context = { payload: EVENT, repo: { owner: EVENT.repository.owner.login, repo: EVENT.repository.name }, issue: { owner: 'acme', repo: 'shop', number: EVENT.pull_request.number } };
  // github-script's require resolves against the workspace; the runner's working directory is the checkout.
  const inDir = (file: string): string => path.resolve(dir, file);
  const fsInDir = { existsSync: (file: string) => fs.existsSync(inDir(file)), readFileSync: (file: string, encoding: BufferEncoding) => fs.readFileSync(inDir(file), encoding) };
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<unknown>;
  await new AsyncFunction('require', 'github', 'context', script)((name: string) => (name === 'fs' ? fsInDir : undefined), github, context);
  return calls;
}

/** A pull request's repository where the guard wrote the comment: a commit touching package.json, which a lesson's trigger names. */
async function guardedRepository(): Promise<{ root: string; body: string }> {
  const root = await committedLessonsRepo(lessonFile({ id: 'case-2026-06-01-manifests', title: 'Bump every manifest', triggers: { paths: ['**/package.json'] } }));
  const base = git(root, 'rev-parse', 'HEAD').trim();
  writeFiles(root, { 'package.json': '{ "version": "2.0.0" }\n' });
  commitAll(root, 'Release 2.0.0', '-m', 'Lessons-Preflight: none');
  const result = runLessons(['guard', '--stage', 'ci', '--base', base, '--pr-comment', PR_COMMENT_FILE], { cwd: root });
  expect(result.exitCode, result.stdout + result.stderr).toBe(0);
  return { root, body: fs.readFileSync(path.join(root, PR_COMMENT_FILE), 'utf8') };
}

const bot = (id: number, body: string): Comment => ({ id, body, user: { login: 'github-actions[bot]', type: 'Bot' } });

describe('the workflow of `lessons init --pr-comment`', () => {
  it('asks for pull-requests: write, has the guard write the comment, and comments after the guard, also when it blocked, only on pull requests from this repository', () => {
    const plain = yaml.load(workflowYaml(INSTALL)) as Workflow;
    expect(plain.permissions).toEqual({ contents: 'read' });
    expect(plain.jobs.lessons.steps.some((step) => step.uses?.startsWith('actions/github-script'))).toBe(false);

    const workflow = yaml.load(workflowYaml(INSTALL, { prComment: true })) as Workflow;
    expect(workflow.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    const names = workflow.jobs.lessons.steps.map((step) => step.name);
    const guard = names.indexOf('Guard the pull request');
    expect(names[guard + 1]).toBe(COMMENT_STEP_NAME);
    expect(names[guard + 2]).toBe('Lessons report');
    expect(workflow.jobs.lessons.steps[guard]!.run).toBe(`npx --no-install lessons guard --stage ci --pr-comment ${PR_COMMENT_FILE}`);
    const comment = workflow.jobs.lessons.steps[guard + 1]!;
    expect(comment.uses).toBe('actions/github-script@v7');
    expect(comment.if).toBe("${{ !cancelled() && github.event_name == 'pull_request' && github.event.pull_request.head.repo.full_name == github.repository }}");
    expect(comment.with!.script).toContain(PR_SECTION_MARKER);
  });

  it('posts the section the guard wrote as a new comment on the pull request of the payload', async () => {
    const { root, body } = await guardedRepository();
    expect(body.startsWith(`${PR_SECTION_MARKER}\n## Lessons for this change\n`)).toBe(true);
    expect(await runCommentStep(root, [{ id: 1, body: 'Looks good', user: { login: 'octocat', type: 'User' } }])).toEqual([
      { call: 'paginate listComments', params: { owner: 'acme', repo: 'shop', issue_number: 42, per_page: 100 } },
      { call: 'createComment', params: { owner: 'acme', repo: 'shop', issue_number: 42, body } },
    ]);
  });

  it('updates its own comment in place on a later push, and leaves it alone when nothing changed', async () => {
    const { root, body } = await guardedRepository();
    const updated = await runCommentStep(root, [bot(7, `${PR_SECTION_MARKER}\n## Lessons for this change\n\nearlier\n`)]);
    expect(updated.slice(1)).toEqual([{ call: 'updateComment', params: { owner: 'acme', repo: 'shop', comment_id: 7, body } }]);
    expect((await runCommentStep(root, [bot(7, body)])).slice(1)).toEqual([]);
  });

  it("takes no one else's comment for its own, even with the marker", async () => {
    const { root, body } = await guardedRepository();
    const calls = await runCommentStep(root, [{ id: 3, body: `${PR_SECTION_MARKER}\nquoted`, user: { login: 'octocat', type: 'User' } }]);
    expect(calls.slice(1)).toEqual([{ call: 'createComment', params: { owner: 'acme', repo: 'shop', issue_number: 42, body } }]);
  });

  it('with no lesson for the change posts nothing, but rewrites a comment it posted before; without the file (the guard failed early) does nothing', async () => {
    const { root } = await guardedRepository();
    const none = `${PR_SECTION_MARKER}\n## Lessons for this change\n\n${NO_LESSONS_MARKER}\nNo lesson applies.\n\n`;
    fs.writeFileSync(path.join(root, PR_COMMENT_FILE), none);
    expect((await runCommentStep(root, [])).slice(1)).toEqual([]);
    expect((await runCommentStep(root, [bot(9, `${PR_SECTION_MARKER}\nold`)])).slice(1)).toEqual([
      { call: 'updateComment', params: { owner: 'acme', repo: 'shop', comment_id: 9, body: none } },
    ]);
    fs.rmSync(path.join(root, PR_COMMENT_FILE));
    expect(await runCommentStep(root, [])).toEqual([]);
  });
});
