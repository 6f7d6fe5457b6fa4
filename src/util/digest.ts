import { createHash } from 'node:crypto';

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Git's object id of a blob with these bytes (`git hash-object`), so a file and its staged copy share one identity. */
export function gitBlobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/**
 * Bytes given as pieces that follow each other, so that a large file made of parts of another is
 * never copied into one buffer: an array, or pieces read as they are taken (`byteLength` their
 * total), each valid only until the next is taken.
 */
export type Chunks = readonly Uint8Array[] | (Iterable<Uint8Array> & { readonly byteLength: number });

/** The number of bytes in chunks. */
export function chunksLength(chunks: Chunks): number {
  return 'byteLength' in chunks ? chunks.byteLength : chunks.reduce((sum, chunk) => sum + chunk.length, 0);
}

/** The bytes of chunks in one buffer (each piece copied as it is taken). */
export function joinChunks(chunks: Chunks): Buffer {
  const whole = Buffer.allocUnsafe(chunksLength(chunks));
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.length;
  }
  return whole;
}

/** gitBlobId() of text (UTF-8), bytes, or the bytes of chunks in order. */
export function blobIdOf(content: string | Uint8Array | Chunks): string {
  if (typeof content === 'string') return gitBlobId(Buffer.from(content));
  if (content instanceof Uint8Array) return gitBlobId(content);
  const hash = createHash('sha1').update(`blob ${chunksLength(content)}\0`);
  for (const chunk of content) hash.update(chunk);
  return hash.digest('hex');
}
