import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHook, type HookRequest } from '../../src/harness/run.js';
import { readSession } from '../../src/agent/session.js';
import { FORCE_PUSH_ID, MANIFEST_ID, SECRETS_ID, hookRepo } from '../helpers/hook-repo.js';
import { tempDir, writeFiles } from '../helpers/repo.js';
import { lessonFile } from '../helpers/lessons.js';
import { writeIndex } from '../../src/store/index-write.js';

const NOW = new Date('2026-11-21T09:30:00Z');

function hook(root: string, harness: HookRequest['harness'], event: string, input: unknown, env: Record<string, string> = {}): Promise<string> {
  return runHook({ harness, event, stdin: typeof input === 'string' ? input : JSON.stringify(input), cwd: root, env, now: NOW });
}

const base = (root: string, event: string) => ({ session_id: 'sess-1', transcript_path: path.join(root, 't.jsonl'), cwd: root, permission_mode: 'default', hook_event_name: event });

const MANIFEST_BLOCK = `- [high] ${MANIFEST_ID}: Version bump missed the manifest (lessons/cases/${MANIFEST_ID}.md)`;
const MANIFEST_ITEMS = '  - [ ] Every manifest carries the new version in the bump commit.\n  - [ ] CI compares each manifest version with the tag.';

function context(event: string, text: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } })}\n`;
}

describe('Claude Code PreToolUse', () => {
  it('adds the lessons whose triggers match the file as context, and never a permission decision', async () => {
    const root = await hookRepo();
    const out = await hook(root, 'claude', 'PreToolUse', { ...base(root, 'PreToolUse'), tool_name: 'Edit', tool_use_id: 'toolu_1', tool_input: { file_path: path.join(root, 'apps/web/package.json'), old_string: '1.0.0', new_string: '1.1.0' } });
    expect(out).toBe(
      context(
        'PreToolUse',
        `Lessons that apply to this Edit call (from \`lessons\`; the call is not blocked):\n${MANIFEST_BLOCK}\n  why: trigger: path **/package.json matches apps/web/package.json\n${MANIFEST_ITEMS}`,
      ),
    );
    expect(out).not.toContain('permissionDecision');
    expect(readSession(root, 'sess-1').shown).toEqual([MANIFEST_ID]);
  });

  it('matches the Bash command, critical lessons first, at most three', async () => {
    const root = await hookRepo();
    const out = await hook(root, 'claude', 'PreToolUse', { ...base(root, 'PreToolUse'), tool_name: 'Bash', tool_input: { command: 'npm version minor && git push --force origin main' } });
    const text = JSON.parse(out).hookSpecificOutput.additionalContext as string;
    expect(text.split('\n').filter((line) => line.startsWith('- ')).map((line) => line.split(':')[0])).toEqual([`- [critical] ${FORCE_PUSH_ID}`, `- [high] ${MANIFEST_ID}`]);
  });

  it('a lesson shown earlier in the session comes back as one line', async () => {
    const root = await hookRepo();
    const input = { ...base(root, 'PreToolUse'), tool_name: 'Write', tool_input: { file_path: 'package.json', content: '{}' } };
    await hook(root, 'claude', 'PreToolUse', input);
    const again = JSON.parse(await hook(root, 'claude', 'PreToolUse', input)).hookSpecificOutput.additionalContext;
    expect(again).toBe(`Lessons that apply to this Write call (from \`lessons\`; the call is not blocked):\n- [high] ${MANIFEST_ID}: Version bump missed the manifest (checklist shown earlier in this session)`);
  });

  it('answers nothing for unrelated calls, bad or empty input, a missing index, outside a repository, and when disabled', async () => {
    const root = await hookRepo();
    const edit = { ...base(root, 'PreToolUse'), tool_name: 'Edit', tool_input: { file_path: 'package.json' } };
    expect(await hook(root, 'claude', 'PreToolUse', { ...edit, tool_input: { file_path: 'src/index.ts' } })).toBe('');
    expect(await hook(root, 'claude', 'PreToolUse', '{"tool_name": "Edit", ')).toBe('');
    expect(await hook(root, 'claude', 'PreToolUse', '')).toBe('');
    expect(await hook(root, 'claude', 'PreToolUse', '[1,2]')).toBe('');
    expect(await hook(root, 'claude', 'PreToolUse', { ...edit, tool_input: 'package.json' })).toBe('');
    expect(await hook(root, 'claude', 'PreToolUse', edit, { LESSONS_DISABLE: '1' })).toBe('');
    const outside = tempDir();
    expect(await hook(outside, 'claude', 'PreToolUse', { ...edit, cwd: outside })).toBe('');
  });

  it('without an index it still answers, from the lesson files (as preflight does)', async () => {
    const root = await hookRepo();
    fs.rmSync(path.join(root, 'lessons/index.json'));
    const edit = { ...base(root, 'PreToolUse'), tool_name: 'Edit', tool_input: { file_path: 'package.json' } };
    expect(JSON.parse(await hook(root, 'claude', 'PreToolUse', edit)).hookSpecificOutput.additionalContext).toContain(MANIFEST_ID);
  });

  it('follows the index when it changes (the search cache is keyed by it)', async () => {
    const root = await hookRepo();
    const edit = { ...base(root, 'PreToolUse'), tool_name: 'Edit', tool_input: { file_path: 'package.json' } };
    expect(await hook(root, 'claude', 'PreToolUse', edit)).not.toBe('');
    expect(fs.existsSync(path.join(root, '.lessons/cache/search.bin'))).toBe(true);
    fs.writeFileSync(path.join(root, 'lessons/index.json'), '{"version": 2, "lessons": []}\n');
    expect(await hook(root, 'claude', 'PreToolUse', edit)).toBe('');
  });
});

