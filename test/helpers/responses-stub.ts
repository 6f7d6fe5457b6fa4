import http from 'node:http';

/** A request the stub model server received, body parsed. */
export interface StubRequest {
  method: string;
  url: string;
  body: Record<string, unknown>;
}

export interface StubServer {
  /** Base URL of the OpenAI-style API, ending in /v1. */
  baseUrl: string;
  requests: StubRequest[];
  close: () => Promise<void>;
}

export type StubReply = { kind: 'message'; text: string } | { kind: 'status'; status: number };

function sse(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/**
 * A model server on 127.0.0.1 that speaks just enough of the Responses API for a client to
 * finish one turn: POST /v1/responses answered with a server-sent event stream that creates
 * a response, completes one assistant message with `text`, and completes the response.
 */
export async function startResponsesStub(reply: (request: StubRequest) => StubReply): Promise<StubServer> {
  const requests: StubRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        // Not JSON: recorded as an empty body.
      }
      const request = { method: req.method ?? '', url: req.url ?? '', body };
      requests.push(request);
      if (req.method !== 'POST' || !req.url?.endsWith('/responses')) {
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
      res.write(
        sse('response.output_item.done', {
          item: { type: 'message', role: 'assistant', id: 'msg_stub', content: [{ type: 'output_text', text: answer.text }] },
        }),
      );
      res.write(
        sse('response.completed', {
          response: { id: 'resp_stub', usage: { input_tokens: 0, input_tokens_details: null, output_tokens: 0, output_tokens_details: null, total_tokens: 0 } },
        }),
      );
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${address.port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
