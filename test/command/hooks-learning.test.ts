/**
 * The hooks that learn from what happens in a session: red -> green drafts (PostToolUse,
 * PostToolUseFailure, Stop), corrections in a prompt (UserPromptSubmit), what a session starts
 * with (SessionStart) and project scoping (PreToolUse), through the hook entry with the inputs
 * the real harnesses send (tool-outcome.ts says where each shape comes from).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHook, type HookRequest } from '../../src/harness/run.js';
import { readSession } from '../../src/agent/session.js';
import { writeIndex } from '../../src/store/index-write.js';
import { fakeToken } from '../helpers/guard.js';
import { FORCE_PUSH_ID, MANIFEST_ID, SECRETS_ID, hookRepo } from '../helpers/hook-repo.js';
import { lessonFile } from '../helpers/lessons.js';
import { writeFiles } from '../helpers/repo.js';
import { fakeReviewer, setReview } from '../helpers/reviewer.js';

const NOW = new Date('2026-11-21T09:30:00Z');

function hook(root: string, harness: HookRequest['harness'], event: string, input: Record<string, unknown>): Promise<string> {
  return runHook({ harness, event, stdin: JSON.stringify(input), cwd: root, env: {}, now: NOW });
}

const base = (root: string, event: string, session = 'sess-rg') => ({ session_id: session, transcript_path: path.join(root, 'none.jsonl'), cwd: root, permission_mode: 'default', hook_event_name: event });

/** Claude Code's input for a Bash call that exited non-zero (PostToolUseFailure) or passed (PostToolUse). */
function bashFailed(root: string, command: string, exit: number, output: string, session?: string): Record<string, unknown> {
  return { ...base(root, 'PostToolUseFailure', session), tool_name: 'Bash', tool_input: { command, description: 'run' }, tool_use_id: 'toolu_f', error: `Exit code ${exit}\n${output}`, is_interrupt: false };
}
function bashPassed(root: string, command: string, session?: string): Record<string, unknown> {
  return { ...base(root, 'PostToolUse', session), tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_p', tool_response: { stdout: 'Tests 5 passed (5)', stderr: '', interrupted: false, isImage: false, noOutputExpected: false } };
}
function edited(root: string, file: string, session?: string): Record<string, unknown> {
  return { ...base(root, 'PostToolUse', session), tool_name: 'Edit', tool_input: { file_path: path.join(root, file), old_string: 'a', new_string: 'b' }, tool_response: { filePath: path.join(root, file) } };
}

const cases = (root: string): string[] => fs.readdirSync(path.join(root, 'lessons/cases')).sort();
const VITEST_FAILURE = ['> app@1.0.0 test', ' FAIL  test/sum.test.ts > adds', 'AssertionError: expected 3 to be 4', ' Tests  1 failed | 4 passed (5)'].join('\n');
const DRAFT = 'lessons/cases/case-2026-11-21-npm-test-failed-fail-test-sum-test-ts.md';

async function redGreen(root: string, session?: string): Promise<void> {
  expect(await hook(root, 'claude', 'PostToolUseFailure', bashFailed(root, 'npm test', 1, VITEST_FAILURE, session))).toBe('');
  expect(await hook(root, 'claude', 'PostToolUse', edited(root, 'src/sum.ts', session))).toBe('');
  expect(await hook(root, 'claude', 'PostToolUse', bashPassed(root, 'npm run test', session))).toBe('');
}

describe('red -> green drafts (Claude Code)', () => {
  it('a failing npm test, an edit, then a passing one: Stop drafts one candidate case with the evidence, once', async () => {
    const root = await hookRepo();
    await redGreen(root);
    expect(readSession(root, 'sess-rg').redgreen.pair).toEqual({
      kind: 'npm test',
      failed: { command: 'npm test', exit: 1, lines: ['FAIL test/sum.test.ts > adds', 'AssertionError: expected 3 to be 4', 'Tests 1 failed | 4 passed (5)'] },
      passed: 'npm run test',
      files: ['src/sum.ts'],
    });
    const before = cases(root);
    const stop = { ...base(root, 'Stop'), stop_hook_active: false };
    const out = JSON.parse(await hook(root, 'claude', 'Stop', stop)) as { systemMessage: string };
    expect(out.systemMessage).toBe(`lessons: \`npm test\` failed, then \`npm run test\` passed: drafted ${DRAFT} (candidate; say why it failed and generalise it, then \`lessons accept ${path.basename(DRAFT, '.md')}\`)`);
    expect(cases(root)).toEqual([...before, path.basename(DRAFT)].sort());
    const text = fs.readFileSync(path.join(root, DRAFT), 'utf8');
    expect(text).toContain('status: candidate');
    expect(text).toContain('source: auto');
    expect(text).toContain('insight: critical_error');
    expect(text).toContain("  commands: [npm test*]");
    expect(text).toContain('AssertionError: expected 3 to be 4');
    expect(text).toContain('Changed `src/sum.ts`; then `npm run test` passed.');
    // One draft per session: another Stop, and another red -> green, write nothing more.
    expect(await hook(root, 'claude', 'Stop', stop)).toBe('');
    await hook(root, 'claude', 'PostToolUseFailure', bashFailed(root, 'cargo test', 101, 'error[E0308]: mismatched types'));
    await hook(root, 'claude', 'PostToolUse', bashPassed(root, 'cargo test'));
    expect(await hook(root, 'claude', 'Stop', stop)).toBe('');
    expect(cases(root)).toEqual([...before, path.basename(DRAFT)].sort());
  });

  it('never from a plain success, a pass of another kind, or an interrupted command', async () => {
    const root = await hookRepo();
    const before = cases(root);
    await hook(root, 'claude', 'PostToolUse', bashPassed(root, 'npm test'));
    await hook(root, 'claude', 'PostToolUseFailure', bashFailed(root, 'npm test', 1, VITEST_FAILURE));
    await hook(root, 'claude', 'PostToolUse', bashPassed(root, 'npm run build'));
    await hook(root, 'claude', 'PostToolUse', { ...bashPassed(root, 'npm test'), tool_response: { stdout: '', stderr: '', interrupted: true } });
    await hook(root, 'claude', 'PostToolUseFailure', { ...bashFailed(root, 'npm run lint', 130, ''), is_interrupt: true });
    const state = readSession(root, 'sess-rg').redgreen;
    expect(state.pair).toBeNull();
    expect(state.open.map((failure) => failure.kind)).toEqual(['npm test']);
    expect(await hook(root, 'claude', 'Stop', { ...base(root, 'Stop'), stop_hook_active: false })).toBe('');
    expect(cases(root)).toEqual(before);
  });

  it('the error lines are kept redacted by the secrets rules, and bounded', async () => {
    const root = await hookRepo();
    const token = fakeToken('github');
    const output = `Error: 401 Unauthorized for https://api.github.com with token ${token}\n${Array.from({ length: 30 }, (_, i) => `error line ${i}`).join('\n')}`;
    await hook(root, 'claude', 'PostToolUseFailure', bashFailed(root, `GITHUB_TOKEN=${token} npm run deploy`, 1, output));
    const [failure] = readSession(root, 'sess-rg').redgreen.open;
    expect(failure!.kind).toBe('npm deploy');
    expect(failure!.lines).toHaveLength(8);
    expect(failure!.lines[0]).toBe('Error: 401 Unauthorized for https://api.github.com with token [redacted github-token]');
    expect(failure!.command).toBe('GITHUB_TOKEN=[redacted github-token] npm run deploy');
    expect(fs.readFileSync(path.join(root, '.lessons/sessions/sess-rg.json'), 'utf8')).not.toContain(token);
  });

  it('past the auto-candidate cap nothing is written, and Stop says why', async () => {
    const root = await hookRepo();
    const file = path.join(root, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...policy, lessons: { ...policy.lessons, max_auto_candidates: 0 } }));
    const before = cases(root);
    await redGreen(root);
    const out = JSON.parse(await hook(root, 'claude', 'Stop', { ...base(root, 'Stop'), stop_hook_active: false })) as { systemMessage: string };
    expect(out.systemMessage).toContain('lessons: `npm test` failed, then `npm run test` passed, but no lesson was drafted: capture would add 1 auto-captured candidate');
    expect(out.systemMessage).toContain('policy.lessons.max_auto_candidates');
    expect(cases(root)).toEqual(before);
  });

  it('with the reviewer configured, the pair goes through capture --from-error (schema-checked, confidence floor) in the background', async () => {
    const root = await hookRepo();
    setReview(root, { enabled: true, command: fakeReviewer('draft') });
    await redGreen(root);
    const out = JSON.parse(await hook(root, 'claude', 'Stop', { ...base(root, 'Stop'), stop_hook_active: false })) as { systemMessage: string };
    expect(out.systemMessage).toBe('lessons: `npm test` failed, then `npm run test` passed: the reviewer drafts a candidate lesson from it in the background (`lessons list --status candidate` shows it; its output goes to .lessons/sessions/sess-rg.capture.txt)');
    expect(fs.readFileSync(path.join(root, '.lessons/sessions/sess-rg.red-green.log'), 'utf8')).toContain('$ npm test\nFAIL test/sum.test.ts > adds');
    const drafted = await waitFor(() => cases(root).find((name) => name.includes('install-peft-before-using-lora-adapters')));
    expect(fs.readFileSync(path.join(root, 'lessons/cases', drafted), 'utf8')).toContain('source: auto');
    expect(await waitFor(() => fs.readFileSync(path.join(root, '.lessons/sessions/sess-rg.capture.txt'), 'utf8') || undefined)).toMatch(/^created lessons\/cases\/case-.*install-peft-before-using-lora-adapters\.md \(candidate, source: auto\)\n$/);
    await backgroundDone(root);
  });

  it('with the reviewer below its confidence floor, nothing is written', async () => {
    const root = await hookRepo();
    setReview(root, { enabled: true, command: fakeReviewer('draft-low') });
    const before = cases(root);
    await redGreen(root);
    await hook(root, 'claude', 'Stop', { ...base(root, 'Stop'), stop_hook_active: false });
    expect(await waitFor(() => fs.readFileSync(path.join(root, '.lessons/sessions/sess-rg.capture.txt'), 'utf8') || undefined)).toContain('nothing written: the reviewer\'s confidence 0.3 is below review.min_confidence 0.6');
    // Once the background capture has ended, not only when it has said so.
    await backgroundDone(root);
    expect(cases(root)).toEqual(before);
  });
});

