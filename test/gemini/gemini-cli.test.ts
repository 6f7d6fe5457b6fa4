/**
 * The real Gemini CLI (`gemini -p`, non-interactive) in a temp lessons repository with the hooks
 * that `lessons hooks install --gemini` writes, talking to a stub Gemini API on 127.0.0.1
 * (gemini-stub.ts). The stub plays the model: it bumps the version through the shell tool,
 * then ends with a `[LESSON]` block; every request is kept, so the tests see exactly what
 * reached the model.
 * Run with `npm run test:gemini` after `npm install --prefix <dir> @google/gemini-cli@0.61.0`
 * with LESSONS_GEMINI_BIN=<dir>/node_modules/.bin/gemini (or the CLI in node_modules/.bin).
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { NOT_FOUND_MESSAGE } from '../../src/harness/hook-command.js';
import type { StubRequest } from '../helpers/stub-server.js';
import { FORCE_PUSH_ID, MANIFEST_ID } from '../helpers/hook-repo.js';
import { expectOneCheckDraft } from '../helpers/red-green.js';
import { RELEASE_FINAL_TEXT, RELEASE_PROMPT, installedCli, packageVersion, releaseCandidates, releaseRepo } from '../helpers/agent-cli.js';
import { GIT_ENV, tempDir, writeFiles } from '../helpers/repo.js';
import { contentText, functionResponses, startGeminiStub, type GeminiStub, type Part } from './gemini-stub.js';

function geminiBinary(): string {
  return installedCli('LESSONS_GEMINI_BIN', 'gemini', 'run `npm install --prefix /tmp/gemini-cli @google/gemini-cli@0.61.0` and set LESSONS_GEMINI_BIN=/tmp/gemini-cli/node_modules/.bin/gemini');
}

const PROMPT = RELEASE_PROMPT;
const FINAL_TEXT = RELEASE_FINAL_TEXT;
const BUMP = 'npm version minor --no-git-tag-version';

const stubs: GeminiStub[] = [];
afterEach(async () => {
  while (stubs.length > 0) await stubs.pop()!.close();
});

/**
 * The model: bump the version with `npm version` through the shell tool (in non-interactive mode
 * the CLI denies `replace` and `write_file` on build files such as package.json), then, once its
 * result is back, the final answer.
 */
function model(): (request: StubRequest) => Part[] {
  return (request) => {
    if (functionResponses(request).length === 0) {
      return [{ functionCall: { name: 'run_shell_command', args: { command: BUMP, description: 'Bump the minor version' } } }];
    }
    return [{ text: FINAL_TEXT }];
  };
}

/**
 * The model's side of a red -> green session: run `node check.js` (it fails), write a fixed
 * check.js, run it again (it passes), then a final answer.
 */
function redGreenModel(root: string): (request: StubRequest) => Part[] {
  const check: Part = { functionCall: { name: 'run_shell_command', args: { command: 'node check.js', description: 'Run the check' } } };
  return (request) => {
    switch (functionResponses(request).length) {
      case 0:
        return [check];
      case 1:
        return [{ functionCall: { name: 'write_file', args: { file_path: path.join(root, 'check.js'), content: 'console.log("4");\n' } } }];
      case 2:
        return [check];
      default:
        return [{ text: 'The check passes now.' }];
    }
  };
}

/** A committed lessons repository with the Gemini hooks installed and `lessons` in node_modules/.bin (as a devDependency puts it). */
function repo(options: { install?: boolean } = {}): Promise<string> {
  return releaseRepo('gemini', options);
}

interface GeminiRun {
  /** The agent loop's requests (the ones that offer the shell tool). */
  requests: StubRequest[];
  output: Record<string, unknown>;
  exitCode: number;
  stderr: string;
}

async function gemini(root: string, env: Record<string, string> = {}, play: (request: StubRequest) => Part[] = model()): Promise<GeminiRun> {
  const stub = await startGeminiStub(play);
  stubs.push(stub);
  const home = tempDir('gemini-home-');
  // The auth type: with only GOOGLE_GEMINI_BASE_URL set the CLI picks "gateway", which
  // non-interactive mode refuses; the API key type sends to the base URL as well.
  writeFiles(home, { '.gemini/settings.json': JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }) });
  const result = await execa(geminiBinary(), ['-p', PROMPT, '-m', 'gemini-2.5-flash', '--approval-mode', 'yolo', '--output-format', 'json'], {
    cwd: root,
    reject: false,
    stdin: 'ignore',
    timeout: 90_000,
    extendEnv: false,
    env: {
      ...GIT_ENV,
      // No `lessons` on this PATH: the hooks find it in node_modules/.bin or not at all.
      PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      HOME: home,
      GEMINI_API_KEY: 'stub-key',
      GOOGLE_GEMINI_BASE_URL: stub.baseUrl,
      // Project hooks run only in a trusted folder; headless runs trust it this way.
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      NO_COLOR: '1',
      npm_config_update_notifier: 'false',
      ...env,
    },
  });
  const loop = stub.requests.filter((request) => JSON.stringify(request.body.tools ?? []).includes('"run_shell_command"'));
  const stdout = String(result.stdout);
  const output = stdout.trim().startsWith('{') ? (JSON.parse(stdout) as Record<string, unknown>) : {};
  return { requests: loop, output, exitCode: result.exitCode ?? -1, stderr: String(result.stderr) };
}

const version = packageVersion;
const candidates = releaseCandidates;

