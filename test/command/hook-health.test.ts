import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHook, type HookRequest } from '../../src/harness/run.js';
import { readSession } from '../../src/agent/session.js';
import { FORCE_PUSH_ID, MANIFEST_ID, hookRepo } from '../helpers/hook-repo.js';

const NOW = new Date('2026-11-21T09:30:00Z');

async function hook(root: string, harness: HookRequest['harness'], event: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const out = await runHook({ harness, event, stdin: JSON.stringify(input), cwd: root, env: {}, now: NOW });
  return out === '' ? {} : (JSON.parse(out) as Record<string, unknown>);
}

const base = (root: string, event: string, session = 'sess-1') => ({ session_id: session, transcript_path: path.join(root, 't.jsonl'), cwd: root, hook_event_name: event });
const editPackage = (root: string, session = 'sess-1') => ({ ...base(root, 'PreToolUse', session), tool_name: 'Edit', tool_input: { file_path: path.join(root, 'package.json') } });
const forcePush = (root: string, session = 'sess-1') => ({ ...base(root, 'PreToolUse', session), tool_name: 'Bash', tool_input: { command: 'git push --force origin main' } });
const LESSON_TEXT = 'Done.\n[LESSON]\nLockfile edited by hand broke installs\nThe agent patched package-lock.json directly.\n- Regenerate the lockfile with npm install\n[/LESSON]';

function truncateIndex(root: string): void {
  const file = path.join(root, 'lessons/index.json');
  const text = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, text.slice(0, Math.floor(text.length / 2)));
}

function setPolicy(root: string, edit: (policy: Record<string, unknown>) => void): void {
  const file = path.join(root, 'policy/workflow-policy.json');
  const policy = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(policy);
  fs.writeFileSync(file, JSON.stringify(policy, null, 2));
}

