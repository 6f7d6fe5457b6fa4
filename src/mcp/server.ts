/**
 * `lessons mcp`: the lessons as a Model Context Protocol server over stdio, built with the
 * official TypeScript SDK (McpServer + StdioServerTransport). Tools: preflight, search, show and
 * capture. Read-only unless started with `--allow-write`: capture then writes candidates;
 * without it capture answers with a tool error (`isError: true`) that says how to enable it.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { askQuestions, recordAnswer } from '../ask/ask.js';
import { foundLines } from '../ask/search.js';
import { errorMessage, isLessonsError } from '../errors.js';
import { extractDrafts } from '../capture/blocks.js';
import { selectTiersForRequest } from '../preflight/preflight.js';
import { formatTiers } from '../agent/format.js';
// REPLACE at merge: storeDrafts from src/capture/store.ts.
import { storeDrafts } from '../capture/store.js';
import { redactedNote } from '../capture/redact.js';
import { findRepoRoot } from '../io/repo.js';
import { showLesson } from '../store/query.js';
import { acceptedLines } from './stdio-lines.js';

export interface McpOptions {
  cwd: string;
  allowWrite: boolean;
  now: () => Date;
  version: string;
}

type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean };

function text(value: string): ToolResult {
  return { content: [{ type: 'text', text: value }] };
}

function toolError(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Runs a tool body; a domain error becomes a tool error the model can read, never a crash. */
async function guarded(fn: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await fn();
  } catch (error) {
    return toolError(isLessonsError(error) ? error.message : `internal error: ${errorMessage(error)}`);
  }
}

export const RECORD_READ_ONLY = 'record_answer is disabled: this lessons MCP server is read-only. Start it with `lessons mcp --allow-write` to let agents record answers.';

export const CAPTURE_READ_ONLY = 'capture is disabled: this lessons MCP server is read-only. Start it with `lessons mcp --allow-write` to let agents write candidate lessons.';

export function createLessonsServer(options: McpOptions): McpServer {
  const root = findRepoRoot(options.cwd);
  const server = new McpServer({ name: 'lessons', version: options.version });

  server.registerTool(
    'preflight',
    {
      title: 'Lessons for a task',
      description: 'Select the lessons (with their Prevention Checklists) that apply to a task before starting it.',
      inputSchema: {
        task: z.string().min(1).describe('What is about to be done'),
        paths: z.array(z.string()).optional().describe('Files about to be touched, repo-relative'),
        tool: z.string().optional().describe('Tool about to be used (Bash, Edit, ...)'),
        command: z.string().optional().describe('Shell command about to run'),
        limit: z.number().int().min(1).max(20).optional().describe('How many lessons at most (default 5)'),
      },
      annotations: { readOnlyHint: true },
    },
    async (args) =>
      guarded(async () => {
        const { selected, related } = await selectTiersForRequest(root, { task: args.task, paths: args.paths, tool: args.tool, command: args.command, limit: args.limit });
        if (selected.length === 0 && related.length === 0) return text('No lesson matches this task.');
        return text(`${formatTiers('Lessons for this task; follow their checklists:', selected, related, { reasons: true })}\n\n${JSON.stringify({ task: args.task, selected, related }, null, 2)}`);
      }),
  );

  server.registerTool(
    'search',
    {
      title: 'Search lessons and references',
      description: 'Full-text search over the lessons and references/ (recorded answers included); returns the best sources with excerpts.',
      inputSchema: { query: z.string().min(1), limit: z.number().int().min(1).max(10).optional().describe('How many sources at most (default 5)') },
      annotations: { readOnlyHint: true },
    },
    async (args) =>
      guarded(async () => {
        const [answer] = (await askQuestions({ cwd: root, questions: [args.query], perQuestion: args.limit ?? 5, reviewer: false })).questions;
        if (!answer || !answer.found) return text(`Nothing found for "${args.query}" in lessons/ or references/.`);
        return text(foundLines(answer.sources).join('\n'));
      }),
  );

  server.registerTool(
    'show',
    {
      title: 'Show a lesson',
      description: 'The full text of one lesson, by id or by a prefix of it no other id starts with (a related entry\'s handle).',
      inputSchema: { id: z.string().min(1).describe('The lesson id, or its handle') },
      annotations: { readOnlyHint: true },
    },
    async (args) =>
      guarded(async () => {
        const result = await showLesson({ cwd: root, id: args.id });
        return text(`${result.entry.path}\n\n${result.text}`);
      }),
  );

  server.registerTool(
    'capture',
    {
      title: 'Capture lessons',
      description: 'Turn [LESSON] ... [/LESSON] and [PROCESS_KNOWLEDGE] ... [/PROCESS_KNOWLEDGE] blocks of a text into candidate lessons. Needs a server started with --allow-write.',
      inputSchema: { text: z.string().min(1).describe('Text holding one or more [LESSON] blocks: the first line of a block is its title, bullet lines its checklist') },
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    async (args) =>
      guarded(async () => {
        if (!options.allowWrite) return toolError(CAPTURE_READ_ONLY);
        const drafts = extractDrafts(args.text);
        if (drafts.length === 0) return toolError('no [LESSON] ... [/LESSON] or [PROCESS_KNOWLEDGE] ... [/PROCESS_KNOWLEDGE] block in the text: nothing captured');
        const outcomes = await storeDrafts({ cwd: root, drafts, now: options.now() });
        return text(outcomes.map((item) => `${item.action === 'created' ? `captured ${item.path}` : `already known: ${item.duplicateOf ?? item.id} (${item.path}); occurrences bumped`}${redactedNote(item.redacted)}`).join('\n'));
      }),
  );

  server.registerTool(
    'record_answer',
    {
      title: 'Record an answer',
      description:
        'Keep the answer a person gave to a question that `lessons ask` (or the search tool) could not answer, under references/answers/, so it is not asked twice. A newer answer to the same question supersedes the older one. Needs a server started with --allow-write.',
      inputSchema: {
        question: z.string().min(1).describe('The question that was asked'),
        answer: z.string().min(1).describe('The answer the person gave, standing on its own (at least 20 characters)'),
        provenance: z.string().optional().describe('Who answered and where (default: a person, through the MCP record_answer tool)'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    async (args) =>
      guarded(async () => {
        if (!options.allowWrite) return toolError(RECORD_READ_ONLY);
        const result = await recordAnswer({ cwd: root, question: args.question, answer: args.answer, provenance: args.provenance ?? 'a person, recorded through the MCP record_answer tool', now: options.now() });
        if (result.outcome === 'exists') return text(`already recorded in ${result.path}: nothing written`);
        return text(`recorded ${result.path}${result.superseded.length > 0 ? `; it supersedes ${result.superseded.join(', ')}` : ''}`);
      }),
  );

  return server;
}

/**
 * Serves over stdio until the client closes the connection. Lines the SDK's transport would drop
 * without a word (oversized, batches, not JSON) are answered with a JSON-RPC error first.
 */
export async function serveStdio(options: McpOptions): Promise<void> {
  const server = createLessonsServer(options);
  let transport: StdioServerTransport | undefined;
  const input = acceptedLines(process.stdin, ({ code, message, id }) => {
    // id null: the request's id could not be read (JSON-RPC 2.0, section 5).
    void transport?.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  });
  transport = new StdioServerTransport(input);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    input.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
