import { startRecordingServer, type StubRequest } from './stub-server.js';

/** A request the stub Messages API received, body parsed. */
export type MessagesRequest = StubRequest;

export type ContentBlock = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface MessagesReply {
  content: ContentBlock[];
  stop_reason: 'end_turn' | 'tool_use';
}

export interface MessagesStub {
  /** Base URL for ANTHROPIC_BASE_URL (the client appends /v1/messages). */
  baseUrl: string;
  requests: MessagesRequest[];
  close: () => Promise<void>;
}

function sse(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/**
 * One reply as the Messages API streams it (platform.claude.com/docs/en/build-with-claude/streaming):
 * message_start, then per content block content_block_start / one delta (text_delta, or
 * input_json_delta carrying the tool input as a JSON string) / content_block_stop, then
 * message_delta with the stop reason, and message_stop.
 */
export function streamReply(reply: MessagesReply, model: string): string {
  const usage = { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  let text = sse('message_start', {
    message: { id: 'msg_stub', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage },
  });
  reply.content.forEach((block, index) => {
    if (block.type === 'text') {
      text += sse('content_block_start', { index, content_block: { type: 'text', text: '' } });
      text += sse('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      text += sse('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      text += sse('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    text += sse('content_block_stop', { index });
  });
  text += sse('message_delta', { delta: { stop_reason: reply.stop_reason, stop_sequence: null }, usage: { output_tokens: 1 } });
  text += sse('message_stop', {});
  return text;
}

/**
 * A Messages API on 127.0.0.1 that logs every request and answers POST /v1/messages with
 * `reply(request)`, streamed when the request asks for a stream and as one JSON message
 * otherwise. Any other path is a 404 (logged too).
 */
export async function startMessagesStub(reply: (request: MessagesRequest) => MessagesReply): Promise<MessagesStub> {
  const server = await startRecordingServer((request, res) => {
    const { body } = request;
    const pathname = request.url.split('?')[0];
    if (request.method !== 'POST' || pathname !== '/v1/messages') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not in the stub' } }));
      return;
    }
    const answer = reply(request);
    const model = typeof body.model === 'string' ? body.model : 'stub-model';
    if (body.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(streamReply(answer, model));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'msg_stub',
        type: 'message',
        role: 'assistant',
        model,
        content: answer.content,
        stop_reason: answer.stop_reason,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
    );
  });
  return {
    baseUrl: `http://127.0.0.1:${server.port}`,
    requests: server.requests,
    close: server.close,
  };
}
