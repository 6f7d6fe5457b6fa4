/**
 * The real Claude Code CLI (`claude -p`) in a temp lessons repository with the hooks that
 * `lessons hooks install --claude` writes, talking to a stub Messages API on 127.0.0.1. The stub
 * plays the model: it reads package.json, edits it, and ends with a `[LESSON]` block (or runs a
 * failing command, fixes it and runs it again); every request it gets is kept, so the tests see
 * exactly what reached the model.
 * Run with `npm run test:claude` after `npm install --no-save @anthropic-ai/claude-code` (or
 * point LESSONS_CLAUDE_BIN at a claude binary); `.ci/run` does both.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { relatedHeading } from '../../src/agent/format.js';

/** This repository's package.json does not depend on lessons: the heading says `lessons show`. */
const RELATED_HEADING = relatedHeading();
import { NOT_FOUND_MESSAGE } from '../../src/harness/hook-command.js';
import { writeIndex } from '../../src/store/index-write.js';
import { FORCE_PUSH_ID, MANIFEST_ID, hookRepo } from '../helpers/hook-repo.js';
import { lessonFile } from '../helpers/lessons.js';
import { expectOneCheckDraft } from '../helpers/red-green.js';
import { startMessagesStub, type MessagesReply, type MessagesRequest, type MessagesStub } from '../helpers/messages-stub.js';
import { RELEASE_FINAL_TEXT, RELEASE_PROMPT, installedCli, packageVersion, releaseCandidates, releaseRepo } from '../helpers/agent-cli.js';
import { GIT_ENV, runCli, tempDir, writeFiles } from '../helpers/repo.js';

function claudeBinary(): string {
  return installedCli('LESSONS_CLAUDE_BIN', 'claude', 'run `npm install --no-save @anthropic-ai/claude-code`');
}

const PROMPT = RELEASE_PROMPT;
const FINAL_TEXT = RELEASE_FINAL_TEXT;

const stubs: MessagesStub[] = [];
afterEach(async () => {
  while (stubs.length > 0) await stubs.pop()!.close();
});

function toolResults(request: MessagesRequest): { id: string; isError: boolean }[] {
  const results: { id: string; isError: boolean }[] = [];
  for (const message of (request.body.messages as { content?: unknown }[] | undefined) ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Record<string, unknown>[]) {
      if (block.type === 'tool_result') results.push({ id: String(block.tool_use_id), isError: block.is_error === true });
    }
  }
  return results;
}

/**
 * The model's side of the task: Read package.json, then Edit it (again after a denied Edit),
 * then a final answer with a [LESSON] block. Requests without the Read tool (titles, summaries)
 * get a short text.
 */
function model(root: string): (request: MessagesRequest) => MessagesReply {
  const file = path.join(root, 'package.json');
  return (request) => {
    const tools = ((request.body.tools as { name?: string }[] | undefined) ?? []).map((tool) => tool.name);
    if (!tools.includes('Read')) return { content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' };
    const results = toolResults(request);
    const last = results[results.length - 1];
    const edits = results.filter((result) => result.id.startsWith('toolu_edit')).length;
    if (!last) return { content: [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: file } }], stop_reason: 'tool_use' };
    if (last.id === 'toolu_read' || (last.isError && edits < 3)) {
      return { content: [{ type: 'tool_use', id: `toolu_edit_${edits + 1}`, name: 'Edit', input: { file_path: file, old_string: '"1.0.0"', new_string: '"1.1.0"' } }], stop_reason: 'tool_use' };
    }
    return { content: [{ type: 'text', text: FINAL_TEXT }], stop_reason: 'end_turn' };
  };
}

/**
 * The model's side of a red -> green session: run `node check.js` (it fails), Write a fixed
 * check.js, run it again (it passes), then a final answer.
 */
