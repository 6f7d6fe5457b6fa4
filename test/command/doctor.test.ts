import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { doctor } from '../../src/doctor/doctor.js';
import { installClaudeHooks } from '../../src/harness/claude/settings.js';
import { installHooks } from '../../src/githooks/install.js';
import { committedLessonsRepo, installBinWrapper } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { git, runCli, tempLessonsRepo, writeFiles } from '../helpers/repo.js';

/** A PATH with git and sh but no `lessons` and no `codex`. */
const BARE_PATH = '/usr/bin:/bin';

async function statuses(root: string): Promise<Record<string, string>> {
  const report = await doctor({ cwd: root, pathValue: BARE_PATH });
  return Object.fromEntries(report.checks.map((item) => [item.name, item.status]));
}

async function healthyRepo(): Promise<string> {
  const root = await committedLessonsRepo();
  installBinWrapper(root);
  await installHooks({ cwd: root });
  installClaudeHooks(root);
  return root;
}

describe('lessons doctor', () => {
  it('a set-up repository: nothing broken (the reviewer is off and only noted)', async () => {
    const root = await healthyRepo();
    const report = await doctor({ cwd: root, pathValue: BARE_PATH });
    expect(report.broken).toBe(false);
    expect(report.checks.map((item) => [item.name, item.status])).toEqual([
      ['git-hooks', 'ok'],
      ['agent-hooks:claude', 'ok'],
      ['index', 'ok'],
      ['policy', 'ok'],
      ['search-cache', 'ok'],
      ['exports', 'skip'],
      ['claude-rules', 'skip'],
      ['reviewer', 'skip'],
      ['workflow', 'skip'],
      ['hook-runs', 'skip'],
    ]);
    expect(report.checks[1]!.message).toBe(`.claude/settings.json: 6 lessons hooks, running ${path.join(root, 'node_modules/.bin/lessons')}`);
  });

  it('names what is broken and the command that fixes it, for each silent failure', async () => {
    const bare = await committedLessonsRepo();
    const none = await doctor({ cwd: bare, pathValue: BARE_PATH });
    expect(none.broken).toBe(true);
    expect(none.checks[0]).toMatchObject({ name: 'git-hooks', status: 'fail', fix: expect.stringContaining('lessons hooks install') });
    expect(none.checks[1]).toMatchObject({ name: 'agent-hooks', status: 'skip' });

    const root = await healthyRepo();
    fs.rmSync(path.join(root, 'node_modules'), { recursive: true });
    expect(await statuses(root)).toMatchObject({ 'git-hooks': 'fail', 'agent-hooks:claude': 'fail' });
    expect((await doctor({ cwd: root, pathValue: BARE_PATH })).checks[0]!.fix).toBe('install it with `npm install -D <git URL of lessons>#<tag or commit>` (or globally, `npm install -g "$(npm pack <git URL of lessons>#<tag or commit> | tail -n 1)"`)');
    installBinWrapper(root);

    // Settings written by an earlier version: a bare `lessons`, not on PATH.
    const settingsFile = path.join(root, '.claude/settings.json');
    const settings = fs.readFileSync(settingsFile, 'utf8');
    const bareSettings = JSON.parse(settings);
    for (const [event, groups] of Object.entries(bareSettings.hooks as Record<string, { hooks: { command: string }[] }[]>)) groups[0]!.hooks[0]!.command = `lessons hook claude ${event}`;
    fs.writeFileSync(settingsFile, JSON.stringify(bareSettings));
    const bareCheck = (await doctor({ cwd: root, pathValue: BARE_PATH })).checks[1]!;
    expect(bareCheck).toMatchObject({ status: 'fail', fix: expect.stringContaining('lessons hooks install --claude') });
    expect(bareCheck.message).toContain('exits 127');
    // Run through `npx lessons doctor`, PATH starts with node_modules/.bin; the harness's does not.
    const npxPath = `${path.join(root, 'node_modules/.bin')}:${BARE_PATH}`;
    expect((await doctor({ cwd: root, pathValue: npxPath })).checks[1]).toMatchObject({ status: 'fail', message: expect.stringContaining('exits 127') });
    fs.writeFileSync(settingsFile, '{"hooks": ');
    expect((await doctor({ cwd: root, pathValue: BARE_PATH })).checks[1]).toMatchObject({ status: 'fail', message: expect.stringContaining('.claude/settings.json is not valid JSON') });
    fs.writeFileSync(settingsFile, settings);

    const index = path.join(root, 'lessons/index.json');
    const indexText = fs.readFileSync(index, 'utf8');
    fs.writeFileSync(index, indexText.slice(0, 40));
    expect(await statuses(root)).toMatchObject({ index: 'fail', 'search-cache': 'fail' });
    expect((await doctor({ cwd: root, pathValue: BARE_PATH })).checks.find((item) => item.name === 'index')!.fix).toBe('run `lessons index` and commit it');
    fs.writeFileSync(index, indexText);

    const policyFile = path.join(root, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(policyFile, 'utf8'));
    fs.writeFileSync(policyFile, JSON.stringify({ ...policy, hooks: { critical_gate: 'sometimes' } }));
    const invalid = (await doctor({ cwd: root, pathValue: BARE_PATH })).checks.find((item) => item.name === 'policy')!;
    expect(invalid.status).toBe('fail');
    expect(invalid.message).toBe('policy/workflow-policy.json is invalid: hooks.critical_gate: must be one of: "off", "deny", "ask" fix the fields named above (schema: schemas/policy.schema.json); until then the hooks use the default policy');
    fs.writeFileSync(policyFile, JSON.stringify({ ...policy, review: { ...policy.review, enabled: true } }));
    expect((await doctor({ cwd: root, pathValue: BARE_PATH })).checks.find((item) => item.name === 'reviewer')).toMatchObject({ status: 'fail', fix: 'install `codex` or set review.command in the policy' });
    fs.writeFileSync(policyFile, JSON.stringify(policy));

    expect(runCli(['export', '--to', 'claude'], { cwd: root }).exitCode).toBe(0);
    expect(await statuses(root)).toMatchObject({ exports: 'ok' });
    writeFiles(root, { 'CLAUDE.md': fs.readFileSync(path.join(root, 'CLAUDE.md'), 'utf8').replace('Example lesson', 'Edited by hand') });
    expect((await doctor({ cwd: root, pathValue: BARE_PATH })).checks.find((item) => item.name === 'exports')).toMatchObject({ status: 'fail', fix: 'lessons export --to claude' });
  });

  it('husky: a hook in .husky that runs lessons counts; one that does not is named', async () => {
    const root = await committedLessonsRepo();
    installBinWrapper(root);
    writeFiles(root, { '.husky/_/pre-commit': '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n', '.husky/_/pre-push': '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n', '.husky/pre-commit': 'npx --no-install lessons guard --stage pre-commit\n', '.husky/pre-push': 'npm test\n' });
    fs.chmodSync(path.join(root, '.husky/_/pre-commit'), 0o755);
    fs.chmodSync(path.join(root, '.husky/_/pre-push'), 0o755);
    git(root, 'config', 'core.hooksPath', '.husky/_');
    expect((await doctor({ cwd: root, pathValue: BARE_PATH })).checks[0]).toMatchObject({
      name: 'git-hooks',
      status: 'warn',
      message: 'pre-commit runs lessons; prepare-commit-msg, commit-msg, pre-push do not',
    });
  });

  it('the command: exit 1 when something is broken, --json with every check', async () => {
    const root = await committedLessonsRepo();
    const text = runCli(['doctor'], { cwd: root, env: { PATH: BARE_PATH } });
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toContain('FAIL  git-hooks: no git hook in .git/hooks runs lessons: commits and pushes are not checked\n      fix: run `lessons hooks install`');
    expect(text.stdout).toMatch(/1 broken: fix it, then run `lessons doctor` again\n$/);
    const json = runCli(['doctor', '--json'], { cwd: root, env: { PATH: BARE_PATH } });
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ root, broken: true, checks: expect.arrayContaining([expect.objectContaining({ name: 'index', status: 'ok' })]) });
    installBinWrapper(root);
    await installHooks({ cwd: root });
    expect(runCli(['doctor'], { cwd: root, env: { PATH: BARE_PATH } })).toMatchObject({ exitCode: 0, stdout: expect.stringContaining('nothing is broken') });
  });

  it('an export an agent reads only in part: a warning naming what the tool cuts, with what to do', async () => {
    // A principle and 40 cases of about 1.1 KB each: an AGENTS.md section past Codex's 32 KiB.
    const items = (word: string): string => `## Situation\n\nIt went wrong.\n\n## Prevention Checklist\n\n${Array.from({ length: 10 }, (_, i) => `- [ ] Step ${i + 1} of the ${word} checklist: run the check, read its output, and fix what it reports.`).join('\n')}\n`;
    const files: Record<string, string> = {};
    for (let index = 10; index < 50; index++) Object.assign(files, lessonFile({ id: `case-2026-01-${index}-incident`, title: `Incident ${index}` }, items(`incident ${index}`)));
    const root = tempLessonsRepo(files);
    expect(runCli(['export', '--to', 'agents-md'], { cwd: root }).exitCode).toBe(0);
    const exports = (await doctor({ cwd: root, pathValue: BARE_PATH })).checks.find((item) => item.name === 'exports')!;
    expect(exports.status).toBe('warn');
    expect(exports.message).toMatch(/^agents-md current, but cut where agents read them: AGENTS\.md has \d+ bytes, and Codex reads only the first 32768 .*: it would cut, wholly or in part: case-2026-01-\d\d-incident/);
    expect(exports.fix).toContain('trigger paths');
  });

  it('a Claude Code rule whose paths match no file never loads: a warning names it; rules that load pass', async () => {
    const root = tempLessonsRepo({
      'src/app.ts': 'export {};\n',
      '.claude/rules/always.md': 'Loaded at every start.\n',
      '.claude/rules/app.md': '---\npaths:\n  - "src/**/*.ts"\n---\nFor the app.\n',
      '.claude/rules/nested/lessons-case-a.md': '---\npaths:\n  - "services/billing/**"\n  - "billing.yaml"\n---\nA lesson.\n',
      '.claude/rules/broken.md': '---\npaths: 3\n---\nBroken.\n',
    });
    const rules = (await doctor({ cwd: root, pathValue: BARE_PATH })).checks.find((item) => item.name === 'claude-rules')!;
    expect(rules).toMatchObject({ status: 'warn', fix: expect.stringContaining('lessons export --to claude-rules') });
    expect(rules.message).toBe(
      'Claude Code never loads 2 rules: .claude/rules/broken.md: `paths` is not a glob or a list of globs; .claude/rules/nested/lessons-case-a.md: no file matches its paths (services/billing/**, billing.yaml)',
    );
    writeFiles(root, { 'services/billing/api.ts': 'export {};\n', '.claude/rules/broken.md': '---\npaths: "src/app.ts"\n---\nFixed.\n' });
    expect((await doctor({ cwd: root, pathValue: BARE_PATH })).checks.find((item) => item.name === 'claude-rules')).toMatchObject({ status: 'ok' });
  });
});
