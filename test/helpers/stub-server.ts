import http from 'node:http';

/** A request a stub server received, its body parsed as JSON (empty when it is not JSON). */
export interface StubRequest {
  method: string;
  url: string;
  body: Record<string, unknown>;
}

export interface RecordingServer {
  port: number;
  /** Every request, in the order received. */
  requests: StubRequest[];
  close: () => Promise<void>;
}

/** An HTTP server on 127.0.0.1 that records every request and lets `answer` respond to it. */
export async function startRecordingServer(answer: (request: StubRequest, res: http.ServerResponse) => void): Promise<RecordingServer> {
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
      answer(request, res);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address() as { port: number };
  return { port: address.port, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