describe('Claude Code SessionStart and UserPromptSubmit', () => {
  it('SessionStart adds the critical (validated or canonical) and high canonical lessons, critical first', async () => {
    const root = await hookRepo();
    const out = await hook(root, 'claude', 'SessionStart', { ...base(root, 'SessionStart'), source: 'startup' });
    expect(out).toBe(
      context(
        'SessionStart',
        `Lessons from this repository (critical ones, validated or canonical, and canonical high-severity ones); keep their checklists in mind:\n- [critical] ${FORCE_PUSH_ID}: Never force push the main branch (lessons/patterns/${FORCE_PUSH_ID}.md)\n  - [ ] Protected branches refuse force pushes.\n- [high] ${SECRETS_ID}: Keep secrets out of git (lessons/principles/${SECRETS_ID}.md)\n  - [ ] Secret scanning runs before every push.`,
      ),
    );
    expect(readSession(root, 'sess-1').shown).toEqual([FORCE_PUSH_ID, SECRETS_ID]);
  });

  it('lists a related title once per session at tool calls (a prompt, a new task, lists its own again), in each harness', async () => {
    const root = await hookRepo();
    writeFiles(root, lessonFile({ id: 'case-2026-03-03-tf-lock', title: 'Killed terraform apply left a lock', tags: ['infra'] }));
    await writeIndex({ cwd: root });
    const line = '- case-2026-03-03-tf-lock: Killed terraform apply left a lock';
    const call = (session: string) => ({ ...base(root, 'PreToolUse'), session_id: session, tool_name: 'Bash', tool_input: { command: 'terraform apply -auto-approve' } });
    // No trigger names the call: nothing applies, the lesson its words name is listed as related.
    expect(JSON.parse(await hook(root, 'claude', 'PreToolUse', call('s1'))).hookSpecificOutput.additionalContext).toContain(line);
    expect(readSession(root, 's1').listed).toEqual(['case-2026-03-03-tf-lock']);
    expect(readSession(root, 's1').shown).toEqual([]);
    // The agent has judged that title: the next such call costs nothing (Codex: no empty systemMessage either).
    expect(await hook(root, 'claude', 'PreToolUse', call('s1'))).toBe('');
    expect(await hook(root, 'codex', 'PreToolUse', call('s1'))).toBe('');
    expect(JSON.parse(await hook(root, 'codex', 'PreToolUse', call('s2'))).systemMessage).toContain(line);
    // A prompt is a new task: it lists its related titles whatever the session listed before.
    const prompt = { ...base(root, 'UserPromptSubmit'), session_id: 's1', prompt: 'Run terraform apply for the staging stack after the nightly backup finishes' };
    expect(JSON.parse(await hook(root, 'claude', 'UserPromptSubmit', prompt)).hookSpecificOutput.additionalContext).toContain(line);
    // Cursor, per conversation.
    const shell = (conversation: string) => ({ hook_event_name: 'beforeShellExecution', conversation_id: conversation, command: 'terraform apply -auto-approve', cwd: root, workspace_roots: [root] });
    expect(JSON.parse(await hook(root, 'cursor', 'beforeShellExecution', shell('c1'))).agent_message).toContain(line);
    expect(await hook(root, 'cursor', 'beforeShellExecution', shell('c1'))).toBe('{"permission":"allow"}\n');
  });

  it('UserPromptSubmit adds the lessons selected for the prompt, and nothing for an unrelated one', async () => {
    const root = await hookRepo();
    const out = await hook(root, 'claude', 'UserPromptSubmit', { ...base(root, 'UserPromptSubmit'), prompt: 'Do the version bump for the next release' });
    expect(out).toBe(
      context(
        'UserPromptSubmit',
        `Lessons relevant to this request (from \`lessons\`); follow their checklists:\n${MANIFEST_BLOCK}\n  why: matched "version", "bump" in title; "release" in tags; tags release, versioning; trigger: keyword "version bump"\n${MANIFEST_ITEMS}`,
      ),
    );
    expect(await hook(root, 'claude', 'UserPromptSubmit', { ...base(root, 'UserPromptSubmit'), prompt: 'center the login button' })).toBe('');
  });
});

