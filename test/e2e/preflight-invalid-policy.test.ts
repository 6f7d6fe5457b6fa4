import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessonFile } from '../helpers/lessons.js';
import { runCli, tempLessonsRepo } from '../helpers/repo.js';

function repoWithPolicy(change: (policy: Record<string, Record<string, unknown>>) => void): string {
  const root = tempLessonsRepo(lessonFile({ id: 'case-manifest', title: 'Version bump missed the manifest' }));
  const file = path.join(root, 'policy/workflow-policy.json');
  const policy = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
  change(policy);
  fs.writeFileSync(file, JSON.stringify(policy, null, 2));
  expect(runCli(['index'], { cwd: root }).exitCode).toBe(0);
  return root;
}

const WARNING = /^lessons: warning: policy\/workflow-policy\.json is invalid \(preflight\.hook_max: must be integer\): preflight uses the defaults for what it cannot read; fix the fields named \(schemas\/policy\.schema\.json\), `lessons doctor` checks it$/m;

describe('preflight with a schema-invalid policy (built CLI)', () => {
  it('warns once on stderr with the field and the fix, and still answers (exit 0), on every run until it is fixed', () => {
    const root = repoWithPolicy((policy) => {
      policy.preflight!.hook_max = 'many';
    });
    for (const run of [1, 2]) {
      const result = runCli(['preflight', 'bump the version'], { cwd: root });
      expect(result.exitCode, `run ${run}: ${result.stderr}`).toBe(0);
      expect(result.stderr).toMatch(WARNING);
      expect(result.stderr.match(/is invalid/g)).toHaveLength(1);
      expect(result.stdout).toContain('case-manifest');
    }
  });

  it('selects with the default for a field that is wrong, not with the wrong value, and keeps the valid fields', () => {
    const titles = ['Version bump missed the manifest', 'Version tag pushed before the manifest', 'Version file drifted from the manifest', 'Version of the lockfile and the manifest', 'Version skew between the app manifests', 'Version pinned in the manifest and the image', 'Version read from a stale manifest'];
    const root = tempLessonsRepo(Object.assign({}, ...titles.map((title, i) => lessonFile({ id: `case-version-${i}`, title, tags: ['version', 'manifest'], triggers: { paths: ['manifest.json'] } }))));
    const file = path.join(root, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(file, 'utf8')) as { preflight: Record<string, unknown> };
    expect(runCli(['index'], { cwd: root }).exitCode).toBe(0);
    const related = (): number => (JSON.parse(runCli(['preflight', 'version manifest', '--json'], { cwd: root }).stdout) as { related: unknown[] }).related.length;
    // Seven lessons name the task's two words, common to all of them: none applies, the default related_max (3) of them are listed.
    expect(related()).toBe(3);
    policy.preflight.related_max = 1;
    fs.writeFileSync(file, JSON.stringify(policy, null, 2));
    expect(related()).toBe(1);
    // -2 would list all but the last two (slice(0, -2): five); the warning says the default stands for it.
    policy.preflight.related_max = -2;
    fs.writeFileSync(file, JSON.stringify(policy, null, 2));
    expect(related()).toBe(3);
    const result = runCli(['preflight', 'version manifest'], { cwd: root });
    expect(result.stderr).toMatch(/preflight\.related_max: must be >= 0\): preflight uses the defaults for what it cannot read/);
    // A valid field beside the wrong one still holds: the seven lessons' trigger matches the call, hook_max caps how many apply.
    const applied = (): number => (JSON.parse(runCli(['preflight', '--path', 'manifest.json', '--json'], { cwd: root }).stdout) as { selected: unknown[] }).selected.length;
    expect(applied()).toBe(3);
    policy.preflight.hook_max = 1;
    fs.writeFileSync(file, JSON.stringify(policy, null, 2));
    expect(applied()).toBe(1);
  });

  it('says nothing about a valid policy', () => {
    const root = repoWithPolicy(() => undefined);
    for (const run of [1, 2]) expect(runCli(['preflight', 'bump the version'], { cwd: root }).stderr, `run ${run}`).toBe('');
  });
});
