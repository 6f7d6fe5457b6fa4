/**
 * The MCP server's stdin, line by line, before the SDK's StdioServerTransport sees it. The
 * transport closes the connection silently (and the server exits 0) on a message over its 10 MiB
 * buffer, and drops a JSON-RPC batch or a line that is not JSON without a reply. Here each of
 * those is answered with a JSON-RPC error (id null, as the JSON-RPC 2.0 spec says for a request
 * whose id cannot be read) and the connection goes on; a batch is rejected, as MCP (since the
 * 2025-06-18 revision) no longer supports batching.
 */
import { PassThrough, type Readable } from 'node:stream';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { JSONRPCMessageSchema, RequestIdSchema } from '@modelcontextprotocol/sdk/types.js';

export interface LineRejection {
  code: number;
  message: string;
  /** The request's id when it could be read, else null (JSON-RPC 2.0, section 5). */
  id: string | number | null;
}

/** JSON-RPC 2.0 error codes. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

/** The longest line passed on: with its newline it fits the transport's buffer. */
export const MAX_LINE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE - 1;

/** Why a complete line is not passed on, or undefined to pass it. */
export function judgeLine(line: string): LineRejection | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { code: PARSE_ERROR, message: 'Parse error: the line is not JSON; send one JSON-RPC message per line', id: null };
  }
  if (Array.isArray(value)) return { code: INVALID_REQUEST, message: 'Invalid Request: JSON-RPC batches are not supported by MCP; send each message on its own line', id: null };
  if (value === null || typeof value !== 'object') return { code: INVALID_REQUEST, message: 'Invalid Request: expected a JSON-RPC 2.0 object with "jsonrpc": "2.0"', id: null };
  if ((value as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
    return { code: INVALID_REQUEST, message: 'Invalid Request: expected a JSON-RPC 2.0 object with "jsonrpc": "2.0"', id: readableId(value as Record<string, unknown>) };
  }
  // The transport drops, without a reply, whatever its own schema refuses: an unknown top-level
  // field, a method that is not a string, an id that is not a string or an integer, params that are not an object.
  if (!JSONRPCMessageSchema.safeParse(value).success) return { code: INVALID_REQUEST, message: invalidShape(value as Record<string, unknown>), id: readableId(value as Record<string, unknown>) };
  return undefined;
}

const MESSAGE_FIELDS = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error']);

/** What is wrong with a JSON-RPC 2.0 object the SDK's schema refuses, as the error message says it. */
function invalidShape(message: Record<string, unknown>): string {
  const unknown = Object.keys(message).filter((key) => !MESSAGE_FIELDS.has(key));
  const problem =
    unknown.length > 0
      ? `unknown top-level field ${unknown.map((key) => JSON.stringify(key)).join(', ')}`
      : 'id' in message && !RequestIdSchema.safeParse(message.id).success
        ? '"id" must be a string or an integer'
        : 'method' in message && typeof message.method !== 'string'
          ? '"method" must be a string'
          : 'params' in message && (message.params === null || typeof message.params !== 'object' || Array.isArray(message.params))
            ? '"params" must be an object'
            : 'not a request, notification or response of MCP';
  return `Invalid Request: ${problem}`;
}

function readableId(message: Record<string, unknown>): string | number | null {
  const parsed = RequestIdSchema.safeParse(message.id);
  return parsed.success ? parsed.data : null;
}

/**
 * A stream of the acceptable lines of `input`, each ending in a newline; `reject` is called for
 * every other one. Never holds more than MAX_LINE_BYTES: the rest of an oversized line is skipped
 * as it arrives.
 */
export function acceptedLines(input: Readable, reject: (rejection: LineRejection) => void): Readable {
  const output = new PassThrough();
  let parts: Buffer[] = [];
  let size = 0;
  let skipping = false;
  const take = (line: Buffer): void => {
    const text = line.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    const rejection = judgeLine(text);
    if (rejection) reject(rejection);
    else output.write(`${text}\n`);
  };
  input.on('data', (chunk: Buffer) => {
    let rest = chunk;
    for (let newline = rest.indexOf(0x0a); ; newline = rest.indexOf(0x0a)) {
      const piece = newline < 0 ? rest : rest.subarray(0, newline);
      if (!skipping) {
        size += piece.length;
        if (size > MAX_LINE_BYTES) {
          skipping = true;
          parts = [];
          reject({ code: INVALID_REQUEST, message: `Invalid Request: the message is over ${MAX_LINE_BYTES + 1} bytes, the most this server reads; it was skipped`, id: null });
        } else parts.push(piece);
      }
      if (newline < 0) break;
      if (!skipping) take(Buffer.concat(parts));
      parts = [];
      size = 0;
      skipping = false;
      rest = rest.subarray(newline + 1);
    }
  });
  input.on('end', () => {
    if (!skipping && size > 0) take(Buffer.concat(parts));
    output.end();
  });
  input.on('error', (error) => output.destroy(error));
  return output;
}
