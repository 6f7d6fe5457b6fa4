import { startRecordingServer, type StubRequest } from './stub-server.js';

export type { StubRequest } from './stub-server.js';

export interface StubServer {
  /** Base URL of the OpenAI-style API, ending in /v1. */
  baseUrl: string;
  requests: StubRequest[];
  close: () => Promise<void>;
}

export type StubReply =
  | { kind: 'message'; text: string }
  | { kind: 'status'; status: number }
  /** A tool call (Responses API `function_call` item): the client runs the tool and asks again with its output. */
  | { kind: 'function_call'; name: string; arguments: Record<string, unknown>; callId: string };

function sse(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/**
 * A model server on 127.0.0.1 that speaks just enough of the Responses API for a client to
 * finish one turn: POST /v1/responses answered with a server-sent event stream that creates
 * a response, completes one output item (an assistant message with `text`, or a function call),
 * and completes the response.
 */
export async function startResponsesStub(reply: (request: StubRequest) => StubReply): Promise<StubServer> {
  const server = await startRecordingServer((request, res) => {
    if (request.method !== 'POST' || !request.url.endsWith('/responses')) {
      res.writeHead(404).end();
      return;
    }
    const answer = reply(request);
    if (answer.kind === 'status') {
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'stub failure', type: 'server_error' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(sse('response.created', { response: { id: 'resp_stub' } }));
    const item =
      answer.kind === 'function_call'
        ? { type: 'function_call', name: answer.name, arguments: JSON.stringify(answer.arguments), call_id: answer.callId }
        : { type: 'message', role: 'assistant', id: 'msg_stub', content: [{ type: 'output_text', text: answer.text }] };
    res.write(sse('response.output_item.done', { item }));
    res.write(
      sse('response.completed', {
        response: { id: 'resp_stub', usage: { input_tokens: 0, input_tokens_details: null, output_tokens: 0, output_tokens_details: null, total_tokens: 0 } },
      }),
    );
    res.end();
  });
  return {
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    requests: server.requests,
    close: server.close,
  };
}