function transcript(root: string, messages: { role: 'user' | 'assistant'; text: string }[]): string {
  const file = path.join(root, 't.jsonl');
  const lines = messages.map((m, i) =>
    JSON.stringify(
      m.role === 'user'
        ? { type: 'user', uuid: `u${i}`, message: { role: 'user', content: m.text } }
        : { type: 'assistant', uuid: `a${i}`, message: { role: 'assistant', content: [{ type: 'text', text: m.text }] } },
    ),
  );
  fs.writeFileSync(file, `${lines.join('\n')}\n{"type": "assistant", "message": {"ro`);
  return file;
}

const LESSON_TEXT = 'Done.\n[LESSON]\nLockfile edited by hand broke installs\nThe agent patched package-lock.json directly.\n- Regenerate the lockfile with npm install\n[/LESSON]';

describe('Claude Code Stop', () => {
  it('captures [LESSON] blocks from the transcript as candidates once, and notes unaddressed checklist items', async () => {
    const root = await hookRepo();
    await hook(root, 'claude', 'PreToolUse', { ...base(root, 'PreToolUse'), tool_name: 'Edit', tool_input: { file_path: 'package.json' } });
    transcript(root, [
      { role: 'user', text: 'bump the version' },
      { role: 'assistant', text: LESSON_TEXT },
      { role: 'assistant', text: 'Bumped every manifest to the new version in the bump commit.' },
    ]);
    const stop = { ...base(root, 'Stop'), stop_hook_active: false };
    const out = await hook(root, 'claude', 'Stop', stop);
    const file = 'lessons/cases/case-2026-11-21-lockfile-edited-by-hand-broke-installs.md';
    expect(out).toBe(
      `${JSON.stringify({
        systemMessage: `lessons: captured ${file}\nlessons: 1 Prevention Checklist item of lessons shown in this session is not visibly addressed in the final answer:\n- ${MANIFEST_ID}: CI compares each manifest version with the tag.`,
      })}\n`,
    );
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    expect(text).toContain('status: candidate');
    expect(text).toContain('source: auto');
    expect(text).toContain('- [ ] Regenerate the lockfile with npm install');
    // A second Stop in the same session captures nothing again, and repeats no note.
    expect(await hook(root, 'claude', 'Stop', stop)).toBe('');
    expect(fs.readdirSync(path.join(root, 'lessons/cases')).length).toBe(2);
  });

  it('with stop_hook_active it adds no checklist note; it never blocks', async () => {
    const root = await hookRepo();
    await hook(root, 'claude', 'PreToolUse', { ...base(root, 'PreToolUse'), tool_name: 'Edit', tool_input: { file_path: 'package.json' } });
    transcript(root, [{ role: 'assistant', text: 'All done.' }]);
    const active = await hook(root, 'claude', 'Stop', { ...base(root, 'Stop'), stop_hook_active: true });
    expect(active).toBe('');
    const inactive = await hook(root, 'claude', 'Stop', { ...base(root, 'Stop'), stop_hook_active: false });
    expect(JSON.parse(inactive)).toEqual({ systemMessage: expect.stringContaining('2 Prevention Checklist items') });
    expect(inactive).not.toContain('"decision"');
  });

  it('answers nothing for a missing transcript or malformed input', async () => {
    const root = await hookRepo();
    expect(await hook(root, 'claude', 'Stop', { ...base(root, 'Stop'), transcript_path: path.join(root, 'missing.jsonl'), stop_hook_active: false })).toBe('');
    expect(await hook(root, 'claude', 'Stop', 'not json')).toBe('');
  });
});

