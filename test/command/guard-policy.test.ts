import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGuard, type GuardReport } from '../../src/guard/guard.js';
import type { Stage } from '../../src/policy/policy.js';
import { commitAll, committedLessonsRepo, fakeToken, stageIndex } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { git } from '../helpers/repo.js';

const NOW = new Date('2026-11-21T12:00:00Z');

function editPolicy(root: string, edit: (policy: Record<string, any>) => void): string {
  const file = path.join(root, 'policy/workflow-policy.json');
  const policy = JSON.parse(fs.readFileSync(file, 'utf8'));
  edit(policy);
  const text = `${JSON.stringify(policy, null, 2)}\n`;
  fs.writeFileSync(file, text);
  return `sha256:${crypto.createHash('sha256').update(text).digest('hex')}`;
}

/** A commit on top of the committed repository that switches the secrets gate off, adds a CI command and leaks a token. */
async function hostileChange(): Promise<{ root: string; base: string; marker: string; digest: string }> {
  const root = await committedLessonsRepo();
  const base = git(root, 'rev-parse', 'HEAD').trim();
  const marker = path.join(root, 'ran-in-ci');
  const digest = editPolicy(root, (policy) => {
    policy.gates.secrets.ci = 'off';
    policy.gates.secrets['pre-push'] = 'off';
    policy.gates.quality.ci = 'block';
    policy.quality.commands = [{ name: 'payload', run: [process.execPath, '-e', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x')`] }];
  });
  fs.writeFileSync(path.join(root, '.gitignore'), '.lessons/\nran-in-ci\n');
  const leak = lessonFile({ id: 'case-2026-05-05-leak' }, `## Fix\n\nUsed ${fakeToken('aws')}.\n\n## Prevention Checklist\n\n- [ ] x\n`);
  for (const [rel, text] of Object.entries(leak)) fs.writeFileSync(path.join(root, rel), text);
  await stageIndex(root);
  commitAll(root, 'docs: tune the policy', 'Lessons-Preflight: none');
  return { root, base, marker, digest };
}

function guard(root: string, stage: Stage, base: string, env: Record<string, string> = {}): Promise<GuardReport> {
  return runGuard({ cwd: root, stage, now: NOW, env, base });
}

describe('in ci and pre-push the policy comes from the base revision', () => {
  it('a change cannot switch its own secrets gate off or run its own command in CI', async () => {
    const { root, base, marker } = await hostileChange();
    const report = await guard(root, 'ci', base);
    expect(report.blocked).toBe(true);
    expect(report.levels.secrets).toBe('block');
    expect(report.findings.filter((finding) => finding.gate === 'secrets').map((finding) => finding.file)).toContain('lessons/cases/case-2026-05-05-leak.md');
    expect(fs.existsSync(marker)).toBe(false);
    expect(report.findings).toContainEqual(expect.objectContaining({ gate: 'policy', rule: 'policy-changed', level: 'block', file: 'policy/workflow-policy.json' }));
  });

  it('pre-push reports the policy change as a warning and still uses the base gates', async () => {
    const { root, base } = await hostileChange();
    const report = await guard(root, 'pre-push', base);
    expect(report.levels.secrets).toBe('block');
    expect(report.findings).toContainEqual(expect.objectContaining({ gate: 'policy', rule: 'policy-changed', level: 'warn' }));
  });

  it('a maintainer accepts the exact file with LESSONS_ACCEPT_POLICY; the gates of the base still apply', async () => {
    const { root, base, digest } = await hostileChange();
    const wrong = await guard(root, 'ci', base, { LESSONS_ACCEPT_POLICY: `sha256:${'0'.repeat(64)}` });
    expect(wrong.findings).toContainEqual(expect.objectContaining({ rule: 'policy-changed', level: 'block' }));
    const accepted = await guard(root, 'ci', base, { LESSONS_ACCEPT_POLICY: digest });
    expect(accepted.findings.filter((finding) => finding.gate === 'policy')).toEqual([expect.objectContaining({ rule: 'policy-accepted', level: 'warn' })]);
    expect(accepted.levels.secrets).toBe('block');
  });

  it('a range that leaves the policy alone has no policy finding; pre-commit reads the policy on disk', async () => {
    const root = await committedLessonsRepo();
    const base = git(root, 'rev-parse', 'HEAD').trim();
    for (const [rel, text] of Object.entries(lessonFile({ id: 'case-2026-05-05-ok' }))) fs.writeFileSync(path.join(root, rel), text);
    await stageIndex(root);
    commitAll(root, 'docs: a case', 'Lessons-Preflight: none');
    expect((await guard(root, 'ci', base)).findings.filter((finding) => finding.gate === 'policy')).toEqual([]);
    editPolicy(root, (policy) => (policy.gates.schema['pre-commit'] = 'warn'));
    git(root, 'add', '-A');
    expect((await runGuard({ cwd: root, stage: 'pre-commit', now: NOW, env: {} })).levels.schema).toBe('warn');
  });
});