function redGreenModel(root: string): (request: MessagesRequest) => MessagesReply {
  return (request) => {
    const tools = ((request.body.tools as { name?: string }[] | undefined) ?? []).map((tool) => tool.name);
    if (!tools.includes('Read')) return { content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' };
    const bash = (id: string) => ({ content: [{ type: 'tool_use' as const, id, name: 'Bash', input: { command: 'node check.js', description: 'Run the check' } }], stop_reason: 'tool_use' as const });
    switch (toolResults(request).length) {
      case 0:
        return bash('toolu_bash_1');
      case 1:
        return { content: [{ type: 'tool_use', id: 'toolu_write', name: 'Write', input: { file_path: path.join(root, 'check.js'), content: 'console.log("4");\n' } }], stop_reason: 'tool_use' };
      case 2:
        return bash('toolu_bash_2');
      default:
        return { content: [{ type: 'text', text: 'The check passes now.' }], stop_reason: 'end_turn' };
    }
  };
}

/** The text of the tool_result block answering tool call `id`, when the request carries one. */
function toolResultText(request: MessagesRequest, id: string): { text: string; isError: boolean } | undefined {
  for (const message of (request.body.messages as { content?: unknown }[] | undefined) ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Record<string, unknown>[]) {
      if (block.type !== 'tool_result' || block.tool_use_id !== id) continue;
      const content = block.content;
      const text = typeof content === 'string' ? content : Array.isArray(content) ? (content as { text?: unknown }[]).map((part) => (typeof part.text === 'string' ? part.text : '')).join('\n') : '';
      return { text, isError: block.is_error === true };
    }
  }
  return undefined;
}

/** Every text the request's messages carry (text blocks, string contents, tool results), newlines as they are. */
function messageText(request: MessagesRequest): string {
  const texts: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === 'object') {
      const block = value as Record<string, unknown>;
      if (typeof block.text === 'string') texts.push(block.text);
      collect(block.content);
    }
  };
  collect(request.body.messages);
  return texts.join('\n');
}

/** A lesson the prompt below only relates to: its title names "terraform" and "apply", the prompt says much more. */
const TF_LOCK_ID = 'case-2026-03-03-tf-lock';
const TF_LOCK_TITLE = 'Killed terraform apply left a lock';
const TF_LOCK_STORY = 'A CI job was cancelled mid-apply; the state lock stayed and blocked every plan.';
const TF_PROMPT = 'Run terraform apply for the staging stack after the nightly backup finishes';
/** The entry the UserPromptSubmit hook lists for TF_PROMPT under RELATED_HEADING (`id: title (why)`). */
const TF_RELATED_LINE = `- ${TF_LOCK_ID}: ${TF_LOCK_TITLE} (terraform, apply)`;
const SHOW_COMMAND = `lessons show ${TF_LOCK_ID}`;

/**
 * The model's side of opening a related lesson: when the related entry reached it, run
 * `lessons show <id>` through Bash; once that result is back, end the turn. Without the entry it
 * ends the turn at once.
 */
