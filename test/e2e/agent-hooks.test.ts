import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MANIFEST_ID, hookRepo } from '../helpers/hook-repo.js';
import { BIN, runCli, tempDir, writeFiles } from '../helpers/repo.js';
import { lessonFile } from '../helpers/lessons.js';
import { writeIndex } from '../../src/store/index-write.js';

function preToolUse(root: string, file: string): string {
  return JSON.stringify({ session_id: 'e2e', transcript_path: path.join(root, 't.jsonl'), cwd: root, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_use_id: 'toolu_1', tool_input: { file_path: path.join(root, file), old_string: 'a', new_string: 'b' } });
}

describe('lessons hook (built binary)', () => {
  it('lists related lessons below the ones that apply, with the command that opens one where the agent runs it', async () => {
    const root = await hookRepo();
    writeFiles(root, lessonFile({ id: 'case-2026-03-03-tf-lock', title: 'Killed terraform apply left a lock', tags: ['infra'] }));
    await writeIndex({ cwd: root });
    const prompt = (text: string): string => JSON.stringify({ session_id: 'e2e', transcript_path: path.join(root, 't.jsonl'), cwd: root, hook_event_name: 'UserPromptSubmit', prompt: text });
    const task = 'Run terraform apply for the staging stack after the nightly backup finishes';
    const context = (): string => (JSON.parse(runCli(['hook', 'claude', 'UserPromptSubmit'], { cwd: root, input: prompt(task) }).stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(context()).toBe(
      // In rank order, however far below the first: the agent judges the titles.
      'Related lessons (titles only): open one that fits this task with `lessons show <id>` (or the MCP `show` tool); ignore the rest.\n- case-2026-03-03-tf-lock: Killed terraform apply left a lock (terraform, apply)\n- principle-keep-secrets: Keep secrets out of git (run)',
    );
    // A dev dependency is not on the agent's PATH: the heading names the command that resolves there.
    writeFiles(root, { 'package.json': JSON.stringify({ name: 'app', devDependencies: { lessons: 'git+https://example.invalid/lessons.git#v0.1.0' } }) });
    expect(context()).toContain('open one that fits this task with `npx --no-install lessons show <id>`');
  });


  it('answers Claude Code PreToolUse with additionalContext and exit 0', async () => {
    const root = await hookRepo();
    const result = runCli(['hook', 'claude', 'PreToolUse'], { cwd: root, input: preToolUse(root, 'package.json') });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const answer = JSON.parse(result.stdout);
    expect(Object.keys(answer)).toEqual(['hookSpecificOutput']);
    expect(answer.hookSpecificOutput.hookEventName).toBe('PreToolUse');
    expect(answer.hookSpecificOutput.additionalContext).toContain(MANIFEST_ID);
    expect(answer.hookSpecificOutput.permissionDecision).toBeUndefined();
  });

  it('-C names the repository when the input has no cwd', async () => {
    const root = await hookRepo();
    const input = JSON.stringify({ session_id: 'e2e', hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: 'package.json' } });
    const result = runCli(['-C', root, 'hook', 'claude', 'PreToolUse'], { cwd: tempDir(), input });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(MANIFEST_ID);
  });

  it('takes the event from hook_event_name when the command line names none', async () => {
    const root = await hookRepo();
    const result = runCli(['hook', 'claude'], { cwd: root, input: preToolUse(root, 'package.json') });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(MANIFEST_ID);
  });

  it('exits 0 with the neutral answer on malformed or empty stdin, outside a repository, when disabled, and for an unknown harness', async () => {
    const root = await hookRepo();
    for (const input of ['{"tool_name":', '', 'null', '"text"']) {
      expect(runCli(['hook', 'claude', 'PreToolUse'], { cwd: root, input })).toEqual({ stdout: '', stderr: '', exitCode: 0 });
      expect(runCli(['hook', 'cursor', 'beforeShellExecution'], { cwd: root, input })).toEqual({ stdout: '{"permission":"allow"}\n', stderr: '', exitCode: 0 });
    }
    expect(runCli(['hook', 'claude', 'PreToolUse'], { cwd: tempDir(), input: preToolUse(tempDir(), 'package.json') })).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(runCli(['hook', 'claude', 'PreToolUse'], { cwd: root, input: preToolUse(root, 'package.json'), env: { LESSONS_DISABLE: '1' } })).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    const unknown = runCli(['hook', 'vim', 'PreToolUse'], { cwd: root, input: '{}' });
    expect(unknown.exitCode).toBe(0);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('unknown harness `vim`');
  });

  it('loads no yargs, ajv, gray-matter or YAML parser on the PreToolUse path: one bundle, compiled from its code cache from the second run', async () => {
    const root = await hookRepo();
    const dir = tempDir();
    // Every module loaded, by Node's ES module loader or by require().
    fs.writeFileSync(path.join(dir, 'trace.mjs'), "export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write('LOAD ' + r.url + '\\n'); return r; }\n");
    fs.writeFileSync(path.join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${path.join(dir, 'trace.mjs')}`)});\n`);
    fs.writeFileSync(path.join(dir, 'require.cjs'), "const M = require('node:module'); const load = M._load; M._load = function (request, ...rest) { process.stderr.write('LOAD ' + request + '\\n'); return load.call(this, request, ...rest); };\n");
    const cache = path.join(root, '.lessons/cache/code/hook.bin');
    const written: bigint[] = [];
    // The first run builds the search cache: one-off code, so it leaves no code cache; the next leaves one, the third uses it.
    for (const run of ['first', 'second', 'third']) {
      const result = spawnSync(process.execPath, ['--import', path.join(dir, 'register.mjs'), '--require', path.join(dir, 'require.cjs'), BIN, 'hook', 'claude', 'PreToolUse'], { cwd: root, input: preToolUse(root, 'package.json'), encoding: 'utf8' });
      expect(result.status).toBe(0);
      expect(result.stdout).toContain(MANIFEST_ID);
      const loaded = result.stderr.split('\n').filter((line) => line.startsWith('LOAD '));
      expect(loaded.filter((line) => /node_modules|yargs|ajv|gray-matter|js-yaml|\/cli\/app\.js|\/src\/|\/schema\//.test(line)), run).toEqual([]);
      if (run === 'first') {
        expect(fs.existsSync(cache)).toBe(false);
        continue;
      }
      // The second run compiles the bundle and leaves its code cache; the third uses it (V8 accepts it) and leaves it as it was.
      written.push(fs.statSync(cache, { bigint: true }).mtimeNs);
    }
    expect(written[1]).toBe(written[0]);
  });

  it('reads its input from a pipe as from a socket, a large one whole', async () => {
    const root = await hookRepo();
    const input = preToolUse(root, 'package.json');
    // A pipe (a shell, Codex), where a harness written in Node passes a socket; padded past a pipe's buffer.
    const padded = `${input.slice(0, -1)},"padding":"${'x'.repeat(200_000)}"}`;
    for (const text of [input, padded]) {
      const file = path.join(tempDir(), 'input.json');
      fs.writeFileSync(file, text);
      const result = spawnSync('bash', ['-c', `cat "${file}" | "${process.execPath}" "${BIN}" hook claude PreToolUse`], { cwd: root, encoding: 'utf8' });
      expect(result.status).toBe(0);
      expect(JSON.parse(result.stdout).hookSpecificOutput.additionalContext).toContain(MANIFEST_ID);
    }
  });

  it('keeps its own time limit on a pipe that is never closed: the neutral answer and exit 0', async () => {
    const root = await hookRepo();
    const started = Date.now();
    const script = `"${process.execPath}" "${BIN}" hook cursor beforeShellExecution --timeout-ms 300 < <(printf '{"command": "npm pub'; exec sleep 20 2>/dev/null)`;
    const result = spawnSync('bash', ['-c', script], { cwd: root, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('{"permission":"allow"}\n');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('keeps its own time limit: a stdin that never closes still gets the neutral answer and exit 0', async () => {
    const root = await hookRepo();
    const child = spawn(process.execPath, [BIN, 'hook', 'cursor', 'beforeShellExecution', '--timeout-ms', '300'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.write('{"command": "npm pub');
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdin.destroy();
    expect(code).toBe(0);
    expect(stdout).toBe('{"permission":"allow"}\n');
  });
});

describe('red -> green through the built binary', () => {
  it('a Bash command that failed, then one of its kind that passed: Stop drafts one candidate case', async () => {
    const root = await hookRepo();
    const common = { session_id: 'e2e-rg', transcript_path: path.join(root, 't.jsonl'), cwd: root, permission_mode: 'acceptEdits' };
    const run = (event: string, input: Record<string, unknown>) => runCli(['hook', 'claude', event], { cwd: root, input: JSON.stringify({ ...common, hook_event_name: event, ...input }) });
    const failed = run('PostToolUseFailure', { tool_name: 'Bash', tool_input: { command: 'pytest -q tests/test_api.py' }, tool_use_id: 'toolu_1', error: 'Exit code 1\nE   KeyError: user_id\n1 failed, 9 passed in 0.2s', is_interrupt: false });
    expect(failed).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(run('PostToolUse', { tool_name: 'Write', tool_input: { file_path: path.join(root, 'api/users.py'), content: 'x' }, tool_response: { type: 'update' }, tool_use_id: 'toolu_2' }).exitCode).toBe(0);
    expect(run('PostToolUse', { tool_name: 'Bash', tool_input: { command: 'python -m pytest -q' }, tool_response: { stdout: '10 passed in 0.2s', stderr: '', interrupted: false }, tool_use_id: 'toolu_3' }).stdout).toBe('');
    const stop = run('Stop', { stop_hook_active: false });
    expect(stop.exitCode).toBe(0);
    const note = (JSON.parse(stop.stdout) as { systemMessage: string }).systemMessage;
    expect(note).toMatch(/^lessons: `pytest` failed, then `python -m pytest -q` passed: drafted lessons\/cases\/case-\d{4}-\d\d-\d\d-pytest-failed-1-failed-9-passed-in-0-2s\.md \(candidate;/);
    const file = path.join(root, note.split('drafted ')[1]!.split(' ')[0]!);
    expect(fs.readFileSync(file, 'utf8')).toContain('Changed `api/users.py`; then `python -m pytest -q` passed.');
    // The draft lints clean (the fixture's pattern and principle lack evidence, which lint reports apart).
    const lint = runCli(['lint'], { cwd: root });
    expect(lint.stdout + lint.stderr).not.toContain(path.relative(root, file));
    expect(run('Stop', { stop_hook_active: false }).stdout).toBe('');
  });
});

describe('corrections, the review backlog and projects through the built binary', () => {
  it('UserPromptSubmit asks for a [LESSON] block on a correction; SessionStart counts the candidates; PreToolUse keeps to the project', async () => {
    const root = await hookRepo();
    const policyFile = path.join(root, 'policy/workflow-policy.json');
    fs.writeFileSync(policyFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(policyFile, 'utf8')), projects: { api: ['services/api/**'], web: ['apps/web/**'] } }));
    fs.writeFileSync(
      path.join(root, 'lessons/cases/case-2026-05-01-web-only.md'),
      '---\nid: case-2026-05-01-web-only\ntitle: Web manifest drifted\nlevel: case\nstatus: candidate\nseverity: high\nproject: web\ntriggers:\n  paths: ["**/package.json"]\n---\n\n## Prevention Checklist\n\n- [ ] Bump the web manifest too.\n',
    );
    expect(runCli(['index'], { cwd: root }).exitCode).toBe(0);
    const common = { session_id: 'e2e-learn', transcript_path: path.join(root, 't.jsonl'), cwd: root, permission_mode: 'default' };
    const context = (event: string, input: Record<string, unknown>): string => {
      const result = runCli(['hook', 'claude', event], { cwd: root, input: JSON.stringify({ ...common, hook_event_name: event, ...input }) });
      expect(result.exitCode).toBe(0);
      return result.stdout === '' ? '' : (JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    };
    expect(context('SessionStart', { source: 'startup' }).split('\n').at(-1)).toBe('1 candidate lesson waits for review: lessons list --status candidate');
    const prompt = context('UserPromptSubmit', { prompt: 'the version bump is still broken' });
    expect(prompt).toContain('this prompt reads as a correction of a repeated mistake ("still broken")');
    expect(prompt).toContain(`It may be the existing lesson ${MANIFEST_ID}`);
    expect(context('UserPromptSubmit', { prompt: 'check the version against the tag' })).not.toContain('correction');
    const edit = (file: string) => context('PreToolUse', { tool_name: 'Edit', tool_input: { file_path: path.join(root, file) } });
    expect(edit('services/api/package.json')).not.toContain('case-2026-05-01-web-only');
    expect(edit('apps/web/package.json')).toContain('case-2026-05-01-web-only');
  });
});

describe('lessons hooks install --claude|--codex|--cursor (built binary)', () => {
  it('merges the agent hook entries into existing settings, idempotently, and keeps what was there', async () => {
    const root = await hookRepo();
    fs.mkdirSync(path.join(root, '.claude'));
    fs.writeFileSync(path.join(root, '.claude/settings.json'), JSON.stringify({ model: 'x', permissions: { allow: ['Bash(ls)'] } }));
    const first = runCli(['hooks', 'install', '--claude', '--cursor'], { cwd: root });
    expect(first).toMatchObject({ exitCode: 0, stdout: '.claude/settings.json: lessons hooks written\n.cursor/hooks.json: lessons hooks written\n' });
    const settings = JSON.parse(fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8'));
    expect(settings).toMatchObject({ model: 'x', permissions: { allow: ['Bash(ls)'] } });
    expect(Object.keys(settings.hooks).sort()).toEqual(['PostToolUse', 'PostToolUseFailure', 'PreToolUse', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    expect(runCli(['hooks', 'install', '--claude'], { cwd: root }).stdout).toBe('.claude/settings.json: already has the lessons hooks\n');
    expect(fs.existsSync(path.join(root, '.git/hooks/pre-commit'))).toBe(false);
  });

  it('settings from an earlier install gain the PostToolUse events; the own PostToolUse hook of the user stays', async () => {
    const root = await hookRepo();
    const earlier = (event: string) => ({ hooks: [{ type: 'command', command: `lessons hook claude ${event}` }] });
    const prettier = { matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'npx prettier --write "$CLAUDE_FILE"' }] };
    fs.mkdirSync(path.join(root, '.claude'));
    fs.writeFileSync(path.join(root, '.claude/settings.json'), JSON.stringify({ hooks: { SessionStart: [earlier('SessionStart')], UserPromptSubmit: [earlier('UserPromptSubmit')], PreToolUse: [{ matcher: 'Bash|Edit|MultiEdit|Write|NotebookEdit', ...earlier('PreToolUse') }], Stop: [earlier('Stop')], PostToolUse: [prettier] } }));
    expect(runCli(['hooks', 'install', '--claude'], { cwd: root }).stdout).toBe('.claude/settings.json: lessons hooks written\n');
    const hooks = JSON.parse(fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8')).hooks;
    expect(hooks.PostToolUse[0]).toEqual(prettier);
    expect(hooks.PostToolUse[1].matcher).toBe('Bash|Edit|MultiEdit|Write|NotebookEdit');
    expect(hooks.PostToolUse[1].hooks[0].command).toContain('hook claude PostToolUse');
    expect(hooks.PostToolUseFailure).toEqual([{ matcher: 'Bash', hooks: [expect.objectContaining({ command: expect.stringContaining('hook claude PostToolUseFailure') })] }]);
    expect(hooks.Stop[0].hooks).toHaveLength(1);
    expect(runCli(['hooks', 'install', '--claude'], { cwd: root }).stdout).toBe('.claude/settings.json: already has the lessons hooks\n');
  });

  it('hooks uninstall --claude --cursor removes only the lessons entries', async () => {
    const root = await hookRepo();
    fs.mkdirSync(path.join(root, '.claude'));
    fs.writeFileSync(path.join(root, '.claude/settings.json'), JSON.stringify({ model: 'x', hooks: { Stop: [{ hooks: [{ type: 'command', command: './notify.sh' }] }] } }));
    expect(runCli(['hooks', 'install', '--claude', '--cursor'], { cwd: root }).exitCode).toBe(0);
    const removed = runCli(['hooks', 'uninstall', '--claude', '--cursor'], { cwd: root });
    expect(removed).toMatchObject({ exitCode: 0, stdout: '.claude/settings.json: lessons hooks removed\n.cursor/hooks.json: lessons hooks removed\n' });
    expect(JSON.parse(fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8'))).toEqual({ model: 'x', hooks: { Stop: [{ hooks: [{ type: 'command', command: './notify.sh' }] }] } });
    expect(runCli(['hooks', 'uninstall', '--codex'], { cwd: root }).stdout).toBe('.codex/hooks.json: has no lessons hooks\n');
  });

  it('refuses a harness flag on another action', async () => {
    const root = await hookRepo();
    const result = runCli(['hooks', 'status', '--claude'], { cwd: root });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--claude goes with `lessons hooks install`');
  });
});
