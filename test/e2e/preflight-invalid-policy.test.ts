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

  it('says nothing about a valid policy', () => {
    const root = repoWithPolicy(() => undefined);
    for (const run of [1, 2]) expect(runCli(['preflight', 'bump the version'], { cwd: root }).stderr, `run ${run}`).toBe('');
  });
});
