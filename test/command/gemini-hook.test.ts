/**
 * The Gemini CLI hook and its settings, against the payloads Gemini CLI 0.61.0 sent to a hook
 * (recorded from `gemini -p` with a hook that saved its stdin; only the paths are this test's).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSession } from '../../src/agent/session.js';
import { agentHookCommand } from '../../src/harness/hook-command.js';
import { claudeOutcome } from '../../src/harness/gemini/hook.js';
import { installGeminiHooks, uninstallGeminiHooks } from '../../src/harness/gemini/settings.js';
import { runHook } from '../../src/harness/run.js';
import { FORCE_PUSH_ID, MANIFEST_ID, SECRETS_ID, hookRepo } from '../helpers/hook-repo.js';
import { runCli, tempDir, writeFiles } from '../helpers/repo.js';

const NOW = new Date('2026-11-21T09:30:00Z');
const SESSION = '354d5157-1fe1-4450-937c-1d4a6c97ec49';

/** The fields every recorded payload carries, for a repository at `root`. */
function common(root: string, event: string): Record<string, unknown> {
  return { session_id: SESSION, transcript_path: path.join(root, `.gemini-home/chats/session-${SESSION}.jsonl`), cwd: root, hook_event_name: event, timestamp: '2026-12-06T02:38:10.067Z' };
}

const recorded = {
  SessionStart: (root: string) => ({ ...common(root, 'SessionStart'), source: 'startup' }),
  BeforeAgent: (root: string, prompt: string) => ({ ...common(root, 'BeforeAgent'), prompt }),
  AfterTool: (root: string, toolName: string, toolInput: Record<string, unknown>) => ({
    ...common(root, 'AfterTool'),
    tool_name: toolName,
    tool_input: toolInput,
    tool_response: { llmContent: '<untrusted_context>\nOutput: hi\nProcess Group PGID: 27995\n</untrusted_context>', returnDisplay: 'hi' },
  }),
  AfterAgent: (root: string, response: string) => ({ ...common(root, 'AfterAgent'), prompt: 'say hi', prompt_response: response, stop_hook_active: false }),
};

/** `lessons hook gemini <event>` with the payload on stdin. */
function hook(root: string, event: string, input: unknown, env: Record<string, string> = {}): Promise<string> {
  return runHook({ harness: 'gemini', event, stdin: typeof input === 'string' ? input : JSON.stringify(input), cwd: root, env, now: NOW });
}

