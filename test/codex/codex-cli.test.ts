/**
 * The real Codex CLI as the reviewer, and running the agent hooks `lessons hooks install --codex`
 * writes, talking to a stub model server on 127.0.0.1.
 * Run with `npm run test:codex` after `npm install --no-save @openai/codex` (or point
 * LESSONS_CODEX_BIN at a codex binary). Kept out of `npm test` because the CLI is a large
 * download; `.ci/run` installs it and runs these tests too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/policy/policy.js';
import { lessonFile } from '../helpers/lessons.js';
import { expectOneCheckDraft } from '../helpers/red-green.js';
import { installBinWrapper } from '../helpers/guard.js';
import { installedCli } from '../helpers/agent-cli.js';
import { hookRepo } from '../helpers/hook-repo.js';
import { BIN, GIT_ENV, PACKAGE_ROOT, git, initGitRepo, runCli, tempDir, tempLessonsRepo, writeFiles } from '../helpers/repo.js';
import { startResponsesStub, type StubReply, type StubRequest, type StubServer } from '../helpers/responses-stub.js';

function codexBinary(): string {
  return installedCli('LESSONS_CODEX_BIN', 'codex', 'run `npm install --no-save @openai/codex`');
}

const LESSON_ID = 'case-2026-05-12-version-bump';
const servers: StubServer[] = [];

afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});

/**
 * A CODEX_HOME whose config sends every request to the stub, with retries off; with `trusted`,
 * hooks are on and that project is trusted (Codex reads a project's .codex/ only then).
 */
function codexHome(baseUrl: string, trusted?: string): string {
  const home = tempDir('codex-home-');
  fs.writeFileSync(
    path.join(home, 'config.toml'),
    [
      'model = "stub-model"',
      'model_provider = "stub"',
      '',
      '[model_providers.stub]',
      'name = "stub"',
      `base_url = "${baseUrl}"`,
      'wire_api = "responses"',
      'env_key = "LESSONS_STUB_API_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
      ...(trusted ? ['[features]', 'hooks = true', '', `[projects.${JSON.stringify(trusted)}]`, 'trust_level = "trusted"', ''] : []),
    ].join('\n'),
  );
  return home;
}

/** A repo with an uncommitted version bump whose policy runs the real codex with the default argv. */
function repo(): string {
  const root = initGitRepo(
    tempLessonsRepo({
      ...lessonFile({ id: LESSON_ID, title: 'Version bump missed the marketplace manifest', severity: 'high', tags: ['release', 'versioning'] }),
      'package.json': '{\n  "version": "1.1.0"\n}\n',
    }),
  );
  const file = path.join(root, 'policy/workflow-policy.json');
  const policy = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>;
  const [, ...args] = DEFAULT_POLICY.review.command;
  policy.review = { ...policy.review, command: [codexBinary(), ...args], timeout_seconds: 60 };
  fs.writeFileSync(file, JSON.stringify(policy, null, 2));
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'initial');
  writeFiles(root, { 'package.json': '{\n  "version": "1.2.0",\n  "release": true\n}\n' });
  return root;
}

async function lessons(args: string[], stub: StubServer, input = ''): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const result = await execa(process.execPath, [BIN, ...args], {
    input,
    reject: false,
    env: { ...GIT_ENV, NO_COLOR: '1', GITHUB_ACTIONS: '', GITHUB_BASE_REF: '', CODEX_HOME: codexHome(stub.baseUrl), LESSONS_STUB_API_KEY: 'stub-key' },
  });
  return { stdout: String(result.stdout), stderr: String(result.stderr), exitCode: result.exitCode ?? -1 };
}

async function stub(reply: (request: StubRequest) => StubReply): Promise<StubServer> {
  const server = await startResponsesStub(reply);
  servers.push(server);
  return server;
}

const schemaFile = (name: string): unknown => JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'schemas', `${name}.schema.json`), 'utf8'));

function modelRequest(server: StubServer): StubRequest {
  const posts = server.requests.filter((request) => request.url.endsWith('/responses'));
  expect(posts.length).toBeGreaterThan(0);
  return posts[0]!;
}

