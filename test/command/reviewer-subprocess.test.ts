import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { askReviewer, type ReviewerAnswer } from '../../src/review/run.js';
import { tempDir } from '../helpers/repo.js';
import { fakeReviewer, isAlive, waitUntilGone } from '../helpers/reviewer.js';

const limits = { timeout_seconds: 20, max_output_bytes: 64 * 1024 };
/** Pid files of grandchildren: a failing test must not leave them running. */
const pidFiles: string[] = [];

afterEach(() => {
  while (pidFiles.length > 0) {
    const file = pidFiles.pop()!;
    if (!fs.existsSync(file)) continue;
    try {
      process.kill(Number(fs.readFileSync(file, 'utf8')), 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

async function ask(command: string[], overrides: Partial<typeof limits> = {}, schema: 'semantic-review' | 'lesson-draft' = 'semantic-review'): Promise<ReviewerAnswer> {
  return askReviewer({ root: tempDir(), review: { command, ...limits, ...overrides }, schema, prompt: 'case-a (case, high): A lesson\n' });
}

function problemOf(answer: ReviewerAnswer) {
  if (answer.ok) throw new Error(`expected a problem, got ${JSON.stringify(answer.data)}`);
  return answer.problem;
}

describe('askReviewer against a real subprocess', () => {
  it('reads a valid answer from the {output} file, with the prompt on stdin and the schema path filled in', async () => {
    const copy = path.join(tempDir(), 'prompt.txt');
    const answer = await ask(fakeReviewer('good', { extra: ['--prompt-copy', copy] }));
    expect(answer.ok).toBe(true);
    expect((answer as { data: { findings: { rule: string }[] } }).data.findings[0]!.rule).toBe('case-a');
    expect(fs.readFileSync(copy, 'utf8')).toBe('case-a (case, high): A lesson\n');
  });

  it('reads the answer from stdout when the command has no {output}', async () => {
    const answer = await ask(fakeReviewer('clean', { stdout: true }));
    expect(answer).toEqual({ ok: true, data: { summary: 'Nothing to report.', findings: [] } });
  });

  it('an answer that is not JSON becomes reviewer-invalid-json, quoting it', async () => {
    const problem = problemOf(await ask(fakeReviewer('garbage')));
    expect(problem.rule).toBe('reviewer-invalid-json');
    expect(problem.message).toMatch(/^the reviewer's answer \(the output file\) is not JSON: /);
    expect(problem.evidence).toBe('Sure! Here is my review: looks good to me.');
    expect(problem.fix).toContain('--output-schema {schema}');
  });

  it('JSON that breaks the schema becomes reviewer-schema, naming the fields', async () => {
    const problem = problemOf(await ask(fakeReviewer('bad-schema')));
    expect(problem.rule).toBe('reviewer-schema');
    expect(problem.message).toContain('does not match schemas/semantic-review.schema.json');
    expect(problem.message).toContain('summary must be string');
    expect(problem.message).toContain('extra is not a known field');
    expect(problem.message).toContain('findings[0].message is required');
    expect(problem.message).toMatch(/; and 3 more$/);
    expect(problem.evidence).toContain('"severity":"urgent"');
  });

  it('the draft schema is checked for capture answers too', async () => {
    expect(problemOf(await ask(fakeReviewer('good'), {}, 'lesson-draft')).rule).toBe('reviewer-schema');
    expect((await ask(fakeReviewer('draft'), {}, 'lesson-draft')).ok).toBe(true);
  });

  it('an answer that is missing or empty becomes reviewer-silent', async () => {
    expect(problemOf(await ask(fakeReviewer('silent'))).message).toBe('the reviewer exited without writing its answer to the {output} file');
    expect(problemOf(await ask(fakeReviewer('silent', { stdout: true }))).message).toBe('the reviewer exited 0 but its answer (stdout) is empty');
  });

  it('a non-zero exit becomes reviewer-failed with the last line of stderr', async () => {
    const problem = problemOf(await ask(fakeReviewer('crash')));
    expect(problem.rule).toBe('reviewer-failed');
    expect(problem.message).toBe('the reviewer exited with code 3: error: the model could not be reached');
    expect(problem.evidence).toBe('error: the model could not be reached');
  });

  it('death by a signal becomes reviewer-crashed', async () => {
    const problem = problemOf(await ask(fakeReviewer('killed')));
    expect(problem).toMatchObject({ rule: 'reviewer-crashed', message: 'the reviewer was killed by SIGKILL' });
  });

  it('a command that does not exist becomes reviewer-missing, with what to install', async () => {
    const problem = problemOf(await ask(['lessons-no-such-reviewer', '{output}']));
    expect(problem.rule).toBe('reviewer-missing');
    expect(problem.message).toBe('the reviewer could not be started: `lessons-no-such-reviewer` was not found on PATH');
    expect(problem.fix).toContain('install `lessons-no-such-reviewer`');
  });

  it('megabytes on stdout are not read: the reviewer is stopped', async () => {
    const problem = problemOf(await ask(fakeReviewer('huge', { stdout: true })));
    expect(problem.rule).toBe('reviewer-output-too-large');
    expect(problem.message).toBe('the reviewer printed more than review.max_output_bytes (65536) on stdout and was stopped');
  });

  it('megabytes in the output file are not read either', async () => {
    const problem = problemOf(await ask(fakeReviewer('huge')));
    expect(problem.rule).toBe('reviewer-output-too-large');
    expect(problem.message).toBe(`the reviewer wrote ${5 * 1024 * 1024} bytes, over review.max_output_bytes (65536): its answer was not read`);
  });

  it('a reviewer that hangs is stopped at the timeout, with the grandchild it started', async () => {
    const pidFile = path.join(tempDir(), 'grandchild.pid');
    pidFiles.push(pidFile);
    const problem = problemOf(await ask(fakeReviewer('hang', { extra: ['--pid-file', pidFile] }), { timeout_seconds: 1 }));
    const grandchild = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(problem.rule).toBe('reviewer-timeout');
    expect(problem.message).toBe('the reviewer did not finish within 1s and was stopped, with every process it started');
    expect(await waitUntilGone(grandchild)).toBe(true);
  });

  it('a reviewer that ignores SIGTERM is killed after the grace period', async () => {
    const pidFile = path.join(tempDir(), 'stubborn.pid');
    pidFiles.push(pidFile);
    const problem = problemOf(await ask(fakeReviewer('stubborn', { extra: ['--pid-file', pidFile] }), { timeout_seconds: 1 }));
    expect(problem.rule).toBe('reviewer-timeout');
    expect(await waitUntilGone(Number(fs.readFileSync(pidFile, 'utf8')))).toBe(true);
  });

  it('a process the reviewer leaves behind after answering is killed too', async () => {
    const pidFile = path.join(tempDir(), 'orphan.pid');
    pidFiles.push(pidFile);
    const answer = await ask(fakeReviewer('orphan', { extra: ['--pid-file', pidFile] }));
    const orphan = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(answer.ok).toBe(true);
    expect(await waitUntilGone(orphan)).toBe(true);
  });

  it('isAlive tells a live process from a dead one', () => {
    expect(isAlive(process.pid)).toBe(true);
    expect(isAlive(2 ** 22 + 12345)).toBe(false);
  });
});