function showRelatedModel(): (request: MessagesRequest) => MessagesReply {
  return (request) => {
    const tools = ((request.body.tools as { name?: string }[] | undefined) ?? []).map((tool) => tool.name);
    if (!tools.includes('Read')) return { content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' };
    if (toolResults(request).length > 0) return { content: [{ type: 'text', text: 'Read the related lesson; the state lock is released after a cancelled apply.' }], stop_reason: 'end_turn' };
    if (!messageText(request).includes(`${RELATED_HEADING}\n${TF_RELATED_LINE}`)) return { content: [{ type: 'text', text: 'No related lesson reached me.' }], stop_reason: 'end_turn' };
    return { content: [{ type: 'tool_use', id: 'toolu_show', name: 'Bash', input: { command: SHOW_COMMAND, description: 'Open the related lesson' } }], stop_reason: 'tool_use' };
  };
}

/** A committed lessons repository with the Claude hooks installed and `lessons` in node_modules/.bin (as a devDependency puts it). */
function repo(options: { install?: boolean; root?: string } = {}): Promise<string> {
  return releaseRepo('claude', options);
}

interface ClaudeRun {
  requests: MessagesRequest[];
  /** Every request to the model with the Read tool (the agent loop), as text. */
  sent: string;
  events: Record<string, unknown>[];
  exitCode: number;
  stderr: string;
}

async function claude(root: string, env: Record<string, string> = {}, play: (root: string) => (request: MessagesRequest) => MessagesReply = model, extraArgs: string[] = [], prompt = PROMPT): Promise<ClaudeRun> {
  const stub = await startMessagesStub(play(root));
  stubs.push(stub);
  const result = await execa(claudeBinary(), ['-p', prompt, '--output-format', 'stream-json', '--verbose', '--permission-mode', 'acceptEdits', ...extraArgs], {
    cwd: root,
    reject: false,
    stdin: 'ignore',
    timeout: 90_000,
    extendEnv: false,
    env: {
      ...GIT_ENV,
      // No `lessons` on this PATH: the hooks find it in node_modules/.bin or not at all.
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: tempDir('claude-home-'),
      ANTHROPIC_BASE_URL: stub.baseUrl,
      ANTHROPIC_API_KEY: 'stub-key',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      NO_COLOR: '1',
      ...env,
    },
  });
  const events = String(result.stdout)
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const loop = stub.requests.filter((request) => JSON.stringify(request.body.tools ?? []).includes('"Read"'));
  return { requests: loop, sent: loop.map((request) => JSON.stringify(request.body.messages)).join('\n'), events, exitCode: result.exitCode ?? -1, stderr: String(result.stderr) };
}

function hookResponses(run: ClaudeRun, event: string): Record<string, unknown>[] {
  return run.events.filter((e) => e.subtype === 'hook_response' && e.hook_event === event);
}

const candidates = releaseCandidates;
const version = packageVersion;

describe('Claude Code with the lessons hooks', () => {
  it('SessionStart, UserPromptSubmit and PreToolUse context reach the model, and Stop writes the candidate', async () => {
    const root = await repo();
    const run = await claude(root);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.requests.length).toBeGreaterThanOrEqual(3);
    const [first] = run.requests;
    const firstText = JSON.stringify(first!.body.messages);
    // SessionStart: the critical canonical lesson; UserPromptSubmit: the lesson for the task.
    expect(firstText).toContain('Lessons from this repository (critical ones, validated or canonical, and canonical high-severity ones)');
    expect(firstText).toContain(FORCE_PUSH_ID);
    expect(firstText).toContain('Lessons relevant to this request');
    expect(firstText).toContain(MANIFEST_ID);
    // PreToolUse: the lesson whose path trigger matches package.json, for the Edit call.
    expect(run.sent).toContain('Lessons that apply to this Edit call');
    expect(run.sent).toContain('Every manifest carries the new version in the bump commit.');
    expect(version(root)).toBe('1.1.0');
    // Stop: the [LESSON] block of the final answer is a candidate case.
    const [candidate] = candidates(root);
    expect(candidate).toBeDefined();
    const text = fs.readFileSync(path.join(root, 'lessons/cases', candidate!), 'utf8');
    expect(text).toContain('status: candidate');
    expect(text).toContain('source: auto');
    expect(text).toContain('- [ ] Every release note names the migrations it needs');
    expect(hookResponses(run, 'SessionStart')[0]).toMatchObject({ exit_code: 0, outcome: 'success' });
  });

  it('LESSONS_DISABLE=1: the session runs as if the hooks were not there', async () => {
    const root = await repo();
    const run = await claude(root, { LESSONS_DISABLE: '1' });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.sent).not.toContain(FORCE_PUSH_ID);
    expect(run.sent).not.toContain(MANIFEST_ID);
    expect(version(root)).toBe('1.1.0');
    expect(candidates(root)).toEqual([]);
  });

  it('a malformed lesson: the other lessons still reach the model, and Stop tells the user why the block was not captured', async () => {
    const root = await repo();
    writeFiles(root, { 'lessons/cases/case-2026-02-02-broken.md': '---\nid: case-2026-02-02-broken\ntitle: [unclosed\n---\nbody\n' });
    const run = await claude(root);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.sent).toContain(FORCE_PUSH_ID);
    expect(run.sent).toContain('Lessons relevant to this request');
    expect(run.sent).toContain('Lessons that apply to this Edit call');
    expect(version(root)).toBe('1.1.0');
    // Claude Code shows a Stop hook's systemMessage to the user ("Stop says: ...").
    const shown = run.events.filter((e) => e.subtype === 'informational').map((e) => String(e.content)).join('\n');
    expect(shown).toContain('Stop says: lessons: the [LESSON] blocks were not captured');
    expect(shown).toContain('lessons/cases/case-2026-02-02-broken.md: malformed YAML');
    expect(shown).toContain('run `lessons lint` and fix them first');
    expect(candidates(root)).toEqual([]);
  });

  it('a truncated index: the hooks scan the lesson files, say so once, and Stop still writes the candidate', async () => {
    const root = await repo();
    const index = path.join(root, 'lessons/index.json');
    fs.writeFileSync(index, fs.readFileSync(index, 'utf8').slice(0, 200));
    const run = await claude(root);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.sent).toContain(FORCE_PUSH_ID);
    expect(run.sent).toContain('Lessons relevant to this request');
    expect(run.sent).toContain('Lessons that apply to this Edit call');
    const notice = 'lessons/index.json is not valid JSON (truncated?); the hooks scan the lesson files instead: run `lessons index`';
    expect(JSON.stringify(run.events)).toContain(notice);
    expect(candidates(root)).toHaveLength(1);
  });

  it('binary not found: every hook says so on stderr with a non-blocking exit, and the session goes on', async () => {
    const root = await repo({ install: false });
    const run = await claude(root);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(hookResponses(run, 'SessionStart')[0]).toMatchObject({ exit_code: 1, outcome: 'error', stderr: `${NOT_FOUND_MESSAGE}\n` });
    expect(run.sent).not.toContain(FORCE_PUSH_ID);
    expect(version(root)).toBe('1.1.0');
    expect(candidates(root)).toEqual([]);
  });

  it('hooks.critical_gate deny: the first Edit a critical lesson matches is denied with its checklist, the retry goes through', async () => {
    const base = await hookRepo();
    writeFiles(
      base,
      lessonFile(
        {
          id: 'pattern-lockstep-version-bump',
          level: 'pattern',
          title: 'Bump every manifest in lockstep',
          severity: 'critical',
          status: 'canonical',
          tags: ['release'],
          source_case_ids: [],
          triggers: { paths: ['**/package.json'] },
        },
        '## Situation\n\nManifests drifted.\n\n## Prevention Checklist\n\n- [ ] Bump the version from one input for every manifest.\n',
      ),
    );
    const policyFile = path.join(base, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(policyFile, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(policyFile, JSON.stringify({ ...policy, hooks: { critical_gate: 'deny' } }, null, 2));
    await writeIndex({ cwd: base });
    const root = await repo({ root: base });
    const run = await claude(root);
    expect(run.exitCode, run.stderr).toBe(0);
    const denied = run.requests.find((request) => toolResults(request).some((result) => result.id === 'toolu_edit_1'));
    expect(denied).toBeDefined();
    const deniedText = JSON.stringify(denied!.body.messages);
    expect(deniedText).toContain('Stopped once by `lessons` (policy hooks.critical_gate) before this Edit call');
    expect(deniedText).toContain('Bump the version from one input for every manifest.');
    expect(toolResults(denied!).find((result) => result.id === 'toolu_edit_1')?.isError).toBe(true);
    // The retry was allowed: the second Edit changed the file.
    expect(run.sent).toContain('toolu_edit_2');
    expect(run.sent).not.toContain('toolu_edit_3');
    expect(version(root)).toBe('1.1.0');
  });
  it('a Bash command that fails, a Write, the same command passing: PostToolUseFailure and PostToolUse record it, Stop drafts one case', async () => {
    const root = await repo();
    writeFiles(root, { 'check.js': 'console.error("Error: expected 4, got 3");\nprocess.exit(1);\n' });
    const before = fs.readdirSync(path.join(root, 'lessons/cases'));
    const run = await claude(root, {}, redGreenModel, ['--allowedTools', 'Bash(node check.js)']);
    expect(run.exitCode, run.stderr).toBe(0);
    // The real Bash tool failed first, then passed after the Write.
    const last = run.requests[run.requests.length - 1]!;
    expect(toolResults(last)).toEqual([
      { id: 'toolu_bash_1', isError: true },
      { id: 'toolu_write', isError: false },
      { id: 'toolu_bash_2', isError: false },
    ]);
    // The session's state holds the pair the hooks saw: the real failure's exit code and error line.
    const [state] = fs.readdirSync(path.join(root, '.lessons/sessions')).filter((name) => name.endsWith('.json'));
    expect(JSON.parse(fs.readFileSync(path.join(root, '.lessons/sessions', state!), 'utf8')).redgreen).toMatchObject({
      pair: { kind: 'node check.js', failed: { command: 'node check.js', exit: 1, lines: ['Error: expected 4, got 3'] }, passed: 'node check.js', files: ['check.js'] },
      drafted: true,
    });
    const drafted = expectOneCheckDraft(root, before);
    expect(drafted.text).toContain('Changed `check.js`; then `node check.js` passed.');
    const shown = run.events.filter((e) => e.subtype === 'informational').map((e) => String(e.content)).join('\n');
    expect(shown).toContain(`Stop says: lessons: \`node check.js\` failed, then \`node check.js\` passed: drafted lessons/cases/${drafted.file}`);
  });
  it('a correction in the prompt asks the model for a [LESSON] block naming the matching lesson; SessionStart counts the candidates waiting', async () => {
    const base = await hookRepo();
    writeFiles(base, lessonFile({ id: 'case-2026-02-02-waiting', title: 'A draft waiting for review', status: 'candidate' }));
    await writeIndex({ cwd: base });
    const root = await repo({ root: base });
    const run = await claude(root, {}, model, [], 'The version bump missed the manifest again: do the version bump in package.json');
    expect(run.exitCode, run.stderr).toBe(0);
    const firstText = JSON.stringify(run.requests[0]!.body.messages);
    expect(firstText).toContain('1 candidate lesson waits for review: lessons list --status candidate');
    expect(firstText).toContain('this prompt reads as a correction of a repeated mistake (\\"again\\")');
    expect(firstText).toContain(`It may be the existing lesson ${MANIFEST_ID}`);
  });
  it('a related lesson: its title line reaches the model under the related heading, and `lessons show <id>` through Bash returns the lesson', async () => {
    const base = await hookRepo();
    writeFiles(
      base,
      lessonFile(
        { id: TF_LOCK_ID, title: TF_LOCK_TITLE, tags: ['infra'] },
        `## Situation\n\n${TF_LOCK_STORY}\n\n## Prevention Checklist\n\n- [ ] Cancelled applies release the state lock.\n`,
      ),
    );
    await writeIndex({ cwd: base });
    const root = await repo({ root: base });
    // The fixture's premise: for this prompt the lesson is related, not applied.
    const tiers = JSON.parse(runCli(['-C', root, 'preflight', TF_PROMPT, '--json'], { cwd: root }).stdout) as { selected: { id: string }[]; related: { id: string }[] };
    expect(tiers.selected).toEqual([]);
    expect(tiers.related.map((lesson) => lesson.id)[0]).toBe(TF_LOCK_ID);
    // `lessons` on the PATH of the session (a global install), so the model's Bash call finds it.
    const run = await claude(root, { PATH: `${path.join(root, 'node_modules/.bin')}:/usr/local/bin:/usr/bin:/bin` }, showRelatedModel, ['--allowedTools', `Bash(${SHOW_COMMAND})`], TF_PROMPT);
    expect(run.exitCode, run.stderr).toBe(0);
    // UserPromptSubmit: the related entry, one line under its heading, no checklist, in the first request.
    const firstText = messageText(run.requests[0]!);
    expect(firstText).toContain(`${RELATED_HEADING}\n${TF_RELATED_LINE}`);
    expect(firstText).not.toContain('Lessons relevant to this request');
    expect(firstText).not.toContain('Cancelled applies release the state lock.');
    // The model's Bash call ran the real CLI: its result is the lesson as `lessons show` prints it.
    const answered = run.requests.find((request) => toolResultText(request, 'toolu_show') !== undefined);
    expect(answered, run.sent).toBeDefined();
    const shown = toolResultText(answered!, 'toolu_show')!;
    expect(shown.isError, shown.text).toBe(false);
    expect(shown.text).toContain(`lessons/cases/${TF_LOCK_ID}.md`);
    expect(shown.text).toContain(`id: ${TF_LOCK_ID}`);
    expect(shown.text).toContain(`title: ${TF_LOCK_TITLE}`);
    expect(shown.text).toContain(TF_LOCK_STORY);
    expect(shown.text).toContain('- [ ] Cancelled applies release the state lock.');
    // The turn ended after that one call.
    expect(toolResults(run.requests[run.requests.length - 1]!)).toEqual([{ id: 'toolu_show', isError: false }]);
  });
});
