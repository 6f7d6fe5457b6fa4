import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { NOT_FOUND_MESSAGE, agentHookCommand } from '../../src/harness/hook-command.js';
import { installClaudeHooks, uninstallClaudeStyleHooks } from '../../src/harness/claude/settings.js';
import { uninstallCursorHooks } from '../../src/harness/cursor/settings.js';
import { tempDir, writeFiles } from '../helpers/repo.js';

const handler = (event: string) => ({ type: 'command', command: agentHookCommand('claude', event), timeout: 10 });

describe('installClaudeHooks', () => {
  it('writes the six hook entries into a new .claude/settings.json', () => {
    const root = tempDir();
    expect(installClaudeHooks(root)).toEqual({ path: '.claude/settings.json', changed: true });
    expect(JSON.parse(fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8'))).toEqual({
      hooks: {
        SessionStart: [{ hooks: [handler('SessionStart')] }],
        UserPromptSubmit: [{ hooks: [handler('UserPromptSubmit')] }],
        PreToolUse: [{ matcher: 'Bash|Edit|MultiEdit|Write|NotebookEdit', hooks: [handler('PreToolUse')] }],
        PostToolUse: [{ matcher: 'Bash|Edit|MultiEdit|Write|NotebookEdit', hooks: [handler('PostToolUse')] }],
        PostToolUseFailure: [{ matcher: 'Bash', hooks: [handler('PostToolUseFailure')] }],
        Stop: [{ hooks: [handler('Stop')] }],
      },
    });
  });

  it('merges into existing settings without touching other keys or hooks, and a second run changes nothing', () => {
    const root = tempDir();
    const existing = {
      permissions: { allow: ['Bash(npm test)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] }],
        PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'prettier --write' }] }],
      },
    };
    writeFiles(root, { '.claude/settings.json': JSON.stringify(existing) });
    expect(installClaudeHooks(root).changed).toBe(true);
    const first = fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8');
    const settings = JSON.parse(first);
    expect(settings.permissions).toEqual(existing.permissions);
    // The user's PostToolUse hook stays, first; ours (the red -> green record) comes after it.
    expect(settings.hooks.PostToolUse).toEqual([existing.hooks.PostToolUse[0], { matcher: 'Bash|Edit|MultiEdit|Write|NotebookEdit', hooks: [handler('PostToolUse')] }]);
    expect(settings.hooks.PreToolUse).toEqual([existing.hooks.PreToolUse[0], { matcher: 'Bash|Edit|MultiEdit|Write|NotebookEdit', hooks: [handler('PreToolUse')] }]);
    expect(installClaudeHooks(root)).toEqual({ path: '.claude/settings.json', changed: false });
    expect(fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8')).toBe(first);
  });

  it('updates its own entry in place when the command changes', () => {
    const root = tempDir();
    installClaudeHooks(root);
    installClaudeHooks(root, { command: 'npx --no-install lessons' });
    const settings = JSON.parse(fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8'));
    expect(settings.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: 'npx --no-install lessons hook claude Stop', timeout: 10 }] }]);
  });

  it('keeps a command the user edited, and rewrites the bare command earlier versions wrote', () => {
    const root = tempDir();
    installClaudeHooks(root);
    const file = path.join(root, '.claude/settings.json');
    const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    settings.hooks.Stop[0].hooks[0].command = 'pnpm exec lessons hook claude Stop';
    settings.hooks.SessionStart[0].hooks[0].command = 'lessons hook claude SessionStart';
    fs.writeFileSync(file, JSON.stringify(settings));
    expect(installClaudeHooks(root).changed).toBe(true);
    const after = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(after.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: 'pnpm exec lessons hook claude Stop', timeout: 10 }] }]);
    expect(after.hooks.SessionStart).toEqual([{ hooks: [handler('SessionStart')] }]);
    expect(installClaudeHooks(root).changed).toBe(false);
  });

  it('uninstall removes only its own handlers, groups and events', () => {
    const root = tempDir();
    const mine = { type: 'command', command: './guard.sh' };
    writeFiles(root, { '.claude/settings.json': JSON.stringify({ model: 'x', hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [mine] }] } }) });
    installClaudeHooks(root);
    const file = path.join(root, '.claude/settings.json');
    const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    settings.hooks.Stop[0].hooks.push({ type: 'command', command: './notify.sh' });
    fs.writeFileSync(file, JSON.stringify(settings));
    expect(uninstallClaudeStyleHooks(root, 'claude')).toEqual({ path: '.claude/settings.json', changed: true });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      model: 'x',
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [mine] }], Stop: [{ hooks: [{ type: 'command', command: './notify.sh' }] }] },
    });
    expect(uninstallClaudeStyleHooks(root, 'claude').changed).toBe(false);
    expect(uninstallClaudeStyleHooks(root, 'codex')).toEqual({ path: '.codex/hooks.json', changed: false });
    expect(fs.existsSync(path.join(root, '.codex/hooks.json'))).toBe(false);
    expect(uninstallCursorHooks(root).changed).toBe(false);
  });

  it('the hook command runs node_modules/.bin/lessons of the project first, then lessons on PATH, and says on stderr when neither exists', () => {
    const project = tempDir();
    const elsewhere = tempDir();
    const fake = (dir: string, name: string) => {
      writeFiles(dir, { lessons: `#!/bin/sh\necho "${name} $*"\n` });
      fs.chmodSync(path.join(dir, 'lessons'), 0o755);
    };
    const run = (env: Record<string, string>) =>
      spawnSync('/bin/sh', ['-c', agentHookCommand('claude', 'PreToolUse')], { cwd: tempDir(), encoding: 'utf8', env: { PATH: '/usr/bin:/bin', ...env } });
    const none = run({ CLAUDE_PROJECT_DIR: project });
    expect(none.status).toBe(1);
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe(`${NOT_FOUND_MESSAGE}\n`);
    fake(elsewhere, 'global');
    expect(run({ CLAUDE_PROJECT_DIR: project, PATH: `${elsewhere}:/usr/bin:/bin` }).stdout).toBe('global hook claude PreToolUse\n');
    fake(path.join(project, 'node_modules/.bin'), 'local');
    expect(run({ CLAUDE_PROJECT_DIR: project, PATH: `${elsewhere}:/usr/bin:/bin` }).stdout).toBe('local hook claude PreToolUse\n');
  });

  it('refuses a settings file that is not valid JSON and leaves it as it was', () => {
    const root = tempDir();
    writeFiles(root, { '.claude/settings.json': '{ "hooks": { // a comment\n } }' });
    expect(() => installClaudeHooks(root)).toThrow(/\.claude\/settings\.json is not valid JSON .*nothing was written/);
    expect(fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8')).toBe('{ "hooks": { // a comment\n } }');
    writeFiles(root, { '.claude/settings.json': '{"hooks": []}' });
    expect(() => installClaudeHooks(root)).toThrow(/`hooks` is not an object/);
  });
});

describe('installCodexHooks and installCursorHooks', () => {
  it('Codex: .codex/hooks.json in Claude Code format, PreToolUse and PostToolUse on Bash and apply_patch (no failure event), idempotent', async () => {
    const { installCodexHooks } = await import('../../src/harness/codex/settings.js');
    const root = tempDir();
    expect(installCodexHooks(root)).toEqual({ path: '.codex/hooks.json', changed: true });
    const config = JSON.parse(fs.readFileSync(path.join(root, '.codex/hooks.json'), 'utf8'));
    expect(config.hooks.PreToolUse).toEqual([{ matcher: 'Bash|apply_patch', hooks: [{ type: 'command', command: agentHookCommand('codex', 'PreToolUse'), timeout: 10 }] }]);
    expect(config.hooks.PostToolUse).toEqual([{ matcher: 'Bash|apply_patch', hooks: [{ type: 'command', command: agentHookCommand('codex', 'PostToolUse'), timeout: 10 }] }]);
    expect(Object.keys(config.hooks)).toEqual(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop']);
    expect(config.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: agentHookCommand('codex', 'Stop'), timeout: 10 }] }]);
    expect(config.hooks.Stop[0].hooks[0].command).toContain('git rev-parse --show-toplevel');
    expect(config.hooks.Stop[0].hooks[0].command).not.toContain('CLAUDE_PROJECT_DIR');
    expect(installCodexHooks(root).changed).toBe(false);
  });

  it('Cursor: .cursor/hooks.json version 1, merged with the hooks already there, idempotent', async () => {
    const { installCursorHooks } = await import('../../src/harness/cursor/settings.js');
    const root = tempDir();
    writeFiles(root, { '.cursor/hooks.json': JSON.stringify({ version: 1, hooks: { afterFileEdit: [{ command: './format.sh' }], beforeShellExecution: [{ command: './audit.sh' }] } }) });
    expect(installCursorHooks(root)).toEqual({ path: '.cursor/hooks.json', changed: true });
    const config = JSON.parse(fs.readFileSync(path.join(root, '.cursor/hooks.json'), 'utf8'));
    expect(config).toEqual({
      version: 1,
      hooks: {
        afterFileEdit: [{ command: './format.sh' }],
        beforeShellExecution: [{ command: './audit.sh' }, { command: agentHookCommand('cursor', 'beforeShellExecution') }],
        sessionStart: [{ command: agentHookCommand('cursor', 'sessionStart') }],
        afterAgentResponse: [{ command: agentHookCommand('cursor', 'afterAgentResponse') }],
      },
    });
    expect(installCursorHooks(root).changed).toBe(false);
    expect(uninstallCursorHooks(root).changed).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(root, '.cursor/hooks.json'), 'utf8'))).toEqual({
      version: 1,
      hooks: { afterFileEdit: [{ command: './format.sh' }], beforeShellExecution: [{ command: './audit.sh' }] },
    });
    // A Claude entry is not mistaken for a Cursor one.
    expect(JSON.stringify(config)).not.toContain('hook claude');
  });
});