describe('Gemini CLI with the lessons hooks', () => {
  it('SessionStart and BeforeAgent context reach the model with the prompt, AfterTool context with the tool result, and AfterAgent writes the candidate', async () => {
    const root = await repo();
    const run = await gemini(root);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.output.response).toBe(FINAL_TEXT);
    expect(run.requests).toHaveLength(2);
    const first = contentText(run.requests[0]!);
    // SessionStart: the critical canonical lesson; BeforeAgent: the lesson for the task, each in a <hook_context> block.
    expect(first).toContain('<hook_context>Lessons from this repository (critical ones, validated or canonical, and canonical high-severity ones)');
    expect(first).toContain(`${FORCE_PUSH_ID}: Never force push the main branch`);
    expect(first).toContain('Protected branches refuse force pushes.');
    expect(first).toContain('<hook_context>Lessons relevant to this request (from `lessons`); follow their checklists:');
    expect(first).toContain(`${MANIFEST_ID}: Version bump missed the manifest`);
    // AfterTool: the lesson whose command trigger matches `npm version`, appended to the shell call's result.
    const [result] = functionResponses(run.requests[1]!);
    expect(result!.name).toBe('run_shell_command');
    expect(result!.text).toContain('Lessons that apply to this run_shell_command call');
    // The prompt's hook showed its checklist already: here it is one line.
    expect(result!.text).toContain(`${MANIFEST_ID}: Version bump missed the manifest (checklist shown earlier in this session)</hook_context>`);
    expect(version(root)).toBe('1.1.0');
    // AfterAgent: the [LESSON] block of the final answer is a candidate case.
    const [candidate] = candidates(root);
    expect(candidate).toBeDefined();
    const text = fs.readFileSync(path.join(root, 'lessons/cases', candidate!), 'utf8');
    expect(text).toContain('status: candidate');
    expect(text).toContain('- [ ] Every release note names the migrations it needs');
  });

  it('LESSONS_DISABLE=1: the session runs as if the hooks were not there', async () => {
    const root = await repo();
    const run = await gemini(root, { LESSONS_DISABLE: '1' });
    expect(run.exitCode, run.stderr).toBe(0);
    const sent = run.requests.map((request) => JSON.stringify(request.body.contents)).join('\n');
    // (The lesson files' names are in the CLI's own directory listing: the checklists are not.)
    expect(sent).not.toContain('hook_context');
    expect(sent).not.toContain('Every manifest carries the new version');
    expect(version(root)).toBe('1.1.0');
    expect(candidates(root)).toEqual([]);
  });

  it('binary not found: every hook fails with a warning, never a block, and the session goes on', async () => {
    const root = await repo({ install: false });
    const run = await gemini(root);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.output.response).toBe(FINAL_TEXT);
    expect(run.requests).toHaveLength(2);
    // The prompt reached the model (exit 1 is a warning; any other exit code would have discarded it).
    expect(contentText(run.requests[0]!)).toContain(PROMPT);
    expect(JSON.stringify(run.requests.map((request) => request.body.contents))).not.toContain('hook_context');
    expect(version(root)).toBe('1.1.0');
    expect(candidates(root)).toEqual([]);
    expect(run.stderr).toContain(NOT_FOUND_MESSAGE);
  });

  it('a truncated index: the hooks scan the lesson files, and the user is told once what to run', async () => {
    const root = await repo();
    const index = path.join(root, 'lessons/index.json');
    fs.writeFileSync(index, fs.readFileSync(index, 'utf8').slice(0, 200));
    const run = await gemini(root);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(contentText(run.requests[0]!)).toContain('Protected branches refuse force pushes.');
    expect(contentText(run.requests[0]!)).toContain('CI compares each manifest version with the tag.');
    expect(run.stderr).toContain('lessons/index.json is not valid JSON (truncated?); the hooks scan the lesson files instead: run `lessons index`');
    expect(candidates(root)).toHaveLength(1);
  });

  it('a shell command that fails, a write_file, the same command passing: AfterTool records it, AfterAgent drafts one case', async () => {
    const root = await repo();
    writeFiles(root, { 'check.js': 'console.error("Error: expected 4, got 3");\nprocess.exit(1);\n' });
    const before = fs.readdirSync(path.join(root, 'lessons/cases'));
    const run = await gemini(root, {}, redGreenModel(root));
    expect(run.exitCode, run.stderr).toBe(0);
    // The real shell tool failed first, then passed after the write.
    const results = functionResponses(run.requests[run.requests.length - 1]!);
    expect(results.map((result) => result.name)).toEqual(['run_shell_command', 'write_file', 'run_shell_command']);
    expect(results[0]!.text).toContain('Exit Code: 1');
    expect(results[2]!.text).not.toContain('Exit Code');
    const [state] = fs.readdirSync(path.join(root, '.lessons/sessions')).filter((name) => name.endsWith('.json'));
    expect(JSON.parse(fs.readFileSync(path.join(root, '.lessons/sessions', state!), 'utf8')).redgreen).toMatchObject({
      pair: { kind: 'node check.js', failed: { command: 'node check.js', exit: 1, lines: ['Error: expected 4, got 3'] }, passed: 'node check.js', files: ['check.js'] },
      drafted: true,
    });
    const drafted = expectOneCheckDraft(root, before);
    expect(drafted.text).toContain('Changed `check.js`; then `node check.js` passed.');
  });
});
