import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessonFile } from '../helpers/lessons.js';
import { git, initGitRepo, runCli, tempLessonsRepo, writeFiles } from '../helpers/repo.js';
import { fakeReviewer } from '../helpers/reviewer.js';

function repo(review: Record<string, unknown>): string {
  const root = initGitRepo(
    tempLessonsRepo({
      ...lessonFile({ id: 'case-2026-05-12-version-bump', title: 'Version bump missed the marketplace manifest', severity: 'high', tags: ['release', 'versioning'] }),
      'package.json': '{\n  "version": "1.1.0"\n}\n',
    }),
  );
  const file = path.join(root, 'policy/workflow-policy.json');
  const policy = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
  policy.review = { ...policy.review, ...review };
  fs.writeFileSync(file, JSON.stringify(policy, null, 2));
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'initial');
  writeFiles(root, { 'package.json': '{\n  "version": "1.2.0",\n  "release": true\n}\n' });
  return root;
}

const NO_ACTIONS = { GITHUB_ACTIONS: '', GITHUB_BASE_REF: '' };

describe('lessons review (built CLI)', () => {
  it('prints findings as text and exits 0: advisory', () => {
    const root = repo({ command: fakeReviewer('good') });
    const result = runCli(['-C', root, 'review'], { env: NO_ACTIONS });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      [
        'reviewed 1 file (uncommitted changes) against lessons: case-2026-05-12-version-bump',
        'package.json:3: high [case-2026-05-12-version-bump] The version was bumped in package.json only.',
        '    evidence: +  "version": "1.2.0"',
        '    recommendation: Bump the version in every manifest in the same commit.',
        'summary: The change skips a checklist item.',
        '1 finding (advisory)',
        '',
      ].join('\n'),
    );
  });

  it('exits 1 when a finding has a severity in block_on, and marks it in --json', () => {
    const root = repo({ command: fakeReviewer('good'), block_on: ['high'] });
    const result = runCli(['-C', root, 'review', '--json'], { env: NO_ACTIONS });
    expect(result.exitCode).toBe(1);
    const data = JSON.parse(result.stdout) as { blocked: boolean; findings: { blocking: boolean; rule: string }[] };
    expect(data.blocked).toBe(true);
    expect(data.findings).toEqual([expect.objectContaining({ rule: 'case-2026-05-12-version-bump', blocking: true })]);
  });

  it('under GitHub Actions prints annotations as well', () => {
    const root = repo({ command: fakeReviewer('good') });
    const result = runCli(['-C', root, 'review'], { env: { GITHUB_ACTIONS: 'true', GITHUB_BASE_REF: '' } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe(
      '::warning file=package.json,line=3,title=lessons review%3A case-2026-05-12-version-bump (high)::The version was bumped in package.json only.%0AEvidence: +  "version": "1.2.0"%0AFix: Bump the version in every manifest in the same commit.',
    );
  });

  it('a missing reviewer is a finding that says what to install; the exit stays 0', () => {
    const root = repo({ command: ['lessons-no-such-reviewer', '{output}'] });
    const result = runCli(['-C', root, 'review'], { env: NO_ACTIONS });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('medium [reviewer-missing] the reviewer could not be started: `lessons-no-such-reviewer` was not found on PATH');
    expect(result.stdout).toContain('    fix: install `lessons-no-such-reviewer` or set review.command in policy/workflow-policy.json to a reviewer that exists');
  });

  it('an unknown --base is a usage error, exit 2, no stack trace', () => {
    const root = repo({ command: fakeReviewer('good') });
    const result = runCli(['-C', root, 'review', '--base', 'nope'], { env: NO_ACTIONS });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^lessons: unknown base `nope`: pass a branch, tag or commit/);
    expect(result.stderr).not.toContain('    at ');
  });

  it('an invalid review policy is a configuration error naming the field', () => {
    const root = repo({ command: [], block_on: ['urgent'] });
    const result = runCli(['-C', root, 'review'], { env: NO_ACTIONS });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('review.command');
    expect(result.stderr).toContain('review.block_on[0]');
  });
});

describe('lessons capture --from-error (built CLI)', () => {
  it('reads the log from stdin and writes a candidate case', () => {
    const root = repo({ command: fakeReviewer('draft') });
    const result = runCli(['-C', root, 'capture', '--from-error', '-'], { input: "ModuleNotFoundError: No module named 'peft'\n" });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^created lessons\/cases\/case-\d{4}-\d\d-\d\d-install-peft-before-using-lora-adapters\.md \(candidate, source: auto\)\n$/);
  });

  it('without --from-error says what to pass', () => {
    const root = repo({ command: fakeReviewer('draft') });
    const result = runCli(['-C', root, 'capture']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe('lessons: say what to capture: lessons capture <transcript|-> (lesson blocks in text), lessons capture --from-error <log|->, or lessons capture --from-success <log|->\n');
  });
});