describe('red -> green drafts (Codex)', () => {
  it('PostToolUse output with error lines is a failure, a clean one of the same kind the pass; apply_patch names the files', async () => {
    const root = await hookRepo();
    const post = (command: string, output: string) => ({ ...base(root, 'PostToolUse'), turn_id: 't1', model: 'm', tool_name: 'Bash', tool_input: { command }, tool_response: output, tool_use_id: 'call_1' });
    await hook(root, 'codex', 'PostToolUse', post('cargo test', 'test result: FAILED. 3 passed; 1 failed\nthread main panicked at src/lib.rs:9'));
    await hook(root, 'codex', 'PostToolUse', { ...base(root, 'PostToolUse'), tool_name: 'apply_patch', tool_input: { command: '*** Begin Patch\n*** Update File: src/lib.rs\n@@\n-a\n+b\n*** End Patch' }, tool_response: 'Success', tool_use_id: 'call_2' });
    await hook(root, 'codex', 'PostToolUse', post('cargo test --all', 'test result: ok. 4 passed; 0 failed; 0 ignored'));
    expect(readSession(root, 'sess-rg').redgreen.pair).toMatchObject({ kind: 'cargo test', failed: { exit: null, lines: ['test result: FAILED. 3 passed; 1 failed', 'thread main panicked at src/lib.rs:9'] }, files: ['src/lib.rs'] });
    const out = JSON.parse(await hook(root, 'codex', 'Stop', { ...base(root, 'Stop'), stop_hook_active: false, last_assistant_message: 'Fixed the test.' })) as { systemMessage: string };
    expect(out.systemMessage).toMatch(/^lessons: `cargo test` failed, then `cargo test --all` passed: drafted lessons\/cases\/case-2026-11-21-cargo-test-failed/);
  });
});

