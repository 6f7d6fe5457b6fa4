import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installClaudeHooks } from '../../src/agent-settings/claude.js';
import { tempDir, writeFiles } from '../helpers/repo.js';

const handler = (event: string) => ({ type: 'command', command: `lessons hook claude ${event}`, timeout: 10 });

describe('installClaudeHooks', () => {
  it('writes the four hook entries into a new .claude/settings.json', () => {
    const root = tempDir();
    expect(installClaudeHooks(root)).toEqual({ path: '.claude/settings.json', changed: true });
    expect(JSON.parse(fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8'))).toEqual({
      hooks: {
        SessionStart: [{ hooks: [handler('SessionStart')] }],
        UserPromptSubmit: [{ hooks: [handler('UserPromptSubmit')] }],
        PreToolUse: [{ matcher: 'Bash|Edit|MultiEdit|Write|NotebookEdit', hooks: [handler('PreToolUse')] }],
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
    expect(settings.hooks.PostToolUse).toEqual(existing.hooks.PostToolUse);
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
  it('Codex: .codex/hooks.json in Claude Code format, PreToolUse on Bash and apply_patch, idempotent', async () => {
    const { installCodexHooks } = await import('../../src/agent-settings/claude.js');
    const root = tempDir();
    expect(installCodexHooks(root)).toEqual({ path: '.codex/hooks.json', changed: true });
    const config = JSON.parse(fs.readFileSync(path.join(root, '.codex/hooks.json'), 'utf8'));
    expect(config.hooks.PreToolUse).toEqual([{ matcher: 'Bash|apply_patch', hooks: [{ type: 'command', command: 'lessons hook codex PreToolUse', timeout: 10 }] }]);
    expect(config.hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: 'lessons hook codex Stop', timeout: 10 }] }]);
    expect(installCodexHooks(root).changed).toBe(false);
  });

  it('Cursor: .cursor/hooks.json version 1, merged with the hooks already there, idempotent', async () => {
    const { installCursorHooks } = await import('../../src/agent-settings/cursor.js');
    const root = tempDir();
    writeFiles(root, { '.cursor/hooks.json': JSON.stringify({ version: 1, hooks: { afterFileEdit: [{ command: './format.sh' }], beforeShellExecution: [{ command: './audit.sh' }] } }) });
    expect(installCursorHooks(root)).toEqual({ path: '.cursor/hooks.json', changed: true });
    const config = JSON.parse(fs.readFileSync(path.join(root, '.cursor/hooks.json'), 'utf8'));
    expect(config).toEqual({
      version: 1,
      hooks: {
        afterFileEdit: [{ command: './format.sh' }],
        beforeShellExecution: [{ command: './audit.sh' }, { command: 'lessons hook cursor beforeShellExecution' }],
        sessionStart: [{ command: 'lessons hook cursor sessionStart' }],
        afterAgentResponse: [{ command: 'lessons hook cursor afterAgentResponse' }],
      },
    });
    expect(installCursorHooks(root).changed).toBe(false);
    // A Claude entry is not mistaken for a Cursor one.
    expect(JSON.stringify(config)).not.toContain('hook claude');
  });
});
