import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookRunRow } from '../../src/doctor/hook-run.js';
import { agentHookCommand } from '../../src/harness/hook-command.js';
import { CASE_ID, committedLessonsRepo, installBinWrapper, runLessons } from '../helpers/guard.js';

/** A PATH with git and sh but no `lessons`, no `npx` and no `codex`, as a harness may give it. */
const BARE_PATH = '/usr/bin:/bin';

interface Report {
  broken: boolean;
  checks: { name: string; status: string; message: string; fix?: string }[];
  hookRuns?: HookRunRow[];
}

/** A committed lessons repository with the binary in node_modules/.bin and every hook installed by the built CLI. */
async function installedRepo(): Promise<string> {
  const root = await committedLessonsRepo();
  installBinWrapper(root);
  expect(runLessons(['hooks', 'install', '--claude', '--codex', '--cursor', '--gemini'], { cwd: root }).exitCode).toBe(0);
  expect(runLessons(['hooks', 'install'], { cwd: root }).exitCode).toBe(0);
  return root;
}

function doctorJson(root: string): { exitCode: number; report: Report } {
  const result = runLessons(['doctor', '--run-hooks', '--json'], { cwd: root, env: { PATH: BARE_PATH } });
  return { exitCode: result.exitCode, report: JSON.parse(result.stdout) as Report };
}

/** Every file below `root` except git's objects and logs, with its size and modification time. */
function snapshot(root: string): string[] {
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !/^\.git\/(objects|logs)\//.test(file))
    .map((file) => {
      const stat = fs.lstatSync(path.join(root, file));
      return `${file} ${stat.size} ${stat.mtimeMs}`;
    })
    .sort();
}

function editSettings(root: string, file: string, edit: (hooks: Record<string, any>) => void): void {
  const settings = JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
  edit(settings.hooks);
  fs.writeFileSync(path.join(root, file), JSON.stringify(settings, null, 2));
}