describe('UserPromptSubmit: a correction asks for the lesson', () => {
  it('names the existing lesson that matches, and asks for a [LESSON] block', async () => {
    const root = await hookRepo();
    const out = JSON.parse(await hook(root, 'claude', 'UserPromptSubmit', { ...base(root, 'UserPromptSubmit'), prompt: 'The version bump missed the manifest again' })) as { hookSpecificOutput: { additionalContext: string } };
    const text = out.hookSpecificOutput.additionalContext;
    expect(text).toContain('Lessons relevant to this request');
    expect(text).toContain('lessons: this prompt reads as a correction of a repeated mistake ("again")');
    expect(text).toContain('[LESSON]\ntitle: <what went wrong, in a few words>');
    expect(text).toContain(`It may be the existing lesson ${MANIFEST_ID} ("Version bump missed the manifest")`);
  });

  it('a correction that matches no lesson still asks; words that only contain a phrase do not', async () => {
    const root = await hookRepo();
    const out = JSON.parse(await hook(root, 'claude', 'UserPromptSubmit', { ...base(root, 'UserPromptSubmit'), prompt: '또 안 돼요, 로그인 화면' })) as { hookSpecificOutput: { additionalContext: string } };
    expect(out.hookSpecificOutput.additionalContext).toMatch(/^lessons: this prompt reads as a correction of a repeated mistake \("또 안 돼"\)/);
    expect(out.hookSpecificOutput.additionalContext).not.toContain('existing lesson');
    expect(await hook(root, 'claude', 'UserPromptSubmit', { ...base(root, 'UserPromptSubmit'), prompt: 'Validate the form against the schema' })).toBe('');
  });
});

