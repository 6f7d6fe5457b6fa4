import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MANIFEST_ID, hookRepo } from '../helpers/hook-repo.js';
import { BIN, runCli, tempDir } from '../helpers/repo.js';

function preToolUse(root: string, file: string): string {
  return JSON.stringify({ session_id: 'e2e', transcript_path: path.join(root, 't.jsonl'), cwd: root, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_use_id: 'toolu_1', tool_input: { file_path: path.join(root, file), old_string: 'a', new_string: 'b' } });
}

describe('lessons hook (built binary)', () => {
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

  it('loads no yargs, ajv, gray-matter or YAML parser on the PreToolUse path', async () => {
    const root = await hookRepo();
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'trace.mjs'), "export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write('LOAD ' + r.url + '\\n'); return r; }\n");
    fs.writeFileSync(path.join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${path.join(dir, 'trace.mjs')}`)});\n`);
    const result = spawnSync(process.execPath, ['--import', path.join(dir, 'register.mjs'), BIN, 'hook', 'claude', 'PreToolUse'], { cwd: root, input: preToolUse(root, 'package.json'), encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(MANIFEST_ID);
    const loaded = result.stderr.split('\n').filter((line) => line.startsWith('LOAD '));
    expect(loaded.some((line) => line.endsWith('/dist/fast/hook.js'))).toBe(true);
    expect(loaded.filter((line) => /node_modules|\/cli\/app\.js|\/src\/lesson\/(parse|load)\.js|\/schema\//.test(line))).toEqual([]);
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
