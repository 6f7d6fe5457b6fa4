import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hookRepo } from '../helpers/hook-repo.js';
import { BIN, GIT_ENV } from '../helpers/repo.js';

/** Starts `lessons mcp`, writes `lines`, closes stdin; resolves with the JSON messages it answered and its exit code. */
function converse(root: string, lines: (string | Buffer)[]): Promise<{ messages: Record<string, unknown>[]; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'mcp', '-C', root], { env: { ...process.env, ...GIT_ENV, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ messages: stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line)), code, stderr }));
    const write = async () => {
      for (const line of lines) {
        if (!child.stdin.write(line)) await new Promise((done) => child.stdin.once('drain', done));
        if (!child.stdin.write('\n')) await new Promise((done) => child.stdin.once('drain', done));
        await new Promise((done) => setTimeout(done, 100));
      }
      await new Promise((done) => setTimeout(done, 500));
      child.stdin.end();
    };
    void write();
  });
}

const request = (id: number, method: string, params: object = {}) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const INITIALIZE = request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } });

describe('lessons mcp answers what the SDK transport would drop', () => {
  it('a message over 10 MiB, a batch and a line that is not JSON get JSON-RPC errors, and the session goes on', async () => {
    const root = await hookRepo();
    const huge = Buffer.alloc(10 * 1024 * 1024 + 10, 'a');
    const { messages, code } = await converse(root, [
      INITIALIZE,
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      huge,
      `[${request(2, 'tools/list')}]`,
      'not json',
      request(3, 'tools/list'),
    ]);
    expect(code).toBe(0);
    const errors = messages.filter((message) => 'error' in message);
    expect(errors).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('over 10485760 bytes') } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('batches are not supported') } },
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringContaining('not JSON') } },
    ]);
    const list = messages.find((message) => message.id === 3) as { result: { tools: { name: string }[] } };
    expect(list.result.tools.map((tool) => tool.name).sort()).toEqual(['capture', 'preflight', 'record_answer', 'search', 'show']);
  }, 60_000);
});

describe('lessons mcp answers every malformed request that carries an id (#38 point 10)', () => {
  it('an extra field, a method that is no string, a bad id, params that are no object: each gets -32600, with its id when readable', async () => {
    const root = await hookRepo();
    const malformed: [Record<string, unknown>, string | number | null, string][] = [
      [{ jsonrpc: '2.0', id: 10, method: 'tools/list', params: {}, extra: 1 }, 10, 'unknown top-level field "extra"'],
      [{ jsonrpc: '2.0', id: 11, method: 5 }, 11, '"method" must be a string'],
      [{ jsonrpc: '2.0', id: {}, method: 'tools/list' }, null, '"id" must be a string or an integer'],
      [{ jsonrpc: '2.0', id: 1.5, method: 'tools/list' }, null, '"id" must be a string or an integer'],
      [{ jsonrpc: '2.0', id: 'twelve', method: 'tools/list', params: 'x' }, 'twelve', '"params" must be an object'],
      [{ jsonrpc: '2.0', id: 13, method: 'tools/list', params: [1, 2] }, 13, '"params" must be an object'],
      [{ jsonrpc: '2.0', id: 14, method: null }, 14, '"method" must be a string'],
    ];
    const { messages, code } = await converse(root, [INITIALIZE, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), ...malformed.map(([message]) => JSON.stringify(message)), request(3, 'tools/list')]);
    expect(code).toBe(0);
    expect(messages.filter((message) => 'error' in message)).toEqual(
      malformed.map(([, id, problem]) => ({ jsonrpc: '2.0', id, error: { code: -32600, message: `Invalid Request: ${problem}` } })),
    );
    expect(messages.some((message) => message.id === 3 && 'result' in message)).toBe(true);
  }, 60_000);
});
