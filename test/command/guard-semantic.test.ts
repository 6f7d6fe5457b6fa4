import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGuard } from '../../src/guard/guard.js';
import { committedLessonsRepo } from '../helpers/guard.js';
import { runCli, writeFiles } from '../helpers/repo.js';
import { fakeReviewer } from '../helpers/reviewer.js';

const NOW = new Date('2026-11-21T12:00:00Z');

/** A committed lessons repo whose policy turns the semantic lane on, with an uncommitted change. */
async function repoWithReviewer(review: Record<string, unknown>): Promise<string> {
  const root = await committedLessonsRepo();
  const file = path.join(root, 'policy/workflow-policy.json');
  const policy = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
  policy.review = { ...policy.review, enabled: true, ...review };
  fs.writeFileSync(file, JSON.stringify(policy, null, 2));
  writeFiles(root, { 'package.json': '{\n  "version": "1.2.0"\n}\n' });
  return root;
}

describe('guard --stage final with the semantic lane', () => {
  it('shows the reviewer findings beside the deterministic lane, advisory by default', async () => {
    const root = await repoWithReviewer({ command: fakeReviewer('good') });
    const report = await runGuard({ cwd: root, stage: 'final', now: NOW, env: {} });
    const semantic = report.findings.filter((finding) => finding.gate === 'semantic-review');
    expect(semantic).toEqual([
      expect.objectContaining({ level: 'warn', severity: 'warning', file: 'package.json', line: 3, message: expect.stringMatching(/^\(high\) /) }),
    ]);
    expect(report.blocked).toBe(false);
  });

  it('blocks only when the policy lists the severity in block_on', async () => {
    const root = await repoWithReviewer({ command: fakeReviewer('good'), block_on: ['high'] });
    const result = runCli(['guard', '--stage', 'final'], { cwd: root, env: { GITHUB_ACTIONS: '', GITHUB_BASE_REF: '' } });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain('block [semantic-review]');
  });

  it('a reviewer that crashes is one finding, and the deterministic lane still decides', async () => {
    const root = await repoWithReviewer({ command: fakeReviewer('crash') });
    const report = await runGuard({ cwd: root, stage: 'final', now: NOW, env: {} });
    expect(report.findings.filter((finding) => finding.gate === 'semantic-review')).toEqual([
      expect.objectContaining({ level: 'warn', rule: 'reviewer-failed' }),
    ]);
    expect(report.blocked).toBe(false);
  });

  it('does not run the reviewer when the lane is off', async () => {
    const root = await repoWithReviewer({ enabled: false, command: ['/nonexistent/reviewer'] });
    const report = await runGuard({ cwd: root, stage: 'final', now: NOW, env: {} });
    expect(report.findings.some((finding) => finding.gate === 'semantic-review')).toBe(false);
  });
});
