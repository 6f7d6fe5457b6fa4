import { createHash } from 'node:crypto';

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Git's object id of a blob with these bytes (`git hash-object`), so a file and its staged copy share one identity. */
export function gitBlobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** Bytes given as pieces that follow each other, so that a large file made of parts of another is never copied into one buffer. */
export type Chunks = readonly Uint8Array[];

/** gitBlobId() of text (UTF-8), bytes, or the bytes of chunks in order. */
export function blobIdOf(content: string | Uint8Array | Chunks): string {
  if (typeof content === 'string') return gitBlobId(Buffer.from(content));
  if (content instanceof Uint8Array) return gitBlobId(content);
  const hash = createHash('sha1').update(`blob ${content.reduce((sum, chunk) => sum + chunk.length, 0)}\0`);
  for (const chunk of content) hash.update(chunk);
  return hash.digest('hex');
}