describe('hooks in a broken repository', () => {
  it('a truncated index: every Claude hook still works from the lesson files, and says once per session what to run', async () => {
    const root = await hookRepo();
    truncateIndex(root);
    const start = await hook(root, 'claude', 'SessionStart', { ...base(root, 'SessionStart'), source: 'startup' });
    expect(JSON.stringify(start.hookSpecificOutput)).toContain(FORCE_PUSH_ID);
    expect(start.systemMessage).toBe('lessons: lessons/index.json is not valid JSON (truncated?); the hooks scan the lesson files instead: run `lessons index` (and `lessons lint` if it refuses)');
    // Said once: the next SessionStart of the same session is quiet about it.
    expect((await hook(root, 'claude', 'SessionStart', { ...base(root, 'SessionStart'), source: 'resume' })).systemMessage).toBeUndefined();

    const tool = await hook(root, 'claude', 'PreToolUse', editPackage(root));
    expect(JSON.stringify(tool.hookSpecificOutput)).toContain(MANIFEST_ID);
    expect(tool.systemMessage).toMatch(/^lessons: lessons\/index\.json is not a valid index; scanned the lesson files instead \(run `lessons index`/);
    expect((await hook(root, 'claude', 'PreToolUse', editPackage(root))).systemMessage).toBeUndefined();
    // Another session hears about it again.
    expect((await hook(root, 'claude', 'SessionStart', { ...base(root, 'SessionStart', 'sess-2'), source: 'startup' })).systemMessage).toContain('lessons index');

    // Stop no longer drops a [LESSON] block.
    fs.writeFileSync(path.join(root, 't.jsonl'), `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: LESSON_TEXT }] } })}\n`);
    const stop = await hook(root, 'claude', 'Stop', { ...base(root, 'Stop'), stop_hook_active: false });
    expect(stop.systemMessage).toContain('lessons: captured lessons/cases/case-2026-11-21-lockfile-edited-by-hand-broke-installs.md');
    expect(fs.existsSync(path.join(root, 'lessons/cases/case-2026-11-21-lockfile-edited-by-hand-broke-installs.md'))).toBe(true);
  });

  it('an invalid policy: UserPromptSubmit and PreToolUse use the default policy and say so once', async () => {
    const root = await hookRepo();
    fs.writeFileSync(path.join(root, 'policy/workflow-policy.json'), '{"version": 1, "preflight": ');
    const prompt = await hook(root, 'claude', 'UserPromptSubmit', { ...base(root, 'UserPromptSubmit'), prompt: 'Do the version bump for the next release' });
    expect(JSON.stringify(prompt.hookSpecificOutput)).toContain(MANIFEST_ID);
    expect(prompt.systemMessage).toMatch(/^lessons: policy\/workflow-policy\.json is not valid JSON: .*; the hooks use the default policy until it is fixed \(`lessons doctor` says what is wrong\)$/);
    const tool = await hook(root, 'claude', 'PreToolUse', editPackage(root));
    expect(JSON.stringify(tool.hookSpecificOutput)).toContain(MANIFEST_ID);
    expect(tool.systemMessage).toBeUndefined();

    fs.writeFileSync(path.join(root, 'policy/workflow-policy.json'), JSON.stringify({ version: 1, preflight: { hook_max: 'three' } }));
    const other = await hook(root, 'codex', 'PreToolUse', { ...forcePush(root, 'sess-3') });
    expect(other.systemMessage).toContain('lessons: policy/workflow-policy.json is invalid at `preflight.hook_max`; the hooks use the default policy');
    expect(other.systemMessage).toContain(FORCE_PUSH_ID);
  });

  it('Cursor: the notice goes once in user_message, and the command is still allowed', async () => {
    const root = await hookRepo();
    truncateIndex(root);
    const input = { hook_event_name: 'beforeShellExecution', conversation_id: 'c1', workspace_roots: [root], command: 'git push --force origin main', cwd: root };
    const first = await hook(root, 'cursor', 'beforeShellExecution', input);
    expect(first.permission).toBe('allow');
    expect(first.user_message).toContain('run `lessons index`');
    expect(first.agent_message).toContain(FORCE_PUSH_ID);
    const second = await hook(root, 'cursor', 'beforeShellExecution', input);
    expect(second.user_message).toBeUndefined();
    expect(second.agent_message).toContain(FORCE_PUSH_ID);
  });
});

describe('hooks.critical_gate', () => {
  it('off (the default): a critical lesson is context only', async () => {
    const root = await hookRepo();
    const answer = await hook(root, 'claude', 'PreToolUse', forcePush(root));
    expect(answer.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', additionalContext: expect.stringContaining(FORCE_PUSH_ID) });
    expect(JSON.stringify(answer)).not.toContain('permissionDecision');
  });

  it('deny: the first matching call of a session is denied with the checklist as the reason; the retry is allowed', async () => {
    const root = await hookRepo();
    setPolicy(root, (policy) => {
      policy.hooks = { critical_gate: 'deny' };
    });
    const first = await hook(root, 'claude', 'PreToolUse', forcePush(root));
    const output = first.hookSpecificOutput as Record<string, string>;
    expect(output.hookEventName).toBe('PreToolUse');
    expect(output.permissionDecision).toBe('deny');
    expect(output.permissionDecisionReason).toContain('Stopped once by `lessons` (policy hooks.critical_gate) before this Bash call');
    expect(output.permissionDecisionReason).toContain(`- [critical] ${FORCE_PUSH_ID}: Never force push the main branch`);
    expect(output.permissionDecisionReason).toContain('  - [ ] Protected branches refuse force pushes.');
    expect(readSession(root, 'sess-1').gated).toEqual([FORCE_PUSH_ID]);

    const retry = await hook(root, 'claude', 'PreToolUse', forcePush(root));
    expect(retry.hookSpecificOutput).toMatchObject({ additionalContext: expect.stringContaining(FORCE_PUSH_ID) });
    expect(JSON.stringify(retry)).not.toContain('permissionDecision');
    // A high-severity lesson never stops a call, and another session is stopped once again.
    expect(JSON.stringify(await hook(root, 'claude', 'PreToolUse', editPackage(root)))).not.toContain('permissionDecision');
    expect((await hook(root, 'claude', 'PreToolUse', forcePush(root, 'sess-2'))).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    // Codex gets context only: the gate is Claude Code's decision contract.
    expect(JSON.stringify(await hook(root, 'codex', 'PreToolUse', forcePush(root, 'sess-4')))).not.toContain('permissionDecision');
  });

  it('ask: the decision is ask', async () => {
    const root = await hookRepo();
    setPolicy(root, (policy) => {
      policy.hooks = { critical_gate: 'ask' };
    });
    expect((await hook(root, 'claude', 'PreToolUse', forcePush(root))).hookSpecificOutput).toMatchObject({ permissionDecision: 'ask' });
  });
});
