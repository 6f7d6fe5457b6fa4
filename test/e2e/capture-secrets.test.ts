/**
 * Capture writes nothing of a secret (issue #38.5): the CLI, the MCP server and the Claude Stop
 * hook redact with the secrets gate's rules before anything is written (lesson, file name,
 * index, session state), and say what was redacted. And a [PROCESS_KNOWLEDGE] block's `type:`
 * and `checklist:` (issue #37.13).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { committedLessonsRepo, fakeToken, runLessons } from '../helpers/guard.js';
import { BIN, runCli } from '../helpers/repo.js';

/** Every file under `dir` (names and contents), for "the token is nowhere on disk". */
function everything(dir: string): string {
  const parts: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    parts.push(file);
    if (entry.isFile() && !file.includes(`${path.sep}.git${path.sep}`) && !file.includes(`${path.sep}cache${path.sep}`)) parts.push(fs.readFileSync(file, 'latin1'));
  }
  return parts.join('\n');
}

const TOKEN = fakeToken('github');
const AWS = fakeToken('aws');
const block = (token: string) =>
  `[LESSON]\ntitle: Deploy with ${token} failed\nsummary: The key ${AWS} was pasted.\ntags: [deploy, ${token}]\ncommands: [curl -H "Authorization: token ${token}"]\n\nWe ran \`export GH_TOKEN=${token.replace('_', '\\_')}\`.\n\n## Prevention Checklist\n\n- [ ] Never paste ${Buffer.from(token).toString('base64')} anywhere.\n[/LESSON]`;

const clients: Client[] = [];
afterEach(async () => {
  while (clients.length > 0) await clients.pop()!.close();
});

describe('capture redacts secrets before writing', () => {
  it('CLI capture: no token in the lesson, its file name or the index; the output says what was redacted', async () => {
    const root = await committedLessonsRepo();
    const result = runLessons(['capture', '-'], { cwd: root, input: block(TOKEN) });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^created lessons\/cases\/case-\d{4}-\d\d-\d\d-deploy-with-redacted-github-token-failed\.md \(candidate, source: auto\); secrets redacted before writing \(github-token, aws-access-key-id\)/);
    const disk = everything(root);
    for (const secret of [TOKEN, AWS, TOKEN.toLowerCase(), TOKEN.replace('_', '\\_'), Buffer.from(TOKEN).toString('base64')]) expect(disk).not.toContain(secret);
    const lesson = fs.readFileSync(path.join(root, result.stdout.split(' ')[1]!), 'utf8');
    expect(lesson).toContain('[redacted github-token]');
    expect(lesson).toContain('[redacted aws-access-key-id]');
    // What capture wrote passes the secrets gate.
    runCli(['index'], { cwd: root });
    const guard = runLessons(['guard', '--stage', 'pre-commit', '--json'], { cwd: root, env: {} });
    expect((JSON.parse(guard.stdout) as { findings: { gate: string }[] }).findings.filter((finding) => finding.gate === 'secrets')).toEqual([]);
  });

  it('MCP capture: the same, and the answer says what was redacted', async () => {
    const root = await committedLessonsRepo();
    const client = new Client({ name: 'lessons-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '-C', root, '--allow-write'], stderr: 'pipe' }));
    clients.push(client);
    const answer = await client.callTool({ name: 'capture', arguments: { text: block(TOKEN) } });
    const text = (answer.content as { text: string }[]).map((part) => part.text).join('\n');
    expect(text).toMatch(/^captured lessons\/cases\/case-[\w-]+-redacted-github-token-failed\.md; secrets redacted before writing \(github-token, aws-access-key-id\)/);
    expect(everything(root)).not.toContain(TOKEN);
    expect(everything(root)).not.toContain(AWS);
  });

  it('Claude Stop hook: a [LESSON] block in the transcript, and a red -> green pair whose commands hold a token, leave no token on disk', async () => {
    const root = await committedLessonsRepo();
    const transcript = path.join(root, 't.jsonl');
    fs.writeFileSync(transcript, `${JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `Done.\n${block(TOKEN)}` }] } })}\n`);
    const common = { session_id: 'e2e-secret', transcript_path: transcript, cwd: root, permission_mode: 'acceptEdits' };
    const run = (event: string, input: Record<string, unknown>) => runCli(['hook', 'claude', event], { cwd: root, input: JSON.stringify({ ...common, hook_event_name: event, ...input }) });
    run('PostToolUseFailure', { tool_name: 'Bash', tool_input: { command: `GH_TOKEN=${TOKEN} npm test` }, tool_use_id: 't1', error: `Exit code 1\nError: bad credentials ${TOKEN}`, is_interrupt: false });
    run('PostToolUse', { tool_name: 'Bash', tool_input: { command: `GH_TOKEN=${TOKEN} npm test -- --retry` }, tool_response: { stdout: 'ok', stderr: '', interrupted: false }, tool_use_id: 't2' });
    const stop = run('Stop', { stop_hook_active: false });
    expect(stop.exitCode).toBe(0);
    const note = (JSON.parse(stop.stdout) as { systemMessage: string }).systemMessage;
    expect(note).toContain('secrets redacted before writing (github-token, aws-access-key-id)');
    // The pair's draft: both commands redacted (the passing one was kept verbatim in the session before).
    expect(note).toMatch(/`npm test` failed, then `GH_TOKEN=\[redacted github-token\] npm test -- --retry` passed: drafted lessons\/cases\//);
    fs.rmSync(transcript);
    const disk = everything(root);
    expect(disk).not.toContain(TOKEN);
    expect(disk).not.toContain(AWS);
    expect(fs.readdirSync(path.join(root, '.lessons/sessions')).length).toBeGreaterThan(0);
  });
});

describe('capture of a [PROCESS_KNOWLEDGE] block', () => {
  it('reads `type:` as the kind and `checklist:` items as the checklist, leaving neither line in the Situation', async () => {
    const root = await committedLessonsRepo();
    const input = '[PROCESS_KNOWLEDGE]\ntitle: Bump every manifest on release\ntype: checklist\npriority: high\nchecklist:\n  - Bump package.json\n  - Bump plugin.json\nThe release shipped with a stale plugin manifest.\n[/PROCESS_KNOWLEDGE]';
    const result = runLessons(['capture', '-'], { cwd: root, input });
    expect(result.exitCode).toBe(0);
    const lesson = fs.readFileSync(path.join(root, result.stdout.split(' ')[1]!), 'utf8');
    expect(lesson).toMatch(/^kind: checklist$/m);
    expect(lesson).toMatch(/^severity: high$/m);
    expect(lesson).not.toMatch(/^(type|checklist):/m);
    expect(lesson).toContain('## Situation\n\nThe release shipped with a stale plugin manifest.\n');
    expect(lesson).toContain('## Prevention Checklist\n\n- [ ] Bump package.json\n- [ ] Bump plugin.json\n');
  });
});