function context(event: string, text: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } })}\n`;
}

const MANIFEST_BLOCK = `- [high] ${MANIFEST_ID}: Version bump missed the manifest (lessons/cases/${MANIFEST_ID}.md)`;
const MANIFEST_ITEMS = '  - [ ] Every manifest carries the new version in the bump commit.\n  - [ ] CI compares each manifest version with the tag.';

describe('Gemini CLI hook', () => {
  it('SessionStart answers the session-start lessons as hookSpecificOutput.additionalContext and records them as shown', async () => {
    const root = await hookRepo();
    const out = await hook(root, 'SessionStart', recorded.SessionStart(root));
    const answer = JSON.parse(out) as { hookSpecificOutput: Record<string, string> };
    expect(Object.keys(answer)).toEqual(['hookSpecificOutput']);
    expect(answer.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(answer.hookSpecificOutput.additionalContext).toContain(`- [critical] ${FORCE_PUSH_ID}: Never force push the main branch`);
    expect(readSession(root, SESSION).shown).toEqual([FORCE_PUSH_ID, SECRETS_ID]);
  });

  it('BeforeAgent answers the lessons for the prompt, read without the <hook_context> block SessionStart put in it', async () => {
    const root = await hookRepo();
    const out = await hook(root, 'BeforeAgent', recorded.BeforeAgent(root, 'Do the version bump for the next release'));
    expect(out).toMatch(/^\{"hookSpecificOutput":\{"hookEventName":"BeforeAgent","additionalContext":"Lessons relevant to this request \(from `lessons`\); follow their checklists:\\n/);
    expect(JSON.parse(out).hookSpecificOutput.additionalContext).toContain(`${MANIFEST_BLOCK}\n`);
    expect(readSession(root, SESSION).pending).toEqual([MANIFEST_ID]);

    // Non-interactive mode: the prompt the hook gets starts with SessionStart's context, whose
    // words (here the secrets lesson's) are not the user's task.
    const secrets = await hook(root, 'BeforeAgent', recorded.BeforeAgent(root, 'Keep secrets out of git'));
    expect(secrets).toContain(SECRETS_ID);
    const wrapped = `<hook_context>Keep secrets out of git: a token leaked, secret scanning runs before every push</hook_context>\n\nsay hi`;
    expect(await hook(root, 'BeforeAgent', recorded.BeforeAgent(root, wrapped))).toBe('{}\n');
  });

  it('AfterTool maps the shell and file tools onto the lesson triggers and appends the lessons to the result', async () => {
    const root = await hookRepo();
    const shell = await hook(root, 'AfterTool', recorded.AfterTool(root, 'run_shell_command', { command: 'npm version minor --no-git-tag-version', description: 'Bump' }));
    expect(shell).toBe(context('AfterTool', `Lessons that apply to this run_shell_command call (from \`lessons\`):\n${MANIFEST_BLOCK}\n  why: matched "version" in title; "tag" in checklist; tags versioning; trigger: command matches npm version*\n${MANIFEST_ITEMS}`));
    const write = await hook(root, 'AfterTool', recorded.AfterTool(root, 'write_file', { file_path: path.join(root, 'apps/web/package.json'), content: '{}' }));
    expect(JSON.parse(write).hookSpecificOutput.additionalContext).toContain('Lessons that apply to this write_file call');
    const replace = await hook(root, 'AfterTool', recorded.AfterTool(root, 'replace', { file_path: path.join(root, 'package.json'), old_string: '1.0.0', new_string: '1.1.0' }));
    expect(JSON.parse(replace).hookSpecificOutput.additionalContext).toContain(`${MANIFEST_ID}: Version bump missed the manifest (checklist shown earlier in this session)`);
    expect(await hook(root, 'AfterTool', recorded.AfterTool(root, 'run_shell_command', { command: 'echo hi', description: 'Say hi' }))).toBe('{}\n');
  });

  it('AfterTool reads a shell command\'s exit code from its result, for the red -> green record', () => {
    const root = '/repo';
    const shell = (llmContent: unknown) => ({ ...recorded.AfterTool(root, 'run_shell_command', { command: 'node check.js' }), tool_response: { llmContent, returnDisplay: '' } });
    expect(claudeOutcome(recorded.AfterTool(root, 'run_shell_command', { command: 'echo hi' }))).toEqual({ event: 'PostToolUse', input: { tool_name: 'Bash', tool_input: { command: 'echo hi' }, tool_response: {} } });
    expect(claudeOutcome(shell('<untrusted_context>\nOutput: Error: expected 4, got 3\nExit Code: 1\nProcess Group PGID: 4242\n</untrusted_context>'))).toEqual({
      event: 'PostToolUseFailure',
      input: { tool_name: 'Bash', tool_input: { command: 'node check.js' }, error: 'Exit code 1\nError: expected 4, got 3' },
    });
    expect(claudeOutcome(shell('Command was cancelled by user before it could complete. There was no output before it was cancelled.'))).toBeUndefined();
    expect(claudeOutcome(recorded.AfterTool(root, 'write_file', { file_path: '/repo/check.js', content: '' }))).toEqual({ event: 'PostToolUse', input: { tool_name: 'Write', tool_input: { file_path: '/repo/check.js', content: '' } } });
    expect(claudeOutcome({ ...recorded.AfterTool(root, 'replace', { file_path: '/repo/a.js' }), tool_response: { llmContent: 'failed', error: { message: 'no match' } } })).toBeUndefined();
    expect(claudeOutcome(recorded.AfterTool(root, 'read_file', { file_path: '/repo/a.js' }))).toBeUndefined();
  });

  it('AfterAgent captures the [LESSON] block of the answer and says so in systemMessage, never with a decision', async () => {
    const root = await hookRepo();
    const out = await hook(root, 'AfterAgent', recorded.AfterAgent(root, 'Done.\n[LESSON]\nRelease notes forgot the migration step\nThe notes did not name it.\n- Every release note names the migrations it needs\n[/LESSON]'));
    const answer = JSON.parse(out) as Record<string, unknown>;
    expect(Object.keys(answer)).toEqual(['systemMessage']);
    expect(String(answer.systemMessage)).toMatch(/lessons\/cases\/case-\d{4}-\d\d-\d\d-release-notes-forgot-the-migration-step\.md/);
    expect(fs.readdirSync(path.join(root, 'lessons/cases')).some((name) => name.includes('release-notes-forgot-the-migration-step'))).toBe(true);
  });

  it('answers {} (never an empty stdout, which Gemini CLI would replace with stderr) for bad input, no repository, and LESSONS_DISABLE=1', async () => {
    const root = await hookRepo();
    for (const event of ['SessionStart', 'BeforeAgent', 'AfterTool', 'AfterAgent', 'BeforeTool', 'Notification']) {
      // (SessionStart needs no input: it answers the session-start lessons of the repository it runs in.)
      if (event !== 'SessionStart') expect(await hook(root, event, 'not json'), event).toBe('{}\n');
      expect(await hook(tempDir(), event, { ...common(tempDir(), event), prompt: 'Do the version bump' }), event).toBe('{}\n');
      expect(await hook(root, event, recorded.BeforeAgent(root, 'Do the version bump'), { LESSONS_DISABLE: '1' }), event).toBe('{}\n');
    }
    // Through the CLI: an input that is not JSON, and a hook that runs past its limit, print {} and exit 0.
    for (const args of [['hook', 'gemini', 'BeforeAgent'], ['hook', 'gemini', 'AfterTool', '--timeout-ms', '1']]) {
      const result = runCli(['-C', root, ...args], { cwd: root, input: '{"prompt": ' });
      expect(result.exitCode, args.join(' ')).toBe(0);
      expect(result.stdout, args.join(' ')).toBe('{}\n');
    }
  });
});

