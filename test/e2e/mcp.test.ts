import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CAPTURE_READ_ONLY, RECORD_READ_ONLY } from '../../src/mcp/server.js';
import { FORCE_PUSH_ID, MANIFEST_ID, hookRepo } from '../helpers/hook-repo.js';
import { BIN, runCli, tempDir, writeFiles } from '../helpers/repo.js';

const clients: Client[] = [];

afterEach(async () => {
  while (clients.length > 0) await clients.pop()!.close();
});

async function connect(root: string, extra: string[] = []): Promise<Client> {
  const client = new Client({ name: 'lessons-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '-C', root, ...extra], stderr: 'pipe' }));
  clients.push(client);
  return client;
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as { type: string; text: string }[]).map((part) => part.text).join('\n');
}

const LESSON_BLOCK = '[LESSON]\nCache key ignored the lockfile\n- Key the CI cache on the lockfile hash\n[/LESSON]';

describe('lessons mcp (built binary, SDK client over stdio)', () => {
  it('lists preflight, search, show, capture and record_answer', async () => {
    const client = await connect(await hookRepo());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['capture', 'preflight', 'record_answer', 'search', 'show']);
    expect(tools.find((tool) => tool.name === 'preflight')!.inputSchema.required).toEqual(['task']);
  });

  it('preflight selects lessons for a task; show prints one; search finds references', async () => {
    const root = await hookRepo();
    writeFiles(root, { 'references/deploy.md': '# Deploy windows\n\nDeploys go out Tuesday to Thursday only.\n' });
    const client = await connect(root);
    const preflight = await client.callTool({ name: 'preflight', arguments: { task: 'force push the rewritten history', command: 'git push --force origin main' } });
    expect(preflight.isError).toBeFalsy();
    const body = textOf(preflight);
    expect(body.startsWith(`Lessons for this task; follow their checklists:\n- [critical] ${FORCE_PUSH_ID}: Never force push the main branch`)).toBe(true);
    expect(JSON.parse(body.slice(body.indexOf('\n\n{') + 2)).selected[0]).toMatchObject({ id: FORCE_PUSH_ID, level: 'pattern', checklist: ['Protected branches refuse force pushes.'] });
    const show = await client.callTool({ name: 'show', arguments: { id: MANIFEST_ID } });
    expect(textOf(show)).toBe(`lessons/cases/${MANIFEST_ID}.md\n\n${fs.readFileSync(path.join(root, `lessons/cases/${MANIFEST_ID}.md`), 'utf8')}`);
    const missing = await client.callTool({ name: 'show', arguments: { id: 'no-such-lesson' } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('no lesson with id `no-such-lesson`');
    const search = await client.callTool({ name: 'search', arguments: { query: 'when do deploys go out' } });
    expect(textOf(search)).toBe('1. references/deploy.md (Deploy windows)\n   Deploys go out Tuesday to Thursday only.');
  });

  it('refuses capture with a clear tool error unless started with --allow-write', async () => {
    const root = await hookRepo();
    const readOnly = await connect(root);
    const refused = await readOnly.callTool({ name: 'capture', arguments: { text: LESSON_BLOCK } });
    expect(refused).toMatchObject({ isError: true, content: [{ type: 'text', text: CAPTURE_READ_ONLY }] });
    expect(fs.readdirSync(path.join(root, 'lessons/cases'))).toEqual([`${MANIFEST_ID}.md`]);

    const writable = await connect(root, ['--allow-write']);
    const captured = await writable.callTool({ name: 'capture', arguments: { text: LESSON_BLOCK } });
    expect(captured.isError).toBeFalsy();
    expect(textOf(captured)).toMatch(/^captured lessons\/cases\/case-\d{4}-\d{2}-\d{2}-cache-key-ignored-the-lockfile\.md$/);
  });

  it('record_answer keeps a person\'s answer (write mode only), and search finds it next time', async () => {
    const root = await hookRepo();
    const args = { question: 'Which region does production run in?', answer: 'Production runs in eu-west-1 (Ireland), with backups in eu-central-1.' };
    const readOnly = await connect(root);
    expect(await readOnly.callTool({ name: 'record_answer', arguments: args })).toMatchObject({ isError: true, content: [{ type: 'text', text: RECORD_READ_ONLY }] });
    expect(fs.existsSync(path.join(root, 'references/answers'))).toBe(false);

    const writable = await connect(root, ['--allow-write']);
    const recorded = await writable.callTool({ name: 'record_answer', arguments: args });
    expect(textOf(recorded)).toBe('recorded references/answers/which-region-does-production-run-in.md');
    expect(fs.readFileSync(path.join(root, 'references/answers/which-region-does-production-run-in.md'), 'utf8')).toContain('Provenance: a person, recorded through the MCP record_answer tool\n');
    const search = await writable.callTool({ name: 'search', arguments: { query: 'which region is production in' } });
    expect(textOf(search)).toContain('references/answers/which-region-does-production-run-in.md');
  });

  it('outside a lessons repository it exits 2 with a message instead of serving', () => {
    const result = runCli(['mcp'], { cwd: tempDir() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('not a lessons repository');
    expect(result.stdout).toBe('');
  });
});