describe('SessionStart: validated critical lessons and the review backlog', () => {
  it('shows validated critical lessons too, and one line on the candidates waiting', async () => {
    const root = await hookRepo();
    writeFiles(root, {
      ...lessonFile({ id: 'case-2026-02-01-dropped-table', title: 'A migration dropped a table', severity: 'critical', status: 'validated' }, '## Situation\n\nData was lost.\n\n## Prevention Checklist\n\n- [ ] Migrations are reviewed for DROP.\n'),
      ...lessonFile({ id: 'case-2026-02-02-draft-one', title: 'Draft one', status: 'candidate' }),
      ...lessonFile({ id: 'case-2026-02-03-draft-two', title: 'Draft two', status: 'candidate', severity: 'critical' }),
      ...lessonFile({ id: 'case-2026-02-04-medium', title: 'A validated medium one', status: 'validated' }),
    });
    await writeIndex({ cwd: root });
    const out = JSON.parse(await hook(root, 'claude', 'SessionStart', { ...base(root, 'SessionStart'), source: 'startup' })) as { hookSpecificOutput: { additionalContext: string } };
    const text = out.hookSpecificOutput.additionalContext;
    const shown = text.split('\n').filter((line) => line.startsWith('- [')).map((line) => line.slice(0, line.indexOf(':')));
    expect(shown).toEqual(['- [critical] case-2026-02-01-dropped-table', `- [critical] ${FORCE_PUSH_ID}`, `- [high] ${SECRETS_ID}`]);
    expect(text.split('\n').at(-1)).toBe('2 candidate lessons wait for review: lessons list --status candidate');
    const cursor = JSON.parse(await hook(root, 'cursor', 'sessionStart', { conversation_id: 'c1', hook_event_name: 'sessionStart', workspace_roots: [root] })) as { additional_context: string };
    expect(cursor.additional_context).toBe(text);
  });
});

describe('project scoping in the hooks', () => {
  it('a tool call in one project shows no lesson scoped to another; outside every project all are shown', async () => {
    const root = await hookRepo();
    const file = path.join(root, 'policy/workflow-policy.json');
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), projects: { billing: ['services/billing/**'], web: ['apps/web/**'] } }));
    writeFiles(root, lessonFile({ id: 'case-2026-03-01-web-manifest', title: 'Web manifest drifted', severity: 'high', status: 'validated', project: 'web', triggers: { paths: ['**/package.json'] } }));
    await writeIndex({ cwd: root });
    const edit = (rel: string) => hook(root, 'claude', 'PreToolUse', { ...base(root, 'PreToolUse'), tool_name: 'Edit', tool_input: { file_path: path.join(root, rel) } });
    const billing = await edit('services/billing/package.json');
    expect(billing).toContain(MANIFEST_ID);
    expect(billing).not.toContain('case-2026-03-01-web-manifest');
    expect(await edit('apps/web/package.json')).toContain('case-2026-03-01-web-manifest');
    expect(await edit('package.json')).toContain('case-2026-03-01-web-manifest');
  });

  it('a malformed projects entry: the hooks use the default policy and say once which field is wrong', async () => {
    const root = await hookRepo();
    const file = path.join(root, 'policy/workflow-policy.json');
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), projects: { web: 'apps/web/**' } }));
    const input = { ...base(root, 'PreToolUse'), tool_name: 'Edit', tool_input: { file_path: path.join(root, 'apps/web/package.json') } };
    const first = JSON.parse(await hook(root, 'claude', 'PreToolUse', input)) as { systemMessage: string; hookSpecificOutput: { additionalContext: string } };
    expect(first.systemMessage).toBe('lessons: policy/workflow-policy.json is invalid at `projects.web`; the hooks use the default policy until it is fixed (`lessons doctor` says what is wrong)');
    expect(first.hookSpecificOutput.additionalContext).toContain(MANIFEST_ID);
    expect(JSON.parse(await hook(root, 'claude', 'PreToolUse', input)).systemMessage).toBeUndefined();
  });
});

/**
 * Waits until no process with `root` on its command line is left: the hook's detached capture
 * (`lessons -C <root> capture --from-error <log>`) may still be writing its caches after its
 * message. Reads /proc, so it waits on Linux only (elsewhere it returns at once).
 */
async function backgroundDone(root: string, ms = 20_000): Promise<void> {
  const running = (): boolean => {
    let pids: string[];
    try {
      pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
    } catch {
      return false;
    }
    return pids.some((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(root);
      } catch {
        return false;
      }
    });
  };
  await waitFor(() => (running() ? undefined : true), ms);
}

async function waitFor<T>(probe: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    let value: T | undefined;
    try {
      value = probe();
    } catch {
      value = undefined;
    }
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