describe('Codex hooks', () => {
  const codexBase = (root: string, event: string) => ({ session_id: 'th-1', turn_id: 'turn-1', transcript_path: null, cwd: root, hook_event_name: event, model: 'gpt-5-codex', permission_mode: 'default' });

  it('PreToolUse puts the lessons in systemMessage (Codex does not support additionalContext there)', async () => {
    const root = await hookRepo();
    const out = await hook(root, 'codex', 'PreToolUse', { ...codexBase(root, 'PreToolUse'), tool_name: 'Bash', tool_use_id: 'c1', tool_input: { command: 'git push -f origin main' } });
    expect(out).toBe(
      `${JSON.stringify({
        systemMessage: `Lessons that apply to this Bash call (from \`lessons\`; the call is not blocked):\n- [critical] ${FORCE_PUSH_ID}: Never force push the main branch (lessons/patterns/${FORCE_PUSH_ID}.md)\n  why: matched "push", "main" in title; "git" in tags; tags git; trigger: command matches git push -f*; critical\n  - [ ] Protected branches refuse force pushes.`,
      })}\n`,
    );
  });

  it('apply_patch is an edit of the files its patch names', async () => {
    const root = await hookRepo();
    const out = await hook(root, 'codex', 'PreToolUse', { ...codexBase(root, 'PreToolUse'), tool_name: 'apply_patch', tool_input: { command: '*** Begin Patch\n*** Update File: package.json\n*** End Patch' } });
    expect(JSON.parse(out).systemMessage).toContain(`why: trigger: path **/package.json matches package.json`);
  });

  it('SessionStart uses additionalContext; Stop reads last_assistant_message and checks each shown lesson once', async () => {
    const root = await hookRepo();
    const start = JSON.parse(await hook(root, 'codex', 'SessionStart', { ...codexBase(root, 'SessionStart'), source: 'startup' }));
    expect(start.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(start.hookSpecificOutput.additionalContext).toContain(FORCE_PUSH_ID);
    const stop = (message: string) => hook(root, 'codex', 'Stop', { ...codexBase(root, 'Stop'), stop_hook_active: false, last_assistant_message: message });
    // Session-start lessons are background: a Stop does not check them.
    expect(await stop('Done.')).toBe('');
    const push = { ...codexBase(root, 'PreToolUse'), tool_name: 'Bash', tool_use_id: 'c1', tool_input: { command: 'git push -f origin main' } };
    await hook(root, 'codex', 'PreToolUse', push);
    expect(JSON.parse(await stop('Done.')).systemMessage).toContain(`- ${FORCE_PUSH_ID}: Protected branches refuse force pushes.`);
    expect(await stop('Done.')).toBe('');
    await hook(root, 'codex', 'PreToolUse', push);
    expect(await stop('Protected branches now refuse force pushes.')).toBe('');
  });
});

describe('Cursor hooks', () => {
  const cursorBase = (root: string, event: string) => ({ conversation_id: 'conv-1', generation_id: 'gen-1', hook_event_name: event, workspace_roots: [root] });

  it('beforeShellExecution allows, with the lessons for the command as agent_message', async () => {
    const root = await hookRepo();
    const out = await hook(root, 'cursor', 'beforeShellExecution', { ...cursorBase(root, 'beforeShellExecution'), command: 'npm publish', cwd: root });
    expect(out).toBe(
      `${JSON.stringify({
        permission: 'allow',
        agent_message: `Lessons that apply to this command (from \`lessons\`; the command is not blocked):\n${MANIFEST_BLOCK}\n  why: trigger: command matches npm publish*\n${MANIFEST_ITEMS}`,
      })}\n`,
    );
  });

  it('every event answers its neutral JSON for unrelated, malformed or empty input', async () => {
    const root = await hookRepo();
    expect(await hook(root, 'cursor', 'beforeShellExecution', { ...cursorBase(root, 'beforeShellExecution'), command: 'ls', cwd: root })).toBe('{"permission":"allow"}\n');
    expect(await hook(root, 'cursor', 'beforeShellExecution', 'garbage')).toBe('{"permission":"allow"}\n');
    expect(await hook(root, 'cursor', 'beforeReadFile', { ...cursorBase(root, 'beforeReadFile'), file_path: path.join(root, '.env') })).toBe('{"permission":"allow"}\n');
    expect(await hook(root, 'cursor', 'beforeSubmitPrompt', { ...cursorBase(root, 'beforeSubmitPrompt'), prompt: 'version bump' })).toBe('{"continue":true}\n');
    expect(await hook(root, 'cursor', 'stop', '')).toBe('{}\n');
    expect(await hook(root, 'cursor', 'beforeShellExecution', { command: 'npm publish' }, { LESSONS_DISABLE: '1' })).toBe('{"permission":"allow"}\n');
  });

  it('sessionStart adds additional_context; afterAgentResponse captures [LESSON] blocks', async () => {
    const root = await hookRepo();
    const start = JSON.parse(await hook(root, 'cursor', 'sessionStart', cursorBase(root, 'sessionStart')));
    expect(Object.keys(start)).toEqual(['additional_context']);
    expect(start.additional_context).toContain(FORCE_PUSH_ID);
    expect(await hook(root, 'cursor', 'afterAgentResponse', { ...cursorBase(root, 'afterAgentResponse'), text: LESSON_TEXT })).toBe('{}\n');
    expect(fs.existsSync(path.join(root, 'lessons/cases/case-2026-11-21-lockfile-edited-by-hand-broke-installs.md'))).toBe(true);
  });
});
