/**
 * A Gemini API on 127.0.0.1 for the real Gemini CLI (GOOGLE_GEMINI_BASE_URL). The CLI posts to
 * `/v1beta/models/<model>:streamGenerateContent?alt=sse` (and `:generateContent`,
 * `:countTokens`); the stub answers `reply(request)` as one server-sent event holding a
 * GenerateContentResponse (ai.google.dev/api/generate-content), and logs every request.
 */
import { startRecordingServer, type StubRequest } from '../helpers/stub-server.js';

export type Part = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };

export interface GeminiStub {
  baseUrl: string;
  requests: StubRequest[];
  close: () => Promise<void>;
}

function response(parts: Part[]): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    modelVersion: 'gemini-2.5-flash',
  };
}

export async function startGeminiStub(reply: (request: StubRequest) => Part[]): Promise<GeminiStub> {
  const server = await startRecordingServer((request, res) => {
    const [pathname, query = ''] = request.url.split('?');
    if (request.method !== 'POST' || !pathname!.startsWith('/v1beta/models/')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 404, message: 'not in the stub', status: 'NOT_FOUND' } }));
      return;
    }
    if (pathname!.endsWith(':countTokens')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens: 1 }));
      return;
    }
    const body = response(reply(request));
    if (query.includes('alt=sse')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${JSON.stringify(body)}\n\n`);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  return { baseUrl: `http://127.0.0.1:${server.port}`, requests: server.requests, close: server.close };
}

/** The function responses a request carries (the results of the model's tool calls), by tool name, as JSON text. */
export function functionResponses(request: StubRequest): { name: string; text: string }[] {
  const found: { name: string; text: string }[] = [];
  for (const content of (request.body.contents as { parts?: Record<string, unknown>[] }[] | undefined) ?? []) {
    for (const part of content.parts ?? []) {
      const call = part.functionResponse as { name?: unknown; response?: unknown } | undefined;
      if (call) found.push({ name: String(call.name), text: JSON.stringify(call.response) });
    }
  }
  return found;
}

/** Every text part of the request's contents, newlines as they are. */
export function contentText(request: StubRequest): string {
  const texts: string[] = [];
  for (const content of (request.body.contents as { parts?: { text?: unknown }[] }[] | undefined) ?? []) {
    for (const part of content.parts ?? []) if (typeof part.text === 'string') texts.push(part.text);
  }
  return texts.join('\n');
}