describe('the real Codex CLI as the reviewer', () => {
  it('sends the prompt with the strict schema and its answer becomes the findings', async () => {
    const answer = {
      summary: 'Only one manifest was bumped.',
      findings: [{ severity: 'high', rule: LESSON_ID, message: 'Only package.json carries the new version.', file: 'package.json', line: 2, evidence: '+  "version": "1.2.0",', recommendation: 'Bump every manifest.' }],
    };
    const server = await stub(() => ({ kind: 'message', text: JSON.stringify(answer) }));
    const root = repo();
    const result = await lessons(['-C', root, 'review', '--json'], server);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const review = JSON.parse(result.stdout) as { findings: unknown[]; summary: string; lessons: string[] };
    expect(review.lessons).toEqual([LESSON_ID]);
    expect(review.summary).toBe('Only one manifest was bumped.');
    expect(review.findings).toEqual([{ ...answer.findings[0], origin: 'reviewer', blocking: false }]);

    const request = modelRequest(server);
    expect(request.body.model).toBe('stub-model');
    const format = (request.body.text as { format: Record<string, unknown> }).format;
    expect(format.type).toBe('json_schema');
    expect(format.strict).toBe(true);
    expect(format.schema).toEqual(schemaFile('semantic-review'));
    const sent = JSON.stringify(request.body.input);
    expect(sent).toContain('<<<LESSONS-DATA-0 diff: uncommitted (staged and unstaged)');
    expect(sent).toContain(LESSON_ID);
    // The reviewer changed nothing in the work tree.
    expect(git(root, 'status', '--porcelain')).toBe(' M package.json\n');
  });

  it('an answer that breaks the schema is reported, not believed', async () => {
    const server = await stub(() => ({ kind: 'message', text: JSON.stringify({ summary: 'ok', findings: [{ severity: 'urgent' }] }) }));
    const result = await lessons(['-C', repo(), 'review'], server);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('medium [reviewer-schema] the reviewer\'s answer does not match schemas/semantic-review.schema.json');
  });

  it('a model server that fails makes codex exit non-zero, reported as reviewer-failed', async () => {
    const server = await stub(() => ({ kind: 'status', status: 500 }));
    const result = await lessons(['-C', repo(), 'review'], server);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('medium [reviewer-failed] the reviewer exited with code 1: ');
  });

  it('capture --from-error sends the lesson-draft schema and writes the candidate', async () => {
    const draft = {
      title: 'Install peft before using LoRA adapters',
      lesson: 'Scripts that build LoRA adapters import peft, which the base image lacks.',
      trigger_conditions: 'When a script uses LoraConfig.',
      suggested_fix: 'Add peft to the requirements.',
      checklist: ['peft is in requirements.txt'],
      type: 'critical_error',
      severity: 'high',
      confidence: 0.9,
      tags: ['python'],
      keywords: ['peft'],
    };
    const server = await stub(() => ({ kind: 'message', text: JSON.stringify(draft) }));
    const root = repo();
    const result = await lessons(['-C', root, 'capture', '--from-error', '-'], server, "ModuleNotFoundError: No module named 'peft'\n");
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^created lessons\/cases\/case-\d{4}-\d\d-\d\d-install-peft-before-using-lora-adapters\.md/);
    const format = (modelRequest(server).body.text as { format: Record<string, unknown> }).format;
    expect(format.schema).toEqual(schemaFile('lesson-draft'));
    expect(JSON.stringify(modelRequest(server).body.input)).toContain("No module named 'peft'");
  });
});

describe('the real Codex CLI running the lessons hooks', () => {
  it('a shell command whose output has an error, then the same command passing: PostToolUse records it, Stop drafts one case', async () => {
    const root = initGitRepo(await hookRepo());
    writeFiles(root, { 'check.js': 'console.error("Error: expected 4, got 3");\nprocess.exit(1);\n', 'fixed.js': 'console.log("4");\n', '.gitignore': '.lessons/\nnode_modules/\n' });
    expect(runCli(['hooks', 'install', '--codex'], { cwd: root }).exitCode).toBe(0);
    installBinWrapper(root);
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'initial');
    const before = fs.readdirSync(path.join(root, 'lessons/cases'));
    const commands = ['node check.js', 'cp fixed.js check.js', 'node check.js'];
    let turn = 0;
    const server = await stub(() => {
      const command = commands[turn];
      turn++;
      return command ? { kind: 'function_call', name: 'exec_command', arguments: { cmd: command }, callId: `call_${turn}` } : { kind: 'message', text: 'The check passes now.' };
    });
    // Codex runs project hooks only once they are trusted; the flag trusts them for this run.
    const result = await execa(codexBinary(), ['exec', '--dangerously-bypass-hook-trust', '--skip-git-repo-check', '--sandbox', 'danger-full-access', 'Make the check pass'], {
      cwd: root,
      reject: false,
      stdin: 'ignore',
      timeout: 90_000,
      // A HOME of its own: with the machine's, Codex 0.169 ran the commands without firing PostToolUse.
      env: { ...GIT_ENV, PATH: '/usr/local/bin:/usr/bin:/bin', HOME: tempDir('codex-user-'), CODEX_HOME: codexHome(server.baseUrl, root), LESSONS_STUB_API_KEY: 'stub-key', NO_COLOR: '1' },
    });
    expect(result.exitCode, String(result.stderr)).toBe(0);
    expectOneCheckDraft(root, before);
  });
});
