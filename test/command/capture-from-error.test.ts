import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFromError } from '../../cli/commands/capture-from-error.js';
import type { Io } from '../../cli/command.js';
import { lint } from '../../src/lint/lint-repository.js';
import { loadLessons } from '../../src/lesson/load.js';
import { tempLessonsRepo } from '../helpers/repo.js';
import { fakeReviewer } from '../helpers/reviewer.js';

const LOG = "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n    from peft import LoraConfig\nModuleNotFoundError: No module named 'peft'\n";

function repo(review: Record<string, unknown>): string {
  const root = tempLessonsRepo({ 'logs/error.log': LOG });
  const file = path.join(root, 'policy/workflow-policy.json');
  const policy = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
  policy.review = { ...policy.review, ...review };
  fs.writeFileSync(file, JSON.stringify(policy, null, 2));
  return root;
}

async function capture(root: string, log = 'logs/error.log', json = false): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { out: (text) => (out += `${text}\n`), err: (text) => (err += `${text}\n`) };
  const code = await runFromError({ C: root, debug: false, fromError: path.join(root, log), json }, io);
  return { code, out, err };
}

const cases = (root: string): string[] => fs.readdirSync(path.join(root, 'lessons/cases'));

describe('lessons capture --from-error', () => {
  it('writes a candidate case with source: auto from the reviewer draft, and it lints clean', async () => {
    const root = repo({ command: fakeReviewer('draft') });
    const { code, out } = await capture(root);
    expect(code).toBe(0);
    expect(out).toMatch(/^created lessons\/cases\/case-\d{4}-\d\d-\d\d-install-peft-before-using-lora-adapters\.md \(candidate, source: auto\)\n$/);
    const [item] = loadLessons(root).lessons;
    expect(item!.lesson).toMatchObject({
      title: 'Install peft before using LoRA adapters',
      level: 'case',
      status: 'candidate',
      source: 'auto',
      severity: 'high',
      confidence: 4,
      occurrences: 1,
      tags: ['python', 'dependencies', 'peft', 'critical-error'],
      insight: 'critical_error',
      triggers: { tools: [], paths: [], commands: [], keywords: ['lora', 'peft'] },
    });
    expect(item!.lesson.body).toContain('- [ ] peft is listed in requirements.txt');
    const linted = await lint({ cwd: root, now: new Date() });
    expect(linted.errors).toBe(0);
  });

  it('the same lesson captured again bumps occurrences instead of writing a duplicate', async () => {
    const root = repo({ command: fakeReviewer('draft') });
    await capture(root);
    const { code, out } = await capture(root);
    expect(code).toBe(0);
    expect(out).toMatch(/^bumped lessons\/cases\/case-.*\.md: the same lesson was captured before/);
    expect(cases(root)).toHaveLength(1);
    expect(loadLessons(root).lessons[0]!.lesson.occurrences).toBe(2);
  });

  it('below min_confidence writes nothing and says so', async () => {
    const root = repo({ command: fakeReviewer('draft-low') });
    const { code, out } = await capture(root);
    expect(code).toBe(0);
    expect(out).toBe("nothing written: the reviewer's confidence 0.3 is below review.min_confidence 0.6 (draft: Install peft before using LoRA adapters)\n");
    expect(cases(root)).toEqual([]);
  });

  it('min_confidence comes from the policy', async () => {
    const root = repo({ command: fakeReviewer('draft-low'), min_confidence: 0.25 });
    expect((await capture(root)).code).toBe(0);
    expect(cases(root)).toHaveLength(1);
  });

  it('a reviewer that fails writes nothing, exits 1 and says how to fix it', async () => {
    const root = repo({ command: fakeReviewer('garbage') });
    const { code, err } = await capture(root);
    expect(code).toBe(1);
    expect(err).toContain("lessons: nothing captured: the reviewer's answer (the output file) is not JSON");
    expect(err).toContain('fix: make the reviewer answer with the JSON object alone');
    expect(cases(root)).toEqual([]);
  });

  it('an answer that breaks the draft schema writes nothing', async () => {
    const root = repo({ command: fakeReviewer('good') });
    const { code, out } = await capture(root, 'logs/error.log', true);
    expect(code).toBe(1);
    expect(JSON.parse(out)).toMatchObject({ written: [], problem: { rule: 'reviewer-schema' } });
    expect(cases(root)).toEqual([]);
  });

  it('an empty or missing log is a usage error', async () => {
    const root = repo({ command: fakeReviewer('draft') });
    fs.writeFileSync(path.join(root, 'logs/empty.log'), '\n');
    await expect(capture(root, 'logs/empty.log')).rejects.toMatchObject({ code: 'USAGE', message: expect.stringContaining('is empty') });
    await expect(capture(root, 'logs/none.log')).rejects.toMatchObject({ code: 'USAGE', message: expect.stringContaining('cannot read the log') });
  });
});