describe('lessons doctor --run-hooks', () => {
  it('runs every installed hook as git and each harness would, in a copy: all answer, the sample lesson arrives, the repository is not written', async () => {
    const root = await installedRepo();
    // Files an hour old, so the file cache records none as racy (and rewrites nothing when they stop being so);
    // then a plain doctor, twice: its own checks write the caches, which is not the hook runs' doing.
    const hourAgo = Date.now() / 1000 - 3600;
    for (const dir of ['lessons', 'policy']) for (const file of fs.readdirSync(path.join(root, dir), { recursive: true })) fs.utimesSync(path.join(root, dir, String(file)), hourAgo, hourAgo);
    for (const _ of [1, 2]) expect(runLessons(['doctor'], { cwd: root, env: { PATH: BARE_PATH } }).exitCode).toBe(0);
    const before = snapshot(root);

    const { exitCode, report } = doctorJson(root);
    expect(exitCode).toBe(0);
    expect(report.broken).toBe(false);
    expect(report.hookRuns!.map((row) => [row.harness, row.event, row.exit, row.contract, row.lessons, row.status])).toEqual([
      ['git', 'pre-commit', 0, true, null, 'ok'],
      ['git', 'prepare-commit-msg', 0, true, null, 'ok'],
      ['git', 'commit-msg', 0, true, null, 'ok'],
      ['git', 'pre-push', 0, true, null, 'ok'],
      ['claude', 'SessionStart', 0, true, null, 'ok'],
      ['claude', 'UserPromptSubmit', 0, true, true, 'ok'],
      ['claude', 'PreToolUse', 0, true, null, 'ok'],
      ['claude', 'PostToolUse', 0, true, null, 'ok'],
      ['claude', 'PostToolUseFailure', 0, true, null, 'ok'],
      ['claude', 'Stop', 0, true, null, 'ok'],
      ['codex', 'SessionStart', 0, true, null, 'ok'],
      ['codex', 'UserPromptSubmit', 0, true, true, 'ok'],
      ['codex', 'PreToolUse', 0, true, null, 'ok'],
      ['codex', 'PostToolUse', 0, true, null, 'ok'],
      ['codex', 'Stop', 0, true, null, 'ok'],
      ['cursor', 'sessionStart', 0, true, null, 'ok'],
      ['cursor', 'beforeShellExecution', 0, true, true, 'ok'],
      ['cursor', 'afterAgentResponse', 0, true, null, 'ok'],
      ['gemini', 'SessionStart', 0, true, null, 'ok'],
      ['gemini', 'BeforeAgent', 0, true, true, 'ok'],
      ['gemini', 'AfterTool', 0, true, null, 'ok'],
      ['gemini', 'AfterAgent', 0, true, null, 'ok'],
    ]);
    expect(report.hookRuns!.find((row) => row.event === 'UserPromptSubmit')!.message).toMatch(new RegExp(`^answered in \\d+ ms with ${CASE_ID}$`));
    expect(report.checks.filter((item) => item.name.startsWith('hook-runs')).map((item) => [item.name, item.status])).toEqual([
      ['hook-runs:git', 'ok'],
      ['hook-runs:claude', 'ok'],
      ['hook-runs:codex', 'ok'],
      ['hook-runs:cursor', 'ok'],
      ['hook-runs:gemini', 'ok'],
    ]);
    // Receipts, sessions and the sample commit went to the copy.
    expect(snapshot(root)).toEqual(before);
    expect(fs.existsSync(path.join(root, '.lessons/sessions'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'lessons-doctor-sample.txt'))).toBe(false);

    const text = runLessons(['doctor', '--run-hooks'], { cwd: root, env: { PATH: BARE_PATH } });
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain('ok    hook-runs:claude: 6 hooks answered as the harness expects');
    expect(text.stdout).toMatch(/\n {2}harness {2}event +exit {2}ms +contract {2}lessons\n/);
    expect(text.stdout).toMatch(/\n {2}claude +UserPromptSubmit +0 +\d+ +ok +arrived\n/);
  });

  it('a hook that cannot spawn, prints invalid JSON, runs past its timeout or brings no lessons: each row says so, with the fix', async () => {
    const root = await installedRepo();
    editSettings(root, '.claude/settings.json', (hooks) => {
      hooks.UserPromptSubmit[0].hooks[0].command = '/nonexistent/bin/lessons hook claude UserPromptSubmit';
      hooks.Stop[0].hooks[0].command = `sleep 5; ${agentHookCommand('claude', 'Stop')}`;
      hooks.Stop[0].hooks[0].timeout = 1;
    });
    editSettings(root, '.codex/hooks.json', (hooks) => {
      hooks.UserPromptSubmit[0].hooks[0].command = `LESSONS_DISABLE=1 ${agentHookCommand('codex', 'UserPromptSubmit')}`;
    });
    fs.mkdirSync(path.join(root, '.cursor/hooks'));
    fs.writeFileSync(path.join(root, '.cursor/hooks/session.sh'), '#!/bin/sh\ncat >/dev/null\nprintf \'{"additional_context": "x",}\\n\'\n');
    editSettings(root, '.cursor/hooks.json', (hooks) => {
      hooks.sessionStart[0].command = 'sh .cursor/hooks/session.sh lessons hook cursor sessionStart';
    });
    fs.writeFileSync(path.join(root, '.git/hooks/pre-commit.lessons-previous'), '#!/bin/sh\necho "previous hook: no" >&2\nexit 1\n', { mode: 0o755 });

    const { exitCode, report } = doctorJson(root);
    expect(exitCode).toBe(1);
    const row = (harness: string, event: string) => report.hookRuns!.find((item) => item.harness === harness && item.event === event)!;

    expect(row('claude', 'UserPromptSubmit')).toMatchObject({ exit: 127, contract: false, lessons: false, status: 'fail', fix: "`/nonexistent/bin/lessons` is not on the harness's PATH: fix the command in .claude/settings.json, or run `lessons hooks install --claude`" });
    expect(row('claude', 'UserPromptSubmit').message).toMatch(/^cannot spawn \(.*\/nonexistent\/bin\/lessons: (not found|No such file or directory)\)$/);
    expect(row('claude', 'Stop')).toMatchObject({ exit: null, status: 'fail', message: 'no answer within 1 s (its timeout in .claude/settings.json): the hook is cancelled and its answer lost' });
    expect(row('claude', 'Stop').fix).toContain('raise `timeout` for Stop in .claude/settings.json');
    expect(row('claude', 'Stop').ms).toBeLessThan(4000);
    expect(row('claude', 'SessionStart').status).toBe('ok');

    expect(row('codex', 'UserPromptSubmit')).toMatchObject({ exit: 0, contract: true, lessons: false, status: 'warn' });
    expect(row('codex', 'UserPromptSubmit').message).toContain(`without ${CASE_ID}, which the sample task "Example lesson" should bring`);

    expect(row('cursor', 'sessionStart')).toMatchObject({ exit: 0, contract: false, status: 'fail', fix: 'fix the sessionStart command in .cursor/hooks.json (or run `lessons hooks install --cursor`)' });
    expect(row('cursor', 'sessionStart').message).toMatch(/^printed invalid JSON: .* at byte 27: "}\\n": Cursor needs one JSON object and uses nothing it printed$/);
    expect(row('cursor', 'beforeShellExecution')).toMatchObject({ status: 'ok', lessons: true });

    expect(row('git', 'pre-commit')).toMatchObject({ exit: 1, contract: false, status: 'fail', message: 'exits 1 on a sample change: the sample commit is blocked (previous hook: no)' });

    const checks = Object.fromEntries(report.checks.map((item) => [item.name, item]));
    expect(checks['hook-runs:claude']).toMatchObject({ status: 'fail' });
    expect(checks['hook-runs:claude']!.message).toMatch(/^UserPromptSubmit: cannot spawn .*; Stop: no answer within 1 s/);
    expect(checks['hook-runs:codex']!.status).toBe('warn');
    expect(checks['hook-runs:cursor']!.message).toMatch(/^sessionStart: printed invalid JSON/);
    expect(checks['hook-runs:git']!.status).toBe('fail');

    const text = runLessons(['doctor', '--run-hooks'], { cwd: root, env: { PATH: BARE_PATH } });
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toMatch(/\nFAIL  hook-runs:claude: UserPromptSubmit: cannot spawn .*\n {6}fix: `\/nonexistent\/bin\/lessons` is not on the harness's PATH/);
    expect(text.stdout).toMatch(/\n {2}codex +UserPromptSubmit +0 +\d+ +ok +MISSING\n/);
  });

  it('lessons not installed: the generated commands and an npx command cannot start, each with its fix', async () => {
    const root = await installedRepo();
    fs.rmSync(path.join(root, 'node_modules'), { recursive: true });
    editSettings(root, '.codex/hooks.json', (hooks) => {
      hooks.SessionStart[0].hooks[0].command = 'npx --no-install lessons hook codex SessionStart';
    });
    // Offline, so npx answers from its cache instead of asking the registry.
    const result = runLessons(['doctor', '--run-hooks', '--json'], { cwd: root, env: { PATH: BARE_PATH, npm_config_offline: 'true' } });
    expect(result.exitCode).toBe(1);
    const rows = (JSON.parse(result.stdout) as Report).hookRuns!;
    const npx = rows.find((row) => row.harness === 'codex' && row.event === 'SessionStart')!;
    expect(npx).toMatchObject({ status: 'fail', contract: false, fix: "`npx --no-install lessons` is not resolvable: run `npm install` (lessons must be in package.json's devDependencies)" });
    expect(npx.message).toMatch(/^cannot spawn \(/);
    const generated = rows.find((row) => row.harness === 'claude' && row.event === 'UserPromptSubmit')!;
    expect(generated).toMatchObject({ exit: 1, status: 'fail', lessons: false, message: "cannot find `lessons` in node_modules/.bin or on the harness's PATH", fix: expect.stringContaining('npm install -D') });
    expect(rows.filter((row) => row.harness !== 'git').every((row) => row.status === 'fail')).toBe(true);
  });

  it('run from a git hook (GIT_INDEX_FILE set): refuses, and writes nothing in the repository', async () => {
    const root = await installedRepo();
    const index = fs.readFileSync(path.join(root, '.git/index'));
    const result = runLessons(['doctor', '--run-hooks', '--json'], { cwd: root, env: { PATH: BARE_PATH, GIT_INDEX_FILE: path.join(root, '.git/index') } });
    expect(result.exitCode).toBe(1);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.hookRuns).toEqual([]);
    expect(report.checks.at(-1)).toMatchObject({ name: 'hook-runs', status: 'fail', message: expect.stringContaining('GIT_INDEX_FILE is set (run from a git hook?), so git would write in your repository') });
    expect(fs.readFileSync(path.join(root, '.git/index'))).toEqual(index);
  });

  it('without --run-hooks nothing is run, and the report says how to run them', async () => {
    const root = await installedRepo();
    const result = runLessons(['doctor', '--json'], { cwd: root, env: { PATH: BARE_PATH } });
    const report = JSON.parse(result.stdout) as Report;
    expect(report.hookRuns).toBeUndefined();
    expect(report.checks.at(-1)).toEqual({ name: 'hook-runs', status: 'skip', message: 'the hooks were not run', fix: 'run `lessons doctor --run-hooks` to run each installed hook with a sample event and see what git and the agent receive' });
  });
});