const handler = (event: string) => ({ type: 'command', command: agentHookCommand('gemini', event), timeout: 10000 });

describe('lessons hooks install --gemini', () => {
  it('writes the four hook entries into .gemini/settings.json, timeouts in milliseconds, AfterTool on the shell and file tools', () => {
    const root = tempDir();
    expect(installGeminiHooks(root)).toEqual({ path: '.gemini/settings.json', changed: true });
    expect(JSON.parse(fs.readFileSync(path.join(root, '.gemini/settings.json'), 'utf8'))).toEqual({
      hooks: {
        SessionStart: [{ hooks: [handler('SessionStart')] }],
        BeforeAgent: [{ hooks: [handler('BeforeAgent')] }],
        AfterTool: [{ matcher: 'run_shell_command|write_file|replace', hooks: [handler('AfterTool')] }],
        AfterAgent: [{ hooks: [handler('AfterAgent')] }],
      },
    });
    // The command finds the project by git, not by GEMINI_PROJECT_DIR (the session's cwd, maybe a subdirectory).
    expect(handler('BeforeAgent').command).not.toContain('GEMINI_PROJECT_DIR');
  });

  it('merges into the user settings without touching other keys or hooks; a second run writes nothing; uninstall removes only its own', async () => {
    const root = await hookRepo();
    const existing = {
      model: { name: 'gemini-2.5-pro' },
      hooksConfig: { notifications: false },
      hooks: { BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: './check.sh', timeout: 5000 }] }], AfterTool: [{ matcher: 'replace', hooks: [{ type: 'command', command: 'prettier --write' }] }] },
    };
    writeFiles(root, { '.gemini/settings.json': JSON.stringify(existing, null, 2) });
    const result = runCli(['hooks', 'install', '--gemini'], { cwd: root });
    expect(result.exitCode, result.stderr).toBe(0);
    const first = fs.readFileSync(path.join(root, '.gemini/settings.json'), 'utf8');
    const settings = JSON.parse(first);
    expect(settings.model).toEqual(existing.model);
    expect(settings.hooksConfig).toEqual(existing.hooksConfig);
    expect(settings.hooks.BeforeTool).toEqual(existing.hooks.BeforeTool);
    expect(settings.hooks.AfterTool).toEqual([existing.hooks.AfterTool[0], { matcher: 'run_shell_command|write_file|replace', hooks: [handler('AfterTool')] }]);
    expect(installGeminiHooks(root)).toEqual({ path: '.gemini/settings.json', changed: false });
    expect(fs.readFileSync(path.join(root, '.gemini/settings.json'), 'utf8')).toBe(first);
    expect(uninstallGeminiHooks(root).changed).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(root, '.gemini/settings.json'), 'utf8'))).toEqual(existing);
  });

  it('refuses a settings file that is not valid JSON and leaves it as it was', async () => {
    const root = await hookRepo();
    writeFiles(root, { '.gemini/settings.json': '{ "model": ' });
    const result = runCli(['hooks', 'install', '--gemini'], { cwd: root });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain('.gemini/settings.json is not valid JSON');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(fs.readFileSync(path.join(root, '.gemini/settings.json'), 'utf8')).toBe('{ "model": ');
  });
});
